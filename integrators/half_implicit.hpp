#pragma once
// Half-implicit index-3 integration (seed 003 §2.2): the symplectic Euler method on the DAE,
// explicit at the velocity level and implicit at the position level,
//     M q''_n + B_n^T lambda_n = Q_n,   v_{n+1} = v_n + h q''_n,
//     q_{n+1} = q_n (+) h v_{n+1} (the Lie-group update of eq. 4d),   Phi(q_{n+1}, t_{n+1}) = 0,
// solved for (q''_n, lambda_n) with the symmetric quasi-Newton matrix [M, B_n^T; B_n, 0] of
// eq. 12 built once per step. The point t_{n+1} carries the reactions and accelerations of t_n.
#include "integrators/central_differences.hpp"

namespace mbl::integrators {

struct HalfImplicitState {
  Vector v, a, lambda;  ///< at the current time t_n (a, lambda: those solved at t_{n-1})
};

/// One step from the problem's base q_n: on success the base is q_{n+1} and `s` holds v_{n+1},
/// q''_n, lambda_n.
StepResult half_implicit_step(SecondOrderProblem& p, double t_n, double h, HalfImplicitState& s,
                              const NewtonOptions& opt);

/// `method: half implicit;`.
class HalfImplicitIntegrator : public SecondOrderIntegratorWithState<HalfImplicitState> {
 public:
  HalfImplicitIntegrator() : SecondOrderIntegratorWithState("half implicit", 1) {}
  /// Symplectic Euler is first order: its local error, and Milne's estimate of it, is O(h^2).
  int error_estimate_order() const override { return 1; }

 protected:
  StepResult second_order_step(Problem& problem, SecondOrderProblem& p, double t, double dt,
                               const Vector& v, const Vector& lambda, const NewtonOptions& opt,
                               Point& out) override;

 private:
};

}  // namespace mbl::integrators

#pragma once
// The conditionally explicit central differences of seed 002: the reformulated central
// differences (eqs. 9, 12), the third-degree (alpha, beta: eqs. 15-16), fourth-degree
// (alpha, beta, gamma: eqs. 40-43) and fifth-degree (alpha, beta, gamma, zeta: eqs. 69-73)
// methods, in the DAE form of §8 (eqs. 84-90): at each time t the highest derivative z of the
// degree is the unknown, the lower derivatives at t and the position at t + h are affine in z,
// and Newton solves the equilibrium at t together with the constraints at t + h,
//     M(q_t) q''(t) = Q(q_t, q'(t), t) - Phi_q(q_t)^T lambda(t),   Phi(q_{t+h}) = 0.
// The solve is linear (one iteration) when Q does not depend on the velocities and there are
// no constraints: the method is then explicit. Positions move on the problem's Lie group
// (q_{t+h} = q_t (+) dq). Each step first checks omega_max h against the stability limit of the
// parameters (found by bisection on the spectral radius of the method's own amplification).
#include <array>
#include <vector>

#include "integrators/generalized_alpha.hpp"
#include "integrators/second_order_problem.hpp"

namespace mbl::integrators {

struct CentralDifferencesParameters {
  int degree = 3;                       ///< 3, 4 or 5
  double alpha = 1, beta = 0.5, gamma = 0.5, zeta = 1;
};

/// One point solve of the DAE form (seed 002 eqs. 84-90; seed 003 eq. 5): the unknown z and
/// the maps z -> q'(t) = v + cv z, q''(t) = a + ca z, q_{t+h} = q_t (+) (dq + cdq z).
struct PointMaps {
  Vector v, a, dq;                 ///< values at z = 0
  double cv = 0, ca = 1, cdq = 0;  ///< coefficients of z
};
/// Newton: the full matrix [M + (cv/ca) C, B_t^T; B_{t+h}, 0] rebuilt at each iteration, or the
/// symmetric quasi-Newton matrix [M, B_t^T; B_t, 0] built once (seed 003 eq. 12).
enum class PointMatrix { Newton, Frozen };
/// Solves M(q_t) q''(t) = Q(q_t, q'(t), t) - B_t^T lambda, Phi(q_{t+h}, t + h) = 0 for z and
/// lambda (the constraint rows scaled by ca/cdq so that both blocks are O(1)). The problem's
/// configuration is left at the base q_t.
StepResult solve_point(SecondOrderProblem& p, double t, double h, const PointMaps& f,
                       Vector& lambda, const NewtonOptions& opt, Vector& z, PointMatrix kind);

/// What the method carries: the derivatives at the current time t (d[0] = q', d[1] = q'',
/// d[2] = q''', d[3] = q''''), lambda(t), and dq_next = q_{t+h} relative to q_t.
struct CentralDifferencesState {
  std::array<Vector, 4> d;
  Vector lambda, dq_next;
  // Error control (a variable step, docs/adaptive.md): what re-solving the point t for another
  // next step needs: the derivatives of the point before (d_prev; none for the start point),
  // the step into t (h_in) and the step dq_next was solved for (h_out).
  std::array<Vector, 4> d_prev;
  double h_in = 0, h_out = 0;
  bool at_start = false;
  /// Error control: omega_max at this point, measured when the step that reached it was accepted
  /// (the next step's bound; < 0: not measured).
  double omega = -1.0;
};

class CentralDifferences {
 public:
  explicit CentralDifferences(CentralDifferencesParameters p);
  const CentralDifferencesParameters& parameters() const { return p_; }
  /// Largest Omega = omega h with spectral radius <= 1 (0 if none), by bisection (seed 002
  /// Table 3).
  double stability_limit() const { return limit_; }
  /// What a step may reach: stability_limit(), or for weakly unstable parameters (no stable
  /// step, spectral radius -> 1 as Omega -> 0) the largest Omega with a radius <= 1 + kWeakGrowth.
  double step_limit() const { return step_limit_; }
  static constexpr double kWeakGrowth = 1e-3;
  /// Spectral radius of one step of q'' = -q with h = Omega (eqs. 37, 67, 74).
  double spectral_radius(double Omega) const;

  /// At t0 with (q_0, q'_0) in the problem and s.d[0]: accelerations (and for degrees 4, 5 the
  /// higher derivatives along the motion) and lambda_0, then q_1 (a Taylor step that meets the
  /// constraints at t0 + h).
  StepResult start(SecondOrderProblem& p, double t0, double h, CentralDifferencesState& s,
                   const NewtonOptions& opt);
  /// Moves the problem's base to q_{t} = q_{t-h} (+) dq_next and solves the point t (a
  /// variable_step: with the step the point before was solved for, the fixed-step step).
  StepResult step(SecondOrderProblem& p, double t, double h, CentralDifferencesState& s,
                  const NewtonOptions& opt);
  /// A variable step (error control, docs/adaptive.md) from the problem's base t - h: the point
  /// t - h is solved again for the next step h if s.dq_next was solved for another (and
  /// `resolve_changed_step`), then the base moves to q_t and the point t is solved with a next
  /// step guessed equal to h (solved again by the next call if it is not). On failure s and the
  /// base are unchanged.
  StepResult variable_step(SecondOrderProblem& p, double t, double h, CentralDifferencesState& s,
                           const NewtonOptions& opt, bool resolve_changed_step = true);
  /// Error control: C of the position error a step adds, C h^3 |x'''| (degree 3 with beta = 1/2,
  /// from its two-step truncation error, docs/adaptive.md); NaN for the other parameters (not
  /// derived).
  double error_constant() const;
  /// omega_max of the linearised problem at the current point (M, K projected on the
  /// constraints' null space).
  static double highest_frequency(SecondOrderProblem& p, double t, const CentralDifferencesState& s);

 private:
  /// The maps of the degree at step h from the previous derivatives.
  PointMaps affine(const std::array<Vector, 4>& prev, double h) const { return affine(prev, h, h); }
  /// The same with the step into the point (h_in: its derivatives from the previous ones) and
  /// the step out of it (h_out: the position q_{t + h_out}) apart.
  PointMaps affine(const std::array<Vector, 4>& prev, double h_in, double h_out) const;
  /// The maps of the start point (q' given, Taylor terms of the derivatives along the motion).
  static PointMaps start_maps(const std::array<Vector, 4>& d, double h);
  /// Solves the point of the problem's base for the next step h_out (s: the point as solved
  /// before, with d_prev, h_in, at_start); the base stays.
  StepResult resolve(SecondOrderProblem& p, double t, double h_out, CentralDifferencesState& s,
                     const NewtonOptions& opt) const;

  CentralDifferencesParameters p_;
  double limit_ = 0, step_limit_ = 0;
};

/// The parameters of `method: central differences, ...` (those not given keep their defaults).
CentralDifferencesParameters central_differences_parameters(const MethodSpec& spec);

/// `method: central differences, degree, 3|4|5, <alpha>, <beta> [, <gamma> [, <zeta>]];`.
class CentralDifferencesIntegrator : public SecondOrderIntegratorWithState<CentralDifferencesState> {
 public:
  explicit CentralDifferencesIntegrator(CentralDifferencesParameters p)
      : SecondOrderIntegratorWithState("central differences", 1), method_(p) {}

 protected:
  StepResult second_order_step(Problem& problem, SecondOrderProblem& p, double t, double dt,
                               const Vector& v, const Vector& lambda, const NewtonOptions& opt,
                               Point& out) override;
  /// Degree 3, beta = 1/2: second order, an O(h^3) estimate (docs/adaptive.md).
  int error_estimate_order() const override { return 2; }
  /// From the values of the new point and `degree` past ones (docs/adaptive.md).
  bool family_error_estimate(Problem& problem, const Point& out, double dt) override;
  int error_history_points() const override { return method_.parameters().degree; }

 private:
  CentralDifferences method_;
  /// The step just solved takes the accelerations' estimate (a stiffness jump within it).
  bool accelerations_estimate_ = false;
};

}  // namespace mbl::integrators

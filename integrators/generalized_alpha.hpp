#pragma once
// Generalized-alpha on the second-order form (seed 004, the Arnold-Brüls form of the Dymore
// manual): algorithmic accelerations a (eq. 3), predictor eqs. 14/30, Newton on the increments
// of the accelerations with the corrector eqs. 28/33, constraints scaled by s = (m_r + d_r h +
// k_r h^2)/h^2 and multipliers by c8 s (eqs. 21-25), iteration matrix of eq. 27. The
// configuration moves on the Lie group of the problem (seed 004 eq. 31: q_f = q_i (+) dq).
#include <Eigen/Core>

#include "integrators/integrator.hpp"
#include "integrators/second_order_problem.hpp"

namespace mbl::integrators {

/// Seed 004 eqs. 5-6 (alpha_m, alpha_f, gamma, beta from rho_inf) and 9, 11, 13 (c1..c9).
struct GeneralizedAlphaCoefficients {
  double alpha_m = 0, alpha_f = 0, gamma = 0, beta = 0;
  double c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0, c6 = 0, c7 = 0, c8 = 0, c9 = 0;
};
GeneralizedAlphaCoefficients generalized_alpha_coefficients(double rho_inf, double h);

/// What a second-order method carries from step to step (the configuration stays in the
/// problem): velocities, accelerations q'', algorithmic accelerations a, multipliers.
struct SecondOrderState {
  Vector v, qdd, a, lambda;
};

/// Accelerations and multipliers consistent with (q, v) at t (the index-1 system
/// [M B^T; B 0] [q''; lambda] = [Q; -Phi''(v, v)]): Phi'' of the exponential curve
/// q (+) e v at t + e is taken by a central second difference. The configuration is left at
/// dq = 0. Returns false (and leaves q'' = 0) when the system is singular.
bool consistent_accelerations(SecondOrderProblem& p, double t, const Vector& v, Vector& qdd,
                              Vector& lambda);

class GeneralizedAlpha {
 public:
  /// `scale_constraints` false leaves s = 1 (the unscaled eq. 20, for comparison in tests).
  explicit GeneralizedAlpha(bool scale_constraints = true) : scale_(scale_constraints) {}

  /// One step from the problem's base configuration and `s` (at t_f - h) to t_f. On success
  /// `s` and the base configuration hold the new point; on failure both are unchanged.
  StepResult step(SecondOrderProblem& p, double rho_inf, double t_f, double h,
                  SecondOrderState& s, const NewtonOptions& opt);

  /// The iteration matrix of the last Newton iteration (eq. 27) and its scale factor s (eq. 22).
  const Matrix& iteration_matrix() const { return S_; }
  double constraint_scale() const { return s_; }

 private:
  bool scale_;
  double s_ = 1.0;
  Matrix S_, T_, B_;
};

/// Base of the integrators that run a Problem through its second-order form: the converged
/// step points stay first-order (history, output), each step goes through the form.
class SecondOrderIntegrator : public ImplicitStepIntegrator {
 protected:
  using ImplicitStepIntegrator::ImplicitStepIntegrator;
  /// Finds the second-order form, loads the last converged point as its base and calls
  /// second_order_step() with its velocities v and multipliers lambda.
  StepResult step(Problem& problem, double t, double dt, NewtonSolver& newton,
                  Point& out) final;
  void on_start(const Point&) override { started_ = false; }
  /// The family's step from the base point (time t - dt) to t; on success it calls finish().
  virtual StepResult second_order_step(Problem& problem, SecondOrderProblem& p, double t,
                                       double dt, const Vector& v, const Vector& lambda,
                                       const NewtonOptions& opt, Point& out) = 0;
  /// The new point (at the form's current configuration) as the canonical first-order `out`.
  void finish(Problem& problem, SecondOrderProblem& p, double t, const Vector& v, const Vector& a,
              const Vector& lambda, Point& out);
  bool started_ = false;  ///< false until the first step after start()
};

/// A second-order family whose memory between steps is one `State` (and started_): a rejected or
/// retried step puts both back as they were before it (docs/adaptive.md).
template <class State>
class SecondOrderIntegratorWithState : public SecondOrderIntegrator {
 protected:
  using SecondOrderIntegrator::SecondOrderIntegrator;
  void save_family_state() override {
    saved_state_ = state_;
    saved_started_ = started_;
  }
  void restore_family_state() override {
    state_ = saved_state_;
    started_ = saved_started_;
  }
  State state_;

 private:
  State saved_state_;
  bool saved_started_ = false;
};

/// `method: generalized alpha, <rho_inf>;` on a Problem that has a second-order form.
class GeneralizedAlphaIntegrator : public SecondOrderIntegratorWithState<SecondOrderState> {
 public:
  explicit GeneralizedAlphaIntegrator(RhoFunction rho)
      : SecondOrderIntegratorWithState("generalized alpha", 1), rho_(std::move(rho)) {}

 protected:
  StepResult second_order_step(Problem& problem, SecondOrderProblem& p, double t, double dt,
                               const Vector& v, const Vector& lambda, const NewtonOptions& opt,
                               Point& out) override;

 private:
  RhoFunction rho_;
  GeneralizedAlpha method_;
};

}  // namespace mbl::integrators

#pragma once
// What the second-order integrators (the seed methods beyond MBDyn: generalized-alpha, seed 004)
// see of a model: the equations of motion in second-order form (seed 004 eqs. 16-20)
//     M(q) q'' = Q(q, q', t) - Phi_q^T lambda,      Phi(q, t) = 0,
// over a configuration q that lives on a Lie group (per node: a position in R^3 and an
// orientation in SO(3)) with velocities v = (x', omega) in its algebra, omega in the global
// frame. The problem keeps the configuration: a base point q_b (the last converged one) and the
// current q = q_b (+) dq, where (+) adds positions and rotates orientations by the exponential
// map, R = exp(dtheta) R_b (seed 003 §2). Integrators never know element types.
#include <Eigen/Core>
#include <stdexcept>

#include "integrators/problem.hpp"

namespace mbl::integrators {

using Matrix = Eigen::MatrixXd;

class SecondOrderProblem {
 public:
  virtual ~SecondOrderProblem() = default;

  /// Dimension of v (6 per structural node).
  virtual int velocity_size() const = 0;
  /// Number of holonomic constraints (= multipliers).
  virtual int constraint_size() const = 0;

  /// q = q_b (+) dq (see the header comment); set_configuration(0) after a failed step puts the
  /// problem back at its base point.
  virtual void set_configuration(const Vector& dq) = 0;
  /// The current configuration becomes the base point (dq = 0).
  virtual void commit_configuration() = 0;

  /// At the current configuration: r = Q(q, v, t) - M(q) a - Phi_q^T lambda and Phi(q, t).
  virtual void evaluate(double t, const Vector& v, const Vector& a, const Vector& lambda,
                        Vector& r, Vector& phi) = 0;
  /// Phi(q, t) alone (the phi of evaluate(), which a problem may give more cheaply).
  virtual void constraint_values(double t, const Vector& v, const Vector& lambda, Vector& phi) {
    Vector r;
    evaluate(t, v, Vector::Zero(velocity_size()), lambda, r, phi);
  }
  /// M(q) at the current configuration.
  virtual void mass(Matrix& M) = 0;
  /// Phi_q at the current configuration: B dq is the first-order change of Phi for q (+) dq.
  virtual void constraint_jacobian(double t, Matrix& B) = 0;

  /// T = -(c_a dr/da + c_v dr/dv + c_q dr/ddq) at (v, a, lambda) and the current dq, the
  /// dynamic block of an iteration matrix. Default: c_a M when c_v = c_q = 0, otherwise forward
  /// differences of evaluate() (exact enough for Newton; a problem may override it with its own
  /// derivatives). Leaves the configuration at `dq`.
  virtual void dynamics_matrix(double t, const Vector& dq, const Vector& v, const Vector& a,
                               const Vector& lambda, double c_a, double c_v, double c_q,
                               Matrix& T);

  // ---- the bridge to the first-order state of integrators::Problem (history, output) ----------
  /// The canonical converged point (y, y') of the first-order problem: its configuration becomes
  /// the base point; returns its velocities and multipliers.
  virtual void from_first_order(const Vector& y, const Vector& yp, Vector& v, Vector& lambda) = 0;
  /// The current configuration with (v, a, lambda) as a canonical first-order point (y, y').
  virtual void to_first_order(double t, const Vector& v, const Vector& a, const Vector& lambda,
                              Vector& y, Vector& yp) = 0;
  /// A small configuration increment dq as the increment of the first-order unknowns (positions,
  /// orientation parameters; to first order) added into dy (of the first-order problem's size):
  /// how the error estimates of the second-order methods are measured (docs/adaptive.md).
  virtual void increment_to_first_order(const Vector& /*dq*/, Vector& /*dy*/) const {
    throw std::logic_error("this second-order problem cannot express an increment in first-order unknowns");
  }
};

}  // namespace mbl::integrators

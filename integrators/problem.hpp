#pragma once
// What an integrator sees of a model: a residual and a Jacobian callback over a flat state
// (y, y'), plus the hooks that let the model treat rotations as MBDyn does (incremental
// Cayley-Gibbs-Rodrigues parameters relative to the last converged point; seed 000 §3.1-3.2).
// Integrators never know element or node types.
//
// Sign convention (MBDyn's, technical manual ch. 5): the problem is f(y, y', t) = 0 and the
// model assembles the residual r = -f. The Jacobian it assembles is
//     J = df/dy' + dCoef * df/dy      (= -(dr/dy' + dCoef dr/dy))
// and Newton solves J * delta = r, then y' += delta and, for differential unknowns,
// y += dCoef * delta; algebraic unknowns get y += delta.
#include <Eigen/Core>
#include <span>
#include <vector>

#include "integrators/sparse_matrix.hpp"

namespace mbl::integrators {

using Vector = Eigen::VectorXd;
class SecondOrderProblem;

enum class DofOrder : unsigned char { Differential, Algebraic };

/// The nonlinear system of one time point as the Newton solver sees it.
class Problem {
 public:
  virtual ~Problem() = default;

  virtual int size() const = 0;
  /// Order of each unknown; constant over a run.
  virtual DofOrder dof_order(int i) const = 0;
  /// Type of equation i (MBDyn's GetEqType): algebraic for constraint equations, the ones that
  /// `enforce constraint equations` rescales in the residual test; by default that of unknown i.
  virtual DofOrder equation_order(int i) const { return dof_order(i); }
  /// Whether unknown i enters the error norm of `strategy: error control` (docs/adaptive.md):
  /// by default the differential unknowns. A problem with index-3 constraints leaves out the
  /// velocity-level unknowns, whose error an index-3 step does not control (Brenan, Campbell &
  /// Petzold, Numerical Solution of IVPs in DAEs, §5.4).
  virtual bool in_error_norm(int i) const { return dof_order(i) == DofOrder::Differential; }

  /// y and y' have just changed (prediction or Newton update): recompute whatever depends on
  /// them (node orientation R = R(g) R_ref, angular velocity, ...).
  virtual void update(double t, const Vector& y, const Vector& yp) = 0;

  /// r = -f(y, y', t) at the state of the last update(). `abs_r`, if not null, receives the
  /// sum of the absolute values of each contribution (for the relnorm/sepnorm tests).
  virtual void residual(double t, double dCoef, Vector& r, Vector* abs_r) = 0;
  /// J = df/dy' + dCoef df/dy at the state of the last update(); J has been zeroed.
  virtual void jacobian(double t, double dCoef, SparseMatrix& J) = 0;
  /// Whether the parts of the problem the residual does not measure agree that the point has
  /// converged (MBDyn's DataManager::IsConverged, which its NonlinearSolver::MakeResTest and
  /// MakeSolTest require besides the tolerance, nonlin.cc: a tightly coupled peer that has not
  /// yet answered "converged" holds the Newton iteration).
  virtual bool externally_converged() const { return true; }

  // ---- rotation-aware history (seed 000 §3.1) --------------------------------------------------
  /// Called once per converged time point (a step or an ESDIRK stage), in order. The problem
  /// records what it needs (node R, omega) and rewrites y, y' into canonical form: for each
  /// node, the orientation parameters become g = 0 and g' = omega (the converged orientation
  /// is the new reference). Integrators store the canonical vectors as history.
  virtual void after_convergence(double t, Vector& y, Vector& yp) = 0;

  /// Before a prediction: `y_hist[j]`, `yp_hist[j]` are copies of the canonical vectors of the
  /// (j+1)-th most recent converged point (j = 0 is t_{N-1}). The problem re-expresses the
  /// rotation parameters of the older points relative to t_{N-1}: g = g(R_{N-1-j} R_{N-1}^T),
  /// g' = G(g)^{-1} omega. Entries for j = 0 stay as they are.
  virtual void rebase_history(std::span<Vector> y_hist, std::span<Vector> yp_hist) = 0;
  /// Before the first converged point: rebase_history() will be given at most `points` points,
  /// so the problem need keep no more (default: it keeps what it keeps).
  virtual void reserve_history(int points) {}

  /// After the integrator has written the predicted y, y': the problem computes the predicted
  /// orientation R(g) R_{N-1} and omega = G(g) g', stores them as the reference of the Newton
  /// corrections, and resets g and g' to zero in y and y' (seed 000 §3.2).
  virtual void after_predict(double t, Vector& y, Vector& yp) = 0;

  // ---- optional hooks (defaults suit problems without internal state) ---------------------------
  /// Physical dimension class of equation i (any integer; equal values = same dimension). Used
  /// only by the `sepnorm` residual test (technical manual §3.6). Default: one class.
  virtual int equation_dimension(int i) const { return 0; }
  /// Derivatives phase (technical manual §6.2.1): after each derivatives-mode update, lets the
  /// problem restore derivatives it keeps as given (MBDyn's DerivativesUpdate: the nodes keep
  /// their input velocities, only momenta derivatives and reactions are computed).
  virtual void derivatives_update(Vector& y, Vector& yp) {}

  /// Called by an integrator at the beginning of advance(), when the last converged point is a
  /// completed step: save whatever after_convergence()/after_predict() will overwrite (rotation
  /// references, internal states).
  virtual void save_checkpoint() {}
  /// Called when advance() fails (possibly after some ESDIRK stages converged): go back to the
  /// saved checkpoint. The integrator then calls update(t, y, y') with the last converged step.
  virtual void restore_checkpoint() {}

  /// The same model in second-order form (integrators/second_order_problem.hpp), for the
  /// second-order methods; nullptr when the problem has none. Throws std::invalid_argument
  /// naming what the second-order form cannot express.
  virtual SecondOrderProblem* second_order() { return nullptr; }
};

}  // namespace mbl::integrators

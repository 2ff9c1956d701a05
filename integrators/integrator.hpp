#pragma once
// Implicit time integrators of MBDyn's initial-value problem (input manual §4.1.1 `method:`;
// seed 000 §2-3). Names follow the paper: ImplicitStepIntegrator, StepNIntegrator<N> (linear
// multistep), SingleStepIntegrator<N> (SS2-4), StageNIntegrator<S> (ESDIRK).
//
// Every time point t_N (a step, or an ESDIRK stage) is solved the same way (seed §3):
//   1. copies of the needed converged points go through problem.rebase_history();
//   2. the derivative y'_N is predicted (eq. 12 / eq. 16 / constant, eq. 15) and y_N follows from
//      the integration formula y_N = C + dCoef * y'_N;
//   3. problem.after_predict(), problem.update(), Newton (corrections of §3.2);
//   4. problem.after_convergence() turns the point canonical; it is stored as history.
// Algebraic unknowns swap roles: their value plays the derivative, y' (their time integral)
// plays the state, so the same formulas predict them (MBDyn extrapolates them too).
#include <cmath>
#include <deque>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "integrators/coefficients.hpp"
#include "integrators/newton.hpp"
#include "integrators/problem.hpp"

namespace mbl::integrators {

/// A spectral radius as a function of time (MBDyn's drive caller).
using RhoFunction = std::function<double(double t)>;

struct StepResult {
  bool converged = false;
  int iterations = 0;  ///< linear solves summed over the stages of the step
  double residual_error = 0.0;
  double solution_error = 0.0;
  FailureReason failure = FailureReason::None;
  int singular_index = -1;
  std::string message;
  /// Error control (docs/adaptive.md): the weighted norm of the local error estimate of the
  /// converged step (0 without error control or without an estimate), and whether the error
  /// test rejected it (then `converged` is false and the state is the previous step's).
  double error_norm = 0.0;
  bool error_rejected = false;
  /// Error control, conditionally stable methods (central differences): the largest step their
  /// stability allows from the point just solved (the step controller's bound on the next step,
  /// and the step to retry a StabilityLimit failure with).
  double stable_step = HUGE_VAL;
};

/// The error test of `strategy: error control` (docs/adaptive.md): the local error estimate e of a
/// converged step is measured over the differential unknowns only, max_i |e_i| / (atol + rtol
/// max(|y_i|, |y_prev_i|)); `accept(norm, dt)` (the step controller) decides.
struct ErrorTest {
  double rtol = 1e-3, atol = 1e-6;
  /// Error per unit step (docs/adaptive.md): the norm is divided by the step (in the deck's time
  /// unit; the larger of this step and the previous one), so a step is accepted when its local
  /// error is at most the tolerance times the step and the global error is proportional to the
  /// tolerance; false: per step (local error at most the tolerance).
  bool per_unit_step = true;
  /// `global` (docs/adaptive.md, "Global error"): besides the local test, transport an estimate
  /// of the global error along the run (ImplicitStepIntegrator::global_error_norm).
  bool transport_global_error = false;
  std::function<bool(double norm, double dt)> accept;
};

/// Runs the "derivatives" phase (technical manual §6.2.1): Newton in derivatives mode with
/// dCoef = `coefficient`, y kept, y' (and algebraic unknowns) solved. Calls problem.update()
/// first. Does not call after_convergence (ImplicitStepIntegrator::start() does).
NewtonResult solve_derivatives(Problem& problem, double t0, Vector& y, Vector& yp,
                               NewtonSolver& newton, double coefficient);

class ImplicitStepIntegrator {
 public:
  virtual ~ImplicitStepIntegrator() = default;
  const std::string& name() const { return name_; }
  /// Implicit solves per step (1 for multistep/single-step, s-1 for an s-stage ESDIRK).
  virtual int implicit_stages() const { return 1; }

  /// Initial state at t0 (after the derivatives phase). Calls problem.after_convergence() once
  /// and keeps the canonical vectors.
  void start(Problem& problem, double t0, const Vector& y0, const Vector& yp0);
  /// Advances from time() to t = time() + dt. On failure the last converged state is kept (and
  /// the problem restored through restore_checkpoint() + update()), so the caller may retry
  /// with a smaller dt. Never throws on divergence.
  StepResult advance(Problem& problem, double t, double dt, NewtonSolver& newton);

  /// Error control: from start() on, each converged step gets a local error estimate and is
  /// committed only if `test.accept` says so; otherwise it is undone like a failed step.
  void set_error_test(ErrorTest test) { error_test_ = std::move(test); }
  /// p of the local error estimate e = O(h^(p+1)) this method reports (the step controller's
  /// exponent is 1/(p+1)).
  virtual int error_estimate_order() const { return 2; }
  /// The local error estimate of the last converged step (differential unknowns; zero elsewhere).
  const Vector& error_estimate() const { return estimate_; }
  /// `global` (docs/adaptive.md, "Global error"): the norm of the error test (atol + rtol |y|
  /// weights, without the division by the step) of the global error estimate transported to the
  /// last accepted step; 0 without it.
  double global_error_norm() const { return global_norm_; }

  double time() const { return history_.front().t; }
  const Vector& y() const { return history_.front().y; }
  const Vector& yp() const { return history_.front().yp; }
  int steps() const { return steps_; }

 protected:
  explicit ImplicitStepIntegrator(std::string name, int history_size)
      : name_(std::move(name)), history_size_(history_size) {}
  struct Point {
    double t = 0.0;
    Vector y, yp;
  };
  /// Family-specific step: solve the new point(s); on success the new canonical step point is
  /// returned in `out`.
  virtual StepResult step(Problem& problem, double t, double dt, NewtonSolver& newton,
                          Point& out) = 0;
  virtual void on_start(const Point& p0) {}
  /// Error control: the converged points (past ones) the estimate needs.
  virtual int error_history_points() const { return 2; }
  /// Error control: the family's own estimate of the step just solved (`out`, canonical, the
  /// newest converged point of the problem) into estimate_; false to use the default
  /// (error_estimate_from_history).
  virtual bool family_error_estimate(Problem& problem, const Point& out, double dt) { return false; }
  /// Error control: what step() changes in the family's own memory (auxiliary variables,
  /// accelerations), saved before a step and given back when the error test rejects it.
  virtual void save_family_state() {}
  virtual void restore_family_state() {}

  // ---- helpers shared by the families ----
  /// Role vectors (see the header comment): X = state role, XP = derivative role.
  Vector X(const Point& p) const { return alg_.select(p.yp, p.y); }
  Vector XP(const Point& p) const { return alg_.select(p.y, p.yp); }
  /// Copies of `pts` (most recent first) passed through problem.rebase_history(), as many as
  /// `pts`; valid until the next call (the copies' storage is kept: a large model's vectors are
  /// not allocated and paged in again every step).
  std::span<const Point> rebased(Problem& problem, const std::vector<const Point*>& pts);
  /// Steps 2b-4 of the header comment for one point: X = C + D * XP (D per dof order).
  NewtonResult solve_point(Problem& problem, double t, const Vector& C, const Vector& XP_pred,
                           double D, double D_alg, NewtonSolver& newton, Point& out);
  /// Predicted derivative-role vector from points (most recent first) with eq. (12) / (16).
  void predict(double t, std::span<const Point> pts, int count, Vector& xp) const;

  /// `global`: e_n = Phi_n e_(n-1) + l_n for the accepted step `out` (docs/adaptive.md, "Global
  /// error"), Phi_n the theta-method of the step's own matrix, theta = D / h.
  void transport_global_error(Problem& problem, const Point& out, double dt, NewtonSolver& newton);
  /// Milne's device on the history (docs/adaptive.md): the new point against the cubic Hermite
  /// extrapolation of the two previous steps' values and derivatives.
  void error_estimate_from_history(Problem& problem, const Point& out, double dt);
  /// The divided difference of the values y of `pts` (of order pts.size() - 1, the points most
  /// recent first and rebased) into dd, for the differential unknowns (zero elsewhere): y^(k) / k!
  /// of a smooth curve through them, up to O(h). The values-only estimates (docs/adaptive.md).
  void values_divided_difference(std::span<const Point> pts, Vector& dd) const;

  std::deque<Point> history_;  ///< converged steps, most recent first
  Vector estimate_;           ///< error control: local error estimate of the last step
  bool error_control() const { return static_cast<bool>(error_test_.accept); }
  /// Work vectors kept between steps: the constant part C of the formula, the predicted
  /// derivative role.
  Vector C_, XP_pred_;
  Eigen::Array<bool, Eigen::Dynamic, 1> alg_;
  Eigen::Array<bool, Eigen::Dynamic, 1> in_norm_;  ///< error control: Problem::in_error_norm
  int n_ = 0;

 private:
  double last_dcoef_ = 0.0;  ///< D of the last solve_point (the transport's matrix)
  Vector global_error_;      ///< `global`: the transported global error estimate
  double global_norm_ = 0.0;
  Vector transport_r0_, transport_r1_, transport_y_;  ///< transport_global_error's work vectors
  std::string name_;
  int history_size_;
  ErrorTest error_test_;
  int steps_ = 0;
  std::vector<Point> rebased_;  ///< rebased()
  /// The storage of the point that left the history, for the next point solved.
  Point spare_;
};

/// Multistep family (seed §2.1): `crank nicolson`, `implicit euler`, `bdf`, `ms`/`ms2`, `ms3`,
/// `ms4`, `hope`. The formula is supplied per step. Start-up as in MBDyn (its .out of the paper
/// benchmarks shows it: the residuals of ms3/ms4 at step 2 equal those of ms2 with the same rho):
/// the first step is trapezoidal (eq. 3), then step k uses the k-step member of the family until
/// the method has its N past points.
template <int N>
class StepNIntegrator : public ImplicitStepIntegrator {
 public:
  /// (rho, h, h_prev, step number starting at 1, past points available r <= N, r >= 2) ->
  /// coefficients with at most r steps.
  using Formula =
      std::function<coef::Lms(double rho, double h, double h_prev, int step, int available)>;
  StepNIntegrator(std::string name, Formula f, RhoFunction rho, RhoFunction rho_alg,
                  bool extrapolate = N > 1);

 protected:
  StepResult step(Problem& problem, double t, double dt, NewtonSolver& newton,
                  Point& out) override;
  int error_estimate_order() const override { return name() == "implicit euler" ? 1 : 2; }
  bool family_error_estimate(Problem& problem, const Point& out, double dt) override;
  int error_history_points() const override { return values_only_estimate() ? 3 : 2; }

 private:
  /// The trapezoidal rule estimates from the values only (docs/adaptive.md).
  bool values_only_estimate() const { return name() == "crank nicolson"; }
  coef::Lms last_formula_;  ///< the formula of the last step solved (error control)
  Formula formula_;
  RhoFunction rho_, rho_alg_;
  bool extrapolate_;
};

/// Single-step family SS2/SS3/SS4 (seed §2.2, eqs. 4, 9-11, 15, 18-20); N = r.
template <int N>
class SingleStepIntegrator : public ImplicitStepIntegrator {
 public:
  SingleStepIntegrator(std::string name, RhoFunction rho);

 protected:
  StepResult step(Problem& problem, double t, double dt, NewtonSolver& newton,
                  Point& out) override;
  void on_start(const Point& p0) override;
  void save_family_state() override { saved_aux_ = aux_; }
  void restore_family_state() override { aux_ = saved_aux_; }

 private:
  RhoFunction rho_;
  std::vector<Eigen::VectorXcd> aux_, saved_aux_;  ///< derivative-role auxiliary variables 1 .. N-1
};

/// ESDIRK family (seed §2.3): `Bathe`, `msstc3/4/5`, `mssth3/4/5`, `DIRK33/43/54`; S = stages.
template <int S>
class StageNIntegrator : public ImplicitStepIntegrator {
 public:
  using TableauFn = std::function<coef::Tableau(double rho)>;
  StageNIntegrator(std::string name, TableauFn tableau, RhoFunction rho);
  int implicit_stages() const override { return S - 1; }
  /// The embedded weights (coef::embedded_weights) have order 2.
  int error_estimate_order() const override { return 2; }

 protected:
  StepResult step(Problem& problem, double t, double dt, NewtonSolver& newton,
                  Point& out) override;
  bool family_error_estimate(Problem&, const Point&, double) override { return true; }

 private:
  TableauFn tableau_;
  RhoFunction rho_;
  double cached_rho_ = -1.0;  ///< the tableau is rebuilt only when rho changes
  coef::Tableau cached_;
  Eigen::VectorXd b_hat_;  ///< embedded weights of cached_ (error control)
};

/// Plain data for make_integrator (the model builder reads the `method:` card).
struct MethodSpec {
  /// crank nicolson | implicit euler | bdf | ms | ms2 | ms3 | ms4 | hope | ss2 | ss3 | ss4 |
  /// Bathe | msstc3 | msstc4 | msstc5 | mssth3 | mssth4 | mssth5 | DIRK33 | DIRK43 | DIRK54 |
  /// generalized alpha | central differences | half implicit (second-order form:
  /// generalized_alpha.hpp, central_differences.hpp, half_implicit.hpp)
  /// (case-insensitive).
  std::string name = "ms";
  RhoFunction rho;      ///< differential spectral radius (required by the tunable methods)
  RhoFunction rho_alg;  ///< algebraic one (multistep only); defaults to rho
  int bdf_order = 2;    ///< `bdf, order, 1|2`
  /// `central differences, degree, 3|4|5, alpha, beta [, gamma [, zeta]]` (seed 002).
  int degree = 3;
  std::vector<double> parameters;
};

/// Throws std::invalid_argument for unknown names or missing radii.
std::unique_ptr<ImplicitStepIntegrator> make_integrator(const MethodSpec& spec);

/// Why a method cannot take `strategy: error control` ("expected ..., found ..."), empty when it
/// can (docs/adaptive.md).
std::string error_control_refusal(const MethodSpec& spec);
/// Why a method cannot take `strategy: error control, ..., global` (docs/adaptive.md, "Global
/// error"), empty when it can: the one-matrix-per-step methods (multistep and single step).
std::string global_error_refusal(const MethodSpec& spec);

}  // namespace mbl::integrators

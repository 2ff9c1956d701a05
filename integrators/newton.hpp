#pragma once
#include <iosfwd>
// Newton-Raphson for one time point, with MBDyn's options (input manual §4.1.1: `tolerance`,
// `max iterations`, `nonlinear solver: newton raphson | line search`).
//
// The iteration (problem.hpp explains the sign convention): assemble r; test it; if not
// converged assemble J (or reuse it, modified Newton), solve J d = r, update
//   differential y' += d, y += dCoef d;  algebraic y += d, y' += dCoef_alg d
// (for algebraic unknowns y' holds the time integral of the unknown, as in MBDyn), then call
// problem.update(). In derivatives mode (technical manual §6.2.1) the problem's
// derivatives_update() runs before update() and restores what the phase keeps (the nodes'
// configuration and velocities); like MBDyn's derivative solver, the other states keep their
// dCoef-sized update (the manual's eq. 6.29b would keep them all). `iterations` counts the linear solves (MBDyn's NIter column in .out).
// The solver never throws on divergence: it returns a failure the caller turns into a stop.
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "integrators/linear_solver.hpp"
#include "integrators/problem.hpp"

namespace mbl::integrators {

/// How an error vector is reduced to a number (input manual §4.1.1 "Tolerance", technical
/// manual §3.6).
enum class ConvergenceTest { None, Norm, MinMax, RelNorm, SepNorm };

enum class FailureReason {
  None,
  MaxIterations,     ///< not converged within max iterations
  SingularMatrix,    ///< zero pivot (singular_index tells the unknown)
  NotANumber,        ///< NaN/Inf in the residual or the solution
  LineSearchFailed,  ///< line search: lambda below its minimum, or zero gradient
  InvalidParameter,  ///< e.g. a spectral radius the method does not support
  MaxResidual,       ///< `max residual:` exceeded (MBDyn's MaxResidualExceeded: the step is retried like a non-convergence)
  StabilityLimit,    ///< error control: the step is above a conditionally stable method's limit (retried at it)
};
std::string_view to_string(FailureReason r);

struct NewtonOptions {
  // `tolerance: r_tol [, test, ...] [, s_tol [, test, ...]]`; 0 disables a test (MBDyn's null).
  double residual_tolerance = 1e-6;
  ConvergenceTest residual_test = ConvergenceTest::Norm;
  double solution_tolerance = 0.0;
  ConvergenceTest solution_test = ConvergenceTest::Norm;
  /// `output: iterations` (initial value block): one line per iteration with its error.
  std::ostream* trace = nullptr;
  // `max iterations: N [, at most]`
  int max_iterations = 20;
  bool at_most = false;
  /// `max residual: [all equations,] <r>` (initial value block; solver.cc ReadData and
  /// CheckTimeStepLimit): an iteration whose residual error exceeds it fails the step, as long as
  /// the step is larger than twice the minimum one (`max_residual_active`, set before each step);
  /// never in the derivatives phase.
  double max_residual = std::numeric_limits<double>::infinity();
  bool max_residual_active = true;
  // `nonlinear solver: newton raphson [, true | modified, N [, keep jacobian matrix]]`
  int jacobian_every = 1;  ///< 1: full Newton; N > 1: modified Newton, refresh every N iterations
  bool keep_jacobian = false;  ///< keep the factorised Jacobian across time points
  /// `enforce constraint equations: constraint violations [, scale factor, <s>]` (input manual
  /// §4.1.1): the residual test sees the algebraic equations (Phi / dCoef) times dCoef * s, the
  /// constraint violations; 0 leaves the test as it is (`constraint violation rates`); < 0
  /// stands for s = 1 / the initial time step, MBDyn's default.
  double algebraic_test_scale = 0.0;
  // `nonlinear solver: line search, ...` (input manual §4.1.1 defaults; `default solver options,
  // moderate | heavy nonlinear` presets in model_builder).
  struct LineSearch {
    bool enabled = false;
    double tolerance_x = 1e-7;
    double tolerance_min = 1e-8;
    int max_iterations = 200;
    double alpha = 1e-4;
    double lambda_min = 1e-2;
    bool lambda_min_relative = true;
    double lambda_factor_min = 1e-1;
    double max_step = 100.0;
    bool zero_gradient_continue = false;
    bool divergence_check = true;
    double divergence_factor = 1.0;
    bool cubic = true;  ///< algorithm: cubic (default) or factor
    bool scale_newton_step = true;
    double min_scale = 1e-3;
    bool abort_at_lambda_min = true;
    bool non_negative_slope_continue = false;
  } line_search;
  // `nonlinear solver: matrix free, {bicgstab | gmres | default} [, tolerance, <t>] [, steps, <n>]
  // [, tau, <tau>] [, eta, <eta>] [, preconditioner, full jacobian matrix [, steps, <n>]]`
  // (input manual §4.1.1; defaults of MBDyn's solver.cc). MBDyn's inner solvers stop at eta times
  // the residual error; its `tolerance` is read and not used.
  struct MatrixFree {
    enum class Krylov { None, BiCGStab, Gmres };
    Krylov krylov = Krylov::None;  ///< None: Newton-Raphson (or line search)
    int max_linear_iterations = 20;  ///< `steps`
    double tau = 1e-7;               ///< perturbation of the finite-difference product J w
    double eta_max = 0.9;            ///< inner tolerance eta |r| (Eisenstat-Walker forcing term)
    /// `preconditioner, ..., steps`: the Jacobian (the preconditioner) is refreshed after a solve
    /// that took this many inner iterations; 0 refreshes it at every iteration.
    int preconditioner_steps = 20;
  } matrix_free;
};

enum class UpdateMode { Regular, Derivatives };

struct NewtonResult {
  bool converged = false;
  int iterations = 0;  ///< linear solves
  double residual_error = 0.0;
  double solution_error = 0.0;
  FailureReason failure = FailureReason::None;
  int singular_index = -1;  ///< 0-based unknown index for SingularMatrix, -1 if unknown
  std::string message;
};

/// Reduces an error vector with a test. `abs_r` (sum of absolute contributions) is needed by
/// relnorm/sepnorm; without it they fall back to norm. `problem` gives the dimension classes.
double convergence_error(ConvergenceTest test, const Vector& r, const Vector* abs_r,
                         const Problem* problem);

class NewtonSolver {
 public:
  NewtonSolver(NewtonOptions options, std::unique_ptr<LinearSolver> linear_solver);
  const NewtonOptions& options() const { return opt_; }
  NewtonOptions& options() { return opt_; }
  LinearSolver& linear_solver() { return *ls_; }

  /// Solves the point t. Precondition: problem.update(t, y, yp) was called with these y, yp.
  NewtonResult solve(Problem& problem, double t, double dCoef, double dCoef_alg, Vector& y,
                     Vector& yp, UpdateMode mode = UpdateMode::Regular);

  /// Forces a fresh Jacobian at the next solve() (e.g. after the model changed structure).
  void invalidate_jacobian() { jacobian_valid_ = false; }
  std::uint64_t jacobian_assemblies() const { return n_jacobians_; }

 private:
  void apply(const Problem& p, const Vector& d, double scale, double dCoef, double dCoef_alg,
             Vector& y, Vector& yp) const;
  struct LineSearchOutcome {
    FailureReason failure = FailureReason::None;
    std::string message;
    bool at_lambda_min = false;  ///< stopped at lambda's minimum without a sufficient decrease
    double last_scale = 1.0;     ///< last correction applied, as a multiple of the (scaled) step d
  };
  /// `nonlinear solver: matrix free` (matrix_free.cpp).
  NewtonResult solve_matrix_free(Problem& problem, double t, double dCoef, double dCoef_alg, Vector& y,
                                 Vector& yp, UpdateMode mode);
  /// z = J w by a finite difference of the residual about the current state, whose residual is
  /// f0; the state is restored afterwards.
  void jacobian_product(Problem& problem, double t, double dCoef, double dCoef_alg, UpdateMode mode,
                        const Vector& f0, const Vector& w, Vector& z, Vector& y, Vector& yp);
  /// The inner solvers: d ~ J^-1 r to within `inner_tolerance`, right-preconditioned by the
  /// factorised Jacobian; return the number of inner iterations that did not meet it.
  struct KrylovContext {
    Problem& problem;
    double t, dCoef, dCoef_alg;
    UpdateMode mode;
    Vector& y;
    Vector& yp;
  };
  int gmres(KrylovContext& c, double error, double inner_tolerance);
  int bicgstab(KrylovContext& c, double error, double inner_tolerance);
  /// The residual error as the convergence test sees it (algebraic_test_scale applied).
  double tested_error(const Problem& problem, double dCoef, bool need_abs);
  LineSearchOutcome line_search(Problem& problem, double t, double dCoef, double dCoef_alg, Vector& y,
                                Vector& yp, UpdateMode mode);
  /// y, y' += scale d_ (apply), then the problem's update (and derivatives_update in that mode).
  void take_step(Problem& problem, double t, double dCoef, double dCoef_alg, UpdateMode mode, double scale,
                 Vector& y, Vector& yp) const;
  /// r_ (and abs_r_ when sized) at the problem's current state; false when not finite.
  bool evaluate_residual(Problem& problem, double t, double dCoef);
  /// Assembles J_ at the current state and factors it (Newton and the matrix-free preconditioner);
  /// on success the factorisation is valid for dCoef.
  FactorStatus refresh_jacobian(Problem& problem, double t, double dCoef);
  double max_step_ = 0.0;
  NewtonOptions opt_;
  std::unique_ptr<LinearSolver> ls_;
  SparseMatrix J_;
  bool jacobian_valid_ = false;
  double jacobian_dcoef_ = std::numeric_limits<double>::quiet_NaN();
  int since_jacobian_ = 0;
  std::uint64_t n_jacobians_ = 0;
  Vector r_, abs_r_, d_, y0_, yp0_, g_;  ///< solve()'s work vectors (residual, correction, line search)
  Vector r_tested_;  ///< the residual as the test sees it (algebraic_test_scale)
  Vector mf_f0_, mf_w_, mf_z_, mf_saved_y_, mf_saved_yp_;  ///< matrix free work vectors
  std::vector<Vector> mf_basis_;  ///< GMRES: the Krylov basis
};

}  // namespace mbl::integrators

#include "integrators/newton.hpp"

#include <ostream>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <vector>

namespace mbl::integrators {

std::string_view to_string(FailureReason r) {
  switch (r) {
    case FailureReason::None: return "none";
    case FailureReason::MaxIterations: return "maximum number of iterations reached";
    case FailureReason::SingularMatrix: return "singular matrix";
    case FailureReason::NotANumber: return "residual or solution is not a number";
    case FailureReason::LineSearchFailed: return "line search failed";
    case FailureReason::InvalidParameter: return "invalid integrator parameter";
    case FailureReason::MaxResidual: return "maximum residual exceeded";
    case FailureReason::StabilityLimit: return "time step above the stability limit";
  }
  return "unknown";
}

namespace {
// relnorm of one set of equations: |f| / |f~| (technical manual eq. 3.5).
double relative(double f2, double a2) { return a2 > 0.0 ? std::sqrt(f2 / a2) : 0.0; }
}  // namespace

double convergence_error(ConvergenceTest test, const Vector& r, const Vector* abs_r,
                         const Problem* problem) {
  switch (test) {
    case ConvergenceTest::None: return 0.0;
    case ConvergenceTest::Norm: return r.norm();
    case ConvergenceTest::MinMax: return r.size() ? r.cwiseAbs().maxCoeff() : 0.0;
    case ConvergenceTest::RelNorm:
      if (!abs_r) return r.norm();
      return relative(r.squaredNorm(), abs_r->squaredNorm());
    case ConvergenceTest::SepNorm: {
      if (!abs_r) return r.norm();
      // One relnorm per physical dimension; inactive sets are skipped (technical manual §3.6,
      // eps1 = 1e-1, eps2 = 1e-5); the worst remaining set is returned. Few dimensions, usually
      // in runs: a linear search from the last one found (no map per Newton iteration).
      struct DimensionSums {
        int dimension;
        double f2, a2;  // |f|^2, |f~|^2
      };
      std::vector<DimensionSums> sets;
      std::size_t last = 0;
      for (int i = 0; i < r.size(); ++i) {
        const int dim = problem ? problem->equation_dimension(i) : 0;
        if (last >= sets.size() || sets[last].dimension != dim) {
          last = 0;
          while (last < sets.size() && sets[last].dimension != dim) ++last;
          if (last == sets.size()) sets.push_back({dim, 0.0, 0.0});
        }
        sets[last].f2 += r[i] * r[i];
        sets[last].a2 += (*abs_r)[i] * (*abs_r)[i];
      }
      double max_abs = 0.0;
      for (const DimensionSums& s : sets) max_abs = std::max(max_abs, std::sqrt(s.a2));
      double worst = 0.0;
      for (const DimensionSums& s : sets) {
        const double a = std::sqrt(s.a2);
        if (a == 0.0) continue;
        const double e = relative(s.f2, s.a2);
        if (e > 1e-1 && a < 1e-5 * max_abs) continue;
        worst = std::max(worst, e);
      }
      return worst;
    }
  }
  return r.norm();
}

NewtonSolver::NewtonSolver(NewtonOptions options, std::unique_ptr<LinearSolver> linear_solver)
    : opt_(options), ls_(std::move(linear_solver)) {
  if (!ls_) ls_ = std::make_unique<KluSolver>();
  if (opt_.jacobian_every < 1) opt_.jacobian_every = 1;
}

void NewtonSolver::apply(const Problem& p, const Vector& d, double scale, double dCoef,
                         double dCoef_alg, Vector& y, Vector& yp) const {
  const int n = static_cast<int>(d.size());
  for (int i = 0; i < n; ++i) {
    const double di = scale * d[i];
    // Both modes update states and derivatives alike: in the derivatives phase MBDyn also moves
    // the states by dCoef d (technical manual §6.2.1 keeps them, eq. 6.29b; MBDyn's solver does
    // not), then the problem's derivatives_update() restores what must stay (node configuration
    // and velocities), so momenta start with MBDyn's dCoef-sized offset.
    if (p.dof_order(i) == DofOrder::Differential) {
      yp[i] += di;
      y[i] += dCoef * di;
    } else {
      y[i] += di;
      yp[i] += dCoef_alg * di;
    }
  }
}

void NewtonSolver::take_step(Problem& problem, double t, double dCoef, double dCoef_alg, UpdateMode mode,
                             double scale, Vector& y, Vector& yp) const {
  apply(problem, d_, scale, dCoef, dCoef_alg, y, yp);
  if (mode == UpdateMode::Derivatives) problem.derivatives_update(y, yp);
  problem.update(t, y, yp);
}

double NewtonSolver::tested_error(const Problem& problem, double dCoef, bool need_abs) {
  const Vector* tested = &r_;
  if (opt_.algebraic_test_scale > 0.0) {
    r_tested_ = r_;
    for (int i = 0; i < r_.size(); ++i)
      if (problem.equation_order(i) == DofOrder::Algebraic) r_tested_[i] *= dCoef * opt_.algebraic_test_scale;
    tested = &r_tested_;
  }
  return convergence_error(opt_.residual_test, *tested, need_abs ? &abs_r_ : nullptr, &problem);
}

bool NewtonSolver::evaluate_residual(Problem& problem, double t, double dCoef) {
  r_.setZero();
  if (abs_r_.size()) abs_r_.setZero();
  problem.residual(t, dCoef, r_, abs_r_.size() ? &abs_r_ : nullptr);
  return r_.allFinite();
}

// Convergence as MBDyn 2024 decides it (nr.cc, linesearch.cc): a point has converged when the
// residual test and the solution test both pass; the solution test (on the last correction)
// counts as passed while no solution tolerance is given. Newton-Raphson tests the residual with
// the full tolerance from the first iteration, and also accepts right after an update whose
// starting residual had passed; the line search wants 1e-2 of the tolerance at the prediction,
// and after a search that ended at lambda's minimum, or with a residual above the prediction's,
// decides between going on and failing once convergence has been ruled out.
FactorStatus NewtonSolver::refresh_jacobian(Problem& problem, double t, double dCoef) {
  if (J_.size() != problem.size()) J_.resize(problem.size());
  J_.zero();
  problem.jacobian(t, dCoef, J_);
  ++n_jacobians_;
  const FactorStatus st = ls_->factor(J_);
  jacobian_valid_ = st.ok;
  if (st.ok) jacobian_dcoef_ = dCoef;
  return st;
}

NewtonResult NewtonSolver::solve(Problem& problem, double t, double dCoef, double dCoef_alg,
                                 Vector& y, Vector& yp, UpdateMode mode) {
  if (opt_.matrix_free.krylov != NewtonOptions::MatrixFree::Krylov::None)
    return solve_matrix_free(problem, t, dCoef, dCoef_alg, y, yp, mode);
  const int n = problem.size();
  const bool need_abs = opt_.residual_test == ConvergenceTest::RelNorm ||
                        opt_.residual_test == ConvergenceTest::SepNorm;
  const bool test_residual = opt_.residual_tolerance > 0.0 &&
                             opt_.residual_test != ConvergenceTest::None;
  const bool test_solution = opt_.solution_tolerance > 0.0 &&
                             opt_.solution_test != ConvergenceTest::None;
  const auto& ls = opt_.line_search;
  // Work vectors kept between calls (one solve per time point: no allocation per step).
  Vector& r = r_;
  Vector& d = d_;
  r.resize(n);
  abs_r_.resize(need_abs ? n : 0);
  NewtonResult res;

  // A Jacobian kept from the previous point is only valid for the same dCoef.
  if (!opt_.keep_jacobian || !(jacobian_dcoef_ == dCoef)) jacobian_valid_ = false;

  auto fail = [&](FailureReason why, std::string msg) {
    res.converged = false;
    res.failure = why;
    res.message = std::move(msg);
    return res;
  };
  // Largest Newton step of the line search (input manual eq. 4.7), from the predicted state.
  max_step_ = ls.enabled && ls.scale_newton_step
                  ? ls.max_step * std::max(std::sqrt(y.squaredNorm() + yp.squaredNorm()), static_cast<double>(n))
                  : std::numeric_limits<double>::infinity();

  if (!evaluate_residual(problem, t, dCoef)) return fail(FailureReason::NotANumber, "residual is not a number");
  bool solution_ok = !test_solution;
  bool at_lambda_min = false;  // the last line search stopped at lambda's minimum
  double first_error = 0.0;
  for (int iter = 0;; ++iter) {
    res.residual_error = tested_error(problem, dCoef, need_abs);
    if (iter == 0) first_error = res.residual_error;
    if (opt_.trace) *opt_.trace << "\tIteration(" << iter << ") " << res.residual_error << '\n';
    if (!std::isfinite(res.residual_error))
      return fail(FailureReason::NotANumber, "residual error is not a number");
    if (res.residual_error > opt_.max_residual && opt_.max_residual_active && mode != UpdateMode::Derivatives)
      return fail(FailureReason::MaxResidual, fmt::format("current residual {} > maximum residual {}",
                                                          res.residual_error, opt_.max_residual));
    const double tolerance = ls.enabled && iter == 0 ? 1e-2 * opt_.residual_tolerance : opt_.residual_tolerance;
    // The external vote joins both tests, as MBDyn's MakeResTest and MakeSolTest (nonlin.cc).
    const bool residual_ok = (!test_residual || res.residual_error <= tolerance) && problem.externally_converged();
    if (residual_ok && solution_ok) {
      res.converged = true;
      return res;
    }
    if (ls.enabled && iter > 0) {
      if (at_lambda_min) {
        // No sufficient decrease down to lambda's minimum: a zero gradient means a local
        // minimum of f (input manual "Local minimum").
        double test = 0.0;
        const double den = std::max(0.5 * r.squaredNorm(), 0.5 * n);
        for (int i = 0; i < n; ++i)
          test = std::max(test, std::abs(g_[i]) * std::max({std::abs(y[i]), std::abs(yp[i]), 1.0}) / den);
        if (test < ls.tolerance_min) {
          if (!ls.zero_gradient_continue)
            return fail(FailureReason::LineSearchFailed, "line search: zero gradient (spurious convergence)");
        } else if (ls.abort_at_lambda_min) {
          return fail(FailureReason::LineSearchFailed,
                      "line search: lambda reached its minimum but the gradient is not zero");
        }
      }
      if (ls.divergence_check && first_error > 0.0 && res.residual_error / first_error > ls.divergence_factor)
        return fail(FailureReason::LineSearchFailed,
                    fmt::format("line search: the residual could not be decreased ({:g} after {:g})",
                                res.residual_error, first_error));
    }
    if (iter >= opt_.max_iterations) {
      if (opt_.at_most && res.residual_error < first_error) {
        res.converged = true;  // `max iterations: N, at most`: accepted since the error dropped
        return res;
      }
      return fail(FailureReason::MaxIterations,
                  fmt::format("max iterations number {} has been reached", opt_.max_iterations));
    }

    // Jacobian: every iteration (full Newton) or every `jacobian_every` iterations.
    if (!jacobian_valid_ || since_jacobian_ >= opt_.jacobian_every) {
      const FactorStatus st = refresh_jacobian(problem, t, dCoef);
      if (!st.ok) {
        res.singular_index = st.singular_index;
        return fail(FailureReason::SingularMatrix, st.message);
      }
      since_jacobian_ = 0;
    }
    if (ls.enabled) J_.multiply_transposed(r, g_);  // -gradient of f = 1/2 r.r, before r changes
    d = r;
    ls_->solve(d);
    ++since_jacobian_;
    ++res.iterations;
    if (!d.allFinite()) return fail(FailureReason::NotANumber, "solution is not a number");

    double last_scale = 1.0;  // the last correction applied, as a multiple of d
    if (!ls.enabled) {
      take_step(problem, t, dCoef, dCoef_alg, mode, 1.0, y, yp);
    } else {
      const LineSearchOutcome step = line_search(problem, t, dCoef, dCoef_alg, y, yp, mode);
      if (step.failure != FailureReason::None) return fail(step.failure, step.message);
      at_lambda_min = step.at_lambda_min;
      last_scale = step.last_scale;
    }
    if (test_solution) {
      res.solution_error = std::abs(last_scale) * convergence_error(opt_.solution_test, d, nullptr, &problem);
      if (!std::isfinite(res.solution_error))
        return fail(FailureReason::NotANumber, "solution error is not a number");
      solution_ok = res.solution_error <= opt_.solution_tolerance && problem.externally_converged();
    }
    // Newton-Raphson: the residual before this update had passed.
    if (!ls.enabled && residual_ok && solution_ok) {
      res.converged = true;
      return res;
    }
    // (The line search evaluated the residual at the state it kept.)
    if (!ls.enabled && !evaluate_residual(problem, t, dCoef))
      return fail(FailureReason::NotANumber, "residual is not a number");
  }
}

// Backtracking along the Newton direction p = gamma d (input manual eqs. 4.3-4.7): minimise
// f = 1/2 r.r, accept lambda when f <= f_prev + alpha lambda slope with slope = g.p,
// g = -J^T r. Leaves the state at the last lambda tried and r evaluated there.
NewtonSolver::LineSearchOutcome NewtonSolver::line_search(Problem& problem, double t, double dCoef,
                                                           double dCoef_alg, Vector& y, Vector& yp,
                                                           UpdateMode mode) {
  const auto& ls = opt_.line_search;
  const int n = problem.size();
  Vector& d = d_;
  Vector& r = r_;
  LineSearchOutcome out;
  // Newton step scaling (eq. 4.7), with the largest step from the predicted state.
  if (ls.scale_newton_step) {
    const double dn = d.norm();
    if (dn > max_step_) d *= std::max(ls.min_scale, max_step_ / dn);
  }
  y0_ = y;
  yp0_ = yp;
  const double f_prev = 0.5 * r.squaredNorm();
  double slope = -g_.dot(d);
  double lambda_lo = ls.lambda_min;
  if (slope >= 0.0 && f_prev > 0.0) {
    if (!ls.non_negative_slope_continue) {
      out.failure = FailureReason::LineSearchFailed;
      out.message = fmt::format("line search: slope {:g} is not negative", slope);
      return out;
    }
    slope = 0.0;  // round-off: plain Newton step
    lambda_lo = 1.0;
  } else if (ls.lambda_min_relative) {
    // Eq. 4.6: no step much below tolerance_x relative to the unknowns (y for algebraic
    // unknowns, y' for differential ones).
    double t_lambda = 0.0;
    for (int i = 0; i < n; ++i) {
      const double x = problem.dof_order(i) == DofOrder::Algebraic ? y[i] : yp[i];
      t_lambda = std::max(t_lambda, std::abs(d[i]) / std::max(std::abs(x), 1.0));
    }
    lambda_lo = std::max(ls.lambda_min, t_lambda > 0.0 ? std::min(ls.tolerance_x / t_lambda, 1.0) : 1.0);
  }
  double lambda = 1.0, lambda_prev = 0.0, lambda2 = 0.0, f2 = 0.0;
  for (int k = 0; k < ls.max_iterations; ++k) {
    y = y0_;
    yp = yp0_;
    take_step(problem, t, dCoef, dCoef_alg, mode, lambda, y, yp);
    const bool finite = evaluate_residual(problem, t, dCoef);
    const double f = finite ? 0.5 * r.squaredNorm() : std::numeric_limits<double>::infinity();
    out.last_scale = lambda - lambda_prev;
    if (finite) {
      if (f <= f_prev + ls.alpha * lambda * slope) return out;
      if (lambda <= lambda_lo) {
        out.at_lambda_min = true;
        return out;
      }
    }
    double next;
    if (!ls.cubic || !finite) {
      next = lambda * ls.lambda_factor_min;
    } else {
      if (lambda == 1.0) {
        next = -slope / (2.0 * (f - f_prev - slope));
      } else {
        // Cubic through f(0), f'(0), f(lambda), f(lambda2) (Numerical Recipes lnsrch).
        const double r1 = f - f_prev - lambda * slope;
        const double r2 = f2 - f_prev - lambda2 * slope;
        const double a = (r1 / (lambda * lambda) - r2 / (lambda2 * lambda2)) / (lambda - lambda2);
        const double b = (-lambda2 * r1 / (lambda * lambda) + lambda * r2 / (lambda2 * lambda2)) /
                         (lambda - lambda2);
        if (a == 0.0) {
          next = -slope / (2.0 * b);
        } else {
          const double disc = b * b - 3.0 * a * slope;
          next = disc < 0.0 ? 0.5 * lambda : b <= 0.0 ? (-b + std::sqrt(disc)) / (3.0 * a) : -slope / (b + std::sqrt(disc));
          next = std::min(next, 0.5 * lambda);
        }
      }
      lambda2 = lambda;
      f2 = f;
      next = std::max(next, ls.lambda_factor_min * lambda);
    }
    lambda_prev = lambda;
    lambda = next;
  }
  out.failure = FailureReason::LineSearchFailed;
  out.message = fmt::format("line search: maximum number of iterations {} exceeded", ls.max_iterations);
  return out;
}

}  // namespace mbl::integrators

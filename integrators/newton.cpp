#include "integrators/newton.hpp"

#include <ostream>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
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

NewtonResult NewtonSolver::solve(Problem& problem, double t, double dCoef, double dCoef_alg,
                                 Vector& y, Vector& yp, UpdateMode mode) {
  const int n = problem.size();
  const bool need_abs = opt_.residual_test == ConvergenceTest::RelNorm ||
                        opt_.residual_test == ConvergenceTest::SepNorm;
  const bool test_residual = opt_.residual_tolerance > 0.0 &&
                             opt_.residual_test != ConvergenceTest::None;
  const bool test_solution = opt_.solution_tolerance > 0.0 &&
                             opt_.solution_test != ConvergenceTest::None;
  // Work vectors kept between calls (one solve per time point: no allocation per step).
  Vector& r = r_;
  Vector& abs_r = abs_r_;
  Vector& d = d_;
  r.resize(n);
  abs_r.resize(need_abs ? n : 0);
  NewtonResult res;

  // A Jacobian kept from the previous point is only valid for the same dCoef.
  if (!opt_.keep_jacobian || !(jacobian_dcoef_ == dCoef)) jacobian_valid_ = false;

  auto eval_residual = [&]() -> bool {
    r.setZero();
    if (need_abs) abs_r.setZero();
    problem.residual(t, dCoef, r, need_abs ? &abs_r : nullptr);
    return r.allFinite();
  };
  auto fail = [&](FailureReason why, std::string msg) {
    res.converged = false;
    res.failure = why;
    res.message = std::move(msg);
    return res;
  };

  if (!eval_residual()) return fail(FailureReason::NotANumber, "residual is not a number");
  double first_error = 0.0;
  for (int iter = 0;; ++iter) {
    res.residual_error = convergence_error(opt_.residual_test, r, need_abs ? &abs_r : nullptr,
                                           &problem);
    if (iter == 0) first_error = res.residual_error;
    if (opt_.trace) *opt_.trace << "\tIteration(" << iter << ") " << res.residual_error << '\n';
    if (!std::isfinite(res.residual_error))
      return fail(FailureReason::NotANumber, "residual error is not a number");
    if (test_residual && res.residual_error <= opt_.residual_tolerance) {
      res.converged = true;
      return res;
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
      if (J_.size() != n) J_.resize(n);
      J_.zero();
      problem.jacobian(t, dCoef, J_);
      ++n_jacobians_;
      const FactorStatus st = ls_->factor(J_);
      if (!st.ok) {
        jacobian_valid_ = false;
        res.singular_index = st.singular_index;
        return fail(FailureReason::SingularMatrix, st.message);
      }
      jacobian_valid_ = true;
      jacobian_dcoef_ = dCoef;
      since_jacobian_ = 0;
    }
    d = r;
    ls_->solve(d);
    ++since_jacobian_;
    ++res.iterations;
    if (!d.allFinite()) return fail(FailureReason::NotANumber, "solution is not a number");

    if (!opt_.line_search.enabled) {
      apply(problem, d, 1.0, dCoef, dCoef_alg, y, yp);
      if (mode == UpdateMode::Derivatives) problem.derivatives_update(y, yp);
      problem.update(t, y, yp);
      if (!eval_residual()) return fail(FailureReason::NotANumber, "residual is not a number");
    } else {
      // Backtracking along the Newton direction (input manual §4.1.1 "Line search"):
      // minimise f = 1/2 F.F, accept when f <= f_prev + alpha * lambda * slope.
      const auto& ls = opt_.line_search;
      Vector& y0 = y0_;
      Vector& yp0 = yp0_;
      y0 = y;
      yp0 = yp;
      const double f_prev = 0.5 * r.squaredNorm();
      const double slope = -r.squaredNorm();
      double gamma = 1.0;
      if (ls.scale_newton_step) {
        const double p = ls.max_step * std::max(std::sqrt(y.squaredNorm() + yp.squaredNorm()),
                                                static_cast<double>(n));
        const double dn = d.norm();
        if (dn > 0.0) gamma = std::max(ls.min_scale, std::min(p / dn, 1.0));
      }
      double lambda_lo = ls.lambda_min;
      if (ls.lambda_min_relative) {
        double t_lambda = 0.0;
        for (int i = 0; i < n; ++i)
          t_lambda = std::max(t_lambda, std::abs(gamma * d[i]) /
                                            std::max({std::abs(y[i]), std::abs(yp[i]), 1.0}));
        if (t_lambda > 0.0) lambda_lo = std::max(ls.lambda_min, std::min(ls.tolerance_x / t_lambda, 1.0));
      }
      double lambda = 1.0, lambda_prev = 1.0, f_lambda_prev = 0.0;
      bool accepted = false;
      for (int k = 0; k < ls.max_iterations; ++k) {
        y = y0;
        yp = yp0;
        apply(problem, d, gamma * lambda, dCoef, dCoef_alg, y, yp);
        if (mode == UpdateMode::Derivatives) problem.derivatives_update(y, yp);
        problem.update(t, y, yp);
        const bool finite = eval_residual();
        const double f = finite ? 0.5 * r.squaredNorm() : std::numeric_limits<double>::infinity();
        if (finite && f <= f_prev + ls.alpha * lambda * slope) {
          accepted = true;
          break;
        }
        if (lambda <= lambda_lo) {
          if (!finite) return fail(FailureReason::NotANumber, "residual is not a number");
          if (ls.abort_at_lambda_min)
            return fail(FailureReason::LineSearchFailed,
                        fmt::format("line search: lambda reached its minimum {}", lambda_lo));
          accepted = true;  // keep the smallest step and go on
          break;
        }
        double next;
        if (!ls.cubic || !finite) {
          next = lambda * ls.lambda_factor_min;
        } else if (k == 0) {
          next = -slope / (2.0 * (f - f_prev - slope));
        } else {
          // Cubic through f(0), f'(0), f(lambda), f(lambda_prev) (Numerical Recipes lnsrch).
          const double r1 = f - f_prev - lambda * slope;
          const double r2 = f_lambda_prev - f_prev - lambda_prev * slope;
          const double a = (r1 / (lambda * lambda) - r2 / (lambda_prev * lambda_prev)) /
                           (lambda - lambda_prev);
          const double b = (-lambda_prev * r1 / (lambda * lambda) +
                            lambda * r2 / (lambda_prev * lambda_prev)) /
                           (lambda - lambda_prev);
          if (a == 0.0) {
            next = -slope / (2.0 * b);
          } else {
            const double disc = b * b - 3.0 * a * slope;
            next = disc < 0.0 ? 0.5 * lambda
                   : b <= 0.0 ? (-b + std::sqrt(disc)) / (3.0 * a)
                              : -slope / (b + std::sqrt(disc));
          }
          next = std::min(next, 0.5 * lambda);
        }
        lambda_prev = lambda;
        f_lambda_prev = f;
        lambda = std::max({next, ls.lambda_factor_min * lambda, lambda_lo});
      }
      if (!accepted)
        return fail(FailureReason::LineSearchFailed, "line search: too many iterations");
      d *= gamma * lambda;
    }

    if (test_solution) {
      res.solution_error = convergence_error(opt_.solution_test, d, nullptr, &problem);
      if (!std::isfinite(res.solution_error))
        return fail(FailureReason::NotANumber, "solution error is not a number");
      if (res.solution_error <= opt_.solution_tolerance) {
        res.residual_error = convergence_error(opt_.residual_test, r,
                                               need_abs ? &abs_r : nullptr, &problem);
        res.converged = true;
        return res;
      }
    }
  }
}

}  // namespace mbl::integrators

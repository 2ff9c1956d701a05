// `nonlinear solver: matrix free` (input manual §4.1.1): MBDyn's inexact Newton-Krylov method.
// Each outer iteration tests the residual like Newton-Raphson, then solves J d = r only to within
// eta |r| with BiCGStab or GMRES, right-preconditioned by a factorised Jacobian that is kept
// (across time points too) until an inner solve needs `preconditioner steps` iterations or the
// integration coefficient changes; the products J w come from a finite difference of the
// residual. eta starts at `eta` (Eisenstat and Walker's choice 2, gamma = 0.9) at every point.
//
// The solution test decides as in MBDyn's mfree solvers: it runs after every update, and with
// no solution tolerance (MBDyn's test "none", error 0 <= 0) it accepts the point after the first
// update, whatever the residual left: one inexact Newton step per time point.
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <ostream>

#include "integrators/newton.hpp"

namespace mbl::integrators {

namespace {

constexpr double eps = std::numeric_limits<double>::epsilon();
constexpr double forcing_gamma = 0.9;  // Eisenstat-Walker gamma (MBDyn's defaultGamma)

/// Givens rotation (c, s) that zeroes b in (a, b).
void givens(double a, double b, double& c, double& s) {
  if (std::abs(b) < eps) {
    c = 1.0;
    s = 0.0;
  } else if (std::abs(b) > std::abs(a)) {
    const double q = a / b;
    s = 1.0 / std::sqrt(1.0 + q * q);
    c = q * s;
  } else {
    const double q = b / a;
    c = 1.0 / std::sqrt(1.0 + q * q);
    s = q * c;
  }
}

void rotate(double& a, double& b, double c, double s) {
  const double a_new = c * a + s * b;
  b = -s * a + c * b;
  a = a_new;
}

}  // namespace

// J w = -(r(x + tau w) - r(x)) / tau: the residual at the state moved as a Newton update by
// tau w, with tau scaled by |x.w| / |w| where the state is large (MBDyn's EvalProd).
void NewtonSolver::jacobian_product(Problem& problem, double t, double dCoef, double dCoef_alg,
                                    UpdateMode mode, const Vector& f0, const Vector& w, Vector& z,
                                    Vector& y, Vector& yp) {
  z.setZero(w.size());
  const double w_norm = w.norm();
  if (w_norm < eps) return;
  double tau = opt_.matrix_free.tau;
  const double sigma = y.dot(w) / w_norm;
  if (std::abs(sigma) > eps) tau = std::copysign(tau * std::max(1.0, std::abs(sigma)), sigma);
  tau /= w_norm;
  mf_saved_y_ = y;
  mf_saved_yp_ = yp;
  apply(problem, w, tau, dCoef, dCoef_alg, y, yp);
  if (mode == UpdateMode::Derivatives) problem.derivatives_update(y, yp);
  problem.update(t, y, yp);
  problem.residual(t, dCoef, z, nullptr);
  y = mf_saved_y_;
  yp = mf_saved_yp_;
  problem.update(t, y, yp);
  z = (z - f0) * (-1.0 / tau);
}

int NewtonSolver::gmres(KrylovContext& c, double error, double inner_tolerance) {
  const int n = static_cast<int>(r_.size());
  const int m = std::max(opt_.matrix_free.max_linear_iterations, 1);
  mf_basis_.resize(m + 1);
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(m + 1, m);
  Vector g = Vector::Zero(m + 1), cs = Vector::Zero(m), sn = Vector::Zero(m);
  Vector& v_hat = mf_w_;
  Vector& w = mf_z_;
  mf_f0_ = r_;
  mf_basis_[0] = r_ / error;
  g[0] = error;
  d_.setZero(n);
  // The correction from the first k + 1 basis vectors: triangular solve of the rotated H, then
  // the preconditioner (right preconditioning).
  auto correction = [&](int k) {
    for (int i = k; i >= 0; --i) {
      g[i] /= H(i, i);
      for (int j = i - 1; j >= 0; --j) g[j] -= H(j, i) * g[i];
    }
    for (int j = 0; j <= k; ++j) d_ += g[j] * mf_basis_[j];
    ls_->solve(d_);
  };
  int unmet = 0;
  for (int i = 0; i < m; ++i) {
    v_hat = mf_basis_[i];
    ls_->solve(v_hat);
    jacobian_product(c.problem, c.t, c.dCoef, c.dCoef_alg, c.mode, mf_f0_, v_hat, w, c.y, c.yp);
    const double w_norm = w.norm();
    for (int k = 0; k <= i; ++k) {
      H(k, i) = w.dot(mf_basis_[k]);
      w -= H(k, i) * mf_basis_[k];
    }
    H(i + 1, i) = w.norm();
    // Arnoldi lost orthogonality (the new direction is round-off of w): once more.
    if (0.001 * H(i + 1, i) / w_norm < eps) {
      for (int k = 0; k <= i; ++k) {
        const double h = mf_basis_[k].dot(w);
        H(k, i) += h;
        w -= h * mf_basis_[k];
      }
      H(i + 1, i) = w.norm();
    }
    if (std::abs(H(i + 1, i)) > eps)
      mf_basis_[i + 1] = w / H(i + 1, i);
    else
      mf_basis_[i + 1].setZero(n);  // happy breakdown
    for (int k = 0; k < i; ++k) rotate(H(k, i), H(k + 1, i), cs[k], sn[k]);
    givens(H(i, i), H(i + 1, i), cs[i], sn[i]);
    rotate(H(i, i), H(i + 1, i), cs[i], sn[i]);
    rotate(g[i], g[i + 1], cs[i], sn[i]);
    if (std::abs(g[i + 1]) < inner_tolerance) {
      correction(i);
      return unmet;
    }
    ++unmet;
  }
  correction(m - 1);
  if (opt_.trace) *opt_.trace << "\tIterative inner solver didn't converge. Continuing...\n";
  return unmet;
}

int NewtonSolver::bicgstab(KrylovContext& c, double error, double inner_tolerance) {
  const int n = static_cast<int>(r_.size());
  const int m = opt_.matrix_free.max_linear_iterations;
  mf_f0_ = r_;  // r_hat, also the residual of the products
  Vector& res = r_;
  Vector p = Vector::Zero(n), p_hat(n), s(n), s_hat(n), t = Vector::Zero(n), v = Vector::Zero(n);
  d_.setZero(n);
  double rho = error * error, rho_prev = 0.0, alpha = 0.0, omega = 0.0, resid = error;
  int unmet = 0;
  for (int it = 1; resid > inner_tolerance && it <= m; ++it) {
    if (it == 1) {
      p = res;
    } else {
      rho = mf_f0_.dot(res);
      if (std::abs(rho) < eps) break;  // breakdown
      p = res + (rho / rho_prev) * (alpha / omega) * (p - omega * v);
    }
    p_hat = p;
    ls_->solve(p_hat);
    jacobian_product(c.problem, c.t, c.dCoef, c.dCoef_alg, c.mode, mf_f0_, p_hat, v, c.y, c.yp);
    alpha = rho / mf_f0_.dot(v);
    s = res - alpha * v;
    if ((resid = s.norm()) < inner_tolerance) {
      d_ += alpha * p_hat;
      ++unmet;
      break;
    }
    s_hat = s;
    ls_->solve(s_hat);
    jacobian_product(c.problem, c.t, c.dCoef, c.dCoef_alg, c.mode, mf_f0_, s_hat, t, c.y, c.yp);
    omega = t.dot(s) / t.norm();  // MBDyn's bicg.cc divides by |t|, not |t|^2
    d_ += alpha * p_hat + omega * s_hat;
    res = s - omega * t;
    rho_prev = rho;
    resid = res.norm();
    ++unmet;
    if (std::abs(omega) < eps) break;  // breakdown
    if (it == m && opt_.trace) *opt_.trace << "\tIterative inner solver didn't converge. Continuing...\n";
  }
  return unmet;
}

NewtonResult NewtonSolver::solve_matrix_free(Problem& problem, double t, double dCoef, double dCoef_alg,
                                             Vector& y, Vector& yp, UpdateMode mode) {
  const auto& mf = opt_.matrix_free;
  const int n = problem.size();
  const bool need_abs = opt_.residual_test == ConvergenceTest::RelNorm ||
                        opt_.residual_test == ConvergenceTest::SepNorm;
  const bool test_residual = opt_.residual_tolerance > 0.0 && opt_.residual_test != ConvergenceTest::None;
  const bool test_solution = opt_.solution_tolerance > 0.0 && opt_.solution_test != ConvergenceTest::None;
  r_.resize(n);
  abs_r_.resize(need_abs ? n : 0);
  NewtonResult res;
  auto fail = [&](FailureReason why, std::string msg) {
    res.converged = false;
    res.failure = why;
    res.message = std::move(msg);
    return res;
  };
  // The preconditioner of another integration coefficient belongs to another integrator.
  if (!(jacobian_dcoef_ == dCoef) || mf.preconditioner_steps == 0) jacobian_valid_ = false;
  double eta = mf.eta_max, previous_square = 1.0, first_error = 0.0;
  KrylovContext c{problem, t, dCoef, dCoef_alg, mode, y, yp};
  for (int iter = 0;; ++iter) {
    if (!evaluate_residual(problem, t, dCoef)) return fail(FailureReason::NotANumber, "residual is not a number");
    const double error = tested_error(problem, dCoef, need_abs);
    res.residual_error = error;
    if (iter == 0) first_error = error;
    const bool residual_ok = (!test_residual || error <= opt_.residual_tolerance) && problem.externally_converged();
    // " J": this iteration assembles the preconditioner (MBDyn's trace).
    if (opt_.trace)
      *opt_.trace << "\tIteration(" << iter << ") " << error << (!jacobian_valid_ && !residual_ok ? " J" : "") << '\n';
    if (residual_ok) {
      res.converged = true;
      return res;
    }
    if (!std::isfinite(error)) return fail(FailureReason::NotANumber, "residual error is not a number");
    if (error > opt_.max_residual && opt_.max_residual_active && mode != UpdateMode::Derivatives)
      return fail(FailureReason::MaxResidual,
                  fmt::format("current residual {} > maximum residual {}", error, opt_.max_residual));
    if (iter >= opt_.max_iterations) {
      if (opt_.at_most && error < first_error) {
        res.converged = true;
        return res;
      }
      return fail(FailureReason::MaxIterations,
                  fmt::format("max iterations number {} has been reached", opt_.max_iterations));
    }
    const double ratio = error * error / previous_square;
    previous_square = error * error;
    if (!jacobian_valid_) {
      const FactorStatus st = refresh_jacobian(problem, t, dCoef);
      if (!st.ok) {
        res.singular_index = st.singular_index;
        return fail(FailureReason::SingularMatrix, st.message);
      }
    }
    const int unmet = mf.krylov == NewtonOptions::MatrixFree::Krylov::Gmres
                          ? gmres(c, error, eta * error)
                          : bicgstab(c, error, eta * error);
    ++res.iterations;
    if (unmet >= mf.preconditioner_steps) jacobian_valid_ = false;
    if (!d_.allFinite()) return fail(FailureReason::NotANumber, "solution is not a number");
    // Next forcing term (Eisenstat-Walker choice 2 with safeguards), not below half the
    // tolerance over the error (no oversolving).
    double eta_next = forcing_gamma * ratio;
    if (forcing_gamma * eta * eta > 0.1) eta_next = std::max(eta_next, forcing_gamma * eta * eta);
    eta = std::max(std::min(eta_next, mf.eta_max), 0.5 * opt_.residual_tolerance / error);
    take_step(problem, t, dCoef, dCoef_alg, mode, 1.0, y, yp);
    res.solution_error = test_solution ? convergence_error(opt_.solution_test, d_, nullptr, &problem) : 0.0;
    if (!std::isfinite(res.solution_error)) return fail(FailureReason::NotANumber, "solution error is not a number");
    if ((res.solution_error <= opt_.solution_tolerance || !test_solution) && problem.externally_converged()) {
      res.converged = true;
      return res;
    }
  }
}

}  // namespace mbl::integrators

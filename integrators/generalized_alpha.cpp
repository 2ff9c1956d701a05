#include "integrators/generalized_alpha.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>

namespace mbl::integrators {

GeneralizedAlphaCoefficients generalized_alpha_coefficients(double rho_inf, double h) {
  GeneralizedAlphaCoefficients c;
  c.alpha_m = (2.0 * rho_inf - 1.0) / (rho_inf + 1.0);  // eq. 5
  c.alpha_f = rho_inf / (rho_inf + 1.0);
  c.gamma = 0.5 - c.alpha_m + c.alpha_f;  // eq. 6
  c.beta = 0.25 * std::pow(1.0 - c.alpha_m + c.alpha_f, 2);
  const double one_m = 1.0 - c.alpha_m;
  c.c5 = c.alpha_f / one_m;  // eq. 9
  c.c6 = -c.alpha_m / one_m;
  c.c9 = (1.0 - c.alpha_f) / one_m;
  c.c1 = c.beta * c.alpha_f / one_m * h * h;  // eq. 11
  c.c2 = (0.5 - c.beta / one_m) * h * h;
  c.c8 = c.beta * (1.0 - c.alpha_f) / one_m * h * h;
  c.c3 = c.gamma * c.alpha_f / one_m * h;  // eq. 13
  c.c4 = (1.0 - c.gamma / one_m) * h;
  c.c7 = c.gamma * (1.0 - c.alpha_f) / one_m * h;
  return c;
}

bool consistent_accelerations(SecondOrderProblem& p, double t, const Vector& v, Vector& qdd,
                              Vector& lambda) {
  const int n = p.velocity_size(), m = p.constraint_size();
  const Vector zero_n = Vector::Zero(n), zero_m = Vector::Zero(m);
  p.set_configuration(zero_n);
  Matrix M, B;
  p.mass(M);
  p.constraint_jacobian(t, B);
  Vector Q, phi0, phi_p, phi_m, r;
  p.evaluate(t, v, zero_n, zero_m, Q, phi0);
  // d^2/de^2 Phi(q (+) e v, t + e) = B q'' + (the velocity terms wanted here): the exponential
  // curve has no acceleration of its own.
  const double e = 1e-4 / std::max(1.0, v.size() ? v.lpNorm<Eigen::Infinity>() : 0.0);
  p.set_configuration(e * v);
  p.evaluate(t + e, v, zero_n, zero_m, r, phi_p);
  p.set_configuration(-e * v);
  p.evaluate(t - e, v, zero_n, zero_m, r, phi_m);
  p.set_configuration(zero_n);
  const Vector phi_vv = (phi_p - 2.0 * phi0 + phi_m) / (e * e);
  Matrix K = Matrix::Zero(n + m, n + m);
  K.topLeftCorner(n, n) = M;
  K.topRightCorner(n, m) = B.transpose();
  K.bottomLeftCorner(m, n) = B;
  Vector rhs(n + m);
  rhs << Q, -phi_vv;
  Eigen::FullPivLU<Matrix> lu(K);
  if (!lu.isInvertible()) {
    qdd = zero_n;
    return false;
  }
  const Vector x = lu.solve(rhs);
  qdd = x.head(n);
  lambda = x.tail(m);
  return true;
}

StepResult GeneralizedAlpha::step(SecondOrderProblem& p, double rho_inf, double t_f, double h,
                                  SecondOrderState& s, const NewtonOptions& opt) {
  StepResult res;
  if (!(rho_inf >= 0.0 && rho_inf <= 1.0)) {
    res.failure = FailureReason::InvalidParameter;
    res.message = fmt::format("generalized alpha needs 0 <= rho_inf <= 1, found {}", rho_inf);
    return res;
  }
  const GeneralizedAlphaCoefficients c = generalized_alpha_coefficients(rho_inf, h);
  const int n = p.velocity_size(), m = p.constraint_size();
  // Predictor (eqs. 14, 30): q'' = 0 at t_f.
  Vector dq = h * s.v + c.c1 * s.qdd + c.c2 * s.a;
  Vector v = s.v + c.c3 * s.qdd + c.c4 * s.a;
  Vector a = c.c5 * s.qdd + c.c6 * s.a;
  Vector qdd = Vector::Zero(n);
  Vector lambda = s.lambda, lambda_bar;
  Vector r, phi, rhs(n + m);
  S_.resize(n + m, n + m);
  for (int it = 0;; ++it) {
    p.set_configuration(dq);
    p.evaluate(t_f, v, qdd, lambda, r, phi);
    const double err_r = n ? r.lpNorm<Eigen::Infinity>() : 0.0;
    const double err_c = m ? phi.lpNorm<Eigen::Infinity>() : 0.0;
    res.residual_error = std::max(err_r, err_c);
    if (!std::isfinite(res.residual_error)) {
      res.failure = FailureReason::NotANumber;
      break;
    }
    if (err_r <= opt.residual_tolerance && err_c <= opt.residual_tolerance) {
      res.converged = true;
      break;
    }
    if (it >= opt.max_iterations) {
      res.failure = FailureReason::MaxIterations;
      break;
    }
    // Eq. 27 (without the optional penalty of eq. 26): [T, c8 s B^T; c8 s B, 0] with
    // T = M + c7 G + c8 (K + X(lambda)).
    p.dynamics_matrix(t_f, dq, v, qdd, lambda, 1.0, c.c7, c.c8, T_);
    p.constraint_jacobian(t_f, B_);
    if (it == 0) {
      // Eq. 22 with the characteristic mass, damping and stiffness of the diagonal of T
      // (m_r + c7 d_r + c8 k_r), divided by c8 = O(h^2); eq. 25 scales the multipliers.
      s_ = scale_ && n ? std::max(T_.diagonal().cwiseAbs().mean(), 1e-300) / c.c8 : 1.0;
      lambda_bar = lambda / (c.c8 * s_);
    }
    S_.setZero();
    S_.topLeftCorner(n, n) = T_;
    S_.topRightCorner(n, m) = c.c8 * s_ * B_.transpose();
    S_.bottomLeftCorner(m, n) = c.c8 * s_ * B_;
    rhs << r, -s_ * phi;
    Eigen::FullPivLU<Matrix> lu(S_);
    if (!lu.isInvertible()) {
      res.failure = FailureReason::SingularMatrix;
      break;
    }
    const Vector d = lu.solve(rhs);
    ++res.iterations;
    res.solution_error = d.lpNorm<Eigen::Infinity>();
    // Corrector (eqs. 28, 33).
    dq += c.c8 * d.head(n);
    v += c.c7 * d.head(n);
    qdd += d.head(n);
    a += c.c9 * d.head(n);
    lambda_bar += d.tail(m);
    lambda = c.c8 * s_ * lambda_bar;
  }
  if (!res.converged) {
    p.set_configuration(Vector::Zero(n));
    return res;
  }
  p.commit_configuration();
  s.v = std::move(v);
  s.qdd = std::move(qdd);
  s.a = std::move(a);
  s.lambda = std::move(lambda);
  return res;
}

StepResult SecondOrderIntegrator::step(Problem& problem, double t, double dt,
                                       NewtonSolver& newton, Point& out) {
  StepResult failure;
  SecondOrderProblem* p = nullptr;
  try {
    p = problem.second_order();
    if (!p) failure.message = fmt::format("{}: the problem has no second-order form", name());
  } catch (const std::invalid_argument& e) {
    failure.message = fmt::format("{}: {}", name(), e.what());
  }
  if (!p) {
    failure.failure = FailureReason::InvalidParameter;
    return failure;
  }
  const Point& last = history_.front();
  Vector v, lambda;
  p->from_first_order(last.y, last.yp, v, lambda);
  StepResult r = second_order_step(problem, *p, t, dt, v, lambda, newton.options(), out);
  if (r.converged) {
    started_ = true;
  } else {
    p->set_configuration(Vector::Zero(p->velocity_size()));
  }
  return r;
}

void SecondOrderIntegrator::finish(Problem& problem, SecondOrderProblem& p, double t,
                                   const Vector& v, const Vector& a, const Vector& lambda,
                                   Point& out) {
  out.t = t;
  p.to_first_order(t, v, a, lambda, out.y, out.yp);
  problem.after_convergence(t, out.y, out.yp);
}

StepResult GeneralizedAlphaIntegrator::second_order_step(Problem& problem, SecondOrderProblem& p,
                                                         double t, double dt, const Vector& v,
                                                         const Vector& lambda,
                                                         const NewtonOptions& opt, Point& out) {
  state_.v = v;
  if (!started_) {
    state_.lambda = lambda;
    consistent_accelerations(p, t - dt, state_.v, state_.qdd, state_.lambda);
    state_.a = state_.qdd;  // a_0 = q''_0 (seed 004 §5)
  }
  SecondOrderState next = state_;
  StepResult r = method_.step(p, rho_(t), t, dt, next, opt);
  if (!r.converged) return r;
  state_ = std::move(next);
  finish(problem, p, t, state_.v, state_.qdd, state_.lambda, out);
  return r;
}

}  // namespace mbl::integrators

#include "integrators/central_differences.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>


namespace mbl::integrators {

CentralDifferences::CentralDifferences(CentralDifferencesParameters p) : p_(p) {
  // Table 3 by bisection: the first Omega (scanning up in steps of 0.01) with a spectral radius
  // above `one`, refined between it and the last radius below it.
  auto largest_below = [this](double one) {
    constexpr double kScan = 0.01;
    if (spectral_radius(1e-3) > one) return 0.0;
    double lo = 1e-3, hi = lo;
    while (hi < 10.0 && spectral_radius(hi) <= one) {
      lo = hi;
      hi += kScan;
    }
    for (int k = 0; k < 50; ++k) {
      const double mid = 0.5 * (lo + hi);
      (spectral_radius(mid) <= one ? lo : hi) = mid;
    }
    return lo;
  };
  limit_ = largest_below(1.0 + 1e-9);
  // Weakly unstable sets (radius 1 + O(Omega^2) from a spurious root on the unit circle at
  // Omega = 0: degree 4 with alpha = 5/4, §5.2; degree 5 with alpha = 4/5, beta = gamma = zeta
  // = 1, §5.3) are usable for short runs, as the paper uses them: steps are allowed while the
  // spurious growth stays below kWeakGrowth per step.
  step_limit_ = limit_ > 0 ? limit_ : largest_below(1.0 + kWeakGrowth);
}

PointMaps CentralDifferences::affine(const std::array<Vector, 4>& prev, double h_in,
                                     double h_out) const {
  // The derivatives at t follow from those at t - h_in (the step into the point), the position
  // at t + h_out from the derivatives at t (the step out of it); with a fixed step both are h.
  const auto& [v, a, j, s] = prev;
  const double hi = h_in, ho = h_out;
  const double h2i = hi * hi / 2, h3i = hi * hi * hi / 6;
  const double h2o = ho * ho / 2, h3o = ho * ho * ho / 6, h4o = ho * ho * ho * ho / 24;
  const double al = p_.alpha, be = p_.beta, ga = p_.gamma, ze = p_.zeta;
  PointMaps f;
  if (p_.degree == 3) {  // eqs. 15-16, z = q''(t)
    f.a = Vector::Zero(v.size());
    f.ca = 1.0;
    f.v = v + hi * (1 - be) * a;
    f.cv = hi * be;
    f.dq = ho * f.v + h2o * (1 - al) * a;
    f.cdq = ho * f.cv + h2o * al;
  } else if (p_.degree == 4) {  // eqs. 40-42, z = q'''(t)
    f.a = a + hi * (1 - ga) * j;
    f.ca = hi * ga;
    f.v = v + hi * a + h2i * (1 - be) * j;
    f.cv = h2i * be;
    f.dq = ho * f.v + h2o * f.a + h3o * (1 - al) * j;
    f.cdq = ho * f.cv + h2o * f.ca + h3o * al;
  } else {  // eqs. 69-72, z = q''''(t); q'''(t) = j + h (1 - zeta) s + h zeta z
    const Vector jb = j + hi * (1 - ze) * s;
    const double cj = hi * ze;
    f.a = a + hi * j + h2i * (1 - ga) * s;
    f.ca = h2i * ga;
    f.v = v + hi * a + h2i * j + h3i * (1 - be) * s;
    f.cv = h3i * be;
    f.dq = ho * f.v + h2o * f.a + h3o * jb + h4o * (1 - al) * s;
    f.cdq = ho * f.cv + h2o * f.ca + h3o * cj + h4o * al;
  }
  return f;
}

PointMaps CentralDifferences::start_maps(const std::array<Vector, 4>& d, double h) {
  // The point t0 with q'(t0) given: q'' = z, q_1 = q_0 (+) (h q' + h^2/2 z + Taylor terms).
  PointMaps f;
  f.v = d[0];
  f.cv = 0.0;
  f.a = Vector::Zero(d[0].size());
  f.ca = 1.0;
  f.dq = h * d[0] + (h * h * h / 6) * d[2] + (std::pow(h, 4) / 24) * d[3];
  f.cdq = h * h / 2;
  return f;
}

/// The derivatives at t from z (the new prev of the next step).
static void derivatives_from(int degree, double h, double zeta, const std::array<Vector, 4>& prev,
                             const Vector& v, const Vector& a, const Vector& z,
                             std::array<Vector, 4>& out) {
  out[0] = v;
  out[1] = a;
  const Vector j = degree == 4 ? z : degree == 5 ? Vector(prev[2] + h * (1 - zeta) * prev[3] + h * zeta * z)
                                                 : Vector::Zero(v.size());
  out[2] = j;
  out[3] = degree == 5 ? z : Vector::Zero(v.size());
}

double CentralDifferences::spectral_radius(double Omega) const {
  // q'' = -q, h = Omega; state (q_t, q'(t-h), q''(t-h), ...) of size degree.
  const int n = p_.degree;
  Eigen::MatrixXd A(n, n);
  for (int c = 0; c < n; ++c) {
    const Eigen::VectorXd e = Eigen::VectorXd::Unit(n, c);
    std::array<Vector, 4> prev;
    for (int k = 0; k < 4; ++k) prev[k] = Vector::Constant(1, k + 1 < n ? e[k + 1] : 0.0);
    const PointMaps f = affine(prev, Omega);
    const Vector z = Vector::Constant(1, (-e[0] - f.a[0]) / f.ca);
    std::array<Vector, 4> next;
    derivatives_from(p_.degree, Omega, p_.zeta, prev, f.v + f.cv * z, f.a + f.ca * z, z, next);
    A(0, c) = e[0] + f.dq[0] + f.cdq * z[0];
    for (int k = 1; k < n; ++k) A(k, c) = next[k - 1][0];
  }
  return A.eigenvalues().cwiseAbs().maxCoeff();
}

StepResult solve_point(SecondOrderProblem& p, double t, double h, const PointMaps& f,
                       Vector& lambda, const NewtonOptions& opt, Vector& z, PointMatrix kind) {
  StepResult res;
  const int n = p.velocity_size(), m = p.constraint_size();
  const Vector zero = Vector::Zero(n);
  Vector r, phi_t, phi_next, rhs(n + m);
  Matrix T, B_t, B_next, S(n + m, n + m);
  // Partial pivoting: the KKT matrix is square and, away from singular configurations, regular;
  // full pivoting cost a third of a half-implicit run. A singular matrix shows in rcond.
  Eigen::PartialPivLU<Matrix> lu;
  for (int it = 0;; ++it) {
    const Vector v = f.v + f.cv * z, a = f.a + f.ca * z, dq = f.dq + f.cdq * z;
    p.set_configuration(dq);
    p.constraint_values(t + h, v, lambda, phi_next);
    p.set_configuration(zero);
    p.evaluate(t, v, a, lambda, r, phi_t);
    const double err_r = n ? r.lpNorm<Eigen::Infinity>() : 0.0;
    const double err_c = m ? phi_next.lpNorm<Eigen::Infinity>() : 0.0;
    res.residual_error = std::max(err_r, err_c);
    if (!std::isfinite(res.residual_error)) {
      res.failure = FailureReason::NotANumber;
      return res;
    }
    if (err_r <= opt.residual_tolerance && err_c <= opt.residual_tolerance) {
      res.converged = true;
      return res;
    }
    if (it >= opt.max_iterations) {
      res.failure = FailureReason::MaxIterations;
      return res;
    }
    // Eq. 90 in increments of q''(t).
    if (kind == PointMatrix::Newton || it == 0) {
      p.dynamics_matrix(t, zero, v, a, lambda, 1.0, f.cv / f.ca, 0.0, T);
      p.constraint_jacobian(t, B_t);
      if (kind == PointMatrix::Newton) {
        p.set_configuration(dq);
        p.constraint_jacobian(t + h, B_next);
        p.set_configuration(zero);
      } else {
        B_next = B_t;
      }
      S.setZero();
      S.topLeftCorner(n, n) = T;
      S.topRightCorner(n, m) = B_t.transpose();
      S.bottomLeftCorner(m, n) = B_next;
      lu.compute(S);
    }
    rhs << r, -(f.ca / f.cdq) * phi_next;
    if (!(lu.rcond() > 1e-14)) {
      res.failure = FailureReason::SingularMatrix;
      return res;
    }
    const Vector d = lu.solve(rhs);
    ++res.iterations;
    res.solution_error = d.lpNorm<Eigen::Infinity>();
    z += d.head(n) / f.ca;
    lambda += d.tail(m);
  }
}

StepResult CentralDifferences::start(SecondOrderProblem& p, double t0, double h,
                                     CentralDifferencesState& s, const NewtonOptions& opt) {
  const int n = p.velocity_size();
  const Vector v0 = s.d[0];
  Vector a0, lambda = s.lambda;
  consistent_accelerations(p, t0, v0, a0, lambda);
  Vector j0 = Vector::Zero(n), s0 = Vector::Zero(n);
  if (p_.degree >= 4) {
    // q''' and q'''' at t0 along the motion: differences of the consistent accelerations.
    const double e = 1e-3 / std::max(1.0, v0.lpNorm<Eigen::Infinity>());
    auto accel_at = [&](double de) {
      const Vector dq = de * v0 + 0.5 * de * de * a0;
      Vector a, l = lambda;
      p.set_configuration(dq);
      p.commit_configuration();
      consistent_accelerations(p, t0 + de, v0 + de * a0, a, l);
      p.set_configuration(-dq);
      p.commit_configuration();
      return a;
    };
    const Vector ap = accel_at(e), am = accel_at(-e);
    j0 = (ap - am) / (2 * e);
    s0 = (ap - 2 * a0 + am) / (e * e);
  }
  const PointMaps f = start_maps({v0, a0, j0, s0}, h);
  Vector z = a0;
  s.lambda = lambda;
  StepResult r = solve_point(p, t0, h, f, s.lambda, opt, z, PointMatrix::Newton);
  if (!r.converged) return r;
  s.d = {v0, z, j0, s0};
  s.dq_next = f.dq + f.cdq * z;
  s.at_start = true;
  s.h_in = 0.0;
  s.h_out = h;
  return r;
}

/// The top derivative of the degree, the unknown z of its points.
static const Vector& top_derivative(int degree, const CentralDifferencesState& s) {
  return degree == 3 ? s.d[1] : degree == 4 ? s.d[2] : s.d[3];
}

StepResult CentralDifferences::resolve(SecondOrderProblem& p, double t, double h_out,
                                       CentralDifferencesState& s, const NewtonOptions& opt) const {
  const PointMaps f = s.at_start ? start_maps(s.d, h_out) : affine(s.d_prev, s.h_in, h_out);
  // The start point solves q'' (start()).
  Vector z = s.at_start ? s.d[1] : top_derivative(p_.degree, s), lambda = s.lambda;
  StepResult r = solve_point(p, t, h_out, f, lambda, opt, z, PointMatrix::Newton);
  if (!r.converged) return r;
  if (s.at_start)
    s.d[1] = z;
  else
    derivatives_from(p_.degree, s.h_in, p_.zeta, s.d_prev, f.v + f.cv * z, f.a + f.ca * z, z, s.d);
  s.lambda = std::move(lambda);
  s.dq_next = f.dq + f.cdq * z;
  s.h_out = h_out;
  return r;
}

StepResult CentralDifferences::variable_step(SecondOrderProblem& p, double t, double h,
                                             CentralDifferencesState& s, const NewtonOptions& opt,
                                             bool resolve_changed_step) {
  // The point t - h was solved for the next step s.h_out (its multipliers meet the constraints
  // at t - h + s.h_out, eqs. 84-90): for another step it is solved again; its position and the
  // derivatives before it stay.
  CentralDifferencesState base = s;
  int iterations = 0;
  if (resolve_changed_step && base.h_out != h) {
    const StepResult r = resolve(p, t - h, h, base, opt);
    if (!r.converged) return r;
    iterations = r.iterations;
  }
  p.set_configuration(base.dq_next);
  p.commit_configuration();
  const PointMaps f = affine(base.d, h, h);
  Vector z = top_derivative(p_.degree, base);
  CentralDifferencesState next = base;
  StepResult r = solve_point(p, t, h, f, next.lambda, opt, z, PointMatrix::Newton);
  r.iterations += iterations;
  if (!r.converged) {
    p.set_configuration(-base.dq_next);
    p.commit_configuration();
    return r;
  }
  derivatives_from(p_.degree, h, p_.zeta, base.d, f.v + f.cv * z, f.a + f.ca * z, z, next.d);
  next.dq_next = f.dq + f.cdq * z;
  next.d_prev = std::move(base.d);
  next.at_start = false;
  next.h_in = next.h_out = h;
  s = std::move(next);
  return r;
}

double CentralDifferences::error_constant() const {
  // Degree 3 with beta = 1/2 (order 2, seed 002 §3: beta != 1/2 is first order). Its two-step
  // form, q_(n+1) - 2 q_n + q_(n-1) = h^2 ((1 - beta) a_(n-1) + beta a_n) + (h^2/2) ((1 - alpha)
  // (a_(n-1) - a_(n-2)) + alpha (a_n - a_(n-1))), has the local truncation error K h^4 x'''',
  // K = 7/12 - alpha/2 (Taylor expansion about t_n; Stormer's 1/12 for alpha = 1, Hairer, Norsett
  // & Wanner I §III.10). On an oscillation of frequency w it shifts the numerical frequency: the
  // phase advances by w h (1 + K w^2 h^2 / 2) per step, so the position error that accumulates
  // is (K/2) h^3 |x'''| per step. The one-step position error of eq. 32, ((alpha - 1)/2 - 1/6)
  // h^3 x''' (-1/6 for alpha = 1), is four times larger for alpha = 1 but mostly an offset of
  // the (time-reversible) method's trajectory that does not grow (docs/adaptive.md).
  if (p_.degree == 3 && p_.beta == 0.5) return (7.0 / 12 - p_.alpha / 2) / 2;
  return std::numeric_limits<double>::quiet_NaN();
}

StepResult CentralDifferences::step(SecondOrderProblem& p, double t, double h,
                                    CentralDifferencesState& s, const NewtonOptions& opt) {
  return variable_step(p, t, h, s, opt, false);
}

double CentralDifferences::highest_frequency(SecondOrderProblem& p, double t,
                                             const CentralDifferencesState& s) {
  const int n = p.velocity_size(), m = p.constraint_size();
  const Vector zero = Vector::Zero(n);
  Matrix K, M, B;
  p.dynamics_matrix(t, zero, s.d[0], s.d[1], s.lambda, 0.0, 0.0, 1.0, K);
  p.mass(M);
  Matrix N = Matrix::Identity(n, n);
  if (m > 0) {
    p.constraint_jacobian(t, B);
    N = Eigen::FullPivLU<Matrix>(B).kernel();
  }
  if (N.cols() == 0) return 0.0;
  const Matrix Mn = N.transpose() * M * N, Kn = N.transpose() * K * N;
  Eigen::FullPivLU<Matrix> lu(Mn);
  if (!lu.isInvertible()) return std::numeric_limits<double>::infinity();
  const Eigen::VectorXcd mu = Matrix(lu.solve(Kn)).eigenvalues();
  return std::sqrt(mu.cwiseAbs().maxCoeff());
}

StepResult CentralDifferencesIntegrator::second_order_step(Problem& problem, SecondOrderProblem& p,
                                                           double t, double dt, const Vector& v,
                                                           const Vector& lambda,
                                                           const NewtonOptions& opt, Point& out) {
  StepResult failure;
  CentralDifferencesState s = started_ ? state_ : CentralDifferencesState{};
  if (!started_) {
    s.d[0] = v;
    s.lambda = lambda;
    const StepResult r = method_.start(p, t - dt, dt, s, opt);
    if (!r.converged) return r;
  }
  const CentralDifferencesParameters& c = method_.parameters();
  // A step must be within the stability limit at both its ends (docs/adaptive.md): at the point
  // it starts from (measured when the step that reached it was accepted, under error control) and,
  // under error control, at the point it reaches (below).
  const double omega = s.omega >= 0.0 ? s.omega : CentralDifferences::highest_frequency(p, t - dt, s);
  auto above_limit = [&](double omega_at, const char* where) {
    failure.failure = error_control() ? FailureReason::StabilityLimit : FailureReason::InvalidParameter;
    failure.stable_step = method_.step_limit() / omega_at;
    failure.message = fmt::format(
        "central differences of degree {} (alpha {}, beta {}{}): the step {} exceeds the stability "
        "limit omega*dt <= {:.4g}{} at the point {} (omega_max = {:.6g}, omega*dt = {:.4g})",
        c.degree, c.alpha, c.beta,
        c.degree >= 4 ? fmt::format(", gamma {}{}", c.gamma, c.degree == 5 ? fmt::format(", zeta {}", c.zeta) : "")
                      : std::string(),
        dt, method_.step_limit(),
        method_.stability_limit() > 0 ? "" : " (weakly unstable parameters: spurious growth <= 0.1 % per step)",
        where, omega_at, omega_at * dt);
    return failure;
  };
  if (omega * dt > method_.step_limit()) return above_limit(omega, "it starts from");
  // A step of the size the point before was solved for is the fixed-step step (the same
  // operations); another size solves that point again for it under error control. `factor` and
  // `change` keep what they did before error control existed: the point before stays as solved
  // (its next position computed for the step before; docs/adaptive.md).
  StepResult r = method_.variable_step(p, t, dt, s, opt, error_control());
  if (!r.converged) return r;
  state_ = std::move(s);
  if (!error_control()) {
    finish(problem, p, t, state_.d[0], state_.d[1], state_.lambda, out);
    return r;
  }
  // The first steps (fewer than three past points for the values, family_error_estimate) and
  // those across a jump of the stiffness (below): C h^3 x''' with x''' = (a_t - a_(t-dt)) / dt from the accelerations of the step's two points
  // (degree 3, the only one under error control; the estimate of Zienkiewicz & Xie for Newmark's
  // method, Earthquake Eng. Struct. Dyn. 20, 1991, 871-887, has this form), a configuration
  // increment measured in the first-order unknowns (positions, orientation parameters).
  const Vector e_dq = (method_.error_constant() * dt * dt) * (state_.d[1] - state_.d_prev[1]);
  estimate_.setZero(n_);
  p.increment_to_first_order(e_dq, estimate_);
  // The point reached: a step that enters a stiffening (a contact) is solved from the point before
  // it, where nothing bounds it; checked here, it is retried at the new point's limit (the caller
  // puts the problem back) instead of keeping a point that went too far into it. Its omega_max
  // bounds the next step (StepResult::stable_step) and serves that step's check at its start.
  finish(problem, p, t, state_.d[0], state_.d[1], state_.lambda, out);
  state_.omega = CentralDifferences::highest_frequency(p, t, state_);
  if (state_.omega * dt > method_.step_limit()) {
    const StepResult above = above_limit(state_.omega, "it reaches");
    restore_family_state();
    return above;
  }
  // A stiffness that changes by more than a factor of 2 within the step (a contact entered or
  // left), at a step that does not resolve it, is a jump the values of the points cannot show: the new position was computed from the
  // point before it (explicit in the positions), on the smooth curve of the past points. The
  // accelerations' estimate above sees it (a_t - a_(t-dt) holds the contact force); the values'
  // one (family_error_estimate) serves the other steps.
  // Where the step resolves the faster motion (omega h below a tenth of the limit) the change is
  // smooth however large its ratio (a pendulum's omega passing near zero).
  const double omega_max = std::max(omega, state_.omega);
  accelerations_estimate_ = omega_max > 2.0 * std::min(omega, state_.omega) && omega_max * dt > 0.1 * method_.step_limit();
  r.stable_step = state_.omega > 0.0 ? method_.step_limit() / state_.omega : HUGE_VAL;
  return r;
}

bool CentralDifferencesIntegrator::family_error_estimate(Problem& problem, const Point& out, double dt) {
  // With `degree` past points: C h^degree x^(degree), x^(degree) = degree! times the divided
  // difference of the values of the new point and the past ones. The values, not the solved
  // accelerations: where the step changes, the accelerations of a constrained point jump by
  // O(h (h_out - h_in)) (the multipliers meet the constraints one step ahead, eqs. 84-90, and take
  // up the velocity's normal component / h), while the positions stay smooth.
  const int degree = method_.parameters().degree;
  if (static_cast<int>(history_.size()) < degree || accelerations_estimate_) return true;  // the accelerations' (above)
  std::vector<const Point*> ptrs{&out};
  for (int j = 0; j < degree; ++j) ptrs.push_back(&history_[j]);
  values_divided_difference(rebased(problem, ptrs), estimate_);
  double factorial = 1.0;
  for (int k = 2; k <= degree; ++k) factorial *= k;
  estimate_ *= method_.error_constant() * std::pow(dt, degree) * factorial;
  return true;
}

}  // namespace mbl::integrators

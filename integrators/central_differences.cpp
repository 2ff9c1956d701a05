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

PointMaps CentralDifferences::affine(const std::array<Vector, 4>& prev,
                                                      double h) const {
  const auto& [v, a, j, s] = prev;
  const double h2 = h * h / 2, h3 = h * h * h / 6, h4 = h * h * h * h / 24;
  const double al = p_.alpha, be = p_.beta, ga = p_.gamma, ze = p_.zeta;
  PointMaps f;
  if (p_.degree == 3) {  // eqs. 15-16, z = q''(t)
    f.a = Vector::Zero(v.size());
    f.ca = 1.0;
    f.v = v + h * (1 - be) * a;
    f.cv = h * be;
    f.dq = h * f.v + h2 * (1 - al) * a;
    f.cdq = h * f.cv + h2 * al;
  } else if (p_.degree == 4) {  // eqs. 40-42, z = q'''(t)
    f.a = a + h * (1 - ga) * j;
    f.ca = h * ga;
    f.v = v + h * a + h2 * (1 - be) * j;
    f.cv = h2 * be;
    f.dq = h * f.v + h2 * f.a + h3 * (1 - al) * j;
    f.cdq = h * f.cv + h2 * f.ca + h3 * al;
  } else {  // eqs. 69-72, z = q''''(t); q'''(t) = j + h (1 - zeta) s + h zeta z
    const Vector jb = j + h * (1 - ze) * s;
    const double cj = h * ze;
    f.a = a + h * j + h2 * (1 - ga) * s;
    f.ca = h2 * ga;
    f.v = v + h * a + h2 * j + h3 * (1 - be) * s;
    f.cv = h3 * be;
    f.dq = h * f.v + h2 * f.a + h3 * jb + h4 * (1 - al) * s;
    f.cdq = h * f.cv + h2 * f.ca + h3 * cj + h4 * al;
  }
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
  // The point t0 with q'(t0) given: q'' = z, q_1 = q_0 (+) (h q' + h^2/2 z + Taylor terms).
  PointMaps f;
  f.v = v0;
  f.cv = 0.0;
  f.a = Vector::Zero(n);
  f.ca = 1.0;
  f.dq = h * v0 + (h * h * h / 6) * j0 + (std::pow(h, 4) / 24) * s0;
  f.cdq = h * h / 2;
  Vector z = a0;
  s.lambda = lambda;
  StepResult r = solve_point(p, t0, h, f, s.lambda, opt, z, PointMatrix::Newton);
  if (!r.converged) return r;
  s.d = {v0, z, j0, s0};
  s.dq_next = f.dq + f.cdq * z;
  return r;
}

StepResult CentralDifferences::step(SecondOrderProblem& p, double t, double h,
                                    CentralDifferencesState& s, const NewtonOptions& opt) {
  p.set_configuration(s.dq_next);
  p.commit_configuration();
  const PointMaps f = affine(s.d, h);
  // Start Newton from the previous value of the top derivative.
  Vector z = p_.degree == 3 ? s.d[1] : p_.degree == 4 ? s.d[2] : s.d[3];
  CentralDifferencesState next = s;
  StepResult r = solve_point(p, t, h, f, next.lambda, opt, z, PointMatrix::Newton);
  if (!r.converged) {
    p.set_configuration(-s.dq_next);
    p.commit_configuration();
    return r;
  }
  const Vector v = f.v + f.cv * z, a = f.a + f.ca * z;
  derivatives_from(p_.degree, h, p_.zeta, s.d, v, a, z, next.d);
  next.dq_next = f.dq + f.cdq * z;
  s = std::move(next);
  return r;
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
  const double omega = CentralDifferences::highest_frequency(p, t - dt, s);
  if (omega * dt > method_.step_limit()) {
    failure.failure = FailureReason::InvalidParameter;
    failure.message = fmt::format(
        "central differences of degree {} (alpha {}, beta {}{}): the step {} exceeds the stability "
        "limit omega*dt <= {:.4g}{} (omega_max = {:.6g}, omega*dt = {:.4g})",
        c.degree, c.alpha, c.beta,
        c.degree >= 4 ? fmt::format(", gamma {}{}", c.gamma, c.degree == 5 ? fmt::format(", zeta {}", c.zeta) : "")
                      : std::string(),
        dt, method_.step_limit(),
        method_.stability_limit() > 0 ? "" : " (weakly unstable parameters: spurious growth <= 0.1 % per step)",
        omega, omega * dt);
    return failure;
  }
  StepResult r = method_.step(p, t, dt, s, opt);
  if (!r.converged) return r;
  state_ = std::move(s);
  finish(problem, p, t, state_.d[0], state_.d[1], state_.lambda, out);
  return r;
}

}  // namespace mbl::integrators

#include "integrators/integrator.hpp"

#include "integrators/central_differences.hpp"
#include "integrators/generalized_alpha.hpp"
#include "integrators/half_implicit.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <span>
#include <stdexcept>

namespace mbl::integrators {

namespace {
StepResult from_newton(const NewtonResult& n, int iterations) {
  StepResult r;
  r.converged = n.converged;
  r.iterations = iterations;
  r.residual_error = n.residual_error;
  r.solution_error = n.solution_error;
  r.failure = n.failure;
  r.singular_index = n.singular_index;
  r.message = n.message;
  return r;
}
StepResult invalid(const std::string& msg) {
  StepResult r;
  r.failure = FailureReason::InvalidParameter;
  r.message = msg;
  return r;
}
}  // namespace

NewtonResult solve_derivatives(Problem& problem, double t0, Vector& y, Vector& yp,
                               NewtonSolver& newton, double coefficient) {
  problem.update(t0, y, yp);
  return newton.solve(problem, t0, coefficient, coefficient, y, yp, UpdateMode::Derivatives);
}

// ---- ImplicitStepIntegrator --------------------------------------------------------------------

void ImplicitStepIntegrator::start(Problem& problem, double t0, const Vector& y0,
                                   const Vector& yp0) {
  n_ = problem.size();
  alg_.resize(n_);
  for (int i = 0; i < n_; ++i) alg_[i] = problem.dof_order(i) == DofOrder::Algebraic;
  in_norm_.resize(n_);
  for (int i = 0; i < n_; ++i) in_norm_[i] = problem.in_error_norm(i);
  Point p0{t0, y0, yp0};
  // Error control estimates from the two previous steps and the new one (Milne's device).
  if (error_control()) history_size_ = std::max(history_size_, error_history_points());
  // The most points a step rebases: its past steps, or the previous stages of an ESDIRK step.
  problem.reserve_history(
      std::max({history_size_, implicit_stages() + 1, error_control() ? error_history_points() + 1 : 0}));
  problem.after_convergence(t0, p0.y, p0.yp);
  history_.clear();
  history_.push_front(p0);
  steps_ = 0;
  global_error_.setZero(n_);
  global_norm_ = 0.0;
  on_start(history_.front());
}

StepResult ImplicitStepIntegrator::advance(Problem& problem, double t, double dt,
                                           NewtonSolver& newton) {
  if (history_.empty()) throw std::logic_error("ImplicitStepIntegrator::advance before start");
  if (!(dt > 0.0) || !std::isfinite(dt) || !std::isfinite(t))
    return invalid(fmt::format("invalid time step {}", dt));
  problem.save_checkpoint();
  if (error_control()) save_family_state();
  Point out;
  StepResult res = step(problem, t, dt, newton, out);
  if (res.converged && error_control()) {
    if (!family_error_estimate(problem, out, dt)) error_estimate_from_history(problem, out, dt);
    const Vector& y_prev = history_.front().y;
    double norm = 0.0;
    for (int i = 0; i < n_; ++i) {
      if (!in_norm_[i]) continue;
      const double w = error_test_.atol + error_test_.rtol * std::max(std::abs(out.y[i]), std::abs(y_prev[i]));
      norm = std::max(norm, std::abs(estimate_[i]) / w);
    }
    if (error_test_.per_unit_step) {
      // The Milne estimate of a step much shorter than the previous one holds h times the
      // difference of the previous points' derivative offsets, O(h h_prev^p), not O(h^(p+1)): per
      // unit of the larger step it still shrinks with h (docs/adaptive.md).
      const double h_prev = history_.size() >= 2 ? history_[0].t - history_[1].t : dt;
      norm /= std::max(dt, h_prev);
    }
    res.error_norm = norm;
    if (!error_test_.accept(norm, dt)) {
      res.converged = false;
      res.error_rejected = true;
      res.message = fmt::format("local error estimate {:g} times the tolerance", norm);
      restore_family_state();
    }
  }
  if (res.converged && error_control() && error_test_.transport_global_error)
    transport_global_error(problem, out, dt, newton);
  if (res.converged) {
    history_.push_front(std::move(out));
    while (static_cast<int>(history_.size()) > history_size_) {
      spare_ = std::move(history_.back());
      history_.pop_back();
    }
    ++steps_;
  } else {
    problem.restore_checkpoint();
    problem.update(time(), history_.front().y, history_.front().yp);
  }
  return res;
}

void ImplicitStepIntegrator::error_estimate_from_history(Problem& problem, const Point& out,
                                                       double dt) {
  // Milne's device with a Hermite predictor (docs/adaptive.md). The converged points of a
  // method of order p lie on a smooth curve z(t) whose derivatives differ from the solved ones
  // by delta = y'_solved - z' = O(h^p), and the local error is h sigma(1) delta (sigma(1) = 1 for
  // the one-step methods). The cubic Hermite extrapolation P of the two previous points' values
  // and solved derivatives misses z(t_n) by -(sum of its derivative weights) delta + O(h^4):
  // e = -h (y_n - P(t_n)) / sum(beta). The factor is h, not h sigma(1): a variable-step sigma(1)
  // holds a_2 h_prev, which does not vanish with h, and a step retried smaller after a rejection
  // must see its estimate shrink (where the solved derivatives jump, e.g. momenta with
  // oscillating multipliers, y_n - P(t_n) / sum(beta) tends to the jump, not to zero).
  estimate_.setZero(n_);
  if (history_.size() < 2) {
    // The first step: the trapezoidal defect of the step's ends, O(h^3) (zero for the
    // trapezoidal rule, which the multistep methods take first).
    const std::span<const Point> pts = rebased(problem, {&out, &history_[0]});
    for (int i = 0; i < n_; ++i)
      if (!alg_[i])
        estimate_[i] = pts[0].y[i] - pts[1].y[i] - 0.5 * dt * (pts[0].yp[i] + pts[1].yp[i]);
    return;
  }
  const std::span<const Point> pts = rebased(problem, {&out, &history_[0], &history_[1]});
  const double H = pts[1].t - pts[2].t, s = (out.t - pts[2].t) / H;
  const double h00 = (2 * s - 3) * s * s + 1, h10 = ((s - 2) * s + 1) * s;
  const double h01 = (3 - 2 * s) * s * s, h11 = (s - 1) * s * s;
  const double beta_sum = H * (h10 + h11);
  const double scale = -dt / beta_sum;
  for (int i = 0; i < n_; ++i) {
    if (alg_[i]) continue;
    const double P = h00 * pts[2].y[i] + H * h10 * pts[2].yp[i] + h01 * pts[1].y[i] + H * h11 * pts[1].yp[i];
    estimate_[i] = scale * (pts[0].y[i] - P);
  }
}

void ImplicitStepIntegrator::transport_global_error(Problem& problem, const Point& out, double dt,
                                                    NewtonSolver& newton) {
  // The global error e of the differential unknowns obeys f_y e + f_y' e' = 0 to first order, plus
  // the local error l_n each step commits (the error transport equation; Lang & Verwer, SIAM J.
  // Sci. Comput. 29, 2007). One step of it with the step's own matrix J = f_y' + D f_y and
  // theta = D / h: J d = -f_y e_(n-1), e_n = e_(n-1) + h d + l_n, the theta-method, which is
  // implicit euler's exact linearised step (theta = 1). -f_y e is the residual's difference along
  // e, taken at a step of sqrt(machine epsilon) and scaled back (e is linear in it).
  LinearSolver& linear = newton.linear_solver();
  double e_max = 0.0, y_max = 1.0;
  for (int i = 0; i < n_; ++i)
    if (!alg_[i]) {
      e_max = std::max(e_max, std::abs(global_error_[i]));
      y_max = std::max(y_max, std::abs(out.y[i]));
    }
  if (e_max > 0.0 && last_dcoef_ > 0.0 && linear.has_factorization()) {
    const double scale = 1.5e-8 * y_max / e_max;
    transport_y_ = out.y;
    for (int i = 0; i < n_; ++i)
      if (!alg_[i]) transport_y_[i] += scale * global_error_[i];
    transport_r0_.setZero(n_);
    transport_r1_.setZero(n_);
    problem.update(out.t, transport_y_, out.yp);
    problem.residual(out.t, last_dcoef_, transport_r1_, nullptr);
    // The converged point last: what elements keep from their residual (reactions written as
    // output) is the converged point's again.
    problem.update(out.t, out.y, out.yp);
    problem.residual(out.t, last_dcoef_, transport_r0_, nullptr);
    transport_r1_ -= transport_r0_;
    linear.solve(transport_r1_);
    for (int i = 0; i < n_; ++i)
      if (!alg_[i] && std::isfinite(transport_r1_[i])) global_error_[i] += dt * transport_r1_[i] / scale;
  }
  global_norm_ = 0.0;
  for (int i = 0; i < n_; ++i) {
    if (alg_[i]) continue;
    global_error_[i] += estimate_[i];
    if (!in_norm_[i]) continue;
    const double w = error_test_.atol + error_test_.rtol * std::abs(out.y[i]);
    global_norm_ = std::max(global_norm_, std::abs(global_error_[i]) / w);
  }
}

void ImplicitStepIntegrator::values_divided_difference(std::span<const Point> pts, Vector& dd) const {
  // Newton's table, column by column: d[j] holds the divided difference of pts[j .. j + k].
  const int k_max = static_cast<int>(pts.size()) - 1;
  dd.setZero(n_);
  std::vector<double> d(pts.size());
  for (int i = 0; i < n_; ++i) {
    if (alg_[i]) continue;
    for (int j = 0; j <= k_max; ++j) d[j] = pts[j].y[i];
    for (int k = 1; k <= k_max; ++k)
      for (int j = 0; j + k <= k_max; ++j) d[j] = (d[j] - d[j + 1]) / (pts[j].t - pts[j + k].t);
    dd[i] = d[0];
  }
}

std::span<const ImplicitStepIntegrator::Point> ImplicitStepIntegrator::rebased(
    Problem& problem, const std::vector<const Point*>& pts) {
  // rebase_history() takes the states and the derivatives as two arrays: they are moved there
  // and back (no copy of their storage).
  std::vector<Vector> ys(pts.size()), yps(pts.size());
  if (rebased_.size() < pts.size()) rebased_.resize(pts.size());
  for (std::size_t j = 0; j < pts.size(); ++j) {
    ys[j] = std::move(rebased_[j].y);
    yps[j] = std::move(rebased_[j].yp);
    ys[j] = pts[j]->y;
    yps[j] = pts[j]->yp;
  }
  problem.rebase_history(std::span<Vector>(ys), std::span<Vector>(yps));
  for (std::size_t j = 0; j < pts.size(); ++j) {
    rebased_[j].t = pts[j]->t;
    rebased_[j].y = std::move(ys[j]);
    rebased_[j].yp = std::move(yps[j]);
  }
  // The storage may hold more points (kept from a longer call): only those asked for.
  return std::span<const Point>(rebased_).first(pts.size());
}

NewtonResult ImplicitStepIntegrator::solve_point(Problem& problem, double t, const Vector& C,
                                                 const Vector& XP_pred, double D, double D_alg,
                                                 NewtonSolver& newton, Point& out) {
  // The new point in the storage of the one that left the history.
  Vector y = std::move(spare_.y), yp = std::move(spare_.yp);
  y.resize(n_);
  yp.resize(n_);
  for (int i = 0; i < n_; ++i) {
    const double Xn = C[i] + (alg_[i] ? D_alg : D) * XP_pred[i];
    y[i] = alg_[i] ? XP_pred[i] : Xn;
    yp[i] = alg_[i] ? Xn : XP_pred[i];
  }
  problem.after_predict(t, y, yp);
  problem.update(t, y, yp);
  last_dcoef_ = D;
  NewtonResult res = newton.solve(problem, t, D, D_alg, y, yp, UpdateMode::Regular);
  if (res.converged) {
    problem.after_convergence(t, y, yp);
    out = Point{t, std::move(y), std::move(yp)};
  }
  return res;
}

void ImplicitStepIntegrator::predict(double t, std::span<const Point> pts, int count,
                                     Vector& xp) const {
  count = std::min<int>(count, static_cast<int>(pts.size()));
  if (count <= 1) {  // constant prediction, seed eq. (15)
    xp = XP(pts.front());
    return;
  }
  std::vector<double> times;
  for (int j = 0; j < count; ++j) times.push_back(pts[j].t);
  const coef::Predictor P = count == 2 ? coef::second_order_predictor(t, times[0], times[1])
                                       : coef::hermite_predictor(t, times);
  const double h = t - times[0];
  // Element by element, in the order of the vector expression sum_j (m_j / h) X_j + n_j XP_j.
  xp.setZero(n_);
  for (int j = 0; j < count; ++j) {
    const double m = P.m[j] / h, nj = P.n[j];
    const Vector &y = pts[j].y, &yp = pts[j].yp;
    for (int i = 0; i < n_; ++i)
      xp[i] += m * (alg_[i] ? yp[i] : y[i]) + nj * (alg_[i] ? y[i] : yp[i]);
  }
}

// ---- StepNIntegrator ---------------------------------------------------------------------------

template <int N>
StepNIntegrator<N>::StepNIntegrator(std::string name, Formula f, RhoFunction rho,
                                    RhoFunction rho_alg, bool extrapolate)
    : ImplicitStepIntegrator(std::move(name), std::max(N, 2)),
      formula_(std::move(f)),
      rho_(std::move(rho)),
      rho_alg_(std::move(rho_alg)),
      extrapolate_(extrapolate) {}

template <int N>
StepResult StepNIntegrator<N>::step(Problem& problem, double t, double dt, NewtonSolver& newton,
                                    Point& out) {
  const int avail = static_cast<int>(history_.size());
  const double h_prev = avail >= 2 ? history_[0].t - history_[1].t : dt;
  coef::Lms fd, fa;
  bool alg_same = true;  // algebraic unknowns use the differential formula (same radius)
  if (avail < 2 && N > 1) {
    fd = fa = coef::trapezoidal(dt);  // first step, seed eq. (3)
  } else {
    try {
      int r_avail = std::min(avail, N);
      if (error_control()) {
        // A variable step (docs/adaptive.md): the fixed-step members (ms3, ms4, hope's two-step
        // formula) need their past steps equal to this one; until they are, the family's
        // variable-step second-order member (ms2 with h_prev, or the trapezoidal rule for hope)
        // takes the step, so the order (2) is kept across every change.
        int equal = 1;
        while (equal < r_avail && std::abs((history_[equal - 1].t - history_[equal].t) - dt) <= 1e-9 * dt) ++equal;
        r_avail = std::min(r_avail, equal);
      }
      const double rho = rho_ ? rho_(t) : 0.0;
      const double rho_alg = rho_alg_ ? rho_alg_(t) : rho;
      fd = formula_(rho, dt, h_prev, steps() + 1, r_avail);
      alg_same = rho_alg == rho;
      fa = alg_same ? fd : formula_(rho_alg, dt, h_prev, steps() + 1, r_avail);
    } catch (const std::invalid_argument& e) {
      return invalid(e.what());
    }
  }
  const int r = static_cast<int>(fd.a.size());
  const int n_pred = extrapolate_ && avail >= 2 ? 2 : 1;  // seed eq. (12), else eq. (15)
  const int npts = std::min(avail, std::max(r, n_pred));
  std::vector<const Point*> ptrs;
  for (int j = 0; j < npts; ++j) ptrs.push_back(&history_[j]);
  const std::span<const Point> pts = rebased(problem, ptrs);
  // C = sum_j a_j X_j + b_j XP_j, element by element (the algebraic unknowns with their own
  // formula when its radius differs).
  C_.setZero(n_);
  for (int j = 1; j <= r; ++j) {
    const Vector &y = pts[j - 1].y, &yp = pts[j - 1].yp;
    for (int i = 0; i < n_; ++i) {
      const coef::Lms& f = alg_[i] && !alg_same ? fa : fd;
      C_[i] += f.a[j - 1] * (alg_[i] ? yp[i] : y[i]) + f.b[j] * (alg_[i] ? y[i] : yp[i]);
    }
  }
  predict(t, pts, n_pred, XP_pred_);
  const NewtonResult nr = solve_point(problem, t, C_, XP_pred_, fd.b[0], fa.b[0], newton, out);
  if (error_control()) last_formula_ = std::move(fd);
  return from_newton(nr, nr.iterations);
}

template <int N>
bool StepNIntegrator<N>::family_error_estimate(Problem& problem, const Point& out, double dt) {
  // Values only (docs/adaptive.md), for crank nicolson: the trapezoidal rule keeps an undamped
  // oscillation (root -1) in the derivatives it solves, which Milne's device, through the
  // derivatives, reads as an error that does not shrink with the step. The values of the
  // converged points are free of it (y_n - y_(n-1) holds the sum of two consecutive derivatives,
  // where the alternation cancels). The local error of the formula X_n = sum_j a_j X_(n-j) +
  // sum_j b_j XP_(n-j) on a smooth solution is its residual R = (sum_j a_j tau_j^3 / 6 - sum_j
  // b_j tau_j^2 / 2) y''' + O(h^4), tau_j = t_n - t_(n-j), and y''' is 6 times the third divided
  // difference of the new point and three past ones (Lambert, Computational Methods in ODEs,
  // §3.5; the trapezoidal rule gives -h^3 y''' / 12).
  if (!values_only_estimate() || history_.size() < 3) return false;
  const std::span<const Point> pts = rebased(problem, {&out, &history_[0], &history_[1], &history_[2]});
  const coef::Lms& f = last_formula_;
  double c3 = 0.0;  // e = c3 * (third divided difference)
  for (std::size_t j = 1; j < f.b.size(); ++j) {
    const double tau = out.t - pts[j].t;
    if (j - 1 < f.a.size()) c3 += f.a[j - 1] * tau * tau * tau;
    c3 -= 3.0 * f.b[j] * tau * tau;
  }
  values_divided_difference(pts, estimate_);
  estimate_ *= c3;
  return true;
}

// ---- SingleStepIntegrator ----------------------------------------------------------------------

template <int N>
SingleStepIntegrator<N>::SingleStepIntegrator(std::string name, RhoFunction rho)
    : ImplicitStepIntegrator(std::move(name), 2), rho_(std::move(rho)) {}

template <int N>
void SingleStepIntegrator<N>::on_start(const Point& p0) {
  // Seed §2.2: the auxiliary variables start equal to y'_0.
  aux_.assign(N - 1, XP(p0).template cast<std::complex<double>>());
}

template <int N>
StepResult SingleStepIntegrator<N>::step(Problem& problem, double t, double dt,
                                         NewtonSolver& newton, Point& out) {
  using cd = std::complex<double>;
  std::vector<cd> g;
  try {
    g = coef::ss_gammas(N, rho_ ? rho_(t) : 0.0);
  } catch (const std::invalid_argument& e) {
    return invalid(e.what());
  }
  // Coefficients of A^p_N over the basis [y'_N, y'_{N-1}, aux^1_{N-1}, ..., aux^{N-1}_{N-1}]
  // from the chain (4b)-(4e); then y_N from (4a): this reproduces eqs. (9)-(11).
  const int nb = N + 1;
  auto unit = [&](int k) {
    Eigen::VectorXcd e = Eigen::VectorXcd::Zero(nb);
    e[k] = 1.0;
    return e;
  };
  Eigen::VectorXcd A_new = unit(0);  // A^0_N
  for (int p = 1; p < N; ++p) {
    const cd ge = g[2 * (N - p)], go = g[2 * (N - p) - 1];
    A_new = ((1.0 - ge) * unit(p) + ge * A_new - (1.0 - go) * unit(p + 1)) / go;
  }
  const Eigen::VectorXcd ycoef = dt * ((1.0 - g[0]) * unit(N) + g[0] * A_new);
  const std::span<const Point> pts = rebased(problem, {&history_[0]});
  const Vector XP1 = XP(pts[0]);
  // A changed step under error control (docs/adaptive.md): each auxiliary variable is the
  // derivative at the last point plus a multiple of h y'' (it starts equal to y'_0 and follows
  // eqs. 18-20), a multiple fixed by the gammas for a fixed step. Taken unchanged into a step of
  // another size it stands for y' at the wrong time, an O(h^2) local error at every change that
  // made the step collapse; scaled by the ratio of the steps, aux = y'_(N-1) + (h / h_prev)
  // (aux - y'_(N-1)), it keeps the method second order (as a Nordsieck vector is rescaled).
  std::vector<Eigen::VectorXcd> scaled;
  const std::vector<Eigen::VectorXcd>* aux = &aux_;
  if (error_control() && history_.size() >= 2) {
    const double ratio = dt / (history_[0].t - history_[1].t);
    if (std::abs(ratio - 1.0) > 1e-12) {
      const Eigen::VectorXcd XP1c = XP1.template cast<cd>();
      for (const Eigen::VectorXcd& a : aux_) scaled.push_back(XP1c + ratio * (a - XP1c));
      aux = &scaled;
    }
  }
  Vector C = X(pts[0]) + ycoef[1].real() * XP1;
  for (int p = 1; p < N; ++p) C += (ycoef[p + 1] * (*aux)[p - 1]).real();
  const double D = ycoef[0].real();
  const NewtonResult nr = solve_point(problem, t, C, XP1, D, D, newton, out);
  if (nr.converged) {
    // Eqs. (18)-(20) on the canonical vectors (omega for rotations).
    Eigen::VectorXcd old_prev = XP(history_[0]).template cast<cd>();
    Eigen::VectorXcd new_prev = XP(out).template cast<cd>();
    for (int p = 1; p < N; ++p) {
      const cd ge = g[2 * (N - p)], go = g[2 * (N - p) - 1];
      Eigen::VectorXcd updated =
          ((1.0 - ge) * old_prev + ge * new_prev - (1.0 - go) * (*aux)[p - 1]) / go;
      old_prev = (*aux)[p - 1];
      new_prev = updated;
      aux_[p - 1] = std::move(updated);
    }
  }
  return from_newton(nr, nr.iterations);
}

// ---- StageNIntegrator --------------------------------------------------------------------------

template <int S>
StageNIntegrator<S>::StageNIntegrator(std::string name, TableauFn tableau, RhoFunction rho)
    : ImplicitStepIntegrator(std::move(name), 2), tableau_(std::move(tableau)), rho_(std::move(rho)) {}

template <int S>
StepResult StageNIntegrator<S>::step(Problem& problem, double t, double dt, NewtonSolver& newton,
                                     Point& out) {
  try {
    const double rho = rho_ ? rho_(t) : 0.0;
    if (rho != cached_rho_ || cached_.stages() == 0) {
      cached_ = tableau_(rho);
      cached_rho_ = rho;
      b_hat_ = coef::embedded_weights(cached_);
    }
  } catch (const std::invalid_argument& e) {
    cached_rho_ = -1.0;
    return invalid(e.what());
  }
  const coef::Tableau& tab = cached_;
  if (tab.stages() != S) return invalid(fmt::format("{}: tableau with {} stages", name(), tab.stages()));
  const double t0 = t - dt;
  // Stage 1 is the last converged step; the solved stages 2..S follow it (no copy of stage 1).
  std::vector<Point> solved;
  solved.reserve(S - 1);
  auto stage = [&](int j) -> const Point& { return j == 0 ? history_[0] : solved[j - 1]; };
  int iterations = 0;
  NewtonResult nr;
  for (int i = 1; i < S; ++i) {
    const double ti = i == S - 1 ? t : t0 + tab.c[i] * dt;
    std::vector<const Point*> ptrs;  // previous stages, most recent first
    for (int j = i - 1; j >= 0; --j) ptrs.push_back(&stage(j));
    const std::span<const Point> pts = rebased(problem, ptrs);
    Vector C = X(pts[i - 1]);  // stage 1 = t_{k-1}
    for (int j = 0; j < i; ++j) C += (dt * tab.A(i, j)) * XP(pts[i - 1 - j]);
    // Seed §3.1: constant prediction for the second stage, eq. (12) afterwards, eq. (16) for
    // the last stage of the fourth/fifth-order methods.
    const int n_pred = i == 1 ? 1 : (i == S - 1 && tab.fourth_order_last_prediction && i >= 3) ? 3 : 2;
    predict(ti, pts, n_pred, XP_pred_);
    const double D = dt * tab.A(i, i);
    Point p;
    nr = solve_point(problem, ti, C, XP_pred_, D, D, newton, p);
    iterations += nr.iterations;
    if (!nr.converged) {
      StepResult r = from_newton(nr, iterations);
      r.message = fmt::format("{} (stage {} of {})", r.message, i + 1, S);
      return r;
    }
    solved.push_back(std::move(p));
  }
  if (error_control()) {
    // Embedded estimate e = y - y_hat = h sum_j (b_j - b_hat_j) k_j (docs/adaptive.md), the stage
    // derivatives k_j in the chart of the step's end point.
    std::vector<const Point*> ptrs;
    for (int j = S - 1; j >= 0; --j) ptrs.push_back(&stage(j));
    const std::span<const Point> pts = rebased(problem, ptrs);
    estimate_.setZero(n_);
    for (int j = 0; j < S; ++j) {
      const double w = dt * (tab.A(S - 1, j) - b_hat_[j]);
      const Vector& yp = pts[S - 1 - j].yp;
      for (int i = 0; i < n_; ++i)
        if (!alg_[i]) estimate_[i] += w * yp[i];
    }
  }
  out = std::move(solved.back());
  return from_newton(nr, iterations);
}

template class StepNIntegrator<1>;
template class StepNIntegrator<2>;
template class StepNIntegrator<3>;
template class StepNIntegrator<4>;
template class SingleStepIntegrator<2>;
template class SingleStepIntegrator<3>;
template class SingleStepIntegrator<4>;
template class StageNIntegrator<3>;
template class StageNIntegrator<4>;
template class StageNIntegrator<5>;
template class StageNIntegrator<6>;

// ---- factory -----------------------------------------------------------------------------------

namespace {
/// Method keywords match like every card keyword: case-insensitive, inner blanks ignored.
std::string method_key(const std::string& written) {
  std::string name;
  for (unsigned char c : written)
    if (!std::isspace(c)) name += static_cast<char>(std::tolower(c));
  return name;
}
}  // namespace

std::string error_control_refusal(const MethodSpec& spec) {
  // Central differences (docs/adaptive.md): the estimate, (K/2) h^3 |x'''|, is derived for the
  // second-order members of degree 3 (beta = 1/2); alpha = 7/6 cancels K (zero up to round-off).
  if (method_key(spec.name) == "centraldifferences" && spec.degree >= 3 && spec.degree <= 5 &&
      spec.parameters.size() >= 2) {
    const CentralDifferencesParameters c = central_differences_parameters(spec);
    if (c.degree != 3 || c.beta != 0.5)
      return fmt::format("expected central differences of degree 3 with beta = 0.5 (strategy: error control), "
                         "found degree {} with beta = {} (no error estimate derived for it, docs/adaptive.md; use "
                         "a fixed time step)", c.degree, c.beta);
    if (std::abs(CentralDifferences(c).error_constant()) < 1e-12)
      return "expected central differences whose error constant is not zero (strategy: error control), found "
             "alpha = 7/6, which cancels it (docs/adaptive.md; use a fixed time step)";
  }
  return {};
}

std::string global_error_refusal(const MethodSpec& spec) {
  // The transport (ImplicitStepIntegrator::transport_global_error) is a theta-method with the
  // step's own matrix, J = f_y' + D f_y, theta = D / h: one matrix per step, D >= h / 2 (measured:
  // 0.5 .. 1 for these). Not hope: its trapezoidal steps keep the constraint rows' part of the
  // transported error with an alternating sign (theta = 1/2) and its two-step ones feed it, so the
  // estimate grew to 7e4 times the error (measured on examples/adaptive/pendulum_smooth.mbd). An
  // ESDIRK step's last matrix is a stage's, and the second-order methods solve another form.
  static const std::vector<std::string> one_matrix = {"cranknicolson", "impliciteuler", "bdf", "ms",  "ms2",
                                                      "ms3",           "ms4",           "ss2", "ss3", "ss4"};
  const std::string key = method_key(spec.name);
  if (std::find(one_matrix.begin(), one_matrix.end(), key) != one_matrix.end()) return {};
  return fmt::format("expected implicit euler, crank nicolson, bdf, ms, ms2, ms3, ms4, ss2, ss3 or ss4 with "
                     "`global` (strategy: error control; docs/adaptive.md, \"Global error\"), found {}",
                     spec.name);
}

CentralDifferencesParameters central_differences_parameters(const MethodSpec& spec) {
  CentralDifferencesParameters c;
  c.degree = spec.degree;
  const std::vector<double>& q = spec.parameters;
  if (q.size() > 0) c.alpha = q[0];
  if (q.size() > 1) c.beta = q[1];
  if (q.size() > 2) c.gamma = q[2];
  if (q.size() > 3) c.zeta = q[3];
  return c;
}

std::unique_ptr<ImplicitStepIntegrator> make_integrator(const MethodSpec& spec) {
  const std::string name = method_key(spec.name);
  auto need_rho = [&]() {
    if (!spec.rho)
      throw std::invalid_argument(
          fmt::format("method {} needs the asymptotic spectral radius", spec.name));
    return spec.rho;
  };
  const RhoFunction rho_alg = spec.rho_alg ? spec.rho_alg : spec.rho;
  using coef::Lms;
  if (name == "cranknicolson" || name == "cranknicholson")
    return std::make_unique<StepNIntegrator<2>>(
        "crank nicolson",
        [](double, double h, double hp, int, int avail) {
          // Under error control, a step whose past step differs from it (avail < 2; fixed steps
          // never) is taken by the variable-step ms2 with rho = 0 (BDF2): a damped step wherever
          // the step changes, as hope does (docs/adaptive.md: two undamped steps of different
          // sizes let the multipliers of index-3 constraints grow).
          return avail < 2 ? coef::ms2(0.0, h, hp) : coef::trapezoidal(h);
        },
        nullptr, nullptr, false);
  if (name == "impliciteuler" || (name == "bdf" && spec.bdf_order == 1))
    return std::make_unique<StepNIntegrator<1>>(
        "implicit euler", [](double, double h, double, int, int) { return coef::implicit_euler(h); },
        nullptr, nullptr, false);
  if (name == "bdf") {
    if (spec.bdf_order != 2)
      throw std::invalid_argument(
          fmt::format("bdf order {} not available (only 1 and 2)", spec.bdf_order));
    return std::make_unique<StepNIntegrator<2>>(
        "bdf", [](double, double h, double hp, int, int) { return coef::ms2(0.0, h, hp); },
        nullptr, nullptr);
  }
  if (name == "ms" || name == "ms2")
    return std::make_unique<StepNIntegrator<2>>(
        "ms", [](double r, double h, double hp, int, int) { return coef::ms2(r, h, hp); }, need_rho(),
        rho_alg);
  if (name == "ms3")
    return std::make_unique<StepNIntegrator<3>>(
        "ms3",
        [](double r, double h, double hp, int, int avail) {
          return avail >= 3 ? coef::ms3(r, h) : coef::ms2(r, h, hp);
        }, need_rho(), rho_alg);
  if (name == "ms4")
    return std::make_unique<StepNIntegrator<4>>(
        "ms4",
        [](double r, double h, double hp, int, int avail) {
          return avail >= 4 ? coef::ms4(r, h) : avail == 3 ? coef::ms3(r, h) : coef::ms2(r, h, hp);
        }, need_rho(), rho_alg);
  if (name == "hope")
    return std::make_unique<StepNIntegrator<2>>(
        "hope",
        [](double r, double h, double hp, int step, int avail) {
          // Step 1 is the Crank-Nicolson start-up (MBDyn's pFirstRegularStep); MBDyn's
          // HopeSolver::SetCoef then flips its flag from 0 at every new step, so step 2 is
          // trapezoidal, step 3 the two-step formula, and so on (stepsol_impl.cc). Under error
          // control, an odd step whose past step differs from it (avail < 2) is taken by the
          // variable-step ms2 with the same radius: a damped step at least every other step, as
          // the two-step formula is (two trapezoidal steps in a row let the multipliers of
          // index-3 constraints grow, docs/adaptive.md).
          if (step % 2 == 0) return coef::trapezoidal(h);
          return avail < 2 ? coef::ms2(r, h, hp) : coef::hope_two_step(r, h);
        },
        need_rho(), rho_alg);
  if (name == "ss2") return std::make_unique<SingleStepIntegrator<2>>("ss2", need_rho());
  if (name == "ss3") return std::make_unique<SingleStepIntegrator<3>>("ss3", need_rho());
  if (name == "ss4") return std::make_unique<SingleStepIntegrator<4>>("ss4", need_rho());
  if (name == "bathe")
    return std::make_unique<StageNIntegrator<3>>("Bathe", coef::bathe, need_rho());
  if (name == "msstc3")
    return std::make_unique<StageNIntegrator<4>>(
        "msstc3", [](double r) { return coef::msstc(3, r); }, need_rho());
  if (name == "msstc4")
    return std::make_unique<StageNIntegrator<5>>(
        "msstc4", [](double r) { return coef::msstc(4, r); }, need_rho());
  if (name == "msstc5")
    return std::make_unique<StageNIntegrator<6>>(
        "msstc5", [](double r) { return coef::msstc(5, r); }, need_rho());
  if (name == "mssth3")
    return std::make_unique<StageNIntegrator<4>>(
        "mssth3", [](double r) { return coef::mssth(3, r); }, need_rho());
  if (name == "mssth4")
    return std::make_unique<StageNIntegrator<5>>(
        "mssth4", [](double r) { return coef::mssth(4, r); }, need_rho());
  if (name == "mssth5")
    return std::make_unique<StageNIntegrator<6>>(
        "mssth5", [](double r) { return coef::mssth(5, r); }, need_rho());
  if (name == "dirk33")
    return std::make_unique<StageNIntegrator<4>>("DIRK33", [](double) { return coef::esdirk3_4(); },
                                                 nullptr);
  if (name == "dirk43")
    return std::make_unique<StageNIntegrator<5>>("DIRK43", [](double) { return coef::esdirk3_5(); },
                                                 nullptr);
  if (name == "dirk54")
    return std::make_unique<StageNIntegrator<6>>("DIRK54", [](double) { return coef::esdirk4_6(); },
                                                 nullptr);
  if (name == "generalizedalpha") return std::make_unique<GeneralizedAlphaIntegrator>(need_rho());
  if (name == "halfimplicit") return std::make_unique<HalfImplicitIntegrator>();
  if (name == "centraldifferences") {
    const std::size_t needed = spec.degree == 3 ? 2 : spec.degree == 4 ? 3 : 4;
    if (spec.degree < 3 || spec.degree > 5 || spec.parameters.size() < 2 || spec.parameters.size() > needed)
      throw std::invalid_argument(fmt::format(
          "central differences of degree {} needs {} parameters (alpha, beta[, gamma[, zeta]])",
          spec.degree, needed));
    return std::make_unique<CentralDifferencesIntegrator>(central_differences_parameters(spec));
  }
  throw std::invalid_argument(fmt::format(
      "unknown integration method \"{}\" (expected crank nicolson, implicit euler, bdf, ms, ms2, "
      "ms3, ms4, hope, ss2, ss3, ss4, Bathe, msstc3, msstc4, msstc5, mssth3, mssth4, mssth5, "
      "DIRK33, DIRK43, DIRK54, generalized alpha, central differences, half implicit)",
      spec.name));
}

}  // namespace mbl::integrators

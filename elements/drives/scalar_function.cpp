#include "elements/drives/scalar_function.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace mbl::drives {

// ---- exp, log, pow, sin/cos ------------------------------------------------------------------

ExpScalarFunction::ExpScalarFunction(double base, double coef, double mult)
    : log_base_(std::log(base)), coef_(coef), mult_(mult) {}

double ExpScalarFunction::value(double x) const { return mult_ * std::exp(log_base_ * coef_ * x); }

double ExpScalarFunction::derivative(double x, int order) const {
  return std::pow(log_base_ * coef_, order) * value(x);
}

LogScalarFunction::LogScalarFunction(double base, double coef, double mult)
    : log_base_(std::log(base)), coef_(coef), mult_(mult) {}

double LogScalarFunction::value(double x) const {
  const double arg = coef_ * x;
  if (!(arg > 0.0))
    throw std::domain_error(fmt::format("log scalar function: argument {} is not positive", arg));
  return mult_ * std::log(arg) / log_base_;
}

double LogScalarFunction::derivative(double x, int order) const {
  if (!(coef_ * x > 0.0))
    throw std::domain_error(
        fmt::format("log scalar function: argument {} is not positive", coef_ * x));
  // d^n/dx^n log(c x) = (-1)^(n-1) (n-1)! / x^n
  double fact = 1.0;
  for (int k = 2; k < order; ++k) fact *= k;
  const double sign = (order % 2 == 1) ? 1.0 : -1.0;
  return mult_ / log_base_ * sign * fact / std::pow(x, order);
}

double PowScalarFunction::value(double x) const { return std::pow(x, p_); }

double PowScalarFunction::derivative(double x, int order) const {
  double c = 1.0;
  for (int k = 0; k < order; ++k) c *= (p_ - k);
  return c == 0.0 ? 0.0 : c * std::pow(x, p_ - order);
}

double HarmonicScalarFunction::value(double x) const {
  const double th = w_ * x + phi_;
  return a_ * (cosine_ ? std::cos(th) : std::sin(th));
}

double HarmonicScalarFunction::derivative(double x, int order) const {
  // Each derivative advances the phase by pi/2 and multiplies by w.
  const double th = w_ * x + phi_ + order * M_PI / 2.0;
  return a_ * std::pow(w_, order) * (cosine_ ? std::cos(th) : std::sin(th));
}

// ---- multilinear -----------------------------------------------------------------------------

namespace {

void check_points(const std::vector<double>& x, const std::vector<double>& y, std::size_t min,
                  const char* what) {
  if (x.size() != y.size() || x.size() < min)
    throw std::invalid_argument(fmt::format("{} needs at least {} points", what, min));
  for (std::size_t i = 1; i < x.size(); ++i)
    if (!(x[i] > x[i - 1]))
      throw std::invalid_argument(
          fmt::format("{}: abscissae must grow strictly ({} after {})", what, x[i], x[i - 1]));
}

[[noreturn]] void bailout(const char* what, double x, double lo, double hi) {
  throw std::domain_error(
      fmt::format("{} scalar function: {} is outside [{}, {}] (bailout)", what, x, lo, hi));
}

std::size_t find_segment(const std::vector<double>& x, double v) {
  auto it = std::upper_bound(x.begin(), x.end(), v);
  std::size_t i = it == x.begin() ? 0 : std::size_t(it - x.begin()) - 1;
  return std::min(i, x.size() - 2);
}

}  // namespace

MultilinearScalarFunction::MultilinearScalarFunction(std::vector<double> x, std::vector<double> y,
                                                     Extrapolation mode)
    : x_(std::move(x)), y_(std::move(y)), mode_(mode) {
  check_points(x_, y_, 2, "multilinear scalar function");
}

std::size_t MultilinearScalarFunction::segment(double x) const { return find_segment(x_, x); }

double MultilinearScalarFunction::value(double x) const {
  if (x < x_.front() || x > x_.back()) {
    if (mode_ == Extrapolation::Bailout) bailout("multilinear", x, x_.front(), x_.back());
    if (mode_ == Extrapolation::HoldEnds) return x < x_.front() ? y_.front() : y_.back();
  }
  const std::size_t i = segment(x);
  return y_[i] + (y_[i + 1] - y_[i]) / (x_[i + 1] - x_[i]) * (x - x_[i]);
}

double MultilinearScalarFunction::derivative(double x, int order) const {
  if (order > 1) return 0.0;
  if (x < x_.front() || x > x_.back()) {
    if (mode_ == Extrapolation::Bailout) bailout("multilinear", x, x_.front(), x_.back());
    if (mode_ == Extrapolation::HoldEnds) return 0.0;
  }
  const std::size_t i = segment(x);
  return (y_[i + 1] - y_[i]) / (x_[i + 1] - x_[i]);
}

// ---- cubic spline ----------------------------------------------------------------------------

CubicSplineScalarFunction::CubicSplineScalarFunction(std::vector<double> x, std::vector<double> y,
                                                     Extrapolation mode)
    : x_(std::move(x)), y_(std::move(y)), mode_(mode) {
  check_points(x_, y_, 3, "cubic spline scalar function");
  // Natural spline: tridiagonal system for the second derivatives m_i, m_0 = m_{n-1} = 0.
  const std::size_t n = x_.size();
  m_.assign(n, 0.0);
  std::vector<double> diag(n, 1.0), rhs(n, 0.0), upper(n, 0.0), lower(n, 0.0);
  for (std::size_t i = 1; i + 1 < n; ++i) {
    const double h0 = x_[i] - x_[i - 1], h1 = x_[i + 1] - x_[i];
    lower[i] = h0;
    diag[i] = 2.0 * (h0 + h1);
    upper[i] = h1;
    rhs[i] = 6.0 * ((y_[i + 1] - y_[i]) / h1 - (y_[i] - y_[i - 1]) / h0);
  }
  // Thomas algorithm.
  for (std::size_t i = 1; i < n; ++i) {
    const double w = lower[i] / diag[i - 1];
    diag[i] -= w * upper[i - 1];
    rhs[i] -= w * rhs[i - 1];
  }
  m_[n - 1] = rhs[n - 1] / diag[n - 1];
  for (std::size_t i = n - 1; i-- > 0;) m_[i] = (rhs[i] - upper[i] * m_[i + 1]) / diag[i];
}

std::size_t CubicSplineScalarFunction::segment(double x) const { return find_segment(x_, x); }

double CubicSplineScalarFunction::eval(double x, int order) const {
  if (x < x_.front() || x > x_.back()) {
    if (mode_ == Extrapolation::Bailout) bailout("cubic spline", x, x_.front(), x_.back());
    if (mode_ == Extrapolation::HoldEnds)
      return order == 0 ? (x < x_.front() ? y_.front() : y_.back()) : 0.0;
  }
  const std::size_t i = segment(x);
  const double h = x_[i + 1] - x_[i];
  const double a = (x_[i + 1] - x) / h, b = (x - x_[i]) / h;
  switch (order) {
    case 0:
      return a * y_[i] + b * y_[i + 1] +
             ((a * a * a - a) * m_[i] + (b * b * b - b) * m_[i + 1]) * h * h / 6.0;
    case 1:
      return (y_[i + 1] - y_[i]) / h - (3.0 * a * a - 1.0) / 6.0 * h * m_[i] +
             (3.0 * b * b - 1.0) / 6.0 * h * m_[i + 1];
    case 2:
      return a * m_[i] + b * m_[i + 1];
    case 3:
      return (m_[i + 1] - m_[i]) / h;
    default:
      return 0.0;
  }
}

double CubicSplineScalarFunction::value(double x) const { return eval(x, 0); }
double CubicSplineScalarFunction::derivative(double x, int order) const { return eval(x, order); }

// ---- chebychev -------------------------------------------------------------------------------

double ChebychevScalarFunction::value(double x) const {
  if (!extrapolate_ && (x < a_ || x > b_))
    bailout("chebychev", x, a_, b_);
  const double xi = (2.0 * x - (a_ + b_)) / (b_ - a_);
  double t_prev = 1.0, t = xi, v = c_[0];
  if (c_.size() > 1) v += c_[1] * xi;
  for (std::size_t k = 2; k < c_.size(); ++k) {
    const double t_next = 2.0 * xi * t - t_prev;
    v += c_[k] * t_next;
    t_prev = t;
    t = t_next;
  }
  return v;
}

double ChebychevScalarFunction::derivative(double x, int order) const {
  if (order != 1)
    throw std::domain_error("chebychev scalar function: only the first derivative is available");
  if (!extrapolate_ && (x < a_ || x > b_)) bailout("chebychev", x, a_, b_);
  const double xi = (2.0 * x - (a_ + b_)) / (b_ - a_);
  // T'_n = 2 T_{n-1} + 2 xi T'_{n-1} - T'_{n-2}  (eq. 2.49)
  double t_prev = 1.0, t = xi, d_prev = 0.0, d = 1.0;
  double v = c_.size() > 1 ? c_[1] : 0.0;
  for (std::size_t k = 2; k < c_.size(); ++k) {
    const double d_next = 2.0 * t + 2.0 * xi * d - d_prev;
    const double t_next = 2.0 * xi * t - t_prev;
    v += c_[k] * d_next;
    d_prev = d;
    d = d_next;
    t_prev = t;
    t = t_next;
  }
  return v * 2.0 / (b_ - a_);
}

// ---- binary ----------------------------------------------------------------------------------

double BinaryScalarFunction::value(double x) const {
  const double a = f1_->value(x), b = f2_->value(x);
  switch (op_) {
    case Op::Sum: return a + b;
    case Op::Sub: return a - b;
    case Op::Mul: return a * b;
    case Op::Div:
      if (b == 0.0) throw std::domain_error(fmt::format("div scalar function: division by zero at {}", x));
      return a / b;
    case Op::Pow: return std::pow(a, b);
  }
  return 0.0;
}

double BinaryScalarFunction::derivative(double x, int order) const {
  if (order != 1) {
    if (op_ == Op::Sum) return f1_->derivative(x, order) + f2_->derivative(x, order);
    if (op_ == Op::Sub) return f1_->derivative(x, order) - f2_->derivative(x, order);
    throw std::domain_error("scalar function: derivatives above the first are not available");
  }
  const double a = f1_->value(x), b = f2_->value(x);
  const double ap = f1_->derivative(x, 1), bp = f2_->derivative(x, 1);
  switch (op_) {
    case Op::Sum: return ap + bp;
    case Op::Sub: return ap - bp;
    case Op::Mul: return ap * b + a * bp;
    case Op::Div:
      if (b == 0.0) throw std::domain_error(fmt::format("div scalar function: division by zero at {}", x));
      return (ap * b - a * bp) / (b * b);
    case Op::Pow:
      // d(a^b) = a^b (b' ln a + b a'/a)
      return std::pow(a, b) * (bp * std::log(a) + b * ap / a);
  }
  return 0.0;
}

}  // namespace mbl::drives

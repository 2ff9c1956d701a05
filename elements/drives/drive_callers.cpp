#include "elements/drives/drive_callers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace mbl::drives {

std::string format_end_time(double t) {
  return std::isinf(t) ? "forever" : fmt::format("{}", t);
}

// ---- polynomials -----------------------------------------------------------------------------

double PolynomialDrive::value(double t) const {
  double v = 0.0;
  for (auto it = c_.rbegin(); it != c_.rend(); ++it) v = v * t + *it;  // Horner
  return v;
}

double PolynomialDrive::derivative(double t) const {
  double v = 0.0;
  for (std::size_t k = c_.size(); k-- > 1;) v = v * t + double(k) * c_[k];
  return v;
}

std::string PolynomialDrive::describe() const {
  static const char* names[] = {"const", "linear", "parabolic", "cubic"};
  std::string s = c_.size() <= 4 ? names[c_.size() - 1] : "polynomial";
  for (double c : c_) s += fmt::format(", {}", c);
  return s;
}

// ---- steps ---------------------------------------------------------------------------------

double StepDrive::value(double t) const {
  if (t > t0_) return v0_ + step_;
  if (t < t0_) return v0_;
  return (v0_ + step_) / 2.0;  // MBDyn's value at the switching instant
}

std::string StepDrive::describe() const { return fmt::format("step, {}, {}, {}", t0_, step_, v0_); }

double DoubleStepDrive::value(double t) const {
  if (t > t0_ && t < t1_) return v0_ + step_;
  if (t < t0_ || t > t1_) return v0_;
  return (v0_ + step_) / 2.0;  // MBDyn's value at the switching instants
}

std::string DoubleStepDrive::describe() const {
  return fmt::format("double step, {}, {}, {}, {}", t0_, t1_, step_, v0_);
}

// ---- ramps ---------------------------------------------------------------------------------

double RampDrive::value(double t) const {
  double v = v0_;
  if (t > a_t0_) v += a_slope_ * (std::min(t, a_t1_) - a_t0_);
  if (double_ && t > d_t0_) v += d_slope_ * (std::min(t, d_t1_) - d_t0_);
  return v;
}

double RampDrive::derivative(double t) const {
  auto part = [t](double slope, double t0, double t1) {
    if (t < t0 || t > t1) return 0.0;
    if (t == t0 || t == t1) return slope / 2.0;  // mean of the two one-sided slopes
    return slope;
  };
  double d = part(a_slope_, a_t0_, a_t1_);
  if (double_) d += part(d_slope_, d_t0_, d_t1_);
  return d;
}

std::string RampDrive::describe() const {
  if (!double_) return fmt::format("ramp, {}, {}, {}, {}", a_slope_, a_t0_, format_end_time(a_t1_), v0_);
  return fmt::format("double ramp, {}, {}, {}, {}, {}, {}, {}", a_slope_, a_t0_, a_t1_, d_slope_,
                     d_t0_, format_end_time(d_t1_), v0_);
}

// ---- sine / cosine ---------------------------------------------------------------------------

HarmonicDrive::HarmonicDrive(Kind kind, double t0, double omega, double amplitude, long cycles,
                             double v0)
    : kind_(kind), t0_(t0), omega_(omega), amplitude_(amplitude), cycles_(cycles), v0_(v0) {
  const double period = 2.0 * std::numbers::pi / omega_;
  if (cycles_ > 0) {
    // Back at the start value after the last (half-)wave.
    const double n = kind_ == Kind::Sine ? double(cycles_) - 0.5 : double(cycles_);
    t_end_ = t0_ + period * n;
    v_end_ = v0_;
  } else if (cycles_ < 0) {
    // Stop at the top of the wave, with zero slope.
    const double n = kind_ == Kind::Sine ? double(-cycles_) - 0.75 : double(-cycles_) - 0.5;
    t_end_ = t0_ + period * n;
    v_end_ = v0_ + (kind_ == Kind::Sine ? amplitude_ : 2.0 * amplitude_);
  }
}

double HarmonicDrive::value(double t) const {
  if (t <= t0_) return v0_;
  if (t >= t_end_) return v_end_;
  const double th = omega_ * (t - t0_);
  return v0_ + amplitude_ * (kind_ == Kind::Sine ? std::sin(th) : 1.0 - std::cos(th));
}

double HarmonicDrive::derivative(double t) const {
  if (t < t0_ || t > t_end_) return 0.0;
  const double th = omega_ * (t - t0_);
  double d = amplitude_ * omega_ * (kind_ == Kind::Sine ? std::cos(th) : std::sin(th));
  if (t == t0_ || t == t_end_) d /= 2.0;  // one-sided slopes averaged (a no-op for cosine)
  return d;
}

std::string HarmonicDrive::describe() const {
  std::string n = cycles_ == 0 ? "forever" : fmt::format("{}", cycles_);
  return fmt::format("{}, {}, {}, {}, {}, {}", kind_ == Kind::Sine ? "sine" : "cosine", t0_,
                     omega_, amplitude_, n, v0_);
}

// ---- exponential, step5, tanh ----------------------------------------------------------------

double ExponentialDrive::value(double t) const {
  if (t <= t0_) return v0_;
  return v0_ + a_ * (1.0 - std::exp(-(t - t0_) / tau_));
}

double ExponentialDrive::derivative(double t) const {
  if (t < t0_) return 0.0;
  double d = a_ / tau_ * std::exp(-(t - t0_) / tau_);
  if (t == t0_) d /= 2.0;
  return d;
}

std::string ExponentialDrive::describe() const {
  return fmt::format("exponential, {}, {}, {}, {}", a_, tau_, t0_, v0_);
}

double Step5Drive::value(double t) const {
  if (t <= t0_) return v0_;
  if (t >= t1_) return v1_;
  const double xi = (t - t0_) / (t1_ - t0_);
  return v0_ + (v1_ - v0_) * xi * xi * xi * (10.0 - 15.0 * xi + 6.0 * xi * xi);
}

double Step5Drive::derivative(double t) const {
  if (t <= t0_ || t >= t1_) return 0.0;
  const double xi = (t - t0_) / (t1_ - t0_);
  // d/dxi [xi^3 (10 - 15 xi + 6 xi^2)] = 30 xi^2 (1 - xi)^2
  return (v1_ - v0_) * 30.0 * xi * xi * (1.0 - xi) * (1.0 - xi) / (t1_ - t0_);
}

std::string Step5Drive::describe() const {
  return fmt::format("step5, {}, {}, {}, {}", t0_, v0_, t1_, v1_);
}

double TanhDrive::value(double t) const { return v0_ + a_ * std::tanh(s_ * (t - t0_)); }

double TanhDrive::derivative(double t) const {
  const double c = std::cosh(s_ * (t - t0_));
  return a_ * s_ / (c * c);
}

std::string TanhDrive::describe() const {
  return fmt::format("tanh, {}, {}, {}, {}", t0_, a_, s_, v0_);
}

// ---- fourier series --------------------------------------------------------------------------

FourierSeriesDrive::FourierSeriesDrive(double t0, double omega, double a0, std::vector<double> ab,
                                       long cycles, double v0)
    : t0_(t0), omega_(omega), a0_(a0), ab_(std::move(ab)), v0_(v0) {
  if (cycles > 0) t_end_ = t0_ + double(cycles) * 2.0 * std::numbers::pi / omega_;
}

double FourierSeriesDrive::value(double t) const {
  if (!active(t)) return v0_;
  const double tau = t - t0_;
  double v = v0_ + a0_ / 2.0;
  for (std::size_t k = 0; 2 * k + 1 < ab_.size(); ++k) {
    const double th = double(k + 1) * omega_ * tau;
    v += ab_[2 * k] * std::cos(th) + ab_[2 * k + 1] * std::sin(th);
  }
  return v;
}

double FourierSeriesDrive::derivative(double t) const {
  if (t < t0_ || t > t_end_) return 0.0;
  const double tau = t - t0_;
  double d = 0.0;
  for (std::size_t k = 0; 2 * k + 1 < ab_.size(); ++k) {
    const double w = double(k + 1) * omega_;
    d += w * (-ab_[2 * k] * std::sin(w * tau) + ab_[2 * k + 1] * std::cos(w * tau));
  }
  if (t == t0_ || t == t_end_) d /= 2.0;
  return d;
}

std::string FourierSeriesDrive::describe() const {
  std::string s = fmt::format("fourier series, {}, {}, {}, {}", t0_, omega_, ab_.size() / 2, a0_);
  for (double c : ab_) s += fmt::format(", {}", c);
  return s + fmt::format(", {}, {}", format_end_time(t_end_), v0_);
}

// ---- piecewise linear ------------------------------------------------------------------------

double PiecewiseLinearDrive::value(double t) const {
  if (t <= x_.front()) return y_.front();
  if (t >= x_.back()) return y_.back();
  const auto i = std::size_t(std::upper_bound(x_.begin(), x_.end(), t) - x_.begin());
  const double dx = x_[i] - x_[i - 1];
  return ((t - x_[i - 1]) * y_[i] + (x_[i] - t) * y_[i - 1]) / dx;
}

double PiecewiseLinearDrive::derivative(double t) const {
  const std::size_t n = x_.size();
  if (n < 2 || t < x_.front() || t > x_.back()) return 0.0;
  auto slope = [&](std::size_t i) { return (y_[i] - y_[i - 1]) / (x_[i] - x_[i - 1]); };
  if (t == x_.front()) return slope(1) / 2.0;
  if (t == x_.back()) return slope(n - 1) / 2.0;
  const auto i = std::size_t(std::upper_bound(x_.begin(), x_.end(), t) - x_.begin());
  if (t == x_[i - 1]) return (slope(i - 1) + slope(i)) / 2.0;  // at an inner break point
  return slope(i);
}

std::string PiecewiseLinearDrive::describe() const {
  std::string s = fmt::format("piecewise linear, {}", x_.size());
  for (std::size_t i = 0; i < x_.size(); ++i) s += fmt::format(", {}, {}", x_[i], y_[i]);
  return s;
}

}  // namespace mbl::drives

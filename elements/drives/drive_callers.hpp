#pragma once
// Closed-form drive callers of the input manual §2.6: functions of the drive's input variable
// (the time, in ordinary use) with no memory. Each class states the manual's formula; the
// derivative is the exact one of that formula. Where MBDyn evaluates a discontinuity point in a
// particular way (value or slope at exactly a switching time), we do the same so that decks
// give MBDyn's numbers; those places are commented.
#include <limits>
#include <string>
#include <vector>

#include "mbdyn-like/core/drive_caller.hpp"

namespace mbl::drives {

inline constexpr double kForever = std::numeric_limits<double>::infinity();

/// An end time as describe() shows it: `forever` (kForever) or the number.
std::string format_end_time(double t);

/// `null` (§2.6.23): 0.
class NullDrive final : public DriveCaller {
 public:
  double value(double) const override { return 0.0; }
  bool has_derivative() const override { return true; }
  std::string describe() const override { return "null"; }
};

/// `unit` (§2.6.39), deprecated alias `one`: 1.
class UnitDrive final : public DriveCaller {
 public:
  double value(double) const override { return 1.0; }
  bool has_derivative() const override { return true; }
  std::string describe() const override { return "unit"; }
};

/// `direct` (§2.6.7) and `time` (§2.6.37): the input itself (the time in ordinary use).
class DirectDrive final : public DriveCaller {
 public:
  explicit DirectDrive(bool is_time = false) : is_time_(is_time) {}
  double value(double x) const override { return x; }
  bool has_derivative() const override { return true; }
  double derivative(double) const override { return 1.0; }
  std::string describe() const override { return is_time_ ? "time" : "direct"; }

 private:
  bool is_time_;
};

/// `timestep` (§2.6.38): the current time step, from the environment.
class TimeStepDrive final : public DriveCaller {
 public:
  explicit TimeStepDrive(const DriveEnvironment& env) : env_(&env) {}
  double value(double) const override { return env_->time_step; }
  std::string describe() const override { return "timestep"; }

 private:
  const DriveEnvironment* env_;
};

/// `linear`, `parabolic`, `cubic` (§2.6.19, 2.6.24, 2.6.6): c0 + c1 t + c2 t^2 + c3 t^3.
class PolynomialDrive final : public DriveCaller {
 public:
  explicit PolynomialDrive(std::vector<double> coef) : c_(std::move(coef)) {}
  double value(double t) const override;
  bool has_derivative() const override { return true; }
  double derivative(double t) const override;
  std::string describe() const override;

 private:
  std::vector<double> c_;  ///< c_[k] multiplies t^k
};

/// `step` (§2.6.33): initial_value, plus step_value from initial_time on.
/// At exactly t == initial_time MBDyn returns (initial_value + step_value)/2; we do the same.
class StepDrive final : public DriveCaller {
 public:
  StepDrive(double t0, double step, double v0) : t0_(t0), step_(step), v0_(v0) {}
  double value(double t) const override;
  bool has_derivative() const override { return true; }
  std::string describe() const override;

 private:
  double t0_, step_, v0_;
};

/// `double step` (§2.6.11): step_value is added between initial_time and final_time. At
/// exactly a switching time MBDyn returns (initial_value + step_value)/2; we do the same.
class DoubleStepDrive final : public DriveCaller {
 public:
  DoubleStepDrive(double t0, double t1, double step, double v0)
      : t0_(t0), t1_(t1), step_(step), v0_(v0) {}
  double value(double t) const override;
  bool has_derivative() const override { return true; }
  std::string describe() const override;

 private:
  double t0_, t1_, step_, v0_;
};

/// `ramp` (§2.6.28, eq. 2.25) and `double ramp` (§2.6.10, eq. 2.17). A double ramp is an
/// ascending ramp followed by a descending one; a single ramp has no descending part. The
/// derivative at exactly a corner is the mean of the two sides (as MBDyn).
class RampDrive final : public DriveCaller {
 public:
  RampDrive(double slope, double t0, double t1, double v0)
      : a_slope_(slope), a_t0_(t0), a_t1_(t1), v0_(v0), double_(false) {}
  RampDrive(double a_slope, double a_t0, double a_t1, double d_slope, double d_t0, double d_t1,
            double v0)
      : a_slope_(a_slope), a_t0_(a_t0), a_t1_(a_t1), d_slope_(d_slope), d_t0_(d_t0),
        d_t1_(d_t1), v0_(v0), double_(true) {}
  double value(double t) const override;
  bool has_derivative() const override { return true; }
  double derivative(double t) const override;
  std::string describe() const override;

 private:
  double a_slope_, a_t0_, a_t1_;
  double d_slope_ = 0.0, d_t0_ = kForever, d_t1_ = kForever;
  double v0_;
  bool double_;
};

/// `sine` (§2.6.32, eq. 2.26-2.27) and `cosine` (§2.6.5, eq. 2.13-2.14).
/// `cycles` > 0: sine stops after cycles - 1/2 periods, cosine after `cycles` periods, both back
/// at initial_value; `cycles` < 0: sine stops after |cycles| - 3/4 periods at initial_value +
/// amplitude, cosine after |cycles| - 1/2 periods at initial_value + 2 amplitude; 0 = forever.
class HarmonicDrive final : public DriveCaller {
 public:
  enum class Kind { Sine, Cosine };
  HarmonicDrive(Kind kind, double t0, double omega, double amplitude, long cycles, double v0);
  double value(double t) const override;
  bool has_derivative() const override { return true; }
  double derivative(double t) const override;
  std::string describe() const override;

 private:
  Kind kind_;
  double t0_, omega_, amplitude_;
  long cycles_;
  double v0_;
  double t_end_ = kForever;
  double v_end_ = 0.0;
};

/// `exponential` (§2.6.14, eq. 2.19): v0 + A (1 - exp(-(t - t0)/tau)) for t > t0.
class ExponentialDrive final : public DriveCaller {
 public:
  ExponentialDrive(double amplitude, double tau, double t0, double v0)
      : a_(amplitude), tau_(tau), t0_(t0), v0_(v0) {}
  double value(double t) const override;
  bool has_derivative() const override { return true; }
  double derivative(double t) const override;
  std::string describe() const override;

 private:
  double a_, tau_, t0_, v0_;
};

/// `step5` (§2.6.34, eq. 2.29): quintic smooth step from (t0, v0) to (t1, v1).
class Step5Drive final : public DriveCaller {
 public:
  Step5Drive(double t0, double v0, double t1, double v1) : t0_(t0), v0_(v0), t1_(t1), v1_(v1) {}
  double value(double t) const override;
  bool has_derivative() const override { return true; }
  double derivative(double t) const override;
  std::string describe() const override;

 private:
  double t0_, v0_, t1_, v1_;
};

/// `tanh` (§2.6.36): v0 + A tanh(s (t - t0)), derivative A s / cosh^2(s (t - t0)).
class TanhDrive final : public DriveCaller {
 public:
  TanhDrive(double t0, double amplitude, double slope, double v0)
      : t0_(t0), a_(amplitude), s_(slope), v0_(v0) {}
  double value(double t) const override;
  bool has_derivative() const override { return true; }
  double derivative(double t) const override;
  std::string describe() const override;

 private:
  double t0_, a_, s_, v0_;
};

/// `fourier series` (§2.6.16): v0 + a0/2 + sum_k (a_k cos(k w (t-t0)) + b_k sin(k w (t-t0)))
/// for t0 <= t < t0 + cycles 2 pi / w (cycles 0 = forever); v0 elsewhere.
class FourierSeriesDrive final : public DriveCaller {
 public:
  /// `ab` = a_1, b_1, a_2, b_2, ...
  FourierSeriesDrive(double t0, double omega, double a0, std::vector<double> ab, long cycles,
                     double v0);
  double value(double t) const override;
  bool has_derivative() const override { return true; }
  double derivative(double t) const override;
  std::string describe() const override;

 private:
  bool active(double t) const { return t >= t0_ && t < t_end_; }
  double t0_, omega_, a0_;
  std::vector<double> ab_;
  double v0_;
  double t_end_ = kForever;
};

/// `piecewise linear` (§2.6.26): linear interpolation, values held beyond the end points.
class PiecewiseLinearDrive final : public DriveCaller {
 public:
  PiecewiseLinearDrive(std::vector<double> x, std::vector<double> y)
      : x_(std::move(x)), y_(std::move(y)) {}
  double value(double t) const override;
  bool has_derivative() const override { return true; }
  double derivative(double t) const override;
  std::string describe() const override;

 private:
  std::vector<double> x_, y_;
};

}  // namespace mbl::drives

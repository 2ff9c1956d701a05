#pragma once
// Drive callers with memory (manual §2.6): bistop, closest next, discrete filter, sample and
// hold; and the step-counting meter and random drives (no memory of their own: they read the
// step number from the environment).
//
// Timing, as MBDyn does it: MBDyn updates these drives when a new step k >= 1 begins (the time
// already set to t_k, the state still the converged one of step k-1); nothing happens at step 0.
// Here the update of step k is applied on the fly while step k is being solved (value() works
// on a copy of the state) and committed by after_convergence(t_k); the converged values of step
// k-1 that MBDyn reads at the start of step k are recorded by after_convergence(t_{k-1}). The
// step number comes from DriveEnvironment::step, which the model keeps equal to the number of
// the step being solved (0 at the initial time).
#include <cstdint>
#include <deque>
#include <optional>
#include <tuple>
#include <vector>

#include "elements/drives/drive_callers.hpp"

namespace mbl::drives {

/// `bistop` (§2.6.2): 1 while active, 0 while inactive; inactive -> active when the activation
/// condition is non-zero, active -> inactive when the deactivation condition is non-zero.
class BistopDrive final : public DriveCaller {
 public:
  BistopDrive(bool initially_active, DriveCallerPtr activate, DriveCallerPtr deactivate)
      : active_(initially_active), activate_(std::move(activate)),
        deactivate_(std::move(deactivate)) {}
  double value(double t) const override { return next_status(t) ? 1.0 : 0.0; }
  void after_convergence(double t) override { active_ = next_status(t); }
  bool is_stateful() const override { return true; }
  void save_step_state() override { saved_active_ = active_; }
  void restore_step_state() override { active_ = saved_active_; }
  std::string describe() const override;

 private:
  bool next_status(double t) const;
  bool active_;
  bool saved_active_ = false;
  DriveCallerPtr activate_, deactivate_;
};

/// `closest next` (§2.6.3): 1 at the first step whose time reaches the current threshold, which
/// starts at initial_time and then moves, by as many increments as needed, past the time of the
/// step that follows (so the output meter gets nearly evenly spaced outputs).
class ClosestNextDrive final : public DriveCaller {
 public:
  ClosestNextDrive(const DriveEnvironment& env, double t0, double t1, DriveCallerPtr increment)
      : env_(&env), t0_(t0), t1_(t1), next_(t0), increment_(std::move(increment)) {}
  double value(double t) const override;
  void after_convergence(double t) override;
  bool is_stateful() const override { return true; }
  void save_step_state() override { saved_ = {next_, must_advance_, committed_step_}; }
  void restore_step_state() override { std::tie(next_, must_advance_, committed_step_) = saved_; }
  std::string describe() const override;

 private:
  double advanced_past(double t) const;  ///< next_ moved by increments until it exceeds t
  const DriveEnvironment* env_;
  double t0_, t1_;
  double next_;
  bool must_advance_ = false;
  long committed_step_ = 0;
  DriveCallerPtr increment_;
  std::tuple<double, bool, long> saved_{};
};

/// `discrete filter` (§2.6.8): y_k = sum a_i y_{k-i} + b_0 u_k + sum b_i u_{k-i}. As in MBDyn,
/// the input samples u_k are taken at the start of each step k >= 1 (none at step 0), and the
/// input history used by b_1.. starts with the current step's sample.
class DiscreteFilterDrive final : public DriveCaller {
 public:
  DiscreteFilterDrive(const DriveEnvironment& env, std::vector<double> a, double b0,
                      std::vector<double> b, DriveCallerPtr input)
      : env_(&env), a_(std::move(a)), b0_(b0), b_(std::move(b)), input_(std::move(input)),
        y_hist_(a_.size(), 0.0), u_hist_(b_.size(), 0.0) {}
  double value(double t) const override;
  void after_convergence(double t) override;
  bool is_stateful() const override { return true; }
  void save_step_state() override { saved_ = {y_hist_, u_hist_, y_last_, committed_step_}; }
  void restore_step_state() override {
    std::tie(y_hist_, u_hist_, y_last_, committed_step_) = saved_;
  }
  std::string describe() const override;

 private:
  /// The filter output for input u_k; `shifted` reads the histories as the start-of-step
  /// update (shift) would leave them, without copying them (value() runs in every assembly).
  double output(double u_k, bool shifted) const;
  /// The start-of-step update: y_last_ and u_k enter the histories.
  void shift(double u_k);
  const DriveEnvironment* env_;
  std::vector<double> a_;
  double b0_;
  std::vector<double> b_;
  DriveCallerPtr input_;
  std::vector<double> y_hist_;  ///< y_{k-1}, y_{k-2}, ... as of the last committed step
  std::vector<double> u_hist_;  ///< u_k, u_{k-1}, ... as of the last committed step
  double y_last_ = 0.0;         ///< converged output of the last committed step
  long committed_step_ = 0;
  std::tuple<std::vector<double>, std::vector<double>, double, long> saved_{};
};

/// `sample and hold` (§2.6.30): returns the held value; when the trigger is non-zero at the
/// start of a step, the function's value at the end of the previous step is held.
class SampleAndHoldDrive final : public DriveCaller {
 public:
  SampleAndHoldDrive(const DriveEnvironment& env, DriveCallerPtr function,
                     DriveCallerPtr trigger, std::optional<double> initial)
      : env_(&env), function_(std::move(function)), trigger_(std::move(trigger)),
        held_(initial) {}
  double value(double t) const override;
  void after_convergence(double t) override;
  bool is_stateful() const override { return true; }
  void save_step_state() override { saved_ = {held_, last_converged_, committed_step_}; }
  void restore_step_state() override { std::tie(held_, last_converged_, committed_step_) = saved_; }
  std::string describe() const override;

 private:
  double sample_for(double t) const;  ///< what gets held if the trigger fires at t
  const DriveEnvironment* env_;
  DriveCallerPtr function_, trigger_;
  std::optional<double> held_;
  std::optional<double> last_converged_;  ///< function value at the last converged step
  long committed_step_ = 0;
  std::tuple<std::optional<double>, std::optional<double>, long> saved_{};
};

/// `meter` (§2.6.20): 1 at steps 0, n, 2n, ... inside [t0, t1], else 0.
class MeterDrive final : public DriveCaller {
 public:
  MeterDrive(const DriveEnvironment& env, double t0, double t1, long steps)
      : env_(&env), t0_(t0), t1_(t1), steps_(steps) {}
  double value(double t) const override;
  std::string describe() const override;

 private:
  const DriveEnvironment* env_;
  double t0_, t1_;
  long steps_;
};

/// `random` (§2.6.29): uniform in [mean - A, mean + A) inside [t0, t1] (mean outside), a new
/// value every `steps` steps. Reproducible: the value is a hash of (seed, step / steps), so the
/// same deck and seed always give the same sequence.
class RandomDrive final : public DriveCaller {
 public:
  RandomDrive(const DriveEnvironment& env, double amplitude, double mean, double t0, double t1,
              long steps, std::uint64_t seed)
      : env_(&env), a_(amplitude), mean_(mean), t0_(t0), t1_(t1), steps_(steps), seed_(seed) {}
  double value(double t) const override;
  std::string describe() const override;

 private:
  const DriveEnvironment* env_;
  double a_, mean_, t0_, t1_;
  long steps_;
  std::uint64_t seed_;
};

}  // namespace mbl::drives

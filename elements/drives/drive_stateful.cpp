#include "elements/drives/drive_stateful.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace mbl::drives {

namespace {

/// True while step `step` is being solved and its start-of-step update is not committed yet.
bool update_pending(long step, long committed) { return step >= 1 && step != committed; }

}  // namespace

// ---- bistop ----------------------------------------------------------------------------------

bool BistopDrive::next_status(double t) const {
  if (active_) return deactivate_->value(t) == 0.0;
  return activate_->value(t) != 0.0;
}

std::string BistopDrive::describe() const {
  return fmt::format("bistop, initial status, {}, {}, {}", active_ ? "active" : "inactive",
                     activate_->describe(), deactivate_->describe());
}

// ---- closest next ----------------------------------------------------------------------------

double ClosestNextDrive::advanced_past(double t) const {
  double next = next_;
  do {
    const double inc = increment_->value(t);
    if (!(inc > 0.0))
      throw std::runtime_error(
          fmt::format("closest next drive: the increment must be positive, got {}", inc));
    next += inc;
  } while (t >= next);
  return next;
}

double ClosestNextDrive::value(double t) const {
  if (t < t0_ || t > t1_) return 0.0;
  // While the start-of-step update is pending, a flagged threshold moves past t (value 0).
  if (update_pending(env_->step, committed_step_) && must_advance_) return 0.0;
  return t >= next_ ? 1.0 : 0.0;
}

void ClosestNextDrive::after_convergence(double t) {
  if (!update_pending(env_->step, committed_step_)) return;
  committed_step_ = env_->step;
  if (must_advance_) {
    next_ = advanced_past(t);
    must_advance_ = false;
  } else if (t >= next_) {
    must_advance_ = true;
  }
}

std::string ClosestNextDrive::describe() const {
  return fmt::format("closest next, {}, {}, {}", t0_, format_end_time(t1_), increment_->describe());
}

// ---- discrete filter -------------------------------------------------------------------------

double DiscreteFilterDrive::output(double u_k, bool shifted) const {
  // After a shift, history entry i is the committed entry i - 1 and entry 0 the newest value.
  auto at = [shifted](const std::vector<double>& hist, std::size_t i, double newest) {
    if (!shifted) return hist[i];
    return i == 0 ? newest : hist[i - 1];
  };
  double v = b0_ * u_k;
  for (std::size_t i = 0; i < a_.size(); ++i) v += a_[i] * at(y_hist_, i, y_last_);
  for (std::size_t i = 0; i < b_.size(); ++i) v += b_[i] * at(u_hist_, i, u_k);
  return v;
}

void DiscreteFilterDrive::shift(double u_k) {
  if (!y_hist_.empty()) {
    for (std::size_t i = y_hist_.size() - 1; i > 0; --i) y_hist_[i] = y_hist_[i - 1];
    y_hist_[0] = y_last_;
  }
  if (!u_hist_.empty()) {
    for (std::size_t i = u_hist_.size() - 1; i > 0; --i) u_hist_[i] = u_hist_[i - 1];
    u_hist_[0] = u_k;
  }
}

double DiscreteFilterDrive::value(double t) const {
  return output(input_->value(t), update_pending(env_->step, committed_step_));
}

void DiscreteFilterDrive::after_convergence(double t) {
  const double u_k = input_->value(t);
  if (update_pending(env_->step, committed_step_)) {
    committed_step_ = env_->step;
    shift(u_k);
  }
  y_last_ = output(u_k, false);
}

std::string DiscreteFilterDrive::describe() const {
  std::string s = fmt::format("discrete filter, {}", a_.size());
  for (double a : a_) s += fmt::format(", {}", a);
  s += fmt::format(", {}, {}", b0_, b_.size());
  for (double b : b_) s += fmt::format(", {}", b);
  return s + ", " + input_->describe();
}

// ---- sample and hold -------------------------------------------------------------------------

double SampleAndHoldDrive::sample_for(double t) const {
  // MBDyn samples at the start of the step, before the state moves: the converged value.
  return last_converged_ ? *last_converged_ : function_->value(t);
}

double SampleAndHoldDrive::value(double t) const {
  if (update_pending(env_->step, committed_step_) && trigger_->value(t) != 0.0)
    return sample_for(t);
  return held_ ? *held_ : sample_for(t);
}

void SampleAndHoldDrive::after_convergence(double t) {
  if (update_pending(env_->step, committed_step_)) {
    committed_step_ = env_->step;
    if (trigger_->value(t) != 0.0) held_ = sample_for(t);
  }
  last_converged_ = function_->value(t);
  if (!held_) held_ = last_converged_;
}

std::string SampleAndHoldDrive::describe() const {
  return "sample and hold, " + function_->describe() + ", " + trigger_->describe();
}

// ---- meter, random ---------------------------------------------------------------------------

double MeterDrive::value(double t) const {
  if (t < t0_ || t > t1_) return 0.0;
  return env_->step % steps_ == 0 ? 1.0 : 0.0;
}

std::string MeterDrive::describe() const {
  return fmt::format("meter, {}, {}, steps, {}", t0_, format_end_time(t1_), steps_);
}

double RandomDrive::value(double t) const {
  if (t < t0_ || t > t1_) return mean_;
  const auto bucket = std::uint64_t(std::max(0L, env_->step) / steps_);
  // splitmix64 of (seed, bucket): a stateless, reproducible uniform sequence.
  std::uint64_t z = seed_ + 0x9E3779B97F4A7C15ull * (bucket + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  const double u = double(z >> 11) * 0x1.0p-53;  // [0, 1)
  return mean_ + a_ * (2.0 * u - 1.0);
}

std::string RandomDrive::describe() const {
  return fmt::format("random, {}, {}, {}, {}, steps, {}, seed, {}", a_, mean_, t0_, format_end_time(t1_),
                     steps_, seed_);
}

}  // namespace mbl::drives

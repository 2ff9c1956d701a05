#include "integrators/step_controller.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace mbl::integrators {

StepController::StepController(StepStrategy strategy, double initial_time_step,
                               int newton_max_iterations)
    : s_(std::move(strategy)), initial_(initial_time_step), dt_(initial_time_step),
      newton_max_(newton_max_iterations) {}

double StepController::limit(double t) const {
  const double at = s_.max_time_step_at ? s_.max_time_step_at(t) : 0.0;
  return at > 0.0 ? std::min(at, s_.max_time_step) : s_.max_time_step;
}

double StepController::clamp(double dt, double t) const { return std::min(dt, limit(t)); }

double StepController::after_success(double t, int iterations) {
  consecutive_failures_ = 0;
  last_chance_ = false;
  ++steps_since_reduction_;
  ++steps_since_raise_;
  switch (s_.kind) {
    case StepStrategy::Kind::None:
    case StepStrategy::Kind::NoChange:
      return dt_;
    case StepStrategy::Kind::Change:
      // The step changes only after the first step (input manual §4.1.1 "Strategy").
      if (s_.time_step) dt_ = clamp(s_.time_step(t), t);
      return dt_;
    case StepStrategy::Kind::Factor: {
      const int max_it = s_.max_iterations >= 0 ? s_.max_iterations : newton_max_;
      if (iterations > max_it && steps_since_reduction_ > s_.steps_before_reduction) {
        const double reduced = dt_ * s_.reduction_factor;
        if (reduced >= s_.min_time_step) {
          dt_ = reduced;
          steps_since_reduction_ = 0;
        }
      } else if (iterations <= s_.min_iterations &&
                 steps_since_reduction_ > s_.steps_before_reduction &&
                 steps_since_raise_ > s_.steps_before_raise && dt_ < limit(t)) {
        dt_ = clamp(dt_ * s_.raise_factor, t);
        steps_since_raise_ = 0;
      }
      return dt_;
    }
  }
  return dt_;
}

StepController::Decision StepController::after_failure(double t, const StepResult& r) {
  ++consecutive_failures_;
  const std::string what = r.message.empty() ? std::string(to_string(r.failure)) : r.message;
  auto stop = [&](const std::string& why) {
    return Decision{false, dt_, fmt::format("{} at Time={}; TimeStep={} {}; aborting", what, t,
                                            dt_, why)};
  };
  if (r.failure == FailureReason::InvalidParameter) return stop("(invalid parameter)");
  // Without `min time step` a factor strategy could halve forever: 40 halvings in a row end it.
  if (consecutive_failures_ > 40) return stop("was reduced 40 times in a row");
  switch (s_.kind) {
    case StepStrategy::Kind::None:
    case StepStrategy::Kind::NoChange:
      return stop("cannot be reduced further");
    case StepStrategy::Kind::Change: {
      const double next = s_.time_step ? clamp(s_.time_step(t), t) : dt_;
      if (!(next < dt_)) return stop("is not changed by the time step drive");
      dt_ = next;
      return {true, dt_, {}};
    }
    case StepStrategy::Kind::Factor: {
      const double reduced = dt_ * s_.reduction_factor;
      if (reduced >= s_.min_time_step && s_.reduction_factor < 1.0) {
        dt_ = reduced;
        steps_since_reduction_ = 0;
        last_chance_ = false;
        return {true, dt_, {}};
      }
      // One last attempt exactly at the minimum step, then give up.
      if (!last_chance_ && dt_ > s_.min_time_step && s_.min_time_step > 0.0) {
        last_chance_ = true;
        dt_ = s_.min_time_step;
        steps_since_reduction_ = 0;
        return {true, dt_, {}};
      }
      return stop("cannot be reduced further");
    }
  }
  return stop("");
}

}  // namespace mbl::integrators

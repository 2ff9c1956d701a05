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
    case StepStrategy::Kind::ErrorControl:  // after_accepted()
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

ErrorTest StepController::error_test(int estimate_order) {
  // Per unit step the norm is e / dt = O(dt^p), per step O(dt^(p+1)).
  k_ = s_.per_unit_step ? estimate_order : estimate_order + 1;
  ErrorTest e;
  e.per_unit_step = s_.per_unit_step;
  e.transport_global_error = s_.global_error;
  e.rtol = s_.relative_tolerance;
  e.atol = s_.absolute_tolerance >= 0.0 ? s_.absolute_tolerance : s_.relative_tolerance;
  e.accept = [this](double norm, double dt) { return accepts(norm, dt); };
  return e;
}

bool StepController::accepts(double norm, double dt) {
  if (norm <= 1.0 || !std::isfinite(dt)) return true;
  // At the smallest step allowed the step is taken whatever its error (the summary counts it).
  if (dt <= s_.min_time_step * (1.0 + 1e-12)) return true;
  // Ten rejections of the same step: taken as it is (an estimate that does not shrink with the
  // step, e.g. at a discontinuity, must not stall the run).
  if (++rejections_in_a_row_ > 10) {
    rejections_in_a_row_ = 0;
    return true;
  }
  ++summary_.rejected;
  after_rejection_ = true;
  // Hairer, Norsett & Wanner I §II.4: h_new = h min(g, max(r, s (1/err)^(1/k)));
  // after a rejection the step does not grow.
  const double factor = std::isfinite(norm) ? std::max(s_.max_shrink, std::min(1.0, s_.safety * std::pow(norm, -1.0 / k_)))
                                            : s_.max_shrink;
  dt_ = std::max(dt * factor, s_.min_time_step);
  return false;
}

double StepController::after_accepted(double t, double norm, double stable_step) {
  consecutive_failures_ = 0;
  rejections_in_a_row_ = 0;
  // PI controller (Gustafsson, Lundh & Soderlind, BIT 28, 1988; Hairer & Wanner II §IV.8, step
  // size selection): h_new = h s err_n^(-0.7/k) err_(n-1)^(0.4/k), the proportional term damping
  // the oscillation of the elementary controller where the step is limited by stability.
  const double e = std::max(norm, 1e-10);
  double factor = s_.safety * std::pow(e, -0.7 / k_);
  if (norm_prev_ > 0.0) factor *= std::pow(norm_prev_, 0.4 / k_);
  else factor = s_.safety * std::pow(e, -1.0 / k_);
  factor = std::clamp(factor, s_.max_shrink, after_rejection_ ? 1.0 : s_.max_growth);
  norm_prev_ = e;
  after_rejection_ = false;
  dt_ = std::max(clamp(dt_ * factor, t), s_.min_time_step);
  // A conditionally stable method: the next step stays below its stability limit (with the
  // safety factor's margin, as omega changes over the step), not found by rejections.
  if (s_.safety * stable_step < dt_) dt_ = std::max(s_.safety * stable_step, s_.min_time_step);
  return dt_;
}

void StepController::count_accepted(double t, double dt) {
  ++summary_.accepted;
  if (dt < summary_.smallest) {
    summary_.smallest = dt;
    summary_.smallest_at = t;
  }
  summary_.largest = std::max(summary_.largest, dt);
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
    case StepStrategy::Kind::ErrorControl: {
      // Newton did not converge: retry with the largest shrink, down to min time step; a step
      // above a conditionally stable method's limit: with the limit (times the safety factor).
      ++summary_.failed;
      after_rejection_ = true;
      if (dt_ <= s_.min_time_step * (1.0 + 1e-12)) return stop("cannot be reduced further");
      if (r.failure == FailureReason::StabilityLimit && s_.safety * r.stable_step < dt_)
        dt_ = std::max(s_.safety * r.stable_step, s_.min_time_step);
      else
        dt_ = std::max(dt_ * s_.max_shrink, s_.min_time_step);
      return {true, dt_, {}};
    }
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

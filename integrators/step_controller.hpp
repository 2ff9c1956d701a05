#pragma once
// Time-step control of the initial-value problem (input manual §4.1.1 `strategy:`,
// `min time step:`, `max time step:`). The solution phase asks for the step, reports each
// outcome, and gets back what to do:
//   double dt = ctl.initial_step();
//   loop: r = integrator.advance(problem, t + dt, dt, newton);
//         if (r.converged) { t += dt; dt = ctl.after_success(t, r.iterations); }
//         else { auto d = ctl.after_failure(t, r); if (!d.retry) stop(d.reason); dt = d.dt; }
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "integrators/integrator.hpp"

namespace mbl::integrators {

struct StepStrategy {
  enum class Kind { None, NoChange, Factor, Change, ErrorControl };
  Kind kind = Kind::None;
  // error control (ours, docs/adaptive.md): `strategy: error control, <rtol> [, <atol>]
  // [, safety, <s>] [, max growth, <g>] [, max shrink, <r>];`
  double relative_tolerance = 1e-3;
  double absolute_tolerance = -1.0;  ///< < 0: the relative tolerance
  double safety = 0.9;
  double max_growth = 2.0;
  double max_shrink = 0.2;
  /// Error per unit step (the default) or, with `per step`, per step (docs/adaptive.md).
  bool per_unit_step = true;
  /// `global` (docs/adaptive.md, "Global error"): the global error is estimated along the run
  /// and the run repeated with tolerances scaled to bring it within them.
  bool global_error = false;
  // factor
  double reduction_factor = 0.5;
  int steps_before_reduction = 0;
  double raise_factor = 2.0;
  int steps_before_raise = 0;
  int min_iterations = 0;
  int max_iterations = -1;  ///< -1: the global `max iterations`
  // change
  std::function<double(double t)> time_step;  ///< drive caller of `strategy: change`
  // limits
  double min_time_step = 0.0;
  double max_time_step = std::numeric_limits<double>::infinity();
  /// MBDyn reads `max time step` as a drive caller of time; a value <= 0 means no limit.
  std::function<double(double t)> max_time_step_at;
};

class StepController {
 public:
  StepController(StepStrategy strategy, double initial_time_step, int newton_max_iterations);

  double initial_step() const { return initial_; }
  /// After a converged step ending at t with `iterations` linear solves: the next step size.
  double after_success(double t, int iterations);

  struct Decision {
    bool retry = false;
    double dt = 0.0;
    std::string reason;  ///< why the simulation must stop (when !retry)
  };
  /// After a failed step starting at t (the integrator kept the last converged state).
  Decision after_failure(double t, const StepResult& r);

  double current() const { return dt_; }

  // ---- error control ---------------------------------------------------------------------------
  bool error_control() const { return s_.kind == StepStrategy::Kind::ErrorControl; }
  /// The integrator's error test for this strategy (p: the order of its estimate).
  ErrorTest error_test(int estimate_order);
  /// A converged step of size dt with error norm `norm`: accepted when norm <= 1 or dt is
  /// already the smallest allowed; a rejected step sets the smaller step to retry with.
  bool accepts(double norm, double dt);
  /// After an accepted step ending at t: the next step from its error norm (PI controller), at
  /// most `stable_step` (StepResult::stable_step) times the safety factor.
  double after_accepted(double t, double norm, double stable_step = HUGE_VAL);
  /// The counts and extremes of the run (the summary of docs/adaptive.md).
  struct Summary {
    long accepted = 0, rejected = 0, failed = 0;
    double smallest = std::numeric_limits<double>::infinity(), largest = 0.0;
    double smallest_at = 0.0;  ///< end time of the smallest accepted step
  };
  const Summary& summary() const { return summary_; }
  /// A step from t so short that t + dt cannot be told from t (round-off): the run must stop.
  static bool below_resolution(double t, double dt) { return dt <= 1e-13 * std::max(1.0, std::abs(t)); }
  /// Counts an accepted step (t: its end time).
  void count_accepted(double t, double dt);

 private:
  /// The largest step allowed at time t.
  double limit(double t) const;
  double clamp(double dt, double t) const;
  StepStrategy s_;
  double initial_, dt_;
  int newton_max_;
  int steps_since_reduction_ = 0, steps_since_raise_ = 0;
  bool last_chance_ = false;  ///< already retried at min time step
  int consecutive_failures_ = 0;
  // error control
  int k_ = 3;                  ///< exponent: estimate order + 1 per step, estimate order per unit step
  double norm_prev_ = -1.0;    ///< error norm of the last accepted step (< 0: none yet)
  bool after_rejection_ = false;
  int rejections_in_a_row_ = 0;
  Summary summary_;
};

}  // namespace mbl::integrators

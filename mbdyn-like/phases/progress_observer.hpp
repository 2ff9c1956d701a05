#pragma once
// The progress line of a run on a terminal: one line on stderr rewritten in place ("\r") with the
// simulated time, the share of the final time done, the steps, the Newton iterations per step
// (since the last report), the wall time and an estimate of the time left; at most every
// `interval` seconds. A step observer of the model: the phases know nothing of it. The program
// adds it only when stderr is a terminal and the run is not silent (cli/run_command.cpp).
#include <chrono>
#include <cstdio>
#include <string>

#include "mbdyn-like/core/step_observer.hpp"

namespace mbl {

class ProgressObserver final : public StepObserver {
 public:
  /// `final_time` infinite (`final time: forever`): no share and no estimate.
  ProgressObserver(std::FILE* out, double initial_time, double final_time, double interval_s = 0.25);
  void after_step_iterations(long step, int newton_iterations) override;
  void after_output(double t) override;
  /// The run's closing lines start on a clean line.
  void after_last_step() override { finish(); }
  /// Erases the line (the summary or an error message then starts a clean line).
  void finish();
  /// The line for these numbers (no "\r"), for the tests.
  static std::string line(double t, double t0, double t_end, long steps, double iterations_per_step, double wall_s);

 private:
  using Clock = std::chrono::steady_clock;
  std::FILE* out_;
  double t0_, t_end_, interval_s_;
  Clock::time_point start_, last_;
  long step_ = 0, steps_at_last_ = 0, iterations_since_last_ = 0;
  std::size_t width_ = 0;  ///< of the line shown, to erase it
};

}  // namespace mbl

#include "mbdyn-like/phases/progress_observer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace mbl {

ProgressObserver::ProgressObserver(std::FILE* out, double initial_time, double final_time, double interval_s)
    : out_(out), t0_(initial_time), t_end_(final_time), interval_s_(interval_s), start_(Clock::now()), last_(start_) {}

void ProgressObserver::after_step_iterations(long step, int newton_iterations) {
  step_ = step;
  iterations_since_last_ += newton_iterations;
}

namespace {
std::string duration(double s) {
  if (s < 60.0) return fmt::format("{:.1f} s", s);
  if (s < 3600.0) return fmt::format("{}:{:02}", int(s / 60.0), int(std::fmod(s, 60.0)));
  return fmt::format("{}:{:02}:{:02}", int(s / 3600.0), int(std::fmod(s, 3600.0) / 60.0), int(std::fmod(s, 60.0)));
}
}  // namespace

std::string ProgressObserver::line(double t, double t0, double t_end, long steps, double iterations_per_step,
                                   double wall_s) {
  std::string s = fmt::format("t = {:.6g}", t);
  const bool bounded = std::isfinite(t_end) && t_end > t0;
  const double done = bounded ? std::clamp((t - t0) / (t_end - t0), 0.0, 1.0) : 0.0;
  if (bounded) s += fmt::format(" ({:.1f} %)", 100.0 * done);
  s += fmt::format(", step {}, {:.2f} it/step, wall {}", steps, iterations_per_step, duration(wall_s));
  if (bounded && done > 0.0) s += ", left ~" + duration(wall_s * (1.0 - done) / done);
  return s;
}

void ProgressObserver::after_output(double t) {
  const Clock::time_point now = Clock::now();
  if (std::chrono::duration<double>(now - last_).count() < interval_s_) return;
  const long steps = step_ - steps_at_last_;
  const double per_step = steps > 0 ? double(iterations_since_last_) / double(steps) : 0.0;
  const std::string text = line(t, t0_, t_end_, step_, per_step, std::chrono::duration<double>(now - start_).count());
  // Padded to the previous width so that a shorter line leaves nothing behind.
  std::fprintf(out_, "\r%-*s", int(width_), text.c_str());
  std::fflush(out_);
  width_ = std::max(width_, text.size());
  last_ = now;
  steps_at_last_ = step_;
  iterations_since_last_ = 0;
}

void ProgressObserver::finish() {
  if (width_ == 0) return;
  std::fprintf(out_, "\r%*s\r", int(width_), "");
  std::fflush(out_);
  width_ = 0;
}

}  // namespace mbl

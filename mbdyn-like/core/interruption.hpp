#pragma once
// A stop asked by a signal (SIGINT/SIGTERM, set by the program's handler): the phases end the run
// after the current step; an element waiting for a peer process (external forces, streams) gives
// up its wait by throwing Interruption, which ends the run the same way.
//
// A step may never end (a Lua drive stuck in a library call, a peer that never answers): a second
// signal, or the first one left unanswered for StopWatchdog's grace time, stops the run inside
// the step. The watchdog's `finish` then closes the outputs at the last converged step (the output
// writers hold a lock while they write a step, so no record is half-written) and ends the
// process; a third signal kills it at once.
#include <functional>
#include <memory>

#include "mbdyn-like/core/step_observer.hpp"

namespace mbl {

/// Async-signal-safe.
void note_interruption(int signal) noexcept;
/// The signal that asked to stop, or 0.
int interruption_signal() noexcept;

class Interruption : public EvaluationError {
 public:
  using EvaluationError::EvaluationError;
};

class StopWatchdog {
 public:
  /// Seconds the run has, after a first signal, to end its step before it is stopped inside it.
  static constexpr double kGraceSeconds = 5.0;
  /// `second_signal`: a second signal came (else the grace time ran out).
  using Finish = std::function<void(int signal, bool second_signal)>;
  /// Installs the SIGINT/SIGTERM handlers and starts the watchdog's thread; `finish` must not
  /// return (it ends the process, e.g. with _exit(128 + signal)).
  explicit StopWatchdog(Finish finish, double grace_seconds = kGraceSeconds);
  /// Stops the thread and gives SIGINT/SIGTERM their default action back.
  ~StopWatchdog();
  StopWatchdog(const StopWatchdog&) = delete;
  StopWatchdog& operator=(const StopWatchdog&) = delete;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace mbl

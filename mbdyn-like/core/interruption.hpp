#pragma once
// A stop asked by a signal (SIGINT/SIGTERM, set by the program's handler): the phases end the run
// after the current step; an element waiting for a peer process (external forces, streams) gives
// up its wait by throwing Interruption, which ends the run the same way.
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

}  // namespace mbl

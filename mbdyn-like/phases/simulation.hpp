#pragma once
// MBDyn's solution phases for an initial-value problem (technical manual ch. 6): initial
// assembly, derivatives, (dummy steps), regular steps.
#include <atomic>
#include <iosfwd>
#include <string>

#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/model/settings.hpp"
#include "mbdyn-like/phases/run_output.hpp"

namespace mbl {

enum class RunStatus { Completed, Aborted, SolutionFailure, Interrupted };

struct RunReport {
  RunStatus status = RunStatus::Completed;
  long steps = 0;
  double final_time = 0.0;
  long total_iterations = 0;
  std::string message;  ///< why a run stopped early
  int signal = 0;       ///< the signal that interrupted the run (status Interrupted)
  /// `strategy: error control, ..., global` (docs/adaptive.md, "Global error"): the largest
  /// over the run of the global error estimate's norm (1: at the tolerance); < 0 without it.
  double global_error = -1.0;
};

/// Runs the whole simulation. Never throws on divergence: a failing step ends the run cleanly
/// with status SolutionFailure; outputs are complete up to the last converged step.
RunReport run_simulation(Model& model, const RunSettings& settings, RunOutput& output, std::ostream& log);

}  // namespace mbl

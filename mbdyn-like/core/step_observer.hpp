#pragma once
// Hook points of the solution phases around each time step, for code that is neither a node nor
// an element (scripted controllers, ...). The phases know only this interface.
#include <stdexcept>
#include <string>

namespace mbl {

class StepObserver {
 public:
  virtual ~StepObserver() = default;
  /// Before the step to time t is solved (after Time, TimeStep, Step are set).
  virtual void before_step(double t) {}
  /// After the step to time t has converged (and the drives and elements have advanced).
  virtual void after_step(double t) {}
  /// After the step numbered `step` has converged in `newton_iterations` (before after_output).
  virtual void after_step_iterations(long step, int newton_iterations) {}
  /// After the records of the step to time t are written.
  virtual void after_output(double t) {}
  /// After the last step, before the run's closing lines are written (its summaries).
  virtual void after_last_step() {}
};

/// A user-supplied function (a script, ...) failed while the model was evaluated: the run stops
/// with its outputs valid up to the last converged step (exit 3). what() says where and why.
class EvaluationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace mbl

#pragma once
// Drive callers (manual §2.6): scalar functions of time (and of the model state) that feed
// forces, joints, gravity, spectral radii, ... Implementations live in elements/drives; this is
// the interface the rest of the solver uses.
#include <memory>
#include <string>

namespace mbl::math { class MathParser; }

namespace mbl {

/// Shared clock and math environment, owned by the model and updated by the solution phases
/// before every evaluation round (MBDyn's DriveHandler).
struct DriveEnvironment {
  double time = 0.0;
  double time_step = 0.0;
  long step = 0;
  math::MathParser* math = nullptr;  ///< for `string` drives (Time, TimeStep, Step, Var)
};

class DriveCaller {
 public:
  virtual ~DriveCaller() = default;
  /// Value at time t (the current model state is available through the environment).
  virtual double value(double t) const = 0;
  /// MBDyn's bIsDifferentiable: only the drives MBDyn differentiates say so (string, file, meter,
  /// closest next, sample and hold, bistop do not): it decides the derivative column of a drive's
  /// output and whether initial assemblies, shock absorbers and motors take the drive's rate
  /// (else 0, as MBDyn). derivative() may still be defined for our own uses.
  virtual bool has_derivative() const { return false; }
  virtual double derivative(double t) const { return 0.0; }
  /// Drives with memory (sample and hold, discrete filter, ...) advance here, once per
  /// converged step.
  virtual void after_convergence(double t) {}
  /// True for drives that keep their own memory and must receive after_convergence() once per
  /// converged step (the drive readers collect them; composites do not forward the call).
  virtual bool is_stateful() const { return false; }
  /// The memory as a step begins, and back to it when the step is abandoned (element.hpp).
  virtual void save_step_state() {}
  virtual void restore_step_state() {}
  /// Shown in the .log and in error messages, e.g. "const, 9.81".
  virtual std::string describe() const { return {}; }
};

using DriveCallerPtr = std::shared_ptr<DriveCaller>;

/// The constant drive, needed by the core before any reader runs.
class ConstDrive final : public DriveCaller {
 public:
  explicit ConstDrive(double v) : v_(v) {}
  double value(double) const override { return v_; }
  bool has_derivative() const override { return true; }
  double derivative(double) const override { return 0.0; }
  std::string describe() const override;

 private:
  double v_;
};

}  // namespace mbl

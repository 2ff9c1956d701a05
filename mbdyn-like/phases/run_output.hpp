#pragma once
// What the solution phases report to the output writers (mbdyn-like/output implements it).
#include "integrators/integrator.hpp"
#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/phases/eigenanalysis.hpp"

namespace mbl {

class RunOutput {
 public:
  virtual ~RunOutput() = default;
  /// After reading and numbering: open files, declare NetCDF variables, write the .log.
  virtual void setup(Model& model) = 0;
  /// The derivatives phase converged: its .out line (written at once, before an eigenanalysis
  /// due at the initial time).
  virtual void derivatives_done(double t, int iterations, double residual_error) {}
  /// Before the first step, when the deck asks for eigenanalyses (MBDyn's OutputEigPrepare:
  /// the NetCDF dimensions and the index variables of eig.*).
  virtual void eigen_prepare(Model& model, const EigenSettings& settings) {}
  /// An eigenanalysis was performed (input manual §4.1.1: .out table, .m file, NetCDF eig.*).
  virtual void eigenanalysis(Model& model, const EigenSolution& solution) {}
  /// `abort after: input` (input manual §4.1.1): the configuration as read is written once,
  /// with no "Step" line, and the .out says "End of Input; no simulation or assembly is
  /// required." (as MBDyn's).
  virtual void input_only(Model& model, double t) {}
  /// The initial output after the derivatives phase (the "Step 0" line). Without
  /// `simulation_follows` (final time not after the initial time) MBDyn writes the initial
  /// output and, instead of the "Step" lines, "End of derivatives; no simulation is required.".
  virtual void derivatives(Model& model, double t, int iterations, double residual_error,
                           bool simulation_follows) = 0;
  /// Instead of derivatives() when dummy steps were run (input manual §4.1.3): the "after dummy
  /// steps" line and the initial output at the time t reached by the
  /// dummy steps (last dummy step dt, with its iterations and error).
  virtual void dummy_steps(Model& model, double t_derivatives, int derivatives_iterations,
                           double derivatives_error, double t, double dt, int iterations,
                           double residual_error) {}
  /// A run that fails before its initial output (initial assembly, derivatives, dummy steps, a
  /// user function failing at the initial time): the last converged configuration at t (as read,
  /// or as assembled) written once with no "Step" line, so that every output file of the run
  /// exists and holds it. The model's state may be that of a failed iterate: the caller resets it.
  virtual void initial_configuration(Model& model, double t) {}
  /// A converged step (or the failing one, with converged = false, which writes nothing else).
  virtual void step(Model& model, long step, double t, double dt, const integrators::StepResult& r) = 0;
  /// Flushes and closes everything (also after a failure: files stay valid).
  virtual void close() = 0;
};

}  // namespace mbl

#pragma once
// RunOutput on top of the OutputManager: declares the entity groups, writes the .log model
// description, and asks every node and element for its output at each output step.
//
// What it writes itself, because no entity of ours owns it:
// - the automatic structural element of each dynamic node (input manual §8.2): the .ine line
//   (§6.5 "The .ine Output File") and node.struct.<L>.B/G/BP/GP in the NetCDF file (appendix C);
// - the accelerations of dynamic nodes with `accelerations, yes`, recovered after convergence
//   from the momentum derivatives (technical manual §8.1.1, eqs. 8.7-8.8);
// - drive callers defined with `output, yes` (.drv);
// - the .log lines that describe the numbering and the symbol table (appendix E.3).
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "mbdyn-like/output/output_manager.hpp"
#include "mbdyn-like/phases/run_output.hpp"

namespace mbl {

namespace elements {
class Body;
}

/// Mass m, static moment s_W = m R b and inertia J_W about the node (global frame) of the bodies
/// on a structural node: the mass matrix [m I, s x^T; s x, J] of technical manual eq. 8.10.
struct NodalInertia {
  double m = 0.0;
  Vec3 s_W = Vec3::Zero();
  Mat3 J_W = Mat3::Zero();
};
/// Sum of the inertia of `bodies` (those attached to `node`) about `node`.
NodalInertia nodal_inertia(std::span<const elements::Body* const> bodies, const StructNode& node);
/// Linear and angular accelerations of a dynamic node from beta', gamma' (technical manual §8.1.1
/// eqs. 8.6-8.9): M [xpp; wp] = [beta' - w x w x s; gamma' - (w x s) x v - w x J w].
/// Returns false (and zeros) when the mass matrix is singular.
bool node_accelerations(const StructNode& node, const NodalInertia& in, Vec3& xpp_W, Vec3& wp_W);

class ModelOutput final : public RunOutput {
 public:
  explicit ModelOutput(output::OutputConfig config);
  void setup(Model& model) override;
  void derivatives_done(double t, int iterations, double residual_error) override;
  void eigen_prepare(Model& model, const EigenSettings& settings) override;
  void eigenanalysis(Model& model, const EigenSolution& solution) override;
  void derivatives(Model& model, double t, int iterations, double residual_error,
                   bool simulation_follows) override;
  void input_only(Model& model, double t) override;
  void initial_configuration(Model& model, double t) override;
  void dummy_steps(Model& model, double t_derivatives, int derivatives_iterations,
                   double derivatives_error, double t, double dt, int iterations,
                   double residual_error) override;
  void step(Model& model, long step, double t, double dt, const integrators::StepResult& r) override;
  void close() override;
  output::OutputManager& manager() { return manager_; }
  void write_reference_frames();  ///< the .rfm file (`default output: reference frames`)

  /// The last step whose output is complete (step 0: the initial output).
  struct Written {
    long step = -1;
    double time = 0.0;
  };
  /// Closes every output now, from another thread (core/interruption.hpp's watchdog): waits
  /// until the step being written, if any, is whole, and leaves the files at the last step
  /// written. For a process about to end: the lock stays held, later writes of the run wait.
  Written close_now();

 private:
  /// The automatic structural element of a dynamic node.
  struct AutoStruct {
    StructNode* node;
    /// The bodies on the node, in input order (listed once in setup(), used for accelerations).
    std::vector<const elements::Body*> bodies;
    int nc_B = -1, nc_G = -1, nc_BP = -1, nc_GP = -1;
  };
  void write_entities(Model& model);
  void write_log(Model& model);
  void update_accelerations();
  /// The "Step 0" output after the derivatives or the dummy steps.
  void initial_output(Model& model, double t, double dt, int iterations, double residual_error,
                      bool simulation_follows = true);
  void write_autostruct();
  void write_drives(double t);
  /// eig.* of appendix C.1.5 (eigen_output.cpp).
  void write_eigen_netcdf(Model& model, const EigenSolution& solution);
  struct EigenNcLayout {
    std::size_t nodes = 0;  ///< structural nodes in eig.idx (with `output geometry`)
  } eig_nc_;
  output::OutputManager manager_;
  /// Held while a step's records are written, so that close_now() never cuts one.
  std::recursive_mutex mutex_;
  Written written_;
  std::vector<AutoStruct> autostruct_;
  /// Elements in MBDyn's output order: by type (autostruct, joints, beams, forces, ...), then
  /// in input order.
  std::vector<Element*> output_order_;
};

}  // namespace mbl

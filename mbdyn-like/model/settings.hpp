#pragma once
// Everything the `data`, `initial value` and `control data` blocks say about how to run:
// plain data filled by the model builder and used by the solution phases.
#include <array>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "integrators/integrator.hpp"
#include "integrators/linear_solver.hpp"
#include "integrators/newton.hpp"
#include "integrators/step_controller.hpp"
#include "mbdyn-like/core/drive_caller.hpp"

namespace mbl {

class Element;

/// `problem: inverse dynamics` and its block (input manual §5.1.1; technical manual §6.3;
/// MBDyn's invsolver.cc): which problem, the weights of the underdetermined kinematic
/// subproblems, and each element's role.
struct InverseDynamicsSettings {
  enum class Problem { FullyActuatedCollocated, UnderdeterminedFullyActuated };
  /// An element's role (the trailing `inverse dynamics, torque, ..., ergonomy, <b>`): a joint
  /// whose multipliers are torques, whose constraint prescribes the motion, whose force is a
  /// known load of the dynamics subproblem, or whose elastic energy is minimised in the position
  /// subproblem.
  struct Flags {
    bool torque = false, prescribed_motion = false, right_hand_side = false, ergonomy = false;
  };
  bool enabled = false;
  Problem problem = Problem::FullyActuatedCollocated;
  /// w1 (on the nodes' change from the previous step) and w2 (on the ergonomy bodies' mass) of
  /// the position, velocity and acceleration subproblems (`problem type: ..., weights`).
  std::array<double, 3> w1{1.0, 1.0, 1.0}, w2{0.0, 0.0, 0.0};
  /// Elements read with an explicit `inverse dynamics, ...`; the others have their kind's
  /// default (default_flags).
  std::map<const Element*, Flags> flags;
  /// MBDyn's defaults: a joint is torque and prescribed motion (a passive constraint); any other
  /// element is a right-hand side. `explicit_card`: after `inverse dynamics,` a joint is neither
  /// unless said.
  static Flags default_flags(bool joint, bool explicit_card) {
    Flags f;
    f.torque = f.prescribed_motion = joint && !explicit_card;
    f.right_hand_side = !joint;
    return f;
  }
  Flags flags_of(const Element& e, bool joint) const {
    const auto it = flags.find(&e);
    return it != flags.end() ? it->second : default_flags(joint, false);
  }
};

/// `eigenanalysis:` card of the initial value block (input manual §4.1.1).
struct EigenSettings {
  /// `None`: no eigensolution, the matrices only (MBDyn with `output sparse matrices` and no
  /// `use ...`: its EIG_SOLVE flag stays off, solver.cc ReadData).
  enum class Method { Lapack, Arpack, External, None };
  /// Which Ritz values ARPACK looks for (`mode`); LAPACK computes all of them.
  enum class Which { LargestMagnitude, SmallestMagnitude, LargestReal, SmallestReal, LargestImaginary,
                     SmallestImaginary };
  std::vector<double> times;  ///< empty: no eigenanalysis; strictly ascending
  /// `parameter` h: the matrices are J(+-h/2) (dCoef = h/2).
  double parameter = 1.0;
  Method method = Method::Lapack;
  /// `balance`: dggevx's BALANC (permute is MBDyn's default; `balance, no` uses dggev).
  bool permute = true, scale = false;
  bool output_full_matrices = false, output_sparse_matrices = false;
  bool output_eigenvectors = false, output_geometry = false;
  int matrix_precision = 0, results_precision = 0;  ///< 0: the stream's default (6)
  /// Eigenvalues reported: frequency (Hz, signed) within [lower, upper].
  double lower_frequency = -std::numeric_limits<double>::max();
  double upper_frequency = std::numeric_limits<double>::max();
  Which which = Which::SmallestMagnitude;  ///< MBDyn's default (solver.h EigenAnalysis)
  int arpack_nev = 0, arpack_ncv = 0, arpack_max_iterations = 300;
  double arpack_tolerance = 0.0;
  /// File name suffix of analysis k: "_<k>", zero-padded to `suffix width`, or `suffix format`.
  int suffix_width = 0;  ///< -1: `compute`
  std::string suffix_format;
  bool any_file_output() const {
    return output_full_matrices || output_sparse_matrices || output_eigenvectors || output_geometry;
  }
};

/// Where `abort after:` ends a run (MBDyn's Solver::AbortAfter).
enum class AbortAfter { none, input, assembly, derivatives, dummy_steps, regular_step };

struct RunSettings {
  // ---- initial value block (input manual §4.1) -------------------------------------------------
  double initial_time = 0.0;
  double final_time = 0.0;
  bool forever = false;
  double time_step = 1.0;
  double min_time_step = 0.0;
  /// `max time step`: a drive caller of time in MBDyn 2024 (empty, or a value <= 0: unlimited)
  std::function<double(double t)> max_time_step;
  /// `strategy:` (its min/max limits are filled from min_time_step/max_time_step at run time)
  integrators::StepStrategy strategy;
  integrators::MethodSpec method;
  bool method_given = false;
  integrators::NewtonOptions newton;
  integrators::LinearSolverSpec linear_solver;
  double derivatives_tolerance = 1e-6;
  int derivatives_max_iterations = 1;
  double derivatives_coefficient = 1e-6;
  /// `derivatives coefficient: [c,] auto [, max iterations, n] [, factor, f]`: on failure, retry
  /// with c f, c f^2, ... c f^n, then c / f ... c / f^n, then the best one with a tolerance
  /// relaxed to its error (n = 0: one attempt).
  int derivatives_auto_iterations = 0;
  double derivatives_auto_factor = 10.0;
  int dummy_steps = 0;
  double dummy_steps_tolerance = 1e-6;
  int dummy_steps_max_iterations = 1;
  double dummy_steps_ratio = 1e-3;
  integrators::MethodSpec dummy_method;
  /// `abort after: input | assembly | derivatives | dummy steps | regular step, <n>` (input
  /// manual §4.1.1); `regular_step`: the run ends (normally) once `abort_after_step` regular steps
  /// are done (MBDyn's Solver::Advance sets the final time to the current one).
  AbortAfter abort_after = AbortAfter::none;
  long abort_after_step = 0;
  bool output_iterations = false, output_residual = false, output_solution = false;
  /// `output meter:` of the initial value block (MBDyn's SolverDiagnostics output meter): the
  /// iteration diagnostics print only at times it is non-zero; null: always.
  DriveCallerPtr diagnostics_meter;
  bool output_messages = true;  ///< the .out "Step" lines (`output: none` clears them)
  EigenSettings eigen;
  /// `threads:` of the Jacobian assembly: 0 auto (several on large models), 1 disable, n.
  int assembly_threads = 0;

  // ---- control data (input manual ch. 5) ----------------------------------------------------------
  bool skip_initial_joint_assembly = false;
  double assembly_position_stiffness = 1.0, assembly_velocity_stiffness = 1.0;
  bool omega_rotates = false;
  double assembly_tolerance = 1e-6;
  /// `epsilon:` the fraction of each Newton correction the initial assembly applies (MBDyn's dEpsilon).
  double assembly_epsilon = 1.0;
  int assembly_max_iterations = 1;
  /// `use: <items>, in assembly`: element kinds ("body", "force", ...) that take part in the
  /// initial assembly besides the joints.
  std::vector<std::string> assembly_use;
  /// `initial assembly of deformable and force elements`
  bool assembly_deformable_and_forces = false;
  int output_frequency = 1;
  DriveCallerPtr output_meter;
  int output_precision = 6;
  bool output_precision_given = false;
  bool netcdf = false, netcdf_sync = false, text = true;
  /// `default output: reference frames` (input manual §5.3.5): the .rfm file.
  bool output_reference_frames = false;
  /// `print: dof stats, ...` (§5.3.2): MBDyn's print flags (output/dof_stats.hpp, print_flag).
  unsigned print_flags = 0;
  std::string title;

  InverseDynamicsSettings inverse_dynamics;
};

}  // namespace mbl

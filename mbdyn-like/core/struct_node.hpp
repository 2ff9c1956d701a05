#pragma once
// Structural nodes (technical manual §8.1; input manual "structural" node card).
//
// Unknowns (as MBDyn numbers them, see the .log "struct node dofs/eqs" lines):
//   dof_index()+0..2  x   position          (differential, derivative v)
//   dof_index()+3..5  g   incremental CGR   (differential, derivative g'; omega = G(g) g' + R(g) w_ref)
//   dynamic nodes only:
//   dof_index()+6..8  beta   momentum          (differential)
//   dof_index()+9..11 gamma  momenta moment    (differential)
//   modal nodes only (input manual §6.5.3): v, w at dof_index()+6..8, +9..11 (differential;
//   their derivatives are the accelerations)
// Equations: force/moment equilibrium at eq_index() (= first+6 for dynamic, first for static);
// momentum definitions (dynamic) at momentum_eq_index() (= first).
// Displacement-only nodes (input manual §6.5, `static displacement`/`dynamic displacement`) have
// no orientation: x at first+0..2 and, dynamic, beta at first+3..5; equilibrium at first+3
// (dynamic) or first, as MBDyn's "struct displacement node" .log lines number them. Their
// orientation stays the identity and their angular velocity zero.
#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "mbdyn-like/core/node.hpp"
#include "mbdyn-like/core/types.hpp"

namespace mbl {

class StructNode;

/// MBDyn's automatic structural element of a dynamic node (autostr.cc AutomaticStructElem,
/// AutomaticStructDispElem), as far as its private data go: beta[1..3] momentum, gamma[1..3]
/// momenta moment (global, about the node), betaP, gammaP their rates, KE = (beta . v +
/// gamma . omega) / 2. Element drives, `bind` and the [element, ...] plugin reach it as
/// `automatic structural`, labelled as its node (Model::find_element_data).
class AutomaticStructuralData final : public parser::PrivateDataOwner {
 public:
  explicit AutomaticStructuralData(const StructNode& node) : node_(node) {}
  AutomaticStructuralData(const AutomaticStructuralData&) = delete;
  AutomaticStructuralData& operator=(const AutomaticStructuralData&) = delete;
  unsigned private_data_index(std::string_view name) const override {
    return parser::private_data_index_in_listing(*this, name);
  }
  unsigned private_data_count() const override { return 13; }
  double private_data(unsigned index) const override;
  DatumInfo private_data_info(unsigned index) const override;

 private:
  const StructNode& node_;
};

class StructNode : public Node {
 public:
  enum class Type { Static, Dynamic, Modal, DummyOffset, DummyRelativeFrame, StaticDisplacement, DynamicDisplacement };

  struct InitialConditions {
    Vec3 x_W = Vec3::Zero();
    Mat3 R_WN = Mat3::Identity();
    Vec3 v_W = Vec3::Zero();
    Vec3 w_W = Vec3::Zero();
  };

  StructNode(unsigned label, Type type, const InitialConditions& ic);

  std::string_view kind() const override { return "structural"; }
  Type type() const { return type_; }
  std::string_view type_name() const;  ///< "static", "dynamic", ... (NetCDF, .log)
  bool is_dynamic() const { return type_ == Type::Dynamic || type_ == Type::DynamicDisplacement; }
  bool is_displacement() const { return type_ == Type::StaticDisplacement || type_ == Type::DynamicDisplacement; }
  /// Unknowns of the configuration block at dof_index(): x (3) or x and g (6).
  int kinematic_dof_count() const { return is_displacement() ? 3 : 6; }
  /// Dynamic and modal nodes carry more unknowns after the configuration block (momenta; for a
  /// modal node the velocity v and angular velocity w, whose definitions and equilibrium the
  /// modal joint writes) and number their equilibrium rows after them.
  bool has_inertia_block() const { return is_dynamic() || type_ == Type::Modal; }
  bool is_dummy() const { return type_ == Type::DummyOffset || type_ == Type::DummyRelativeFrame; }

  int dof_count() const override;
  /// 12 (x, g, v, w) or 6 (x, v) unknowns in MBDyn's initial assembly; none for dummy nodes.
  int initial_dof_count() const override { return is_dummy() ? 0 : is_displacement() ? 6 : 12; }
  void describe_dofs(std::ostream& os, std::string_view prefix, int first, bool initial) const override;
  void describe_equations(std::ostream& os, std::string_view prefix, int first, bool initial) const override;
  DofOrder dof_order(int) const override { return DofOrder::Differential; }

  int dof_index() const { return first_index(); }
  int eq_index() const { return first_index() + (has_inertia_block() ? kinematic_dof_count() : 0); }
  int momentum_dof_index() const { return first_index() + kinematic_dof_count(); }
  int momentum_eq_index() const { return first_index(); }

  // ---- current kinematics (the last update()), measured and expressed in W -------------------
  const Vec3& x_W() const { return x_W_; }
  const Mat3& R_WN() const { return R_WN_; }
  const Vec3& v_W() const { return v_W_; }
  const Vec3& w_W() const { return w_W_; }
  /// Orientation and angular velocity at the start of the Newton corrections (the prediction);
  /// the Jacobian uses w_ref (technical manual §5.1: d omega = d g' - w_ref x d g).
  const Mat3& R_ref() const { return R_ref_; }
  const Vec3& w_ref() const { return w_ref_; }
  const Vec3& g() const { return g_; }
  /// Momentum and momenta moment with their derivatives (dynamic nodes).
  const Vec3& beta() const { return beta_; }
  const Vec3& gamma() const { return gamma_; }
  const Vec3& beta_dot() const { return beta_dot_; }
  const Vec3& gamma_dot() const { return gamma_dot_; }
  /// Configuration at the last converged time point (`model::*_prev` functions).
  const Vec3& x_prev_W() const { return x_prev_W_; }
  const Vec3& v_prev_W() const { return v_prev_W_; }
  const Vec3& w_prev_W() const { return w_prev_W_; }
  const Mat3& R_prev_WN() const { return R_prev_WN_; }
  /// Accelerations, computed after convergence when requested (manual "accelerations").
  const Vec3& xpp_W() const { return xpp_W_; }
  const Vec3& wp_W() const { return wp_W_; }
  void set_accelerations(const Vec3& xpp, const Vec3& wp) { xpp_W_ = xpp; wp_W_ = wp; }
  bool compute_accelerations = false;
  /// Output of the node's automatic structural element (momentum B, G and derivatives; dynamic
  /// nodes only): off after `default output: none` (input manual §5.3.5 "all entities").
  bool autostruct_output = true;
  /// The private data of the node's automatic structural element (dynamic nodes).
  AutomaticStructuralData& automatic_structural() { return automatic_structural_; }

  /// The node as a rigid frame (for readers: `reference, node`).
  parser::RigidFrame frame() const { return {x_W_, R_WN_, v_W_, w_W_}; }

  // ---- the state machinery ---------------------------------------------------------------------
  void initial_state(Vector& y, Vector& yp) const override;
  void update(const Vector& y, const Vector& yp) override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  bool concurrent_jacobian() const override { return true; }
  void after_convergence(Vector& y, Vector& yp) override;
  void rebase_history(int j, Vector& y, Vector& yp) const override;
  void after_predict(Vector& y, Vector& yp) override;
  /// The derivatives phase computes momenta derivatives; the input velocities stay.
  void derivatives_update(Vector& y, Vector& yp) const override;

  /// MBDyn's form of a converged point (StructNode::AfterConvergence: WRef = WCurr, gP ~ 0):
  /// omega held by the reference, g' = 0 (`to_reference`), or back to the canonical g' = omega.
  void reference_angular_velocity_form(Vector& yp, bool to_reference) {
    if (!rebases()) return;
    const int i = dof_index();
    w_ref_ = to_reference ? w_W_ : Vec3::Zero();
    gp_ = to_reference ? Vec3::Zero() : w_W_;
    yp.segment<3>(i + 3) = gp_;
  }
  /// Second-order integrators move the node on SO(3) themselves: R_WN becomes the reference of
  /// g = 0 with no reference angular velocity (omega = g'); update() follows.
  void place(const Mat3& R_WN) {
    R_ref_ = R_WN;
    w_ref_.setZero();
  }
  /// Sets the kinematics directly (initial assembly, dummy nodes).
  void set_kinematics(const Vec3& x, const Mat3& R, const Vec3& v, const Vec3& w);
  const InitialConditions& initial() const { return ic_; }
  /// Initial guesses of the momentum and momenta moment derivatives (`automatic structural`
  /// card); the derivatives phase recomputes them.
  Vec3 initial_beta_dot = Vec3::Zero(), initial_gamma_dot = Vec3::Zero();
  /// Replaces the initial conditions and restarts the node from them, as the constructor does
  /// (initial assembly writes the assembled configuration back this way).
  void set_initial(const InitialConditions& ic);

  /// Per-node initial assembly options (`assembly, <pos stiffness>, <vel stiffness>,
  /// <omega rotates>` of the node card); unset: the control-data defaults apply.
  struct AssemblyOptions {
    double position_stiffness = 1.0;
    double velocity_stiffness = 1.0;
    bool omega_rotates = false;
  };
  std::optional<AssemblyOptions> assembly_options;

  // ---- output ----------------------------------------------------------------------------------
  void output_setup(OutputSink&) override;
  void output(OutputSink&) const override;
  enum class OrientationOutput { Euler123, Euler313, Euler321, OrientationVector, Matrix };
  OrientationOutput orientation_output = OrientationOutput::Euler123;

  // Private data (manual "structural node" private data): X[1..3], x[1..3], Phi[1..3],
  // XP[1..3], xP[1..3], Omega[1..3], omega[1..3], E[1..3], E123, E313, E321, PE[0..3], XPP, ...
  unsigned private_data_index(std::string_view name) const override;
  unsigned private_data_count() const override;
  double private_data(unsigned index) const override;
  DatumInfo private_data_info(unsigned index) const override;

  /// Dummy nodes: base node and offset/relative-frame data (technical manual §8.1.3).
  StructNode* dummy_base = nullptr;
  StructNode* dummy_reference = nullptr;  ///< relative frame dummy: the reference node
  Vec3 dummy_offset_B = Vec3::Zero();
  Mat3 dummy_R_BH = Mat3::Identity();
  /// Relative frame dummy with a `pivot node`: the relative motion re-expressed from the pivot
  /// node's frame (offset and orientation given in the reference node's frame, as MBDyn reads them).
  StructNode* dummy_pivot = nullptr;
  Vec3 dummy_pivot_offset = Vec3::Zero();
  Mat3 dummy_R_pivot = Mat3::Identity();
  /// Recomputes a dummy node from its base node(s).
  void update_dummy();

  /// Orientation and angular velocity of a converged point (rebase_history).
  struct HistoryPoint {
    Mat3 R_WN;
    Vec3 w_W;
  };
  /// Points kept when no ring is given: enough for the 6-stage ESDIRK and the 4th-order predictor.
  static constexpr int kHistoryDepth = 8;
  /// Keeps the converged points in `ring` (the model's contiguous store of every node's ring,
  /// as deep as the integrator rebases) instead of a ring of kHistoryDepth of its own; the
  /// newest points kept so far move there.
  void use_history(std::span<HistoryPoint> ring);
  /// Whether the node keeps converged orientations to rebase (it has orientation unknowns).
  bool rebases() const { return dof_count() >= 6 && !is_displacement(); }

  /// What after_predict() and after_convergence() overwrite, saved at the start of a step so that
  /// a failed step (possibly after some ESDIRK stages converged) is retried from it.
  struct Checkpoint {
    Mat3 R_ref, R_prev_WN;
    Vec3 w_ref, x_prev_W, v_prev_W, w_prev_W;
    long history_pushes = 0;
    int history_newest = 0, history_size = 0;
  };
  Checkpoint checkpoint() const;
  /// Back to `c`; the ring's points converged since then are dropped (the points they overwrote
  /// are no longer counted).
  void restore(const Checkpoint& c);

 private:
  Type type_;
  InitialConditions ic_;
  Vec3 x_W_, v_W_, w_W_;
  Mat3 R_WN_;
  Mat3 R_ref_ = Mat3::Identity();
  Vec3 w_ref_ = Vec3::Zero();
  Vec3 g_ = Vec3::Zero(), gp_ = Vec3::Zero();
  Vec3 beta_ = Vec3::Zero(), gamma_ = Vec3::Zero();
  Vec3 beta_dot_ = Vec3::Zero(), gamma_dot_ = Vec3::Zero();
  Vec3 xpp_W_ = Vec3::Zero(), wp_W_ = Vec3::Zero();
  Vec3 x_prev_W_, v_prev_W_, w_prev_W_;
  Mat3 R_prev_WN_;
  /// The converged points (rebase_history), a ring with the newest at history_newest_: the
  /// model's (use_history), or own_history_ allocated at the first converged point.
  std::span<HistoryPoint> history_;
  std::unique_ptr<HistoryPoint[]> own_history_;
  int history_newest_ = 0, history_size_ = 0;
  long history_pushes_ = 0;  ///< points converged so far (restore)
  /// The converged point j steps before the newest (j < history_size_).
  const HistoryPoint& history(int j) const { return history_[(history_newest_ + j) % history_.size()]; }
  // NetCDF variable ids
  int nc_X_ = -1, nc_R_ = -1, nc_XP_ = -1, nc_W_ = -1, nc_XPP_ = -1, nc_WP_ = -1;
  int nc_B_ = -1, nc_G_ = -1, nc_BP_ = -1, nc_GP_ = -1;
  AutomaticStructuralData automatic_structural_{*this};
};

}  // namespace mbl

#pragma once
// Total joint (technical manual §9.1.13) and the joints MBDyn builds on the same equations:
// total pin joint (§9.1.14), drive displacement (+ pin, §9.1.9-10), imposed displacement (+ pin,
// §9.1.11-12, which MBDyn runs as a total joint with the drive e * v(t)), drive hinge (§9.1.8)
// and axial rotation (input manual §8.12.3).
//
// Two sides a (node 1) and b (node 2); either may be the ground (node == nullptr), then its
// offset is an absolute position and its orientations absolute. With
//   d    = (x_b + f_b) - (x_a + f_a),       b1 = x_b + f_b - x_a,
//   X    = R_ah^T d,                        V = R_ah^T (xdot_b + w_b x f_b - xdot_a - w_a x b1),
//   Rrel = R_ahr^T R_bhr,  theta = ax exp^-1(Rrel),  theta_d = ax exp^-1(Rrel exp(-theta0 x)),
//   Omega = R_ahr^T (w_b - w_a),
// each component i of the position constraint is inactive, (X - x0)_i = 0 (holonomic, scaled by
// 1/dCoef) or (V - v0)_i = 0 (velocity); the same for the orientation with theta_d and Omega.
// Multipliers (active components only) are the reactions in the constraint frames:
// lambda_x = R_ah lambda~_x, lambda_t = R_ahr lambda~_t; node a gets force lambda_x and couple
// b1 x lambda_x + lambda_t, node b the opposite (force -lambda_x at its point x_b + f_b).
// MBDyn's .jnt reports F = lambda_x, M = lambda_t (what the joint applies to node 1).
#include <array>
#include <memory>
#include <tuple>
#include <string>

#include "elements/drives/template_drive.hpp"
#include "elements/joints/friction.hpp"
#include "elements/joints/joint.hpp"
#include "mbdyn-like/core/rotations.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements {

/// One side of a total joint: offset f and the position / rotation constraint orientations,
/// relative to the node (or absolute for the ground).
struct TotalSide {
  StructNode* node = nullptr;
  Vec3 f = Vec3::Zero();
  Mat3 R_h = Mat3::Identity();   ///< position constraint orientation
  Mat3 R_hr = Mat3::Identity();  ///< rotation constraint orientation

  bool grounded() const { return node == nullptr; }
  /// This side as the second side's `reference, other ...`, with hinge orientation `R` (MBDyn's
  /// total joint reader passes R_h for the position orientation, R_hr for the rotation one).
  parser::OtherSide other_side(const Mat3& R) const {
    parser::OtherSide s;
    static_cast<parser::RigidFrame&>(s) = node->frame();
    s.offset = f;
    s.R_hinge = R;
    return s;
  }
  Vec3 f_W() const { return node ? Vec3(node->R_WN() * f) : Vec3::Zero(); }
  Vec3 point_W() const { return node ? Vec3(node->x_W() + node->R_WN() * f) : f; }
  Mat3 R_h_W() const { return node ? Mat3(node->R_WN() * R_h) : R_h; }
  Mat3 R_hr_W() const { return node ? Mat3(node->R_WN() * R_hr) : R_hr; }
  /// The constraint orientations the Jacobians are linearised at (jacobian_R_WN).
  Mat3 jac_R_h_W(const StepContext& c) const { return node ? Mat3(jacobian_R_WN(node, c) * R_h) : R_h; }
  Mat3 jac_R_hr_W(const StepContext& c) const { return node ? Mat3(jacobian_R_WN(node, c) * R_hr) : R_hr; }
  Vec3 x_W() const { return node ? node->x_W() : Vec3::Zero(); }
  Vec3 v_W() const { return node ? node->v_W() : Vec3::Zero(); }
  Vec3 w_W() const { return node ? node->w_W() : Vec3::Zero(); }
};

/// The reactions of a total joint on its two sides: node a gets the force lx (in W) and the
/// couple b1 x lx + lt, node b the opposite (force -lx at its point). `pos_cols`, `rot_cols`:
/// unknowns of the multipliers of each component in the frames R_ah, R_ahr (-1 inactive).
void add_total_reaction_residual(ResidualSink& r, const TotalSide& a, const TotalSide& b, const Vec3& lx,
                                 const Vec3& lt);
void add_total_reaction_jacobian(JacobianSink& J, double dCoef, const TotalSide& a, const TotalSide& b,
                                 const Mat3& R_ah, const Mat3& R_ahr, const std::array<int, 3>& pos_cols,
                                 const std::array<int, 3>& rot_cols, const Vec3& lx, const Vec3& lt);

class TotalJoint final : public Joint {
 public:
  /// What a constrained component imposes.
  enum class Status { Inactive, Position, Velocity };
  /// The card the joint was read from: decides the name, the reaction sign and the output.
  enum class Flavor {
    Total,
    TotalPin,
    DriveDisplacement,
    DriveDisplacementPin,
    ImposedDisplacement,
    ImposedDisplacementPin,
    DriveHinge,
    AxialRotation,
    /// `total equation`: the constraint equations only; the multipliers are applied to the
    /// nodes by `total internal reaction` joints (TotalReaction).
    Equation,
    /// `total internal reaction`: no equations of its own; applies the multipliers of the total
    /// equation `equation_label` to its nodes, in its own frames: as MBDyn's TotalReaction, its
    /// n-th active component (positions first) takes the equation's n-th multiplier, whichever
    /// components the equation constrains.
    Reaction
  };

  struct Params {
    Flavor flavor = Flavor::Total;
    TotalSide a, b;
    std::array<Status, 3> position{Status::Inactive, Status::Inactive, Status::Inactive};
    std::array<Status, 3> rotation{Status::Inactive, Status::Inactive, Status::Inactive};
    drives::TplDriveCallerPtr<Vec3> x0;      ///< imposed position (or velocity), R_ah frame
    drives::TplDriveCallerPtr<Vec3> theta0;  ///< imposed rotation (or angular velocity), R_ahr frame
    /// `problem: inverse dynamics` (total and total pin joints): the imposed relative velocity and
    /// acceleration (R_ah frame), angular velocity and its derivative (frame of theta0's rotation).
    drives::TplDriveCallerPtr<Vec3> x0_p, x0_pp, omega0, omega0_p;
    bool inverse_dynamics_drives = false;   ///< read with them (the constraint blocks that are given)
    Vec3 direction = Vec3::UnitX();          ///< imposed displacement: the unit direction
    unsigned equation_label = 0;             ///< total internal reaction: its total equation
    /// Axial rotation: friction about axis 3 of side a's rotation frame, as the revolute hinge's
    /// (input manual §8.12.3, MBDyn's AxialRotationJoint), its state the last unknown.
    std::shared_ptr<JointFriction> friction;
    /// Axial rotation: the card's `orientation description` of its .jnt/NetCDF relative rotation.
    StructNode::OrientationOutput orientation = StructNode::OrientationOutput::Euler123;
  };

  TotalJoint(unsigned label, Params p);
  /// New imposed position / rotation drives (`driven` hints "position-drive3{...}",
  /// "orientation-drive3{...}", input manual §8.20.2).
  void set_position_drive(drives::TplDriveCallerPtr<Vec3> d) { p_.x0 = std::move(d); }
  void set_orientation_drive(drives::TplDriveCallerPtr<Vec3> d) { p_.theta0 = std::move(d); }

  std::string_view type_name() const override;
  bool is_equation() const { return p_.flavor == Flavor::Equation; }
  int dof_count() const override { return n_dofs_ + (p_.friction ? 1 : 0); }
  /// drvdisp.h, drvhinge.h: 6; planej.h (axial rotation): 11; totalj.h, totalequation.h: 2 per
  /// constraint.
  int initial_dof_count() const override;
  /// MBDyn's texts of the total joint and imposed displacement (totalj.cc TotalJoint), drive
  /// displacement (pin) and drive hinge joints, axial rotation; not yet of the total pin joint
  /// and the total equation.
  void describe_dofs(std::ostream& os, std::string_view prefix, int first, bool initial) const override;
  void describe_equations(std::ostream& os, std::string_view prefix, int first, bool initial) const override;
  DofOrder dof_order(int i) const override {
    return i == n_dofs_ && p_.friction ? p_.friction->dof_order() : DofOrder::Algebraic;
  }
  void setup(Model& m) override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;
  /// The imposed components' time derivative as MBDyn's InitialAssRes (totalj.cc, drvdisp.cc,
  /// drvhinge.cc, totalequation.cc): the drives' own derivatives (MBDyn's sine and the like take
  /// the mean of both sides at their start), nothing of a drive that is not differentiable.
  bool constraint_time_derivative(double t, Eigen::Ref<Vector> phi_t) const override;
  /// Under inverse dynamics, the velocity and acceleration rows of MBDyn's inverse-dynamics
  /// AssRes (totalj.cc, TotalJoint and TotalPinJoint): the derivative drives, not differences of
  /// the value's (which straddle a drive's jump).
  bool inverse_dynamics_rates(int order, double t, Eigen::Ref<Vector> rhs) const override;
  /// What after_convergence() commits (the turns counted, the free rotation accumulated into the
  /// target, the converged kinematics and reactions private data read, the friction's memory),
  /// given back when a step is abandoned (core/element.hpp).
  void save_step_state() override;
  void restore_step_state() override;
  std::string log_line() const override;

  // Private data under MBDyn's names and numbers for each flavour (total_joint.cpp).
  unsigned private_data_index(std::string_view name) const override;
  unsigned private_data_count() const override;
  double private_data(unsigned i) const override;
  DatumInfo private_data_info(unsigned i) const override;
  /// Quantity `slot` (1..26) that the flavours' private data read (total_joint.cpp).
  double total_datum(unsigned slot) const;

  /// Current relative kinematics in the constraint frames (for output and tests).
  struct Kinematics {
    Mat3 R_ah, R_ahr;  ///< constraint frames of side a, in W
    Vec3 fb_W, b1;     ///< offset of b in W; x_b + f_b - x_a
    Vec3 X, V;         ///< relative position and velocity in R_ah
    Mat3 R_rel;        ///< R_ahr^T R_bhr
    Vec3 theta, Omega; ///< relative rotation vector and angular velocity in R_ahr
    Vec3 u_W;          ///< xdot_b + w_b x f_b - xdot_a - w_a x b1
  };
  Kinematics kinematics() const;

 protected:
  void output_extra(OutputSink& out, std::ostream& os) const override;
  /// NetCDF variables of each flavour (appendix C), the values of its .jnt extra columns.
  void output_setup_extra(OutputSink& out, const std::string& base) override;
  void output_netcdf_extra(OutputSink& out) const override;
  const Mat3& moment_frame() const override { return R_WJm_; }

 private:
  Vec3 imposed_x(double t) const { return p_.x0 ? p_.x0->value(t) : Vec3::Zero(); }
  Vec3 imposed_theta(double t) const { return p_.theta0 ? p_.theta0->value(t) : Vec3::Zero(); }
  /// The orientation the rotation constraints aim at. With only some components constrained,
  /// MBDyn (totalj.cc, "a vectorial formulation of generic pair constraints") replaces the free
  /// components of the drive by the free relative rotation accumulated over the converged steps,
  /// so that the constraint's rotation vector stays near zero however far the free axes turn
  /// (a rotor spinning on a swashplate crosses |theta| = pi every half turn otherwise).
  Vec3 theta_target(double t) const;
  /// Multipliers as full 3-vectors (zero where inactive), position or rotation.
  Vec3 multipliers(bool rotation, const StepContext& c) const;
  Vec3 lambda_position(const StepContext& c) const { return multipliers(false, c); }
  Vec3 lambda_rotation(const StepContext& c) const { return multipliers(true, c); }
  /// Unknowns of the multipliers applied to the nodes, per component (-1 inactive): the
  /// joint's own, or its total equation's for a total internal reaction.
  std::array<int, 3> columns(bool rotation) const;
  std::array<int, 3> position_columns() const { return columns(false); }
  std::array<int, 3> rotation_columns() const { return columns(true); }
  /// Sign of the reported reactions: +1 reports what the joint applies to node 1 (total
  /// family), -1 what it applies to node 2 (revolute family: axial rotation).
  double report_sign() const { return p_.flavor == Flavor::AxialRotation ? -1.0 : 1.0; }
  /// Relative position in W (drive displacement output).
  Vec3 d_W() const { return k_.R_ah * k_.X; }
  /// Relative orientation, Euler 123 in degrees (drive hinge, axial rotation output).
  Vec3 E_rel_deg() const { return rot::R_to_euler123(k_.R_rel) * (180.0 / M_PI); }
  /// Relative rotation vector as .jnt / NetCDF write it (|theta| <= pi, as MBDyn), where k_.theta
  /// counts turns.
  Vec3 theta_written() const { return rot::R_to_rotvec(k_.R_rel); }

  Params p_;
  const TotalJoint* equation_ = nullptr;     ///< total internal reaction: its total equation
  std::array<int, 3> pos_dof_{-1, -1, -1};  ///< multiplier index of each component, -1 inactive
  std::array<int, 3> rot_dof_{-1, -1, -1};
  int n_dofs_ = 0;
  // Converged values for output and private data.
  Kinematics k_{};
  Vec3 theta_converged_ = Vec3::Zero();  ///< relative rotation vector, counting turns
  Vec3 theta_remnant_ = Vec3::Zero();    ///< free relative rotation accumulated (theta_target)
  bool partial_rotation_ = false;  ///< one or two rotation components constrained in position
  Mat3 R_WJm_ = Mat3::Identity();  ///< frame of the local moment (R_ahr)
  Vec3 x0_ = Vec3::Zero(), theta0_ = Vec3::Zero();
  /// What after_convergence() commits, as one assignable whole.
  auto step_memory() {
    return std::tie(k_, theta_converged_, theta_remnant_, x0_, theta0_, F_W_, M_W_, R_WJ_, R_WJm_);
  }
  std::tuple<Kinematics, Vec3, Vec3, Vec3, Vec3, Vec3, Vec3, Mat3, Mat3> saved_{};
  OutputSink::VarId nc_X_ = -1, nc_Phi_ = -1, nc_E_ = -1, nc_V_ = -1, nc_Omega_ = -1;
};

}  // namespace mbl::elements

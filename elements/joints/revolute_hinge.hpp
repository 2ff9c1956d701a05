#pragma once
// Revolute hinge (technical manual §9.1.6) and its variants: two attachments a (node 1) and
// b (node 2, or the ground for the `revolute pin`). Constraints, scaled by 1/dCoef:
//   Phi_x = (x1 + b1) - (x2 + b2) = 0               (3, absent in `revolute rotation`)
//   c1 = e3_a . e2_b = 0,  c2 = e3_a . e1_b = 0     (axes 3 stay parallel)
// Node rows get r -= Phi_q^T lambda; the reaction force F = lambda acts as -F on node 1.
// Friction (§2.8, MBDyn's PlaneHingeJoint): sliding velocity (w_1 - w_2) . e3_a times the
// average radius r, normal force |F|, moment -M3 e3_a on node 1 and +M3 e3_a on node 2; .jnt
// columns M3 and the friction coefficient after the standard ones.
#include <memory>

#include "elements/joints/axis_constraints.hpp"
#include "elements/joints/friction.hpp"
#include "elements/joints/joint.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements {

class RevoluteHinge final : public Joint {
 public:
  enum class Variant { Hinge, Pin, Rotation };
  RevoluteHinge(unsigned label, Variant v, const Attachment& a, const Attachment& b,
                std::unique_ptr<JointFriction> friction = nullptr,
                StructNode::OrientationOutput orientation = StructNode::OrientationOutput::Euler123);

  std::string_view type_name() const override;
  std::string log_line() const override;
  int dof_count() const override { return (position_ ? 5 : 2) + (friction_ ? 1 : 0); }
  /// planej.h: 10 (hinge, pin; the friction state takes no part), 4 (rotation).
  int initial_dof_count() const override { return position_ ? 10 : 4; }
  void describe_dofs(std::ostream& os, std::string_view prefix, int first, bool initial) const override;
  void describe_equations(std::ostream& os, std::string_view prefix, int first, bool initial) const override;
  DofOrder dof_order(int i) const override;
  /// planej.cc: the hinge and the pin read F and two moments; the rotation reads nothing.
  InitialReaction initial_reaction_form() const override {
    return variant_ == Variant::Rotation ? InitialReaction::None : InitialReaction::ForceTwoMoments;
  }
  void initial_state(Vector& y, Vector& yp) const override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;
  void save_step_state() override {
    if (friction_) friction_->save_step_state();
  }
  void restore_step_state() override {
    if (friction_) friction_->restore_step_state();
  }

  // Private data: "rz" relative rotation about axis 3, "wz" relative angular velocity, then the
  // reactions (MBDyn's numbering, revolute_hinge.cpp).
  unsigned private_data_count() const override;
  DatumInfo private_data_info(unsigned i) const override;
  double private_data(unsigned i) const override;

 protected:
  void output_extra(OutputSink& out, std::ostream& os) const override;
  void output_setup_extra(OutputSink& out, const std::string& base) override;
  void output_netcdf_extra(OutputSink& out) const override;

 private:
  Mat3 reaction_frame() const;  ///< frame of the local reaction columns
  /// The axis pairs the two moment multipliers keep orthogonal (axis_constraints.hpp).
  const std::vector<AxisPair>& axes() const;
  Mat3 R_rel() const;    ///< relative orientation as MBDyn reports it (node 2 w.r.t. node 1)
  Vec3 w_rel_J() const;         ///< relative angular velocity (node 2 - node 1) in the joint frame
  /// The card's `orientation description` (hinge, rotation); the pin always writes Euler 123.
  StructNode::OrientationOutput orientation_;
  double rz() const;           ///< relative rotation about axis 3, counting turns
  double rz_converged_ = 0.0;  ///< rz at the last converged point
  OutputSink::VarId nc_E_ = -1, nc_Omega_ = -1;
  Variant variant_;
  Attachment a_, b_;
  bool position_;
  std::unique_ptr<JointFriction> friction_;
  int friction_row() const { return first_index() + (position_ ? 5 : 2); }
  double sliding_rate() const { return (a_.w_W() - b_.w_W()).dot(a_.R_WH().col(2)); }
};

}  // namespace mbl::elements

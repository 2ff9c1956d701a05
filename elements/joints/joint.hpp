#pragma once
// Common part of the joints: the reaction force and moment (global F_W, M_W, and the same
// expressed in the joint frame R_WJ) for .jnt and NetCDF output (input manual, "joint" output:
// label, f(3), m(3) local, F(3), M(3) global, then joint-specific columns).
#include <string>

#include "mbdyn-like/core/element.hpp"
#include "mbdyn-like/core/log_text.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements {

class Joint : public Element {
 public:
  using Element::Element;
  std::string_view kind() const override { return "joint"; }

  void output_setup(OutputSink& out) override;
  void output(OutputSink& out) const override;

  // Private data of joints whose MBDyn kind defines none (spherical hinge, prismatic, in line,
  // ...): the reaction "Fx" ... "Mz" in the joint frame, ours only (listed as extensions).
  unsigned private_data_count() const override { return 6; }
  double private_data(unsigned i) const override;
  DatumInfo private_data_info(unsigned i) const override;

  /// What `initial state, ...` at the end of the card gives this joint (MBDyn's ReadInitialState,
  /// called for every joint by joint.cc ReadJoint): nothing (SimulationEntity's default), the
  /// reaction force and moment (genj.cc ClampJoint), or the force and the two moment multipliers
  /// (planej.cc PlaneHingeJoint, PlanePinJoint).
  enum class InitialReaction { None, ForceMoment, ForceTwoMoments };
  virtual InitialReaction initial_reaction_form() const { return InitialReaction::None; }
  /// The reaction read after `initial state` (M's third component is 0 for ForceTwoMoments): the
  /// starting values of the multipliers (MBDyn's SetValue).
  void set_initial_reaction(const Vec3& F, const Vec3& M) {
    initial_F_ = F;
    initial_M_ = M;
  }

 protected:
  /// Joint-specific columns after the 12 standard ones (none by default).
  virtual void output_extra(OutputSink& out, std::ostream& os) const {}
  /// Joint-specific NetCDF variables (manual appendix C) of entity `base` = "elem.joint.<label>",
  /// declared after f, m, F, M when NetCDF output is on, and written after them.
  virtual void output_setup_extra(OutputSink& out, const std::string& base) {}
  virtual void output_netcdf_extra(OutputSink& out) const {}
  /// The reaction in the joint frame (.jnt columns 2-7, private data Fx..Mz): F_W_ and M_W_
  /// expressed in R_WJ_, unless the joint reports its multipliers directly (MBDyn's cardano
  /// joints write the moment multiplier as (dM, 0, 0), not the rotated global moment).
  virtual Vec3 f_local() const { return R_WJ_.transpose() * F_W_; }
  virtual Vec3 m_local() const { return moment_frame().transpose() * M_W_; }
  /// Multiplier `k` of this joint in the state y.
  double lambda(const StepContext& c, int k) const { return (*c.y)[first_index() + k]; }
  Vec3 lambda3(const StepContext& c, int k) const { return c.y->segment<3>(first_index() + k); }
  /// The multipliers from `k` on, contiguous in the state y.
  const double* lambdas(const StepContext& c, int k) const { return c.y->data() + first_index() + k; }
  /// Frame of the local moment columns (joints whose moment frame differs from R_WJ_).
  virtual const Mat3& moment_frame() const { return R_WJ_; }

  Vec3 F_W_ = Vec3::Zero();  ///< reaction force, global
  Vec3 M_W_ = Vec3::Zero();  ///< reaction moment, global
  Mat3 R_WJ_ = Mat3::Identity();  ///< joint frame for the local components
  Vec3 initial_F_ = Vec3::Zero();  ///< `initial state` force (set_initial_reaction)
  Vec3 initial_M_ = Vec3::Zero();  ///< `initial state` moment

 private:
  int nc_f_ = -1, nc_m_ = -1, nc_F_ = -1, nc_M_ = -1;
};

/// A frame whose axis 1 is the unit vector u (axes 2, 3 completing it): the local frame of
/// joints that only transmit a force along a line (distance, rod), so that f_local = (f, 0, 0).
inline Mat3 frame_along(const Vec3& u) {
  const Vec3 tmp = std::abs(u.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  const Vec3 e3 = u.cross(tmp).normalized();
  Mat3 R;
  R << u, e3.cross(u), e3;
  return R;
}

/// The orientation of `node` (null: the ground) at the Newton reference of the step (the
/// prediction). A dummy node's is zero, as MBDyn's GetRRef() of a DummyStructNode (its
/// StructNode part is built with a zero orientation that no update of the dummy touches); a
/// displacement node's is the identity, its only orientation.
inline Mat3 reference_R_WN(const StructNode* node) {
  if (!node) return Mat3::Identity();
  return node->is_dummy() ? Mat3::Zero() : node->R_ref();
}

/// The orientation of `node` at which the Jacobians are linearised: the Newton reference, as
/// MBDyn's hinges, pins, prismatic joints and forces write their Jacobians (GetRRef() in
/// SphericalHingeJoint, PlaneHingeJoint, UniversalHingeJoint, PrismaticJoint,
/// FollowerForce::AssJac), so that their Newton iterations converge as MBDyn's do; the initial
/// assembly keeps the exact orientation.
inline Mat3 jacobian_R_WN(const StructNode* node, const StepContext& c) {
  return c.initial_assembly && node ? node->R_WN() : reference_R_WN(node);
}

/// A point and a frame rigidly attached to a node (offset b_N and orientation R_NH in the node
/// frame), or fixed in the ground when node is null (then offset is the absolute position and
/// R_NH the absolute orientation).
struct Attachment {
  StructNode* node = nullptr;
  Vec3 offset_N = Vec3::Zero();
  Mat3 R_NH = Mat3::Identity();

  bool grounded() const { return node == nullptr; }
  /// This side as the second side's `reference, other node | other position | other orientation`.
  parser::OtherSide other_side() const {
    parser::OtherSide s;
    static_cast<parser::RigidFrame&>(s) = node->frame();
    s.offset = offset_N;
    s.R_hinge = R_NH;
    return s;
  }
  /// Offset from the node to the point, in W (zero for the ground).
  Vec3 b_W() const { return node ? Vec3(node->R_WN() * offset_N) : Vec3::Zero(); }
  Vec3 x_W() const { return node ? Vec3(node->x_W() + node->R_WN() * offset_N) : offset_N; }
  Mat3 R_WH() const { return node ? Mat3(node->R_WN() * R_NH) : R_NH; }
  Vec3 v_W() const { return node ? Vec3(node->v_W() + node->w_W().cross(b_W())) : Vec3::Zero(); }
  Vec3 w_W() const { return node ? node->w_W() : Vec3::Zero(); }
  /// The frame at the Newton reference of the step (reference_R_WN).
  Mat3 R_ref_WH() const { return node ? Mat3(reference_R_WN(node) * R_NH) : R_NH; }
  /// The orientation, frame and offset the Jacobians are linearised at (jacobian_R_WN).
  Mat3 jac_R_WN(const StepContext& c) const { return jacobian_R_WN(node, c); }
  Mat3 jac_R_WH(const StepContext& c) const { return node ? Mat3(jac_R_WN(c) * R_NH) : R_NH; }
  Vec3 jac_b_W(const StepContext& c) const { return node ? Vec3(jac_R_WN(c) * offset_N) : Vec3::Zero(); }
};

using mbl::log_text;
/// "<node label> <offset> <R_NH>" of an attachment, the common part of the hinge-like .log lines.
std::string log_text(const Attachment& a);

}  // namespace mbl::elements

// Reader of the `joint:` card (input manual §8.12): dispatches on the joint type through the
// "joint" registry; each joint kind registers its own reader (below, and in other files).
#include "elements/input/drive_input.hpp"
#include "elements/input/unit_direction.hpp"
#include "elements/joints/clamp.hpp"
#include "elements/joints/distance.hpp"
#include "elements/joints/friction_input.hpp"
#include "elements/joints/joint_input.hpp"
#include "elements/joints/point_contact.hpp"
#include "elements/joints/revolute_hinge.hpp"
#include "elements/joints/spherical_hinge.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/mbdyn_kinds.hpp"

namespace mbl::elements {
namespace {

using parser::CardReader;

/// `initial state` ends any joint card in MBDyn (joint.cc ReadJoint, after the output flag): the
/// reaction a restart file gives the clamp and the revolute hinge and pin (genj.cc, planej.cc
/// ReadInitialState); every other joint reads nothing after it.
void read_initial_state(CardReader& in, BuildContext& ctx, unsigned label) {
  const auto& elements = ctx.model().elements();
  auto* joint = elements.empty() ? nullptr : dynamic_cast<Joint*>(elements.back().get());
  if (!joint || joint->label() != label || joint->kind() != "joint") return;  // the card was skipped
  switch (joint->initial_reaction_form()) {
    case Joint::InitialReaction::None: return;
    case Joint::InitialReaction::ForceMoment: {
      const Vec3 F = in.vec3();
      const Vec3 M = in.vec3();
      joint->set_initial_reaction(F, M);
      return;
    }
    case Joint::InitialReaction::ForceTwoMoments: {
      const Vec3 F = in.vec3();
      const double M1 = in.real();
      const double M2 = in.real();
      joint->set_initial_reaction(F, Vec3(M1, M2, 0.0));
      return;
    }
  }
}

void read_joint(CardReader& in, BuildContext& ctx, unsigned label) {
  if (const CardReaderFn* reader = CardRegistry::family("joint").match_keyword(in)) {
    (*reader)(in, ctx, label);
    if (in.keyword_is("initial state")) read_initial_state(in, ctx, label);
    return;
  }
  kinds::reject(in, "joint", "joint type");
}

// MBDyn's `point contact` (joint.cc ReadJoint, POINT_SURFACE_CONTACT): the point's node, the
// surface's node, the surface's normal in the surface node's frame (GetUnitVecRel), the stiffness.
void read_point_contact(CardReader& in, BuildContext& ctx, unsigned label) {
  StructNode& point = ctx.struct_node(in);
  StructNode& surface = ctx.struct_node(in);
  const Vec3 normal_S = read_unit_direction(in, surface);
  const double stiffness = in.real();
  add_joint(in, ctx, std::make_unique<PointContact>(label, point, surface, normal_S, stiffness));
}

void read_clamp(CardReader& in, BuildContext& ctx, unsigned label) {
  StructNode& n = ctx.struct_node(in);
  in.keyword_is("position");
  const Vec3 x0 = in.keyword_is("node") ? n.x_W() : in.position(parser::RigidFrame{});
  in.keyword_is("orientation");
  const Mat3 R0 = in.keyword_is("node") ? n.R_WN() : in.orientation(parser::RigidFrame{});
  add_joint(in, ctx, std::make_unique<Clamp>(label, n, x0, R0));
}

void read_revolute(CardReader& in, BuildContext& ctx, unsigned label, RevoluteHinge::Variant v) {
  // Revolute rotation: the offsets are optional (`position, ...` keyword form only, §8.12.40).
  const bool offset_required = v != RevoluteHinge::Variant::Rotation;
  const Attachment a = read_attachment(in, ctx, offset_required);
  const parser::OtherSide f1 = a.other_side();
  const Attachment b = v == RevoluteHinge::Variant::Pin ? read_ground(in) : read_attachment(in, ctx, offset_required, &f1);
  // MBDyn's joint.cc reads the orientation description of the hinge and the rotation here.
  const OrientationOutput od = v == RevoluteHinge::Variant::Pin ? OrientationOutput::Euler123
                                                                 : read_optional_orientation_description(in, ctx);
  if (in.keyword_is("initial theta")) in.real();
  // Only the revolute hinge card has friction (§8.12.38); `plane hinge` is its old name.
  std::unique_ptr<JointFriction> friction;
  if (v == RevoluteHinge::Variant::Hinge && !read_friction(in, ctx, "revolute hinge", FrictionRadius::Required, friction))
    return;
  add_joint(in, ctx, std::make_unique<RevoluteHinge>(label, v, a, b, std::move(friction), od));
}

void read_spherical(CardReader& in, BuildContext& ctx, unsigned label, bool pin) {
  const Attachment a = read_attachment(in, ctx);
  const parser::OtherSide f1 = a.other_side();
  const Attachment b = pin ? read_ground(in) : read_attachment(in, ctx, true, &f1);
  const OrientationOutput od = read_optional_orientation_description(in, ctx);
  add_joint(in, ctx, std::make_unique<SphericalHinge>(label, pin, a, b, od));
}

void read_distance(CardReader& in, BuildContext& ctx, unsigned label, bool with_offset) {
  // MBDyn's distance also joins displacement-only nodes (input manual §6.5.4), without offsets.
  auto side = [&](const parser::OtherSide* other) {
    const parser::SourceLocation at = in.location();
    Attachment a{&ctx.struct_node(in, !with_offset)};
    if (in.keyword_is("position") || with_offset) {
      if (a.node->is_displacement())
        throw parser::InputError(at, fmt::format("expected a structural node with orientation for a distance with an "
                                                 "offset, found displacement node {}", a.node->label()));
      a.offset_N = in.position(a.node->frame(), other);
    }
    return a;
  };
  const Attachment a = side(nullptr);
  const parser::OtherSide f1 = a.other_side();
  const Attachment b = side(&f1);
  // The distance from the nodes is available as model::current("L") while the drive is read.
  const double L0 = (b.x_W() - a.x_W()).norm();
  DriveCallerPtr length;
  if (in.keyword_is("from nodes")) {
    length = std::make_shared<ConstDrive>(L0);
  } else {
    const Model::CurrentScope current(ctx.model(), {{"L", L0}});
    length = read_drive(in, ctx);
  }
  add_joint(in, ctx, std::make_unique<Distance>(label, a, b, std::move(length)));
}

using V = RevoluteHinge::Variant;
const bool registered =
    CardRegistry::family("element").add("joint", read_joint) &&
    CardRegistry::family("joint").add("clamp", read_clamp) &&
    CardRegistry::family("joint").add("point contact", read_point_contact) &&
    CardRegistry::family("joint").add(
        "revolute hinge", [](CardReader& in, BuildContext& c, unsigned l) { read_revolute(in, c, l, V::Hinge); }) &&
    CardRegistry::family("joint").add(
        "revolute pin", [](CardReader& in, BuildContext& c, unsigned l) { read_revolute(in, c, l, V::Pin); }) &&
    CardRegistry::family("joint").add(
        "revolute rotation", [](CardReader& in, BuildContext& c, unsigned l) { read_revolute(in, c, l, V::Rotation); }) &&
    CardRegistry::family("joint").add(
        "spherical hinge", [](CardReader& in, BuildContext& c, unsigned l) { read_spherical(in, c, l, false); }) &&
    CardRegistry::family("joint").add(
        "spherical pin", [](CardReader& in, BuildContext& c, unsigned l) { read_spherical(in, c, l, true); }) &&
    // `pin` is the older name of the spherical pin (MBDyn's joint.cc reads both alike).
    CardRegistry::family("joint").add(
        "pin", [](CardReader& in, BuildContext& c, unsigned l) { read_spherical(in, c, l, true); }) &&
    CardRegistry::family("joint").add(
        "distance", [](CardReader& in, BuildContext& c, unsigned l) { read_distance(in, c, l, false); }) &&
    CardRegistry::family("joint").add(
        "distance with offset", [](CardReader& in, BuildContext& c, unsigned l) { read_distance(in, c, l, true); });

}  // namespace
}  // namespace mbl::elements

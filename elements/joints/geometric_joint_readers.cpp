// Readers of the geometric (kinematic) joints of input manual §8.12: in line, in plane,
// prismatic, Cardano/universal hinge, pin and rotation, gimbal rotation, viscous body, and the
// deprecated names `plane hinge`/`plane pin` of the revolute joints.
#include <fmt/format.h>

#include "elements/joints/cardano.hpp"
#include "elements/joints/friction_input.hpp"
#include "elements/joints/gimbal_rotation.hpp"
#include "elements/joints/in_line.hpp"
#include "elements/joints/joint_input.hpp"
#include "elements/joints/prismatic.hpp"
#include "elements/joints/screw.hpp"
#include "elements/joints/viscous_body.hpp"
#include "elements/laws/law_reader.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {
namespace {

using parser::CardReader;

/// `node [, orientation|hinge, R]`: a node and a relative orientation, no offset.
Attachment read_rotation_side(CardReader& in, BuildContext& ctx, const parser::OtherSide* other = nullptr) {
  Attachment a{&ctx.struct_node(in)};
  if (in.keyword_is("orientation") || in.keyword_is("hinge")) a.R_NH = in.orientation(a.node->frame(), other);
  return a;
}

/// `[, offset, q]` after node b of the in line / in plane joints.
Attachment read_offset_side(CardReader& in, BuildContext& ctx) {
  Attachment b{&ctx.struct_node(in)};
  if (in.keyword_is("offset")) b.offset_N = in.position(b.node->frame());
  return b;
}

/// `node, [position,] p, [orientation,] R`: point and orientation both given, their keywords
/// optional (in line; screw, whose MBDyn reader reads them the same way).
Attachment read_located_side(CardReader& in, BuildContext& ctx) {
  Attachment a{&ctx.struct_node(in)};
  const parser::RigidFrame f = a.node->frame();
  in.keyword_is("position");
  a.offset_N = in.position(f);
  if (!in.keyword_is("orientation")) in.keyword_is("hinge");
  a.R_NH = in.orientation(f);
  return a;
}

// §8.12.25: node_1, [position,] p, [orientation,] R, node_2 [, offset, q] [, friction, ...]
void read_in_line(CardReader& in, BuildContext& ctx, unsigned label) {
  const Attachment a = read_located_side(in, ctx);
  const Attachment b = read_offset_side(in, ctx);
  std::unique_ptr<JointFriction> friction;
  if (!read_friction(in, ctx, "in line", FrictionRadius::None, friction)) return;
  add_joint(in, ctx,
            std::make_unique<PointOnSubspace>(label, PointOnSubspace::Kind::InLine, a, b, Vec3::UnitZ(),
                                              std::move(friction)));
}

// §8.12.44: node_1, [position,] f_1, [orientation,] R_1h, node_2, [offset, f_2,] pitch, p
// [, friction, ...]
void read_screw(CardReader& in, BuildContext& ctx, unsigned label) {
  const Attachment a = read_located_side(in, ctx);
  const Attachment b = read_offset_side(in, ctx);
  if (!in.keyword_is("pitch")) in.fail_expected("\"pitch\"");
  const double pitch = in.real();
  std::unique_ptr<JointFriction> friction;
  if (!read_friction(in, ctx, "screw", FrictionRadius::Screw, friction)) return;
  add_joint(in, ctx, std::make_unique<ScrewJoint>(label, a, b, pitch, std::move(friction)));
}

// §8.12.26: node_1, [position,] p, n, node_2 [, offset, q]
void read_in_plane(CardReader& in, BuildContext& ctx, unsigned label) {
  Attachment a{&ctx.struct_node(in)};
  const parser::RigidFrame f = a.node->frame();
  in.keyword_is("position");
  a.offset_N = in.position(f);
  const parser::SourceLocation where = in.location();
  const Vec3 n_N = in.direction(f);
  if (n_N.norm() < 1e-12) throw parser::InputError(where, "expected a nonzero plane normal direction");
  const Attachment b = read_offset_side(in, ctx);
  add_joint(in, ctx,
            std::make_unique<PointOnSubspace>(label, PointOnSubspace::Kind::InPlane, a, b, n_N));
}

// §8.12.37: node_1 [, orientation, R_1], node_2 [, orientation, R_2]
void read_prismatic(CardReader& in, BuildContext& ctx, unsigned label) {
  const Attachment a = read_rotation_side(in, ctx);
  const Attachment b = read_rotation_side(in, ctx);
  add_joint(in, ctx, std::make_unique<Prismatic>(label, a, b));
}

// §8.12.6-8 (and §8.12.51-53, the deprecated `universal` names).
void read_cardano(CardReader& in, BuildContext& ctx, unsigned label, Cardano::Variant v) {
  using V = Cardano::Variant;
  if (v == V::Hinge) {
    const Attachment a = read_attachment(in, ctx);
    const parser::OtherSide f1 = a.other_side();
    const Attachment b = read_attachment(in, ctx, true, &f1);
    add_joint(in, ctx, std::make_unique<Cardano>(label, v, a, b));
  } else if (v == V::Pin) {
    const Attachment node_side = read_attachment(in, ctx);
    const Attachment ground = read_ground(in);
    add_joint(in, ctx, std::make_unique<Cardano>(label, v, ground, node_side));
  } else {
    const Attachment a = read_rotation_side(in, ctx);
    const parser::OtherSide f1 = a.other_side();
    const Attachment b = read_rotation_side(in, ctx, &f1);
    const OrientationOutput od = read_optional_orientation_description(in, ctx);
    add_joint(in, ctx, std::make_unique<Cardano>(label, v, a, b, od));
  }
}

// §8.12.22: node_1 [, orientation, R_1], node_2 [, orientation, R_2] [, orientation description, od]
void read_gimbal_rotation(CardReader& in, BuildContext& ctx, unsigned label) {
  const Attachment a = read_rotation_side(in, ctx);
  const parser::OtherSide f1 = a.other_side();
  const Attachment b = read_rotation_side(in, ctx, &f1);
  const OrientationOutput od = read_optional_orientation_description(in, ctx);
  add_joint(in, ctx, std::make_unique<GimbalRotation>(label, a, b, od));
}

// §8.12.54: node, [position,] f, [orientation, R,] (ConstitutiveLaw<6D>).
void read_viscous_body(CardReader& in, BuildContext& ctx, unsigned label) {
  const Attachment a = read_attachment(in, ctx);
  auto law = laws::read_constitutive_law<6>(in, ctx);
  if (!law) return;  // a known law that is not implemented: reported (and skipped) by the reader
  // MBDyn's joint.cc reads an orientation description here; its ViscousBody writes no rotation.
  (void)read_optional_orientation_description(in, ctx);
  add_joint(in, ctx, std::make_unique<ViscousBody>(label, a, std::move(law)));
}

/// Deprecated names that read exactly as another joint kind (`plane hinge` -> `revolute hinge`).
CardReaderFn alias_of(std::string_view target) {
  const std::string key(target);
  return [key](CardReader& in, BuildContext& ctx, unsigned label) {
    const CardReaderFn* reader = CardRegistry::family("joint").find(key);
    if (!reader) {
      in.not_implemented("joint type \"" + key + "\"");
      return;
    }
    (*reader)(in, ctx, label);
  };
}

/// Joint types that MBDyn's manual lists but MBDyn rejects (not implemented or disabled there, so
/// no deck that MBDyn runs uses them): an input error naming the replacement the manual suggests.
CardReaderFn rejected_by_mbdyn(std::string type, std::string instead) {
  return [type, instead](CardReader& in, BuildContext&, unsigned) {
    throw parser::InputError(in.card_location(),
                             fmt::format("expected a joint type that MBDyn implements, found \"{}\" (MBDyn does not "
                                         "implement it either; {})", type, instead));
  };
}

CardReaderFn cardano(Cardano::Variant v) {
  return [v](CardReader& in, BuildContext& c, unsigned l) { read_cardano(in, c, l, v); };
}

using V = Cardano::Variant;
CardRegistry& joints = CardRegistry::family("joint");
const bool registered =
    joints.add("in line", read_in_line) && joints.add("in plane", read_in_plane) &&
    joints.add("prismatic", read_prismatic) && joints.add("screw", read_screw) && joints.add("cardano hinge", cardano(V::Hinge)) &&
    joints.add("cardano pin", cardano(V::Pin)) && joints.add("cardano rotation", cardano(V::Rotation)) &&
    joints.add("universal hinge", cardano(V::Hinge)) && joints.add("universal pin", cardano(V::Pin)) &&
    joints.add("universal rotation", cardano(V::Rotation)) &&
    joints.add("gimbal rotation", read_gimbal_rotation) && joints.add("viscous body", read_viscous_body) &&
    joints.add("plane hinge", alias_of("revolute hinge")) && joints.add("plane pin", alias_of("revolute pin")) &&
    joints.add("coincidence", rejected_by_mbdyn("coincidence", "use a spherical hinge and a prismatic")) &&
    joints.add("gimbal hinge", rejected_by_mbdyn("gimbal hinge", "use a gimbal rotation and a spherical hinge")) &&
    joints.add("plane displacement",
               rejected_by_mbdyn("plane displacement", "use an in plane and a revolute rotation, or a total joint")) &&
    joints.add("plane displacement pin", rejected_by_mbdyn("plane displacement pin",
                                                           "use an in plane and a revolute rotation with a grounded "
                                                           "node, or a total pin joint"));

}  // namespace
}  // namespace mbl::elements

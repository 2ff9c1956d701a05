// Readers of the joints built on TotalJoint (input manual §8.12.3, 8.12.18-20, 8.12.23-24,
// 8.12.48-49).
#include "elements/input/drive_input.hpp"
#include "elements/joints/friction_input.hpp"
#include "elements/joints/joint_input.hpp"
#include "elements/joints/total_joint.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/model.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {
namespace {

using parser::CardReader;
using parser::RigidFrame;
using Status = TotalJoint::Status;
using Flavor = TotalJoint::Flavor;

void add_total_joint(CardReader& in, BuildContext& ctx, unsigned label, TotalJoint::Params p) {
  auto j = std::make_unique<TotalJoint>(label, std::move(p));
  j->where = in.card_location();
  ctx.read_output_flag(in, *j, "joints");
  ctx.model().add_element(std::move(j));
}

drives::TplDriveCallerPtr<Vec3> read_vec3_tpl(CardReader& in, BuildContext& ctx) {
  return drives::read_tpl_drive_caller<Vec3>(in, ctx.model().drive_env());
}

/// `[position, f] [position orientation, R] [rotation orientation, R]` in `frame`, each at most
/// once and in this order (the total pin joint repeats the same keywords for the ground).
/// `first`: the side read before, which `reference, other ...` refer to (null on the first side).
TotalSide read_total_side(CardReader& in, StructNode* node, const RigidFrame& frame, const parser::OtherSide* other_h,
                          const parser::OtherSide* other_hr) {
  TotalSide s{node};
  if (in.keyword_is("position")) s.f = in.position(frame, other_h);
  if (in.keyword_is("position orientation")) s.R_h = in.orientation(frame, other_h);
  if (in.keyword_is("rotation orientation")) s.R_hr = in.orientation(frame, other_hr);
  return s;
}

/// <position_status> or <orientation_status> (§8.12.48).
Status read_status(CardReader& in, bool rotation) {
  if (in.keyword_is("inactive")) return Status::Inactive;
  if (in.keyword_is("active") || in.keyword_is(rotation ? "rotation" : "position")) return Status::Position;
  if (in.keyword_is(rotation ? "angular velocity" : "velocity")) return Status::Velocity;
  return in.boolean() ? Status::Position : Status::Inactive;
}

/// The optional `position constraint, ...` and `orientation constraint, ...` blocks. Under
/// `problem: inverse dynamics` MBDyn reads three drives each (totalj.cc: XDrv, XPDrv, XPPDrv and
/// ThetaDrv, OmegaDrv, OmegaPDrv): the value, and what the velocity and acceleration subproblems
/// impose.
void read_constraints(CardReader& in, BuildContext& ctx, TotalJoint::Params& p) {
  const bool inverse_dynamics = ctx.inverse_dynamics();
  if (inverse_dynamics) p.inverse_dynamics_drives = true;
  if (in.keyword_is("position constraint")) {
    for (auto& s : p.position) s = read_status(in, false);
    p.x0 = read_vec3_tpl(in, ctx);
    if (inverse_dynamics) {
      p.x0_p = read_vec3_tpl(in, ctx);
      p.x0_pp = read_vec3_tpl(in, ctx);
    }
  }
  if (in.keyword_is("orientation constraint")) {
    for (auto& s : p.rotation) s = read_status(in, true);
    p.theta0 = read_vec3_tpl(in, ctx);
    if (inverse_dynamics) {
      p.omega0 = read_vec3_tpl(in, ctx);
      p.omega0_p = read_vec3_tpl(in, ctx);
    }
  }
}

void read_total(CardReader& in, BuildContext& ctx, unsigned label, Flavor flavor) {
  TotalJoint::Params p;
  p.flavor = flavor;
  StructNode& n1 = ctx.struct_node(in);
  p.a = read_total_side(in, &n1, n1.frame(), nullptr, nullptr);
  StructNode& n2 = ctx.struct_node(in);
  const parser::OtherSide f1_h = p.a.other_side(p.a.R_h), f1_hr = p.a.other_side(p.a.R_hr);
  p.b = read_total_side(in, &n2, n2.frame(), &f1_h, &f1_hr);
  if (flavor == Flavor::Reaction) {
    // `[position constraint, <status> x 3] [, orientation constraint, <status> x 3],
    // total equation, <label>`: the statuses only select which multipliers are applied.
    if (in.keyword_is("position constraint"))
      for (auto& s : p.position) s = read_status(in, false) == Status::Inactive ? Status::Inactive : Status::Position;
    if (in.keyword_is("orientation constraint"))
      for (auto& s : p.rotation) s = read_status(in, true) == Status::Inactive ? Status::Inactive : Status::Position;
    if (!in.keyword_is("total equation")) in.fail_expected("\"total equation\"");
    p.equation_label = in.label();
  } else {
    read_constraints(in, ctx, p);
  }
  add_total_joint(in, ctx, label, std::move(p));
}

void read_total_pin(CardReader& in, BuildContext& ctx, unsigned label) {
  TotalJoint::Params p;
  p.flavor = Flavor::TotalPin;
  StructNode& n = ctx.struct_node(in);
  p.b = read_total_side(in, &n, n.frame(), nullptr, nullptr);
  // The ground side is absolute; `reference, other ...` there means the pinned node's side.
  const parser::OtherSide node_h = p.b.other_side(p.b.R_h), node_hr = p.b.other_side(p.b.R_hr);
  p.a = read_total_side(in, nullptr, RigidFrame{}, &node_h, &node_hr);
  read_constraints(in, ctx, p);
  add_total_joint(in, ctx, label, std::move(p));
}

constexpr std::array<Status, 3> kAll{Status::Position, Status::Position, Status::Position};

void read_drive_displacement(CardReader& in, BuildContext& ctx, unsigned label) {
  TotalJoint::Params p;
  p.flavor = Flavor::DriveDisplacement;
  StructNode& n1 = ctx.struct_node(in);
  p.a = TotalSide{&n1, in.position(n1.frame())};
  StructNode& n2 = ctx.struct_node(in);
  p.b = TotalSide{&n2, in.position(n2.frame())};
  p.position = kAll;
  p.x0 = read_vec3_tpl(in, ctx);
  add_total_joint(in, ctx, label, std::move(p));
}

void read_drive_displacement_pin(CardReader& in, BuildContext& ctx, unsigned label) {
  TotalJoint::Params p;
  p.flavor = Flavor::DriveDisplacementPin;
  StructNode& n = ctx.struct_node(in);
  p.b = TotalSide{&n, in.position(n.frame())};
  p.a = TotalSide{nullptr, in.position(RigidFrame{})};
  p.position = kAll;
  p.x0 = read_vec3_tpl(in, ctx);
  add_total_joint(in, ctx, label, std::move(p));
}

/// The imposed displacement joints are total joints with the imposed vector e * v(t) (this is
/// how MBDyn runs them: its .log shows a total joint with the three position components active).
void read_imposed_displacement(CardReader& in, BuildContext& ctx, unsigned label, bool pin) {
  TotalJoint::Params p;
  p.flavor = pin ? Flavor::ImposedDisplacementPin : Flavor::ImposedDisplacement;
  StructNode& n1 = ctx.struct_node(in);
  const Vec3 f1 = in.position(n1.frame());
  if (pin) {
    p.b = TotalSide{&n1, f1};
    p.a = TotalSide{nullptr, in.position(RigidFrame{})};
  } else {
    p.a = TotalSide{&n1, f1};
    StructNode& n2 = ctx.struct_node(in);
    p.b = TotalSide{&n2, in.position(n2.frame())};
  }
  const parser::SourceLocation at = in.location();
  const Vec3 e = pin ? in.direction(RigidFrame{}) : in.direction(n1.frame());
  if (e.norm() == 0.0) throw parser::InputError(at, "expected a non-null direction");
  p.direction = e.normalized();
  p.position = kAll;
  p.x0 = std::make_shared<drives::TplSingleDrive<Vec3>>(p.direction, read_drive(in, ctx));
  add_total_joint(in, ctx, label, std::move(p));
}

/// `node [, orientation|hinge, R]` for the drive hinge.
TotalSide read_hinge_side(CardReader& in, BuildContext& ctx) {
  StructNode& n = ctx.struct_node(in);
  TotalSide s{&n};
  if (in.keyword_is("orientation") || in.keyword_is("hinge")) s.R_hr = in.orientation(n.frame());
  s.R_h = s.R_hr;
  return s;
}

void read_drive_hinge(CardReader& in, BuildContext& ctx, unsigned label) {
  TotalJoint::Params p;
  p.flavor = Flavor::DriveHinge;
  p.a = read_hinge_side(in, ctx);
  p.b = read_hinge_side(in, ctx);
  p.rotation = kAll;
  p.theta0 = read_vec3_tpl(in, ctx);
  add_total_joint(in, ctx, label, std::move(p));
}

/// Axial rotation: a revolute hinge whose relative angular velocity about axis 3 is imposed.
void read_axial_rotation(CardReader& in, BuildContext& ctx, unsigned label) {
  // Node 2 may be given in node 1's frame (`reference, other node`), as in the revolute hinge.
  auto side = [&](const parser::OtherSide* other) {
    StructNode& n = ctx.struct_node(in);
    TotalSide s{&n};
    in.keyword_is("position");
    s.f = in.position(n.frame(), other);
    if (in.keyword_is("orientation") || in.keyword_is("hinge")) s.R_hr = in.orientation(n.frame(), other);
    s.R_h = s.R_hr;
    return s;
  };
  TotalJoint::Params p;
  p.flavor = Flavor::AxialRotation;
  p.a = side(nullptr);
  const parser::OtherSide f1 = p.a.other_side(p.a.R_hr);
  p.b = side(&f1);
  p.orientation = read_optional_orientation_description(in, ctx);  // where MBDyn's joint.cc reads it
  p.position = kAll;
  p.rotation = {Status::Position, Status::Position, Status::Velocity};
  p.theta0 = std::make_shared<drives::TplSingleDrive<Vec3>>(Vec3::UnitZ(), read_drive(in, ctx));
  // Friction as in the revolute hinge (the hints of §8.12.3 go to "the friction model, if any").
  std::unique_ptr<JointFriction> friction;
  if (!read_friction(in, ctx, "axial rotation", FrictionRadius::Required, friction)) return;
  p.friction = std::move(friction);
  add_total_joint(in, ctx, label, std::move(p));
}

/// `imposed orientation, <node 1>, <R_1hr>, <node 2>, <R_2hr>, <rotation drive>` (obsolete):
/// MBDyn's joint.cc reads it into a total joint with the three rotations imposed by the drive and
/// the positions free, hinge orientations in the nodes' frames (node 2's may refer to node 1's
/// hinge), and warns that it does so.
void read_imposed_orientation(CardReader& in, BuildContext& ctx, unsigned label) {
  in.context().report({in.card_location(), "warning", "imposed orientation: using \"total joint\" instead"});
  TotalJoint::Params p;
  StructNode& n1 = ctx.struct_node(in);
  p.a = TotalSide{&n1};
  p.a.R_hr = in.orientation(n1.frame());
  const parser::OtherSide f1 = p.a.other_side(p.a.R_hr);
  StructNode& n2 = ctx.struct_node(in);
  p.b = TotalSide{&n2};
  p.b.R_hr = in.orientation(n2.frame(), &f1);
  p.rotation = kAll;
  p.theta0 = read_vec3_tpl(in, ctx);
  add_total_joint(in, ctx, label, std::move(p));
}

/// `kinematic`: obsolete, refused by MBDyn 2024's joint.cc ("replace with a total [pin] joint").
void read_kinematic(CardReader& in, BuildContext&, unsigned) {
  throw parser::InputError(in.card_location(), "expected a total joint or total pin joint (MBDyn 2024 refuses the "
                                               "obsolete \"kinematic\" joint), found kinematic");
}

const bool registered =
    CardRegistry::family("joint").add("imposed orientation", read_imposed_orientation) &&
    CardRegistry::family("joint").add("kinematic", read_kinematic) &&
    CardRegistry::family("joint").add(
        "total joint", [](CardReader& in, BuildContext& c, unsigned l) { read_total(in, c, l, Flavor::Total); }) &&
    CardRegistry::family("joint").add(
        "total equation",
        [](CardReader& in, BuildContext& c, unsigned l) { read_total(in, c, l, Flavor::Equation); }) &&
    CardRegistry::family("joint").add(
        "total internal reaction",
        [](CardReader& in, BuildContext& c, unsigned l) { read_total(in, c, l, Flavor::Reaction); }) &&
    CardRegistry::family("joint").add("total pin joint", read_total_pin) &&
    CardRegistry::family("joint").add("drive displacement", read_drive_displacement) &&
    CardRegistry::family("joint").add("drive displacement pin", read_drive_displacement_pin) &&
    CardRegistry::family("joint").add("drive hinge", read_drive_hinge) &&
    CardRegistry::family("joint").add(
        "imposed displacement",
        [](CardReader& in, BuildContext& c, unsigned l) { read_imposed_displacement(in, c, l, false); }) &&
    CardRegistry::family("joint").add(
        "imposed displacement pin",
        [](CardReader& in, BuildContext& c, unsigned l) { read_imposed_displacement(in, c, l, true); }) &&
    CardRegistry::family("joint").add("axial rotation", read_axial_rotation);

}  // namespace
}  // namespace mbl::elements

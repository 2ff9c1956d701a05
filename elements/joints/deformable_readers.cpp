// Readers of the rod and deformable joint cards (input manual §8.12.11, 8.12.13-8.12.15, 8.12.27,
// 8.12.28, 8.12.42-8.12.43; the invariant deformable joint is MBDyn's, §8.12.15); the laws are read by elements/laws/law_reader.hpp.
#include "elements/joints/deformable_joint.hpp"
#include "elements/joints/joint_input.hpp"
#include "elements/joints/rod.hpp"
#include "elements/joints/rod_bezier.hpp"
#include "elements/laws/law_reader.hpp"
#include "parser/errors.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace mbl::elements {
namespace {

using parser::CardReader;
using Kind = DeformableJoint::Kind;

void read_rod(CardReader& in, BuildContext& ctx, unsigned label, bool with_offset) {
  const Attachment a = read_attachment(in, ctx, with_offset);
  const parser::OtherSide f1 = a.other_side();
  const Attachment b = read_attachment(in, ctx, with_offset, &f1);
  const double l_nodes = (b.x_W() - a.x_W()).norm();
  double l0 = l_nodes;
  if (!in.keyword_is("from nodes")) {
    const parser::SourceLocation at = in.location();
    l0 = in.real();
    if (!(l0 > 0.0)) throw parser::InputError(at, "expected a positive rod length, found " + std::to_string(l0));
  } else if (!(l0 > 0.0)) {
    in.fail("the rod length computed from the nodes is zero");
  }
  // MBDyn publishes the rod's lengths to its law: model::current("L0") (reference length) and
  // model::current("L") (distance of the nodes).
  std::unique_ptr<ConstitutiveLaw<1>> law;
  {
    const Model::CurrentScope current(ctx.model(), {{"L0", l0}, {"L", l_nodes}});
    law = laws::read_constitutive_law<1>(in, ctx);
  }
  if (!law) return;
  add_joint(in, ctx, std::make_unique<Rod>(label, with_offset, a, b, l0, std::move(law)));
}

// MBDyn's `rod bezier` (joint.cc ReadJoint, RODBEZIER): node 1 with the offsets of the control
// points O and A, node 2 with those of B and I (`reference, other node` is node 1 at O), the
// reference length or `from nodes`, [`integration order`, n (1 to 10, default 2)],
// [`integration segments`, n (default 3)], a 1D law.
void read_rod_bezier(CardReader& in, BuildContext& ctx, unsigned label) {
  RodBezier::Geometry g;
  g.node1 = &ctx.struct_node(in);
  in.keyword_is("position");
  g.fO_N1 = in.position(g.node1->frame());
  in.keyword_is("position");
  g.fA_N1 = in.position(g.node1->frame());
  const parser::OtherSide side1 = Attachment{g.node1, g.fO_N1}.other_side();
  g.node2 = &ctx.struct_node(in);
  in.keyword_is("position");
  g.fB_N2 = in.position(g.node2->frame(), &side1);
  in.keyword_is("position");
  g.fI_N2 = in.position(g.node2->frame(), &side1);
  double l0 = 0.0;  // from nodes
  if (!in.keyword_is("from nodes")) {
    const parser::SourceLocation at = in.location();
    l0 = in.real();
    if (!(l0 > 0.0)) throw parser::InputError(at, "expected a positive rod length, found " + std::to_string(l0));
  }
  // MBDyn raises an order below 1 to 1 and uses at most 10 points (GaussData).
  if (in.keyword_is("integration order")) g.order = std::clamp(static_cast<int>(in.integer()), 1, 10);
  if (in.keyword_is("integration segments")) {
    const parser::SourceLocation at = in.location();
    g.segments = static_cast<int>(in.integer());
    // MBDyn only warns, then finds a null length at the first residual.
    if (g.segments < 1)
      throw parser::InputError(at, fmt::format("expected a positive number of integration segments, found {}", g.segments));
  }
  // The forces' directions A - O and B - I (RodBezier's l1, l2) must exist.
  if ((g.fA_N1 - g.fO_N1).norm() == 0.0 || (g.fB_N2 - g.fI_N2).norm() == 0.0)
    in.fail("the rod bezier's control points A and O (or B and I) coincide: no direction for its force");
  std::unique_ptr<ConstitutiveLaw<1>> law = laws::read_constitutive_law<1>(in, ctx);
  if (!law) return;
  auto rod = std::make_unique<RodBezier>(label, g, l0, std::move(law));
  if (!(rod->reference_length() > 0.0)) in.fail("the rod bezier's length computed from the nodes is zero");
  add_joint(in, ctx, std::move(rod));
}

void read_deformable(CardReader& in, BuildContext& ctx, unsigned label, Kind kind, bool invariant) {
  const bool offset_required = kind == Kind::Displacement || kind == Kind::Full;
  const Attachment a = read_attachment(in, ctx, offset_required);
  const parser::OtherSide f1 = a.other_side();
  const Attachment b = read_attachment(in, ctx, offset_required, &f1);
  DeformableJoint::Law law;
  switch (kind) {
    case Kind::Hinge:
    case Kind::Displacement: {
      const parser::SourceLocation law_at = in.location();
      if (!(law.law3 = laws::read_constitutive_law<3>(in, ctx))) return;
      // MBDyn 2024 builds the invariant displacement joint with elastic laws only.
      if (invariant && kind == Kind::Displacement && law.law3->is_viscous())
        throw parser::InputError(law_at, "expected an elastic constitutive law (the invariant deformable "
                                         "displacement joint has no viscous form), found a viscous one");
      break;
    }
    case Kind::Full: {
      const parser::SourceLocation law_at = in.location();
      if (!(law.law6 = laws::read_constitutive_law<6>(in, ctx))) return;
      // MBDyn 2024 builds the invariant deformable joint with elastic laws only.
      if (invariant && law.law6->is_viscous())
        throw parser::InputError(law_at, "expected an elastic constitutive law (the invariant deformable "
                                         "joint has no viscous form), found a viscous one");
      break;
    }
    case Kind::Axial:
      if (!(law.law1 = laws::read_constitutive_law<1>(in, ctx))) return;
      break;
  }
  StructNode::OrientationOutput oo = ctx.output_defaults().orientation;
  if (kind == Kind::Hinge || kind == Kind::Full) oo = read_optional_orientation_description(in, ctx);
  auto j = std::make_unique<DeformableJoint>(label, kind, invariant, a, b, std::move(law));
  j->orientation_output = oo;
  add_joint(in, ctx, std::move(j));
}

CardReaderFn deformable(Kind kind, bool invariant) {
  return [=](CardReader& in, BuildContext& ctx, unsigned label) { read_deformable(in, ctx, label, kind, invariant); };
}

const bool registered =
    CardRegistry::family("joint").add(
        "rod", [](CardReader& in, BuildContext& c, unsigned l) { read_rod(in, c, l, false); }) &&
    CardRegistry::family("joint").add(
        "rod with offset", [](CardReader& in, BuildContext& c, unsigned l) { read_rod(in, c, l, true); }) &&
    CardRegistry::family("joint").add("rod bezier", read_rod_bezier) &&
    CardRegistry::family("joint").add("deformable hinge", deformable(Kind::Hinge, false)) &&
    CardRegistry::family("joint").add("invariant deformable hinge", deformable(Kind::Hinge, true)) &&
    CardRegistry::family("joint").add("deformable displacement joint", deformable(Kind::Displacement, false)) &&
    // §8.12.12: deprecated synonym of the deformable displacement joint.
    CardRegistry::family("joint").add("deformable displacement hinge", deformable(Kind::Displacement, false)) &&
    CardRegistry::family("joint").add("deformable joint", deformable(Kind::Full, false)) &&
    CardRegistry::family("joint").add("invariant deformable joint", deformable(Kind::Full, true)) &&
    CardRegistry::family("joint").add("deformable axial joint", deformable(Kind::Axial, false)) &&
    CardRegistry::family("joint").add("invariant deformable displacement joint",
                                      deformable(Kind::Displacement, true));

}  // namespace
}  // namespace mbl::elements

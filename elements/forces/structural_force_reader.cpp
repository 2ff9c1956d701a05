// Readers of the `force:` and `couple:` cards for structural nodes (input manual §8.8.4-8.8.7).
#include "elements/forces/structural_force.hpp"
#include "elements/input/drive_input.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "parser/errors.hpp"
#include "mbdyn-like/core/mbdyn_kinds.hpp"

namespace mbl::elements {
namespace {

using K = StructuralForce::Kind;
using F = StructuralForce::Frame;

/// Reads `<node> [, position, <arm>]` (the arm is read without its keyword when `arm_required`).
Attachment read_point(parser::CardReader& in, BuildContext& ctx, bool arm_required) {
  Attachment a{&ctx.struct_node(in)};
  if (in.keyword_is("position") || arm_required) a.offset_N = in.position(a.node->frame());
  return a;
}

/// Legacy forms (MBDyn still reads them, with a warning): a force written without `position`,
///   <node>, <direction>, <arm> [, <node 2>, <arm 2>], <drive caller>
/// the direction a unit vector (follower: in the node frame; absolute: global unless `reference,`
/// says otherwise) and the value direction * drive; otherwise the value is a template drive whose
/// vector is read as MBDyn's ReadDCVecRel (follower) or ReadDCVecAbs (absolute) in node 1's frame.
void read_structural(parser::CardReader& in, BuildContext& ctx, unsigned label, K kind, F frame,
                     bool internal) {
  Attachment a{&ctx.struct_node(in)};
  const parser::RigidFrame node_frame = a.node->frame();
  const bool position = in.keyword_is("position");
  const bool legacy = !position && kind == K::Force;
  Vec3 dir = Vec3::Zero();
  if (legacy) {
    const parser::SourceLocation at = in.location();
    dir = frame == F::Follower ? in.direction(node_frame) : in.direction_abs(node_frame);
    if (dir.norm() == 0.0) throw parser::InputError(at, "expected a direction, found a null vector");
    dir.normalize();
  }
  if (position || legacy) a.offset_N = in.position(node_frame);
  Attachment b;
  if (internal) b = read_point(in, ctx, legacy);
  std::function<Vec3(double)> value;
  if (legacy) {
    DriveCallerPtr d = read_drive(in, ctx);
    value = [dir, d](double t) { return Vec3(dir * d->value(t)); };
  } else {
    value = read_vec3_drive(in, ctx, &node_frame,
                            frame == F::Follower ? drives::VecIn::Relative : drives::VecIn::Absolute);
  }
  auto e = std::make_unique<StructuralForce>(label, kind, frame, a, internal ? &b : nullptr, std::move(value));
  e->where = in.card_location();
  if (frame == F::Follower) e->output_relative = in.keyword_is("output relative");
  ctx.read_output_flag(in, *e, "forces");
  ctx.model().add_element(std::move(e));
}

void read_family(parser::CardReader& in, BuildContext& ctx, unsigned label, K kind) {
  // Force types defined in other files (displacement, abstract, ...) register here.
  if (const CardReaderFn* f = CardRegistry::family(kind == K::Force ? "force type" : "couple type").match_keyword(in))
    return (*f)(in, ctx, label);
  F frame = F::Absolute;  // set below or the card fails
  // `conservative` is MBDyn's former name of `absolute` (its .log calls the element "structural
  // absolute force"; deck t.beam.bb_legacy).
  if (in.keyword_is("absolute") || in.keyword_is("conservative")) frame = F::Absolute;
  else if (in.keyword_is("follower")) frame = F::Follower;
  else if (in.keyword_is("absolute internal") || in.keyword_is("conservative internal"))
    return read_structural(in, ctx, label, kind, F::Absolute, true);
  else if (in.keyword_is("follower internal")) return read_structural(in, ctx, label, kind, F::Follower, true);
  else return kinds::reject(in, kind == K::Force ? "force" : "couple", kind == K::Force ? "force type" : "couple type");
  read_structural(in, ctx, label, kind, frame, in.keyword_is("internal"));
}

const bool registered_force = CardRegistry::family("element").add(
    "force", [](parser::CardReader& in, BuildContext& ctx, unsigned label) { read_family(in, ctx, label, K::Force); });
const bool registered_couple = CardRegistry::family("element").add(
    "couple", [](parser::CardReader& in, BuildContext& ctx, unsigned label) { read_family(in, ctx, label, K::Couple); });

}  // namespace
}  // namespace mbl::elements

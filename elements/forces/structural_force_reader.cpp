// Readers of the `force:` and `couple:` cards for structural nodes (input manual §8.8.4-8.8.7).
#include "elements/forces/structural_force.hpp"
#include "elements/input/drive_input.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/mbdyn_kinds.hpp"

namespace mbl::elements {
namespace {

using K = StructuralForce::Kind;
using F = StructuralForce::Frame;

Attachment read_point(parser::CardReader& in, BuildContext& ctx, bool position_required) {
  Attachment a{&ctx.struct_node(in)};
  if (in.keyword_is("position") || position_required) a.offset_N = in.position(a.node->frame());
  return a;
}

/// Legacy form of a single-node force (older decks): `node, (Vec3) direction, (Vec3) arm,
/// (DriveCaller) amplitude`, i.e. without the `position` keyword; the value is direction * drive.
std::function<Vec3(double)> read_legacy_value(parser::CardReader& in, BuildContext& ctx, Attachment& a) {
  const Vec3 dir = in.vec3();
  a.offset_N = in.position(a.node->frame());
  DriveCallerPtr d = read_drive(in, ctx);
  return [dir, d](double t) { return Vec3(dir * d->value(t)); };
}

void read_structural(parser::CardReader& in, BuildContext& ctx, unsigned label, K kind, F frame,
                     bool internal) {
  if (kind == K::Force && !internal) {
    Attachment a{&ctx.struct_node(in)};
    std::function<Vec3(double)> value;
    if (in.keyword_is("position")) {
      a.offset_N = in.position(a.node->frame());
      value = read_vec3_drive(in, ctx);
    } else {
      value = read_legacy_value(in, ctx, a);
    }
    auto e = std::make_unique<StructuralForce>(label, kind, frame, a, nullptr, std::move(value));
    e->where = in.card_location();
    ctx.read_output_flag(in, *e, "forces");
    ctx.model().add_element(std::move(e));
    return;
  }
  const Attachment a = read_point(in, ctx, kind == K::Force);
  Attachment b;
  if (internal) b = read_point(in, ctx, kind == K::Force);
  auto value = read_vec3_drive(in, ctx);
  auto e = std::make_unique<StructuralForce>(label, kind, frame, a, internal ? &b : nullptr, std::move(value));
  e->where = in.card_location();
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

#pragma once
// Argument readers shared by the joint card readers (input manual §8.12): attachments of a joint
// to a node or to the ground, and adding the finished joint to the model.
#include <memory>

#include "elements/joints/joint.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/orientation_output.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {

/// Applies the trailing `output` flag and adds the joint to the model.
inline void add_joint(parser::CardReader& in, BuildContext& ctx, std::unique_ptr<Joint> j) {
  j->where = in.card_location();
  ctx.read_output_flag(in, *j, "joints");
  ctx.model().add_element(std::move(j));
}

/// `node, [position,] offset [, orientation|hinge, R]` relative to the node. When
/// `offset_required` is false the offset is read only after the `position` keyword (revolute
/// rotation, deformable hinge: `node [, position, offset] [, orientation, R]`).
/// `other`: the side that `reference, other node|position|orientation` mean (side 1 when reading node 2).
inline Attachment read_attachment(parser::CardReader& in, BuildContext& ctx, bool offset_required = true,
                                  const parser::OtherSide* other = nullptr) {
  Attachment a{&ctx.struct_node(in)};
  const parser::RigidFrame f = a.node->frame();
  if (in.keyword_is("position") || offset_required) a.offset_N = in.position(f, other);
  if (in.keyword_is("orientation") || in.keyword_is("hinge")) a.R_NH = in.orientation(f, other);
  return a;
}

/// A non-null direction: global, or in the frame of `node` (velocity and acceleration joints).
inline Vec3 read_axis(parser::CardReader& in, const StructNode* node) {
  const parser::SourceLocation at = in.location();
  const Vec3 e = node ? in.direction(node->frame()) : in.direction(parser::RigidFrame{});
  if (e.norm() == 0.0) throw parser::InputError(at, "expected a non-null direction");
  return e;
}

/// A ground attachment given in absolute terms: `[position,] x [, orientation|hinge, R]`.
inline Attachment read_ground(parser::CardReader& in) {
  const parser::RigidFrame global;
  Attachment a;
  in.keyword_is("position");
  a.offset_N = in.position(global);
  if (in.keyword_is("orientation") || in.keyword_is("hinge")) a.R_NH = in.orientation(global);
  return a;
}

/// `[, orientation description, <type>]` (input manual §5.3.11); defaults to `default orientation`.
inline OrientationOutput read_optional_orientation_description(parser::CardReader& in, BuildContext& ctx) {
  if (!in.keyword_is("orientation description")) return ctx.output_defaults().orientation;
  return read_orientation_description(in);
}

}  // namespace mbl::elements

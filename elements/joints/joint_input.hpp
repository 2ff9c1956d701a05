#pragma once
// Argument readers shared by the joint card readers (input manual §8.12): attachments of a joint
// to a node or to the ground, and adding the finished joint to the model.
#include <memory>

#include "elements/joints/joint.hpp"
#include "mbdyn-like/core/card_registry.hpp"

namespace mbl::elements {

/// Applies the trailing `output` flag and adds the joint to the model.
inline void add_joint(parser::CardReader& in, BuildContext& ctx, std::unique_ptr<Joint> j) {
  j->where = in.card_location();
  ctx.read_output_flag(in, *j, "joints");
  ctx.model().add_element(std::move(j));
}

/// `node, [position,] offset [, orientation|hinge, R]` relative to the node.
inline Attachment read_attachment(parser::CardReader& in, BuildContext& ctx,
                                  bool position_keyword_optional = true) {
  Attachment a{&ctx.struct_node(in)};
  const parser::RigidFrame f = a.node->frame();
  if (in.keyword_is("position") || position_keyword_optional) a.offset_N = in.position(f);
  if (in.keyword_is("orientation") || in.keyword_is("hinge")) a.R_NH = in.orientation(f);
  return a;
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

}  // namespace mbl::elements

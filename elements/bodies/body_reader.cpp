// Reader of the `body:` card (input manual §8.4).
#include "elements/bodies/body.hpp"
#include "elements/bodies/variable_mass_body.hpp"
#include "mbdyn-like/core/card_registry.hpp"

namespace mbl::elements {
namespace {

BodyParams read_one_mass(parser::CardReader& in, const StructNode& node) {
  BodyParams p;
  p.mass = in.real();
  if (node.is_displacement()) return p;  // <one_pointmass> (input manual §8.4)
  p.b_N = in.position(node.frame());
  p.J_cm_N = in.mat3();
  if (in.keyword_is("orientation") || in.keyword_is("inertial")) {
    // The inertia is given in a frame rotated by R_NI with respect to the node.
    Mat3 R_NI = Mat3::Identity();
    if (!in.keyword_is("node")) R_NI = in.orientation(node.frame());
    p.J_cm_N = R_NI * p.J_cm_N * R_NI.transpose();
  }
  return p;
}

void read_body(parser::CardReader& in, BuildContext& ctx, unsigned label) {
  StructNode& node = ctx.struct_node(in, true);
  if (in.keyword_is("variable mass")) {
    if (!node.is_displacement()) return read_variable_mass_body(in, ctx, label, node);
    return in.not_implemented("variable mass body on a displacement-only node");
  }
  in.keyword_is("allow negative mass");
  BodyParams p;
  if (in.keyword_is("condense")) {
    const auto n = in.integer();
    in.keyword_is("allow negative mass");
    std::vector<BodyParams> parts;
    for (std::int64_t k = 0; k < n; ++k) parts.push_back(read_one_mass(in, node));
    p = condense(parts);
  } else {
    p = read_one_mass(in, node);
  }
  auto body = std::make_unique<Body>(label, node, p);
  body->where = in.card_location();
  ctx.read_output_flag(in, *body, "rigid bodies");
  ctx.model().add_element(std::move(body));
}

const bool registered = CardRegistry::family("element").add("body", read_body);

}  // namespace
}  // namespace mbl::elements

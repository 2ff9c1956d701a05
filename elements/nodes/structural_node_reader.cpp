// Reader of the `structural:` node card (input manual §6.5).
#include <fmt/format.h>

#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/mbdyn_kinds.hpp"
#include "mbdyn-like/core/orientation_output.hpp"
#include "elements/nodes/node_scale.hpp"
#include "parser/errors.hpp"
#include "parser/output_flag.hpp"

namespace mbl::elements {
namespace {

using parser::CardReader;

void read_trailing_options(CardReader& in, StructNode& n, BuildContext& ctx) {
  n.orientation_output = ctx.output_defaults().orientation;
  // Static nodes have accelerations only in inverse dynamics, where they are unknowns
  // (MBDyn's DataManager::IDDofInit).
  n.compute_accelerations =
      ctx.output_defaults().accelerations && (n.has_inertia_block() || ctx.inverse_dynamics());
  n.set_output_enabled(ctx.output_defaults().enabled("structural nodes"));
  n.autostruct_output = ctx.output_defaults().enabled("automatic structural");
  while (!in.at_end()) {
    if (in.keyword_is("orientation description")) {
      n.orientation_output = read_orientation_description(in);
    } else if (in.keyword_is("assembly")) {
      // Initial assembly stiffnesses and omega-rotates flag (technical manual §6.1).
      StructNode::AssemblyOptions a;
      a.position_stiffness = in.real();
      a.velocity_stiffness = in.real();
      if (!n.is_displacement()) a.omega_rotates = in.boolean();
      n.assembly_options = a;
    } else if (in.keyword_is("scale")) {
      read_node_scale(in);
    } else if (in.keyword_is("output inertia")) {
      // MBDyn's strnode.cc: the automatic structural element's output (.ine, NetCDF B, G, ...)
      n.autostruct_output = in.at_end() || in.boolean();
    } else if (in.keyword_is("output")) {
      if (const auto out = parser::output_flag(in)) n.set_output_enabled(*out);
    } else if (in.keyword_is("accelerations")) {
      n.compute_accelerations = in.boolean();
    } else if (in.keyword_is("prediction node")) {
      // MBDyn 2024 is built without MBDYN_X_RELATIVE_PREDICTION: it reads the node and
      // predicts in absolute terms, as we do (strnode.cc ReadStructNode).
      ctx.struct_node(in);
    } else {
      in.fail_expected("orientation description, assembly, scale, output, output inertia, accelerations or prediction node");
    }
  }
}

void read_structural(CardReader& in, BuildContext& ctx, unsigned label) {
  const parser::SourceLocation where = in.card_location();
  if (ctx.model().find_node("structural", label))
    throw parser::InputError(where, fmt::format("structural node {} is already defined", label));
  const std::string name;  // `name, "..."` is consumed by the model builder
  using T = StructNode::Type;
  T type = T::Static;  // set below or the card fails
  if (in.keyword_is("static displacement")) type = T::StaticDisplacement;
  else if (in.keyword_is("dynamic displacement"))
    type = ctx.static_model() ? T::StaticDisplacement : T::DynamicDisplacement;
  else if (in.keyword_is("static")) type = T::Static;
  // `model: static;` (§5.3.16) treats every dynamic node as static.
  else if (in.keyword_is("dynamic")) type = ctx.static_model() ? T::Static : T::Dynamic;
  else if (in.keyword_is("modal")) type = T::Modal;
  else if (in.keyword_is("dummy")) type = T::DummyOffset;
  else return kinds::reject(in, "structural node", "structural node type");

  if (type == T::DummyOffset) {
    StructNode& base = ctx.struct_node(in);
    StructNode::InitialConditions ic;
    auto node = std::make_unique<StructNode>(label, T::DummyOffset, ic);
    node->dummy_base = &base;
    if (in.keyword_is("offset")) {
      node->dummy_offset_B = in.position(base.frame());
      node->dummy_R_BH = in.orientation(base.frame());
    } else if (in.keyword_is("relative frame")) {
      node = std::make_unique<StructNode>(label, T::DummyRelativeFrame, ic);
      node->dummy_base = &base;
      node->dummy_reference = &ctx.struct_node(in);
      if (in.keyword_is("position")) node->dummy_offset_B = in.position(node->dummy_reference->frame());
      if (in.keyword_is("orientation")) node->dummy_R_BH = in.orientation(node->dummy_reference->frame());
      if (in.keyword_is("pivot node")) {
        // MBDyn reads the pivot's offset and orientation in the reference node's frame.
        node->dummy_pivot = &ctx.struct_node(in);
        if (in.keyword_is("position")) node->dummy_pivot_offset = in.position(node->dummy_reference->frame());
        if (in.keyword_is("orientation")) node->dummy_R_pivot = in.orientation(node->dummy_reference->frame());
      }
    } else {
      in.fail_expected("a dummy node type (offset, relative frame)");
    }
    node->where = where;
    node->name = name;
    read_trailing_options(in, *node, ctx);
    node->update_dummy();
    ctx.model().add_node(std::move(node));
    return;
  }

  const parser::RigidFrame global;
  StructNode::InitialConditions ic;
  if (in.keyword_is("at reference")) {
    const auto where_ref = in.location();
    const unsigned ref = in.label();
    const parser::NamedReference* r = ctx.read().find_reference(ref);
    if (!r) throw parser::InputError(where_ref, fmt::format("expected a reference label, found {} (undefined)", ref));
    ic = {r->frame.x_W, r->frame.R_W, r->frame.v_W, r->frame.w_W};
    if (type == T::StaticDisplacement || type == T::DynamicDisplacement) {
      ic.R_WN = Mat3::Identity();
      ic.w_W.setZero();
    }
  } else if (type == T::StaticDisplacement || type == T::DynamicDisplacement) {
    // Input manual §6.5.4: position and velocity only; no orientation.
    in.keyword_is("position");
    ic.x_W = in.position(global);
    in.keyword_is("velocity");
    ic.v_W = in.velocity(global, ic.x_W);
  } else {
    in.keyword_is("position");
    ic.x_W = in.position(global);
    in.keyword_is("orientation");
    ic.R_WN = in.orientation(global);
    StructNode::OrientationOutput oo{};
    bool has_oo = false;
    if (in.keyword_is("orientation description")) {
      oo = read_orientation_description(in);
      has_oo = true;
    }
    in.keyword_is("velocity");
    ic.v_W = in.velocity(global, ic.x_W);
    in.keyword_is("angular velocity");
    ic.w_W = in.angular_velocity(global);
    auto node = std::make_unique<StructNode>(label, type, ic);
    node->where = where;
    node->name = name;
    read_trailing_options(in, *node, ctx);
    if (has_oo) node->orientation_output = oo;
    ctx.model().add_node(std::move(node));
    return;
  }
  auto node = std::make_unique<StructNode>(label, type, ic);
  node->where = where;
  node->name = name;
  read_trailing_options(in, *node, ctx);
  ctx.model().add_node(std::move(node));
}

const bool registered = CardRegistry::family("node").add("structural", read_structural);

}  // namespace
}  // namespace mbl::elements

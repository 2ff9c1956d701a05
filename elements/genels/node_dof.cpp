#include "elements/genels/node_dof.hpp"

#include <fmt/format.h>

#include "parser/errors.hpp"

namespace mbl::elements {

NodeDof read_node_dof(parser::CardReader& in, BuildContext& ctx, bool with_order) {
  NodeDof d;
  const parser::SourceLocation at = in.location();
  const unsigned label = in.label();
  const std::string type = in.keyword();
  d.node = ctx.find_node(type, label);
  if (!d.node) ctx.skip_if_depends_on_skipped(in, type, label);
  if (!d.node) throw parser::InputError(at, fmt::format("expected an existing node, found no {} node {}", type, label));
  if (d.node->dof_count() == 0)
    throw parser::InputError(at, fmt::format("expected a node with degrees of freedom, found {} node {} (none)", type, label));
  const bool structural = dynamic_cast<StructNode*>(d.node) != nullptr;
  if (structural) {
    const parser::SourceLocation k_at = in.location();
    const auto k = in.integer();
    if (k < 1 || k > 6)
      throw parser::InputError(k_at, fmt::format("expected a degree of freedom number between 1 and 6, found {}", k));
    d.k = static_cast<int>(k - 1);
  } else if (d.node->dof_count() > 1) {
    const parser::SourceLocation k_at = in.location();
    const auto k = in.integer();
    if (k < 1 || k > d.node->dof_count())
      throw parser::InputError(k_at, fmt::format("expected a degree of freedom number between 1 and {}, found {}",
                                                 d.node->dof_count(), k));
    d.k = static_cast<int>(k - 1);
  }
  if (!with_order) return d;
  if (read_dof_differential(in)) {
    if (!d.has_derivative())
      throw parser::InputError(at, fmt::format("{} node {}: the degree of freedom has no derivative", type, label));
    d.differential = true;
  }
  // Orientation unknowns of structural nodes are rotation increments: only their derivative
  // (the angular velocity at convergence) is meaningful (§2.5).
  if (structural && d.k >= 3 && !d.differential)
    throw parser::InputError(at, fmt::format("structural node {}: degrees of freedom 4-6 need the differential order", label));
  return d;
}

bool read_dof_differential(parser::CardReader& in) {
  if (in.keyword_is("differential")) return true;
  if (in.keyword_is("order")) {
    const parser::SourceLocation at = in.location();
    const auto order = parser::checked_integer(in, [](std::int64_t o) { return o >= 0 && o <= 2; }, "an order 0, 1 or 2");
    if (order == 2) in.not_implemented("order 2 of a degree of freedom (the acceleration; input manual §2.5)", at);
    return order > 0;
  }
  in.keyword_is("algebraic");
  return false;
}

}  // namespace mbl::elements

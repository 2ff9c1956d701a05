#include "elements/input/abstract_node_input.hpp"

#include <fmt/format.h>

#include "parser/errors.hpp"

namespace mbl::elements {

AbstractNode& read_abstract_node(parser::CardReader& in, BuildContext& ctx) {
  const parser::SourceLocation at = in.location();
  const unsigned label = in.label();
  Node* node = ctx.find_node("abstract", label);
  if (!node) ctx.skip_if_depends_on_skipped(in, "abstract", label);
  auto* abstract = dynamic_cast<AbstractNode*>(node);
  if (!abstract) throw parser::InputError(at, fmt::format("expected an abstract node, found no abstract node {}", label));
  return *abstract;
}

}  // namespace mbl::elements

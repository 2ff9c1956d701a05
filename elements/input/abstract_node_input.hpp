#pragma once
// How element readers read an abstract node by label (pressure loads from nodes, piezoelectric
// electrodes): one place for the lookup and its errors.
#include "elements/nodes/abstract_node.hpp"
#include "mbdyn-like/core/card_registry.hpp"

namespace mbl::elements {

/// Reads a label and returns that abstract node; InputError at the label otherwise.
AbstractNode& read_abstract_node(parser::CardReader& in, BuildContext& ctx);

}  // namespace mbl::elements

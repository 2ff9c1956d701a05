#pragma once
// `scale, {default | <s>}` of a node card (MBDyn's DataManager::dReadScale, dataman3.cc): the
// scale of the node's degrees of freedom in the convergence tests. Ours are unscaled (as the
// `scale` of `tolerance: ..., test, <t>, scale`): read and not used. The deck t.scale.scale (node
// scale 1e-6, scaled norm test) agrees with MBDyn so.
#include "parser/card_reader.hpp"

namespace mbl::elements {

/// Reads what follows `scale` (already consumed).
inline void read_node_scale(parser::CardReader& in) {
  if (!in.keyword_is("default")) parser::checked_real(in, [](double s) { return s > 0.0; }, "a positive scale");
}

}  // namespace mbl::elements

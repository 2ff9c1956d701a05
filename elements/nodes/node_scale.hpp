#pragma once
// `scale, {default | <s>}` of a node card (MBDyn's DataManager::dReadScale, dataman3.cc): the
// scale of the node's degrees of freedom in the convergence tests. Ours are unscaled: 1 (the
// default) is read, another scale is not implemented, as `default scale:` in control data.
#include "parser/card_reader.hpp"

namespace mbl::elements {

/// Reads what follows `scale` (already consumed).
inline void read_node_scale(parser::CardReader& in) {
  if (in.keyword_is("default")) return;
  const parser::SourceLocation at = in.location();
  if (in.real() != 1.0) in.not_implemented("a node scale other than 1 (input manual §5.3.14 default scale)", at);
}

}  // namespace mbl::elements

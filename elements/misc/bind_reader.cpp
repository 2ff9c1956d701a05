// The `bind` card (input manual §8.20.1): binds a parameter node to a private datum of an element
//   bind: <element label>, <element type>, <parameter node label>,
//         { [index,] <i> | {string|name}, "<name>" };
// It creates nothing; the parameter node reads the datum whenever it is read.
#include <fmt/format.h>

#include "elements/nodes/parameter_node.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {
namespace {

using parser::CardReader;

// `bind: air properties, ...` binds a datum of the air properties, the single element MBDyn
// labels 1 (the card has no element label, so it reads its own).
void read_bind(CardReader& in, BuildContext& ctx, unsigned) {
  const bool air = in.keyword_is("air properties");
  const unsigned element_label = air ? 1 : in.label();
  const parser::SourceLocation type_at = in.location();
  const std::string type = air ? std::string("air properties") : in.keyword();
  const parser::PrivateDataOwner* e = ctx.model().find_element_data(type, element_label);
  if (!e) ctx.skip_if_depends_on_skipped(in, type, element_label);
  if (!e) throw parser::InputError(type_at, fmt::format("expected an existing element, found no {} {}", type, element_label));
  const parser::SourceLocation node_at = in.location();
  const unsigned node_label = in.label();
  auto* node = dynamic_cast<ParameterNode*>(ctx.model().find_node("parameter", node_label));
  if (!node) throw parser::InputError(node_at, fmt::format("expected a parameter node, found no parameter node {}", node_label));
  const parser::SourceLocation datum_at = in.location();
  unsigned index = 0;
  if (in.keyword_is("string") || in.keyword_is("name")) {
    const std::string name = in.string();
    index = e->private_data_index(name);
    if (index == 0)
      throw parser::InputError(datum_at, fmt::format("expected a private datum of {} {}, found \"{}\"", type, element_label, name));
  } else {
    in.keyword_is("index");
    const std::int64_t i = in.integer();
    if (const std::string error = parser::private_data_index_error(*e, i, fmt::format("{} {}", type, element_label));
        !error.empty())
      throw parser::InputError(datum_at, error);
    index = static_cast<unsigned>(i);
  }
  if (node->strain_gage()) {
    // StrainGageParam::Bind (j2p.cc): a beam, and 1 or 2 for its evaluation point I or II.
    const std::string kind = CardRegistry::normalise(type);
    if (kind != "beam" && kind != "beam2" && kind != "beam3" && kind != "hbeam")
      throw parser::InputError(type_at, fmt::format("expected a beam (parameter node {} is a strain gage), found {}", node_label, type));
    const unsigned first = index == 1 || index == 2 ? e->private_data_index(index == 1 ? "pI.ex" : "pII.ex") : 0;
    if (first == 0)
      throw parser::InputError(datum_at, fmt::format("expected the evaluation point of {} {} (1 for I, 2 for II) of "
                                                     "strain gage {}, found {}", type, element_label, node_label, index));
    index = first;
  }
  node->bind(*e, index);
}

const bool registered = CardRegistry::family("unlabelled element").add("bind", read_bind);

}  // namespace
}  // namespace mbl::elements

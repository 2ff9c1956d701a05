// Readers of the pressure surface loads (input manual §8.17.1):
//   <pressure type>: <label>, <node 1>, ..., <node N>,
//       {from drives, <drive 1>, ..., <drive N> | from nodes, <abstract node 1>, ..., <abstract node N>}
//       [, output, {yes | no}];
#include "elements/input/drive_input.hpp"
#include "elements/input/abstract_node_input.hpp"
#include "elements/shells/pressure_load.hpp"
#include "mbdyn-like/core/card_registry.hpp"

namespace mbl::elements {
namespace {

using parser::CardReader;

void read_pressure_load(CardReader& in, BuildContext& ctx, unsigned label, const SurfaceShape& shape) {
  std::vector<StructNode*> nodes;
  for (int k = 0; k < shape.nodes; ++k) nodes.push_back(&ctx.struct_node(in, true));
  std::vector<DriveCallerPtr> drives;
  std::vector<AbstractNode*> pressure_nodes;
  if (in.keyword_is("from nodes")) {
    for (int k = 0; k < shape.nodes; ++k) pressure_nodes.push_back(&read_abstract_node(in, ctx));
  } else if (in.keyword_is("from drives")) {
    for (int k = 0; k < shape.nodes; ++k) drives.push_back(read_drive(in, ctx));
  } else {
    in.fail_expected("\"from nodes\" or \"from drives\"");
  }
  auto e = std::make_unique<PressureLoad>(label, shape, std::move(nodes), std::move(drives), std::move(pressure_nodes));
  e->where = in.card_location();
  ctx.read_output_flag(in, *e, "surface loads");
  ctx.model().add_element(std::move(e));
}

CardReaderFn reader(const SurfaceShape& (*shape)()) {
  return [shape](CardReader& in, BuildContext& c, unsigned l) { read_pressure_load(in, c, l, shape()); };
}

const bool registered = CardRegistry::family("element").add("pressureq4", reader(&SurfaceShape::quadrangle4)) &&
                        CardRegistry::family("element").add("pressureq8", reader(&SurfaceShape::quadrangle8)) &&
                        CardRegistry::family("element").add("pressureq8r", reader(&SurfaceShape::quadrangle8r)) &&
                        CardRegistry::family("element").add("pressureq9", reader(&SurfaceShape::quadrangle9)) &&
                        CardRegistry::family("element").add("pressuret6", reader(&SurfaceShape::triangle6));

}  // namespace
}  // namespace mbl::elements

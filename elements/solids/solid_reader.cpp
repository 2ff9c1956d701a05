// Readers of the solid element cards (input manual §8.16.2):
//   <elem_type>: <label>, [static,] [lumped mass,] <node_1>, ..., <node_N>,
//                <rho_1>, ..., <rho_N>, <law_1>, {<law_2> | same}, ..., {<law_M> | same};
// one 6D constitutive law per integration point of the stiffness rule (table 8.2). The u/p-c
// (`*upc`, hydraulic pressure nodes and 7D laws) and deformation-gradient (`*f`, 9D laws of
// MFront) variants are reported not implemented.
#include <fmt/format.h>

#include "elements/laws/law_reader.hpp"
#include "elements/solids/solid.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/model.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {
namespace {

using parser::CardReader;

void read_solid(CardReader& in, BuildContext& ctx, unsigned label, const solid::Shape& shape) {
  SolidParams p;
  p.shape = &shape;
  p.is_static = ctx.static_model();
  if (in.keyword_is("static")) p.is_static = true;
  if (in.keyword_is("lumped mass")) p.lumped_mass = true;
  const int n = shape.node_count();
  for (int i = 0; i < n; ++i) {
    // Any structural node: a 6-dof node takes part through its position only.
    p.nodes.push_back(&ctx.struct_node(in, true));
  }
  for (int i = 0; i < n; ++i)
    p.density.push_back(parser::checked_real(in, [](double v) { return v >= 0.0; }, "a non-negative density"));
  const std::size_t m = shape.stiffness.points.size();
  for (std::size_t k = 0; k < m; ++k) {
    if (k > 0 && in.keyword_is("same")) {
      p.laws.push_back(p.laws.back()->clone());
      continue;
    }
    auto law = laws::read_constitutive_law<6>(in, ctx);
    if (!law) return;  // reported not implemented
    p.laws.push_back(std::move(law));
  }
  auto element = std::make_unique<Solid>(label, std::move(p));
  element->where = in.card_location();
  ctx.read_output_flag(in, *element, "solids");
  ctx.model().add_element(std::move(element));
}

const bool registered = [] {
  for (const char* keyword :
       {"hexahedron8", "hexahedron20", "hexahedron20r", "hexahedron27", "pentahedron15", "tetrahedron10"}) {
    const solid::Shape* shape = solid::find_shape(keyword);
    CardRegistry::family("element").add(keyword, [shape](CardReader& in, BuildContext& ctx, unsigned label) {
      read_solid(in, ctx, label, *shape);
    });
  }
  return true;
}();

}  // namespace
}  // namespace mbl::elements

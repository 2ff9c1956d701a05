// Reader of the `automatic structural:` element card (input manual §8.2): initial values of the
// momentum, momenta moment and their derivatives of a dynamic node. The momenta follow from the
// bodies (Body::initial_state) and the derivatives are recomputed by the derivatives phase, so
// the derivatives are used as its initial guess and the momenta are checked only for form.
#include <fmt/format.h>

#include "mbdyn-like/core/card_registry.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {
namespace {

void read_automatic_structural(parser::CardReader& in, BuildContext& ctx, unsigned label) {
  StructNode* n = ctx.model().find_struct_node(label);
  if (!n || !n->is_dynamic())
    throw parser::InputError(in.card_location(),
                             fmt::format("expected the label of a dynamic structural node, found {}", label));
  in.vec3();  // momentum
  in.vec3();  // momenta moment
  n->initial_beta_dot = in.vec3();
  n->initial_gamma_dot = in.vec3();
}

const bool registered = CardRegistry::family("element").add("automatic structural", read_automatic_structural);

}  // namespace
}  // namespace mbl::elements

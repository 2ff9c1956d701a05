// `c81 data: <label>, ...;` (input manual §8.1.2, airfoil tables of the aerodynamic elements) may
// stand in any block, between blocks too, as MBDyn reads it as a definition. Aerodynamics is not
// implemented: the card is reported and skipped.
#include "mbdyn-like/core/card_registry.hpp"

namespace mbl::elements {
namespace {

const bool registered = CardRegistry::family("definition").add("c81 data", [](parser::CardReader& in, BuildContext&, unsigned) {
  in.not_implemented("c81 data (aerodynamics)");
});

}  // namespace
}  // namespace mbl::elements

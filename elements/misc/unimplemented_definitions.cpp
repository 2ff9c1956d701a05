// Definition cards of kinds MBDyn has and we do not implement; MBDyn reads them in any block and
// between blocks, so they are reported as not implemented and skipped wherever they stand:
//   c81 data: <label>, ...;        airfoil tables of the aerodynamic elements (manual §8.1.2)
#include <fmt/format.h>

#include "mbdyn-like/core/card_registry.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {
namespace {

CardReaderFn not_implemented(const char* card, const char* what) {
  return [card, what](parser::CardReader& in, BuildContext& ctx, unsigned) {
    // Cards using the label (e.g. an aerodynamic element's table) are skipped with it.
    if (!in.at_end()) {
      try {
        ctx.skip(card, in.label());
      } catch (const parser::InputError&) {
      }
    }
    in.not_implemented(fmt::format("{} ({})", card, what));
  };
}

const bool registered = CardRegistry::family("definition").add("c81 data", not_implemented("c81 data", "aerodynamics"));

}  // namespace
}  // namespace mbl::elements

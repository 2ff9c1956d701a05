// Definition cards of kinds MBDyn has and we do not implement; MBDyn reads them in any block and
// between blocks, so they are reported as not implemented and skipped wherever they stand:
//   hydraulic fluid: <label>, ...; fluid of the hydraulic elements (manual §8.11)
#include <fmt/format.h>

#include "mbdyn-like/core/card_registry.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {
namespace {

CardReaderFn not_implemented(const char* card, const char* what) {
  return [card, what](parser::CardReader& in, BuildContext& ctx, unsigned) {
    // Cards using the label (e.g. a hydraulic element's fluid) are skipped with it.
    if (!in.at_end()) {
      try {
        ctx.skip(card, in.label());
      } catch (const parser::InputError&) {
      }
    }
    in.not_implemented(fmt::format("{} ({})", card, what));
  };
}

const bool registered = CardRegistry::family("definition").add("hydraulic fluid", not_implemented("hydraulic fluid", "hydraulics"));

}  // namespace
}  // namespace mbl::elements

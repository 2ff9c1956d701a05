// MBDyn's description cards that are neither models nor settings (input manual §2.13; MBDyn's
// mbpar.cc and parser.cc InitDescData): `license` and `warranty` print MBDyn's statements and
// "do not affect the simulation" (we print nothing); `exit` ends MBDyn at once with success, which
// we do not do.
#include "mbdyn-like/core/card_registry.hpp"

namespace mbl::elements {
namespace {

void read_statement(parser::CardReader&, BuildContext&, unsigned) {}

void read_exit(parser::CardReader& in, BuildContext&, unsigned) {
  in.not_implemented("exit (ends MBDyn at once with success; MBDyn's parser.cc)");
}

const bool registered = CardRegistry::family("definition").add("license", read_statement) &&
                        CardRegistry::family("definition").add("warranty", read_statement) &&
                        CardRegistry::family("definition").add("exit", read_exit);

}  // namespace
}  // namespace mbl::elements

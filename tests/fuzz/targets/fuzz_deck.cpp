// libFuzzer target: arbitrary bytes as a deck through DeckReader. Every argument is read as a real
// or a keyword alternately; InputError is the only acceptable failure (no crash, no hang).
#include <cstddef>
#include <cstdint>
#include <string>

#include "parser/deck/deck_reader.hpp"
#include "parser/errors.hpp"
#include "parser/math/math_parser.hpp"
#include "parser/read_context.hpp"
#include "tests/fuzz/targets/fuzz_targets.hpp"

int mbl::fuzz::deck_one_input(const std::uint8_t* data, std::size_t size) {
  using namespace mbl;
  math::MathParser math;
  parser::ReadContext ctx(math);
  try {
    parser::DeckReader reader("fuzz.mbd", std::string(reinterpret_cast<const char*>(data), size), ctx);
    bool as_real = true;
    while (parser::CardReader* card = reader.next_card()) {
      while (!card->at_end()) {
        try {
          if (as_real)
            card->real();
          else
            card->keyword();
        } catch (const parser::InputError&) {
          card->skip_rest();  // bad argument: go on with the next card
        }
        as_real = !as_real;
      }
    }
  } catch (const parser::InputError& e) {
    (void)e.format();  // the diagnostic itself must be safe to build
  } catch (const math::StopRequest&) {
  }
  return 0;
}

// libFuzzer target: arbitrary bytes as a math expression (input manual §2.2), evaluated the three
// ways decks use the evaluator: `set:` statements, one-off expressions, and compiled string
// drives evaluated repeatedly. InputError (and stop()) are the only acceptable failures.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "parser/errors.hpp"
#include "parser/math/math_parser.hpp"
#include "tests/fuzz/targets/fuzz_targets.hpp"

int mbl::fuzz::math_one_input(const std::uint8_t* data, std::size_t size) {
  using namespace mbl;
  const std::string text(reinterpret_cast<const char*>(data), size);
  math::MathParser math;
  std::ostringstream printed;
  math.set_print_stream(printed);
  const parser::SourceLocation where;
  auto guarded = [&](auto&& run) {
    try {
      run();
    } catch (const parser::InputError& e) {
      (void)e.format();  // the diagnostic itself must be safe to build
    } catch (const math::StopRequest&) {
    }
  };
  guarded([&] { math.execute_set(text, where); });
  guarded([&] { (void)math.evaluate(text, where); });
  guarded([&] {
    const auto drive = math.compile_drive_string(text, where);
    for (int step = 0; step < 3; ++step) {
      math.set_variable("Time", math::Value(0.5 * step));
      guarded([&] { (void)drive->eval(math); });
    }
  });
  return 0;
}

// libFuzzer target: arbitrary bytes as the FEM file of a modal joint (input manual appendix A.1),
// parsed with and without thresholds and echoed back as MBDyn's `echo` writes it.
// parser::InputError (at the file's line and column) is the only acceptable failure.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

#include "elements/joints/modal/fem_file.hpp"
#include "parser/errors.hpp"
#include "tests/fuzz/targets/fuzz_targets.hpp"

int mbl::fuzz::fem_one_input(const std::uint8_t* data, std::size_t size) {
  using namespace mbl;
  auto file = std::make_shared<parser::SourceFile>();
  file->path = "fuzz.fem";
  file->text.assign(reinterpret_cast<const char*>(data), size);
  for (const double threshold : {0.0, 1e-3}) {
    try {
      const elements::FemFile fem = elements::parse_fem_file(file, {threshold, threshold, threshold});
      std::vector<int> modes;
      for (int m = 1; m <= fem.mode_count; ++m) modes.push_back(m);
      std::ostringstream echo;
      elements::write_fem_echo(echo, fem, modes, 6);
    } catch (const parser::InputError& e) {
      (void)e.format();  // the diagnostic itself must be safe to build
    }
  }
  return 0;
}

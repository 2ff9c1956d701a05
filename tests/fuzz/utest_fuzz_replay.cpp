// The fuzzing campaigns' findings (issue #30), kept minimized under tests/bad/fuzz/<target>/, fed
// again to the fuzz targets' own entries (tests/fuzz/targets/fuzz_targets.hpp): each input must be read
// or refused as the target accepts (an input error, the reader's message, the peer's stop). In the
// sanitized build (tests/fuzz/targets/run_fuzz.sh) this runs under ASan + UBSan, where the memory and
// undefined-behaviour findings show.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/fuzz/targets/fuzz_targets.hpp"

namespace fs = std::filesystem;

namespace {

using Entry = int (*)(const std::uint8_t*, std::size_t);

/// Every input kept for `target`, fed to `entry`; returns how many there were.
std::size_t replay(const std::string& target, Entry entry) {
  const fs::path dir = fs::path(MBL_SOURCE_DIR) / "tests" / "bad" / "fuzz" / target;
  std::vector<fs::path> inputs;
  if (fs::is_directory(dir))
    for (const auto& e : fs::directory_iterator(dir))
      if (e.is_regular_file()) inputs.push_back(e.path());
  std::sort(inputs.begin(), inputs.end());
  for (const fs::path& p : inputs) {
    SCOPED_TRACE(p.string());
    std::ifstream f(p, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    EXPECT_EQ(entry(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), 0);
  }
  return inputs.size();
}

TEST(FuzzFindings, DeckInputsAreReadOrRefused) { replay("deck", mbl::fuzz::deck_one_input); }
TEST(FuzzFindings, MathInputsAreReadOrRefused) { replay("math", mbl::fuzz::math_one_input); }
TEST(FuzzFindings, C81InputsAreReadOrRefused) { replay("c81", mbl::fuzz::c81_one_input); }
TEST(FuzzFindings, FemInputsAreReadOrRefused) { replay("fem", mbl::fuzz::fem_one_input); }
TEST(FuzzFindings, ExtforceInputsAreReadOrRefused) { replay("extforce", mbl::fuzz::extforce_one_input); }

}  // namespace

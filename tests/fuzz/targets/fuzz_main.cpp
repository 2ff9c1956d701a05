// libFuzzer's entry of one fuzz target: MBL_FUZZ_ONE_INPUT names the target's function
// (tests/fuzz/targets/CMakeLists.txt, fuzz_targets.hpp).
#include "tests/fuzz/targets/fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return mbl::fuzz::MBL_FUZZ_ONE_INPUT(data, size);
}

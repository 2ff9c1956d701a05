#pragma once
// The fuzz targets' entries, one per target: fuzz_main.cpp makes one of them the
// LLVMFuzzerTestOneInput of each libFuzzer executable (tests/fuzz/targets/CMakeLists.txt), and the
// replay test (tests/fuzz/utest_fuzz_replay.cpp) calls all five on the inputs kept under
// tests/bad/fuzz/<target>/. Each returns 0 or fails as a finding (an exception it does not expect
// escapes, a sanitizer stops the process, or it aborts).
#include <cstddef>
#include <cstdint>

namespace mbl::fuzz {
int deck_one_input(const std::uint8_t* data, std::size_t size);
int math_one_input(const std::uint8_t* data, std::size_t size);
int c81_one_input(const std::uint8_t* data, std::size_t size);
int fem_one_input(const std::uint8_t* data, std::size_t size);
int extforce_one_input(const std::uint8_t* data, std::size_t size);
}  // namespace mbl::fuzz

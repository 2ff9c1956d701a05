// libFuzzer target: arbitrary bytes as a `c81 data` airfoil file (input manual §2.4.2), read in
// the fixed-column format, then in free format, and looked up as the aerodynamic elements do.
// std::runtime_error (the reader's message) is the only acceptable failure.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>

#include "elements/aero/c81_data.hpp"
#include "tests/fuzz/targets/fuzz_targets.hpp"

int mbl::fuzz::c81_one_input(const std::uint8_t* data, std::size_t size) {
  using namespace mbl::elements::aero;
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (const bool free_format : {false, true}) {
    try {
      std::istringstream in(text);
      C81Data c81 = read_c81(in, 1e-2, free_format);
      for (const double alpha : {-200.0, -10.0, 0.0, 3.5, 45.0, 400.0})
        for (const double mach : {-1.0, 0.0, 0.3, 0.95, 5.0}) {
          double at_zero = 0.0;
          (void)c81.lift.lookup(alpha, mach, &at_zero);
          (void)c81.drag.lookup(alpha, mach);
          (void)c81.moment.lookup(alpha, mach, &at_zero);
          (void)c81.lift_slope(mach);
          (void)c81.moment_slope(mach);
        }
      c81.flip();
    } catch (const std::runtime_error&) {
    }
  }
  return 0;
}

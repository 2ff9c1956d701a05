// Observed order of every method on the example pendulum (examples/pendulum/pendulum.mbd, a
// revolute pin: an index-3 constrained system) run by the program over 3 s at coarse steps
// dt = 1e-2, 5e-3, 2.5e-3 s, against DIRK54 at dt = 1e-3 s (its error is ~1e-11, far below the
// coarse runs'; `ms, 0.6` at 1e-4 s, error ~4e-10, would hide the higher-order methods' errors).
// Error: max |x|, |z| difference of the mass over the outputs at multiples of 0.01 s.
//
// Finding (docs/integrators.md): every second-order method shows order 2.00; the third- to
// fifth-order ESDIRKs (MSSTH3/4/5, DIRK33/43/54) also converge with order ~2 on this constrained
// problem, with error constants 20-100x smaller than ms's (order reduction of Runge-Kutta
// methods on index-3 systems: the positions converge with the stage order, 2). Their full order
// on unconstrained problems is checked in utest_integrators_order.cpp (and with rotations in
// utest_integrators_rotation_order.cpp). About 5 s in all.
#include <gtest/gtest.h>

#include "support/run_program.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace fs = std::filesystem;

namespace {

using mbl::test::read_file;
using mbl::test::run_deck;

struct Method {
  const char* card;      // the `method:` arguments
  double expected_order;  // observed order expected on the pendulum
  double error_at_1e_2;   // upper bound of the error at dt = 1e-2 (pins the error constant)
  double order_tolerance = 0.1;  // wider for the reduced-order ESDIRKs (1.86 .. 2.25 observed)
};

const Method kMethods[] = {
    {"implicit euler", 1, 5e-2},
    {"crank nicolson", 2, 3e-4}, {"bdf", 2, 1.2e-3},          {"ms, 0.6", 2, 3.5e-4},
    {"ms3, 0.6", 2, 3e-4},        {"ms4, 0.6", 2, 3e-4},       {"hope, 0.6", 2, 4e-4},
    {"ss2, 0.6", 2, 3.5e-4},      {"ss3, 0.6", 2, 3e-4},       {"ss4, 0.6", 2, 3e-4},
    {"Bathe, 0.6", 2, 1e-4},      {"msstc3, 0.6", 2, 3.5e-5},  {"msstc4, 0.6", 2, 2e-5},
    {"msstc5, 0.6", 2, 1.2e-5},   {"mssth3, 0.0", 2, 3.2e-6, 0.35},  {"mssth4, 0.0", 2, 4.2e-6, 0.35},
    {"mssth5, 0.0", 2, 2.2e-5, 0.35},   {"DIRK33", 2, 3.5e-6, 0.35},       {"DIRK43", 2, 2.4e-6, 0.35},
    {"DIRK54", 2, 3e-6, 0.35},
};

fs::path work_dir() {
  static const fs::path dir = mbl::test::fresh_temp_dir("utest_pendulum_order");
  return dir;
}

/// Runs the example pendulum over 3 s with `method` and `dt` (tolerance 1e-10, 16 digits of
/// output) and returns the mass's (x, z) at every output at a multiple of 0.01 s up to 3 s.
std::vector<std::pair<double, double>> run_pendulum(const std::string& method, const std::string& dt,
                                                   int outputs_per_1e_2) {
  std::string deck = read_file(fs::path(MBL_SOURCE_DIR) / "examples" / "pendulum" / "pendulum.mbd");
  auto replace = [&deck](const char* pattern, const std::string& by) {
    const std::regex re(pattern);
    EXPECT_TRUE(std::regex_search(deck, re)) << pattern;
    deck = std::regex_replace(deck, re, by);
  };
  replace(R"(final time: [^;]*;)", "final time: 3.;");
  replace(R"(time step: [^;]*;)", "time step: " + dt + ";");
  replace(R"(method: [^;]*;)", "method: " + method + ";");
  replace(R"(tolerance: [^;]*;)", "tolerance: 1.e-10;");
  replace(R"(\bgravity;)", "gravity;\n\toutput precision: 16;");
  const std::string tag = mbl::test::test_identifier(method + "_" + dt);
  const fs::path dir = work_dir();
  std::ofstream(dir / (tag + ".mbd")) << deck;
  const int rc = run_deck(dir / (tag + ".mbd"), dir / tag, dir / (tag + ".log"));
  EXPECT_EQ(rc, 0) << read_file(dir / (tag + ".log"));
  std::vector<std::pair<double, double>> xz;
  std::istringstream mov(read_file(dir / (tag + ".mov")));
  int row = 0;
  // MBDyn's loop runs while the accumulated time is below 3 s, so a run may end one step past
  // it: keep the outputs of 0 ... 3 s.
  for (std::string line; std::getline(mov, line) && row <= 300 * outputs_per_1e_2; ++row) {
    if (row % outputs_per_1e_2 != 0) continue;
    std::istringstream ls(line);
    double label = 0, x = 0, y = 0, z = 0;
    ls >> label >> x >> y >> z;
    xz.emplace_back(x, z);
  }
  return xz;
}

double max_error(const std::vector<std::pair<double, double>>& a,
                 const std::vector<std::pair<double, double>>& ref) {
  EXPECT_EQ(a.size(), ref.size());
  double e = 0.0;
  for (std::size_t i = 0; i < std::min(a.size(), ref.size()); ++i)
    e = std::max({e, std::abs(a[i].first - ref[i].first), std::abs(a[i].second - ref[i].second)});
  return e;
}

class PendulumOrder : public ::testing::TestWithParam<Method> {
 protected:
  static const std::vector<std::pair<double, double>>& reference() {
    static const auto ref = run_pendulum("DIRK54", "1.e-3", 10);
    return ref;
  }
};

TEST_P(PendulumOrder, CoarseStepsConvergeWithTheExpectedOrder) {
  const Method m = GetParam();
  ASSERT_EQ(reference().size(), 301u);
  const double e1 = max_error(run_pendulum(m.card, "1.e-2", 1), reference());
  const double e2 = max_error(run_pendulum(m.card, "5.e-3", 2), reference());
  const double e3 = max_error(run_pendulum(m.card, "2.5e-3", 4), reference());
  const double p12 = std::log2(e1 / e2), p23 = std::log2(e2 / e3);
  SCOPED_TRACE(::testing::Message() << m.card << ": errors " << e1 << " " << e2 << " " << e3
                                    << ", observed orders " << p12 << " " << p23);
  EXPECT_NEAR(p12, m.expected_order, m.order_tolerance);
  EXPECT_NEAR(p23, m.expected_order, m.order_tolerance);
  EXPECT_LT(e1, m.error_at_1e_2);
}

INSTANTIATE_TEST_SUITE_P(Methods, PendulumOrder, ::testing::ValuesIn(kMethods),
                         [](const ::testing::TestParamInfo<Method>& i) {
                           std::string n = i.param.card;
                           std::string out;
                           for (char ch : n)
                             if (std::isalnum(static_cast<unsigned char>(ch))) out += ch;
                           return out;
                         });

}  // namespace

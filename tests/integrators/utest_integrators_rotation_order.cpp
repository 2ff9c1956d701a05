// Observed order with rotations and no constraint: a free asymmetric rigid body (centre of mass
// off the node, inertia 0.01/0.02/0.03 plus the offset, spinning at (3, 1, 5) rad/s, under
// gravity) run by the program over 2 s, at four steps halving from `coarse_dt`, against DIRK54
// at dt = 2^-12 s. Error: max |position|, |velocity|, |angular velocity| difference of the node
// at every coarse step.
//
// Finding: the second-order methods keep order 2, MSSTH(3), DIRK33 and DIRK43 order 3 and DIRK54
// order 4, but MSSTH(4) and MSSTH(5) fall to order 3 (3.7 -> 3.2 as dt shrinks), while on the
// unconstrained problems without rotations (utest_integrators_order.cpp, and
// utest_integrators_methods.cpp) they show 4 and 5+. The cause is MBDyn's handling of rotations
// in the stages (seed 000 §3.1): every time point, ESDIRK stages included, re-bases the
// orientation parameters on the last converged point, so each stage is an RK stage written in a
// different chart of SO(3). The change of chart perturbs a stage by terms proportional to the
// stage-order defect q3_i = sum_j a_ij c_j^2 - c_i^3 / 3 (the methods have stage order 2):
// O(dt^4) locally, order 3 globally unless the tableau's propagation cancels it. Those defects are
// large for MSSTH(4) (up to 0.25) and MSSTH(5) (up to 0.67) and small for DIRK54 (<= 0.02), whose
// order 4 holds over these steps. The seed observed the same on its rotating shaft (Fig. 25:
// MSSTH(4) loses order as dt/n shrinks, MSSTH(5) never reaches 5). A property of the
// formulation we reproduce to give MBDyn's answers, not a bug: the re-basing itself is exact
// (DIRK54 keeps 4.0; a planar analogue through the Problem interface in
// utest_integrators_order.cpp shows MSSTH(5) 5 -> 4 with per-point charts). About 1 s.
#include <gtest/gtest.h>

#include "support/run_program.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

using mbl::test::read_file;
using mbl::test::run_deck;

constexpr const char* kDeck = R"(begin: data;
	problem: initial value;
end: data;
begin: initial value;
	initial time: 0.;
	final time: 2.;
	time step: @DT@;
	method: @METHOD@;
	tolerance: 1.e-12;
	max iterations: 30;
end: initial value;
begin: control data;
	structural nodes: 1;
	rigid bodies: 1;
	gravity;
	output precision: 16;
end: control data;
begin: nodes;
	structural: 1, dynamic,
		0., 0., 0.,
		euler123, 0.3, -0.2, 0.1,
		0.1, 0., 0.2,
		3., 1., 5.;
end: nodes;
begin: elements;
	body: 1, 1, 2., 0.02, 0.01, 0.1, diag, 0.01, 0.02, 0.03;
	gravity: uniform, 0., 0., -1., const, 9.81;
end: elements;
)";

struct Method {
  const char* card;
  int coarse_log2_steps;  ///< the coarsest run has 2^k steps per second
  double low, high;       ///< bounds of the three observed orders
};

const Method kMethods[] = {
    {"ms, 0.6", 8, 1.9, 2.1},     {"ss2, 0.6", 8, 1.9, 2.1},    {"Bathe, 0.6", 8, 1.9, 2.1},
    {"msstc3, 0.6", 8, 1.9, 2.1}, {"mssth3, 0.0", 7, 2.9, 3.3}, {"DIRK33", 7, 2.9, 3.3},
    {"DIRK43", 7, 2.9, 3.4},
    // Reduced to 3 by the per-stage re-basing of rotations (header comment).
    {"mssth4, 0.0", 7, 2.9, 3.8}, {"mssth5, 0.0", 7, 2.9, 3.8},
    {"DIRK54", 6, 3.85, 4.2},
};

void PrintTo(const Method& m, std::ostream* os) { *os << m.card; }

fs::path work_dir() {
  static const fs::path dir = mbl::test::fresh_temp_dir("utest_rotation_order");
  return dir;
}

using Row = std::array<double, 9>;  // position, velocity, angular velocity

/// Runs the deck with 2^log2_steps steps per second; returns the node's rows of the .mov at
/// every `stride`-th output.
std::vector<Row> run_body(const std::string& method, int log2_steps, int stride) {
  std::string deck = kDeck;
  char dt[32];
  std::snprintf(dt, sizeof dt, "%.17g", std::ldexp(1.0, -log2_steps));
  deck.replace(deck.find("@DT@"), 4, dt);
  deck.replace(deck.find("@METHOD@"), 8, method);
  const std::string tag = mbl::test::test_identifier(method + "_" + std::to_string(log2_steps));
  const fs::path dir = work_dir();
  std::ofstream(dir / (tag + ".mbd")) << deck;
  EXPECT_EQ(run_deck(dir / (tag + ".mbd"), dir / tag, dir / (tag + ".log")), 0)
      << read_file(dir / (tag + ".log"));
  std::vector<Row> rows;
  std::istringstream mov(read_file(dir / (tag + ".mov")));
  int i = 0;
  for (std::string line; std::getline(mov, line); ++i) {
    if (i % stride) continue;
    std::istringstream ls(line);
    double label, euler[3];
    Row r;
    ls >> label >> r[0] >> r[1] >> r[2] >> euler[0] >> euler[1] >> euler[2];
    for (int k = 3; k < 9; ++k) ls >> r[k];
    rows.push_back(r);
  }
  return rows;
}

double max_error(const std::vector<Row>& a, const std::vector<Row>& ref) {
  EXPECT_EQ(a.size(), ref.size());
  double e = 0.0;
  for (std::size_t i = 0; i < std::min(a.size(), ref.size()); ++i)
    for (int k = 0; k < 9; ++k) e = std::max(e, std::abs(a[i][k] - ref[i][k]));
  return e;
}

class RotationOrder : public ::testing::TestWithParam<Method> {};

TEST_P(RotationOrder, FreeRigidBodyConvergesWithTheExpectedOrder) {
  const Method m = GetParam();
  constexpr int kReferenceLog2 = 12;
  static const std::vector<Row> ref_all = run_body("DIRK54", kReferenceLog2, 1);
  const int k0 = m.coarse_log2_steps;
  std::vector<Row> ref;
  for (std::size_t i = 0; i < ref_all.size(); i += std::size_t{1} << (kReferenceLog2 - k0)) ref.push_back(ref_all[i]);
  ASSERT_EQ(ref.size(), (std::size_t{2} << k0) + 1);  // 2 s
  double e[4];
  for (int i = 0; i < 4; ++i) e[i] = max_error(run_body(m.card, k0 + i, 1 << i), ref);
  const double p[3] = {std::log2(e[0] / e[1]), std::log2(e[1] / e[2]), std::log2(e[2] / e[3])};
  std::printf("  %-12s errors %.2e %.2e %.2e %.2e, orders %.2f %.2f %.2f\n", m.card, e[0], e[1],
              e[2], e[3], p[0], p[1], p[2]);
  for (double order : p) {
    EXPECT_GE(order, m.low) << m.card;
    EXPECT_LE(order, m.high) << m.card;
  }
}

INSTANTIATE_TEST_SUITE_P(Methods, RotationOrder, ::testing::ValuesIn(kMethods),
                         [](const ::testing::TestParamInfo<Method>& i) {
                           std::string out;
                           for (const char* c = i.param.card; *c; ++c)
                             if (std::isalnum(static_cast<unsigned char>(*c))) out += *c;
                           return out;
                         });

}  // namespace

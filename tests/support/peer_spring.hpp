#pragma once
// The decks of the tests that exchange data with a peer process (external forces, stream
// elements), and the check of those whose peer is a spring (file, EDGE and socket communicators,
// input manual §8.8.9-8.8.10): a unit mass at x = 1 on a spring of stiffness k = 100 that only the
// peer knows, for 0.1 s in steps of 1 ms.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>

#include "support/run_program.hpp"

namespace mbl::test {

constexpr double kPeerSpring = 100.0;

/// The data and initial value blocks of the exchange tests: ms(0.6) from 0 to `final_time`.
inline std::string exchange_problem_blocks(double final_time, double dt = 1e-3) {
  return "begin: data; problem: initial value; end: data;\n"
         "begin: initial value;\n"
         "  initial time: 0.; final time: " + number_text(final_time) + "; time step: " + number_text(dt) + ";\n"
         "  method: ms, .6; tolerance: 1e-10; max iterations: 50;\n"
         "end: initial value;\n";
}

/// The deck with `force_card` (force 10 on node 1) as the only force.
inline std::string peer_spring_deck(const std::string& force_card) {
  return exchange_problem_blocks(0.1) + R"(
begin: control data; structural nodes: 1; rigid bodies: 1; forces: 1; end: control data;
begin: nodes; structural: 1, dynamic, 1., 0., 0., eye, null, null; end: nodes;
begin: elements;
  body: 1, 1, 1., null, eye;
  )" + force_card + R"(
end: elements;
)";
}

/// x = cos(10 t), v = -10 sin(10 t) at the last record: as in MBDyn the derivatives phase sees no
/// force yet (the first exchange follows the first prediction), which shifts the start by
/// O(dt k). Each step ends with the peer's force at the converged position: F = -k x in every
/// .frc record after the initial one (no force yet).
inline void expect_peer_spring_motion(const TextDeckRun& r) {
  const auto mov = records(r.output("mov"), 1);
  ASSERT_EQ(mov.size(), 101u);
  const double t = 0.1, w = std::sqrt(kPeerSpring);
  EXPECT_NEAR(mov.back()[0], std::cos(w * t), 1e-2);
  EXPECT_NEAR(mov.back()[6], -w * std::sin(w * t), 5e-2);
  std::ifstream frc(r.output("frc"));
  std::size_t lines = 0;
  for (std::string point; frc >> point;) {
    double f[6];
    for (double& v : f) frc >> v;
    ASSERT_EQ(point, "10@1");
    EXPECT_NEAR(f[0], lines == 0 ? 0.0 : -kPeerSpring * mov[lines][0], 1e-4 * kPeerSpring) << "record " << lines;
    ++lines;
  }
  EXPECT_EQ(lines, mov.size());
}

}  // namespace mbl::test

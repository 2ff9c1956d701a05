// A tightly coupled peer's exchanges are Newton iterations (MBDyn: ExtForce registers a Converged
// vote, reset at each prediction and set when the peer answers "converged", extforce.cc; the
// nonlinear solver's residual and solution tests require DataManager::IsConverged, nonlin.cc).
// Our peer (tests/support/mbc_nodal_peer.hpp) answers a fixed number of motions per step with the
// spring force, as MBDyn's utils/test_strext_socket with `-c <n>`, then says it has converged.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <thread>

#include "support/mbc_nodal_peer.hpp"
#include "support/peer_spring.hpp"

namespace mbl::test {
namespace {

struct PeerRun {
  TextDeckRun run;
  int converged_steps = 0;
};

/// Runs the peer-spring deck (tight coupling, `max iterations`) against a peer that answers
/// `exchanges` motions per step: `exchanges - 1` with loads, the last with "converged".
PeerRun run_with_peer(int exchanges, int max_iterations, double final_time) {
  const std::filesystem::path dir = fresh_temp_dir("extiter");
  const std::string sock = (dir / "ext.sock").string();
  std::string deck = exchange_problem_blocks(final_time) + R"(
begin: control data; structural nodes: 1; rigid bodies: 1; forces: 1; end: control data;
begin: nodes; structural: 1, dynamic, 1., 0., 0., eye, null, null; end: nodes;
begin: elements;
  body: 1, 1, 1., null, eye;
  force: 10, external structural, socket, create, yes, path, ")" + sock + R"(", no signal, coupling, tight,
    orientation, none, 1, 1;
end: elements;
)";
  const std::string max_line = "max iterations: 50;";
  deck.replace(deck.find(max_line), max_line.size(), "max iterations: " + std::to_string(max_iterations) + ";");
  PeerRun out;
  MbcNodalFlags flags;
  flags.rotation = 0;
  std::thread peer([&] {
    MbcNodalPeer p(flags);
    if (!p.connect_and_negotiate(sock)) return;
    MbcNodalMotion m;
    int seen = 0;
    while (p.get_motion(m)) {
      if (++seen == exchanges) {
        p.converged();
        seen = 0;
        ++out.converged_steps;
        continue;
      }
      std::vector<double> f{-kPeerSpring * m.x[0], -kPeerSpring * m.x[1], -kPeerSpring * m.x[2]}, none;
      const double zero[3] = {0, 0, 0};
      p.put_forces({1u}, f, none, zero, zero, 0u);
    }
  });
  out.run = run_deck_text("extiter_run", deck);
  peer.join();
  return out;
}

}  // namespace

TEST(ExternalIterations, EachExchangeOfAPeerIsANewtonIteration) {
  // The spring problem converges in one or two iterations; a peer asking for 7 exchanges holds
  // Newton until its 7th motion, sent after the 6th correction: 6 iterations a step.
  const PeerRun r = run_with_peer(7, 10, 0.01);
  ASSERT_EQ(r.run.rc, 0) << r.run.log();
  EXPECT_EQ(r.converged_steps, 10);
  std::istringstream out(read_file(r.run.output("out")));
  int steps = 0;
  for (std::string line; std::getline(out, line);) {
    if (line.rfind("Step ", 0) != 0) continue;
    std::istringstream ls(line.substr(5));
    long step = 0;
    double t = 0.0, dt = 0.0;
    int iterations = -1;
    ls >> step >> t >> dt >> iterations;
    if (step == 0) continue;
    ++steps;
    EXPECT_EQ(iterations, 6) << line;
  }
  EXPECT_EQ(steps, 10);
  // The motion still follows the spring: x = cos(10 t) to the accuracy of the explicit loads.
  const auto mov = records(r.run.output("mov"), 1);
  ASSERT_EQ(mov.size(), 11u);
  EXPECT_NEAR(mov.back()[0], std::cos(10.0 * 0.01), 1e-3);
}

TEST(ExternalIterations, APeerAskingMoreThanMaxIterationsFailsTheStep) {
  // 12 exchanges need 11 iterations: with `max iterations: 10` the first step fails, as MBDyn's
  // (the run stops cleanly, exit 3).
  const PeerRun r = run_with_peer(12, 10, 0.01);
  EXPECT_EQ(r.run.rc, 3) << r.run.log();
  EXPECT_EQ(r.converged_steps, 0);
  EXPECT_NE(r.run.log().find("max iterations"), std::string::npos) << r.run.log();
}

}  // namespace mbl::test

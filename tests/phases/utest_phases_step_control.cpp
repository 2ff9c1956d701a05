// The step loop of the initial-value phase (mbdyn-like/phases/simulation.cpp) through the whole
// program: a step that does not converge is retried with a smaller step when `strategy: factor`
// allows it, otherwise the run stops cleanly (exit 3) with .out/.mov valid up to the last
// converged step; `strategy: change` follows its drive caller. The deck is a pendulum that is
// hit by an absurd impulsive force after t = 0.501 s, which no step can absorb.
#include <gtest/gtest.h>

#include "support/run_program.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

using mbl::test::read_file;
using mbl::test::run;

/// Pendulum deck; `initial_value_extra` goes into the initial value block.
std::string pendulum_deck(const std::string& initial_value_extra, double time_step,
                          double final_time, bool kick) {
  std::ostringstream d;
  d << "begin: data; problem: initial value; end: data;\n"
       "begin: initial value;\n"
       "  initial time: 0.; final time: " << final_time << ";\n"
       "  time step: " << time_step << ";\n"
       "  max iterations: 10; tolerance: 1e-6;\n"
       "  method: ms, .6;\n"
    << initial_value_extra
    << "end: initial value;\n"
       "begin: control data;\n"
       "  structural nodes: 2; rigid bodies: 1; joints: 2; gravity;\n"
    << (kick ? "  forces: 1;\n" : "")
    << "end: control data;\n"
       "begin: nodes;\n"
       "  structural: 1, static, null, eye, null, null, output, no;\n"
       "  structural: 2, dynamic, 1., 0., 0., eye, null, null;\n"
       "end: nodes;\n"
       "begin: elements;\n"
       "  body: 2, 2, 10., null, diag, 1e-3, 1e-3, 1e-3;\n"
       "  joint: 1, clamp, 1, node, node;\n"
       "  joint: 2, revolute hinge,\n"
       "    1, null, hinge, 3, 0., 1., 0., 1, 1., 0., 0.,\n"
       "    2, reference, global, null, hinge, 3, 0., 1., 0., 1, 1., 0., 0.;\n"
       "  gravity: 0., 0., -1., const, 9.81;\n"
    << (kick ? "  force: 1, absolute, 2, position, null, 0., 0., 1.,\n"
               "    string, \"1e15*(Time > 0.501)\";\n"
             : "")
    << "end: elements;\n";
  return d.str();
}

struct DeckRun {
  int rc;
  std::string log;
  std::vector<std::vector<double>> out_steps;  ///< Step lines of the .out: step, time, dt, iters
  int mov_lines;
};

DeckRun run_deck(const std::string& name, const std::string& deck) {
  const mbl::test::TextDeckRun run = mbl::test::run_deck_text("phases_" + name, deck);
  DeckRun r;
  r.rc = run.rc;
  r.log = run.log();
  std::istringstream out(read_file(run.output("out")));
  for (std::string line; std::getline(out, line);) {
    if (line.rfind("Step ", 0) != 0) continue;
    std::istringstream ls(line.substr(5));
    std::vector<double> v(4);
    for (double& x : v) ls >> x;
    r.out_steps.push_back(v);
  }
  std::istringstream mov(read_file(run.output("mov")));
  r.mov_lines = 0;
  for (std::string line; std::getline(mov, line);)
    if (!line.empty()) ++r.mov_lines;
  return r;
}

TEST(PhasesStepControl, FixedStepFailureStopsCleanlyWithValidOutputs) {
  const DeckRun r = run_deck("fixed_fail", pendulum_deck("", 1e-2, 1.0, true));
  EXPECT_EQ(r.rc, 3) << r.log;
  EXPECT_NE(r.log.find("did not converge"), std::string::npos) << r.log;
  // Step 0 (derivatives) and the 50 converged steps up to t = 0.5, then the failing step 51.
  ASSERT_GE(r.out_steps.size(), 51u);
  for (int k = 0; k <= 50; ++k) {
    EXPECT_EQ(r.out_steps[k][0], k);
    EXPECT_NEAR(r.out_steps[k][1], 0.01 * k, 1e-12);
  }
  ASSERT_LE(r.out_steps.size(), 52u);
  // One .mov line (the pendulum; the ground has no output) per converged time, step 0 included.
  EXPECT_EQ(r.mov_lines, 51);
}

TEST(PhasesStepControl, FactorStrategyRetriesThenStopsAtMinTimeStep) {
  const DeckRun r = run_deck(
      "factor_fail",
      pendulum_deck("  strategy: factor, .5, 1, 1.25, 3, 0;\n  min time step: 2e-3;\n", 1e-2, 1.0, true));
  EXPECT_EQ(r.rc, 3) << r.log;
  // Never raised (min iterations 0); the step to 0.51 s is retried at 5e-3, 2.5e-3, then once
  // at the minimum 2e-3, then the run stops.
  EXPECT_NE(r.log.find("retrying with time step 0.005"), std::string::npos) << r.log;
  EXPECT_NE(r.log.find("retrying with time step 0.0025"), std::string::npos) << r.log;
  EXPECT_NE(r.log.find("retrying with time step 0.002"), std::string::npos) << r.log;
  ASSERT_EQ(r.out_steps.size(), 51u);
  EXPECT_NEAR(r.out_steps.back()[1], 0.5, 1e-12);
  EXPECT_EQ(r.mov_lines, 51);
}

TEST(PhasesStepControl, FactorStrategyRaisesTheStepWhenNewtonIsEasy) {
  // Pendulum without the kick: every step converges in few iterations, so after the first step
  // the step grows by 1.25 every 3 steps up to max time step.
  const DeckRun r = run_deck("factor_raise",
                         pendulum_deck("  strategy: factor, .5, 1, 1.25, 3, 5;\n"
                                       "  max time step: 2e-2;\n",
                                       1e-2, 1.0, false));
  ASSERT_EQ(r.rc, 0) << r.log;
  ASSERT_GE(r.out_steps.size(), 10u);
  EXPECT_DOUBLE_EQ(r.out_steps[1][2], 1e-2);
  double dt_max = 0.0;
  for (std::size_t k = 1; k < r.out_steps.size(); ++k) {
    const double dt = r.out_steps[k][2];
    EXPECT_LE(dt, 2e-2 * (1 + 1e-12));
    if (k >= 2) {
      const double ratio = dt / r.out_steps[k - 1][2];
      EXPECT_TRUE(std::abs(ratio - 1.0) < 1e-9 || std::abs(ratio - 1.25) < 1e-9 || dt == 2e-2)
          << "step " << k;
    }
    dt_max = std::max(dt_max, dt);
  }
  EXPECT_DOUBLE_EQ(dt_max, 2e-2);
  EXPECT_GE(r.out_steps.back()[1], 1.0 - 1e-9);
}

TEST(PhasesStepControl, ChangeStrategyFollowsItsDrive) {
  // The first step uses `time step`; afterwards the drive gives 1e-2 before 0.2 s, 2e-2 after.
  const DeckRun r = run_deck("change",
                         pendulum_deck("  strategy: change, string, \"1e-2 + 1e-2*(Time > 0.2)\";\n",
                                       5e-3, 0.5, false));
  ASSERT_EQ(r.rc, 0) << r.log;
  ASSERT_GE(r.out_steps.size(), 3u);
  EXPECT_DOUBLE_EQ(r.out_steps[1][2], 5e-3);
  for (std::size_t k = 2; k < r.out_steps.size(); ++k) {
    const double t_prev = r.out_steps[k - 1][1];
    EXPECT_NEAR(r.out_steps[k][2], t_prev > 0.2 + 1e-12 ? 2e-2 : 1e-2, 1e-15) << "step " << k;
    EXPECT_NEAR(r.out_steps[k][1], t_prev + r.out_steps[k][2], 1e-12);
  }
}

TEST(PhasesStepControl, MaxTimeStepIsADriveOfTime) {
  // MBDyn 2024 reads `max time step` as a drive caller: here 1e-2 before 0.5 s, 2e-2 after; the
  // factor strategy raises the step up to the limit of the time it is chosen at.
  const DeckRun r = run_deck("max_drive",
                         pendulum_deck("  strategy: factor, .5, 1, 1.25, 3, 5;\n"
                                       "  max time step: string, \"1e-2 + 1e-2*(Time > 0.5)\";\n",
                                       5e-3, 1.0, false));
  ASSERT_EQ(r.rc, 0) << r.log;
  double before = 0.0, after = 0.0;
  for (std::size_t k = 2; k < r.out_steps.size(); ++k) {
    const double t_prev = r.out_steps[k - 1][1], dt = r.out_steps[k][2];
    const double limit = t_prev > 0.5 + 1e-12 ? 2e-2 : 1e-2;
    EXPECT_LE(dt, limit * (1 + 1e-12)) << "step " << k;
    (t_prev > 0.5 ? after : before) = std::max(t_prev > 0.5 ? after : before, dt);
  }
  EXPECT_DOUBLE_EQ(before, 1e-2);
  EXPECT_DOUBLE_EQ(after, 2e-2);
}

}  // namespace

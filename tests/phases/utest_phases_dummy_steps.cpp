// Dummy steps (input manual §4.1.3) on the real deck t.joints.gimbal.gimbal: two steps of
// ratio * dt = 1e-6 after the derivatives; MBDyn's .out then says "after dummy steps at time
// 2e-06", its "Step 0" line shows 3e-06 (time plus the dummy step) and the regular steps continue
// from 2e-06 (step 1 at 0.001002).
#include <gtest/gtest.h>

#include "support/run_program.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "mbdyn-like/model/model_builder.hpp"
#include "mbdyn-like/phases/model_output.hpp"
#include "mbdyn-like/phases/simulation.hpp"

namespace fs = std::filesystem;
using namespace mbl;

namespace {

std::vector<std::string> run_gimbal(double final_time, AbortAfter abort_after, RunReport& report,
                                    std::string* mov = nullptr) {
  const fs::path deck = fs::path(MBL_SHARED_DIR) / "decks" / "t.joints.gimbal.gimbal" / "deck" / "gimbal";
  BuildResult built = read_deck(deck.string());
  RunSettings s = built.settings;
  s.final_time = final_time;
  s.abort_after = abort_after;
  const fs::path dir = mbl::test::fresh_temp_dir("utest_phases_dummy_steps");
  output::OutputConfig oc;
  oc.prefix = (dir / "gimbal").string();
  std::ostringstream log;
  {
    ModelOutput out(oc);
    report = run_simulation(*built.model, s, out, log);
  }
  if (mov) *mov = mbl::test::read_file(oc.prefix + ".mov");
  std::ifstream f(oc.prefix + ".out");
  std::vector<std::string> lines;
  for (std::string l; std::getline(f, l);) lines.push_back(l);
  return lines;
}

}  // namespace

TEST(DummySteps, GimbalOutHeaderAndTimesFollowMbdyn) {
  RunReport r;
  const std::vector<std::string> lines = run_gimbal(0.0025, AbortAfter::none, r);
  ASSERT_EQ(r.status, RunStatus::Completed) << r.message;
  ASSERT_GE(lines.size(), 8u);
  EXPECT_EQ(lines[0].rfind("# Derivatives solution step at time 0 performed in ", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1].rfind("# Initial solution after dummy steps at time 2e-06 performed in 4 iterations", 0), 0u)
      << lines[1];
  EXPECT_EQ(lines[4].rfind("Step 0 3e-06 1e-06 4 ", 0), 0u) << lines[4];
  EXPECT_EQ(lines[5].rfind("Step 1 0.001002 0.001 ", 0), 0u) << lines[5];
  // Like MBDyn, the steps continue past the final time from 2e-6: 0.001002, 0.002002, 0.003002.
  EXPECT_EQ(r.steps, 3);
  EXPECT_NEAR(r.final_time, 0.003002, 1e-12);
}

TEST(DummySteps, AbortAfterDummyStepsWritesTheInitialSolutionOnly) {
  RunReport r;
  const std::vector<std::string> lines = run_gimbal(1.0, AbortAfter::dummy_steps, r);
  EXPECT_EQ(r.status, RunStatus::Aborted);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[4].rfind("Step 0 3e-06 1e-06 4 ", 0), 0u) << lines[4];
}

// A deck whose final time is not after its initial time (t.parser.eval: neither is given) stops
// after the derivatives: MBDyn writes the initial output and, instead of "Step" lines, "End of
// derivatives; no simulation is required." — its .out and .mov are ours to the byte.
TEST(PhasesNoSimulation, OnlyTheDerivativesAreWrittenWhenTheFinalTimeIsNotAfterTheStart) {
  const std::filesystem::path ref = std::filesystem::path(MBL_SHARED_DIR) / "decks" / "t.parser.eval";
  const std::filesystem::path dir = mbl::test::fresh_temp_dir("no_simulation");
  ASSERT_EQ(mbl::test::run_deck(ref / "deck" / "eval", dir / "eval", dir / "log"), 0)
      << mbl::test::read_file(dir / "log");
  EXPECT_EQ(mbl::test::read_file(dir / "eval.out"), mbl::test::read_file(ref / "mbdyn" / "eval.out"));
  EXPECT_EQ(mbl::test::read_file(dir / "eval.mov"), mbl::test::read_file(ref / "mbdyn" / "eval.mov"));
}

// `abort after: input` (input manual §4.1.1): MBDyn writes the configuration as read, once, and
// its .out says only "End of Input; no simulation or assembly is required." (the corpus deck
// t.hydr.circuito.circuito2 shows both).
TEST(DummySteps, AbortAfterInputWritesTheConfigurationAsRead) {
  RunReport r;
  std::string mov;
  const std::vector<std::string> lines = run_gimbal(1.0, AbortAfter::input, r, &mov);
  EXPECT_EQ(r.status, RunStatus::Aborted);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "End of Input; no simulation or assembly is required.");
  // One record: a line per structural node of the deck (gimbal: 5).
  EXPECT_EQ(std::count(mov.begin(), mov.end(), '\n'), 5);
}

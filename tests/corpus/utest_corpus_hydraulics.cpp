// The hydraulic decks of the corpus (MBDyn's tests/hydr): those with structural nodes agree with
// MBDyn's .mov; the purely hydraulic ones (no .mov) run to the end with MBDyn's number of steps.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "support/run_program.hpp"
#include "corpus_runs.hpp"
#include "tools/corpus.hpp"

using namespace mbl::corpus;

namespace {

const fs::path kCorpus = fs::path(MBL_SHARED_DIR) / "corpus";

struct HydraulicDeck {
  const char* id;
  Outcome expected;
  long mbdyn_steps;  ///< "Step" lines of MBDyn's .out (index.json `steps`)
};

const HydraulicDeck kDecks[] = {
    {"t.hydr.actuator.unit.volume", Outcome::Agree, 502},     // actuator, incompressible fluid
    {"t.hydr.actuator.swashplate", Outcome::Agree, 501},      // three actuators, `pin` joint
    {"t.hydr.fullpipe.fullpipe0", Outcome::NoReference, 10002},  // dynamic pipe, super fluid
    {"t.hydr.tubo.wave.wave", Outcome::NoReference, 201},     // chain of dynamic pipes
    {"t.hydr.accumulator.gas.accumulator", Outcome::NoReference, 201},
    {"t.hydr.flowvalve.1.flowvalve", Outcome::NoReference, 101},
    // PID-driven dynamic control valve and actuator, line search with `enforce constraint
    // equations`: MBDyn's equation types in the residual test and its derivatives iteration
    {"t.hydr.dynamicvalve.DynamicValve0_legacy", Outcome::Agree, 25001},
};


}  // namespace

TEST(CorpusHydraulics, DecksRunAndAgreeWithMBDyn) {
  if (!fs::exists(kCorpus / "index.json")) GTEST_SKIP() << "no " << kCorpus;
  std::vector<Deck> decks;
  fs::path work;
  const std::vector<Result> results = test_runs::run_decks(kDecks, [](const HydraulicDeck& x) { return std::string(x.id); }, "utest_corpus_hydraulics", decks, work);
  ASSERT_EQ(decks.size(), std::size(kDecks));
  for (std::size_t i = 0; i < decks.size(); ++i) {
    const auto* s = std::find_if(std::begin(kDecks), std::end(kDecks), [&](const HydraulicDeck& x) { return decks[i].id == x.id; });
    EXPECT_STREQ(outcome_name(results[i].outcome), outcome_name(s->expected)) << decks[i].id << ": " << results[i].message;
    if (s->expected == Outcome::Agree) {
      EXPECT_EQ(results[i].run_records, decks[i].records) << decks[i].id;
      // Every column: the nodes' velocities too (corpus tool, 1e-4 of each range).
      EXPECT_TRUE(results[i].velocities_agree) << decks[i].id << ": " << results[i].velocity_worst << " = "
                                               << results[i].velocity_error;
    }
    EXPECT_EQ(test_runs::step_lines(work / decks[i].id / "run.out"), s->mbdyn_steps) << decks[i].id;
  }
}

namespace {

/// The lines of node `label` in a .mov, in order (one per record).
std::vector<std::string> node_lines(const fs::path& mov, const std::string& label) {
  std::ifstream f(mov);
  std::vector<std::string> lines;
  for (std::string line; std::getline(f, line);) {
    std::istringstream fields(line);
    std::string first;
    if (fields >> first && first == label) lines.push_back(line);
  }
  return lines;
}

}  // namespace

TEST(CorpusHydraulics, FilteredValveFollowsMbdynsNewtonIterationByIteration) {
  // The PID-driven dynamic control valve with a scalar filter (a state space genel on abstract
  // nodes) and a displacement measure. MBDyn's Newton takes 12-13 iterations at the first steps
  // (modified Newton, a Jacobian every 4) because three of its element Jacobians are not the
  // derivative: the valve's flows in the spool column (valve.cc), the state space input column
  // (genfilt.cc), the displacement measure without the nodes' columns (displacement.cc); and
  // its genel starts with x' = A x + B u (SetValue), so its derivatives phase takes no
  // iteration. With MBDyn's matrices the iteration counts are MBDyn's step for step, and the
  // .mov equals MBDyn's to every printed digit until the spool crosses zero (step 186, where a
  // residual 5 % under the tolerance stops one run and not the other); with the derivatives
  // the counts were 3-7 and the records differed from step 2 on. The same holds for the
  // unfiltered deck up to step 190 (it differed from step 36).
  if (!fs::exists(kCorpus / "index.json")) GTEST_SKIP() << "no " << kCorpus;
  struct Case {
    const char* id;
    long same_iterations_until;  ///< steps 0 .. this one take MBDyn's iterations
    std::size_t same_records_until;  ///< records up to this step print as MBDyn's
  };
  const Case cases[] = {{"t.hydr.dynamicvalve.DynamicValveFilter", 185, 184},
                        {"t.hydr.dynamicvalve.DynamicValve", 135, 190}};
  std::vector<Deck> decks;
  fs::path work;
  const std::vector<Result> results = test_runs::run_decks(cases, [](const Case& c) { return std::string(c.id); },
                                                           "utest_corpus_hydraulics_filter", decks, work);
  ASSERT_EQ(decks.size(), std::size(cases));
  for (std::size_t i = 0; i < decks.size(); ++i) {
    const Case& c = *std::find_if(std::begin(cases), std::end(cases), [&](const Case& x) { return decks[i].id == x.id; });
    EXPECT_STREQ(outcome_name(results[i].outcome), "agree") << c.id << ": " << results[i].message;
    const fs::path dir = work / decks[i].id;
    const std::vector<long> ours = test_runs::step_iterations(dir / "run.out");
    const std::vector<long> mbdyn = test_runs::step_iterations(dir / "ref.out");
    ASSERT_GT(ours.size(), std::size_t(c.same_iterations_until)) << c.id;
    ASSERT_GT(mbdyn.size(), std::size_t(c.same_iterations_until)) << c.id;
    for (long step = 0; step <= c.same_iterations_until; ++step)
      EXPECT_EQ(ours[step], mbdyn[step]) << c.id << " Newton iterations of step " << step;
    const std::vector<std::string> ref = node_lines(dir / "ref.mov", "102"), run = node_lines(dir / "run.mov", "102");
    const std::size_t stride = decks[i].stride;
    ASSERT_GE(run.size(), c.same_records_until + 1) << c.id;
    for (std::size_t k = 0; k * stride <= c.same_records_until && k < ref.size(); ++k)
      EXPECT_EQ(run[k * stride], ref[k]) << c.id << " node 102 at step " << k * stride;
  }
}

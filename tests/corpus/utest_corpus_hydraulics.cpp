// The hydraulic decks of the corpus (MBDyn's tests/hydr): those with structural nodes agree with
// MBDyn's .mov; the purely hydraulic ones (no .mov) run to the end with MBDyn's number of steps.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

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

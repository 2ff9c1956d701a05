// The inverse dynamics decks of the corpus (MBDyn's tests/invdyn, `problem: inverse dynamics`):
// fully actuated (invdyn, invdyn1) and underdetermined fully actuated ones, with ergonomy
// deformable hinges, rods and beams and the PA-10 arm, agree with MBDyn's .mov with its number
// of records, within a bound per deck (velocities within 1e-4 of their range), and write its .out "Step" lines (none under `output:
// none`). The position subproblem iterates as MBDyn's (it stops on the constraints, so MBDyn's
// iterates are the answer): where the decks say so, every step takes MBDyn's number of
// iterations.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "support/run_program.hpp"
#include "corpus_runs.hpp"
#include "tools/corpus.hpp"

using namespace mbl::corpus;

namespace {

const fs::path kCorpus = fs::path(MBL_SHARED_DIR) / "corpus";

struct InverseDynamicsDeck {
  const char* id;
  /// "Step" lines of MBDyn's .out: one per solved time, none under `output: none` (MBDyn
  /// indents the first one when it prints the error at full precision: index.json's `steps`
  /// misses it for the two decks with 202 records).
  long step_lines;
  /// Bound on the worst position error / model size.
  double max_error;
  /// Every step takes as many iterations as MBDyn's (the .out's Step lines); the others part
  /// by one iteration on a few steps where the test straddles the tolerance.
  bool mbdyn_iterations;
};

const InverseDynamicsDeck kDecks[] = {
    {"t.invdyn.invdyn", 0, 1e-10, true},
    {"t.invdyn.invdyn1", 101, 1e-10, true},
    {"t.invdyn.beam.planar_3link_beam", 202, 1e-10, true},
    {"t.invdyn.beam.planar_3link_rod", 202, 1e-6, false},
    {"t.invdyn.beam2.idcheck", 3, 1e-10, true},
    {"t.invdyn.pa10", 501, 1e-10, true},
    {"t.invdyn.pa10_test_traj", 373, 1e-10, false},
    {"t.invdyn.pa10_test_traj2", 626, 1e-10, true},
    {"t.invdyn.pa10_test_traj3", 626, 1e-10, true},
    {"t.invdyn.planar_3link", 101, 1e-10, true},
    {"t.invdyn.planar_3link_ergo", 202, 1e-10, true},
    {"t.invdyn.planar_3link_ergo2", 101, 1e-10, true},
    {"t.invdyn.planar_3link_ergo2_driven", 101, 1e-10, true},
    {"t.invdyn.planar_3link_ergo_gravity", 101, 1e-10, true},
};


}  // namespace

TEST(CorpusInverseDynamics, DecksAgreeWithMBDyn) {
  if (!fs::exists(kCorpus / "index.json")) GTEST_SKIP() << "no " << kCorpus;
  std::vector<Deck> decks;
  fs::path work;
  const std::vector<Result> results = test_runs::run_decks(kDecks, [](const InverseDynamicsDeck& x) { return std::string(x.id); }, "utest_corpus_inverse_dynamics", decks, work);
  ASSERT_EQ(decks.size(), std::size(kDecks));
  for (std::size_t i = 0; i < decks.size(); ++i) {
    EXPECT_STREQ(outcome_name(results[i].outcome), outcome_name(Outcome::Agree))
        << decks[i].id << ": " << results[i].message;
    EXPECT_EQ(results[i].run_records, decks[i].records) << decks[i].id;
    const auto* x = std::find_if(std::begin(kDecks), std::end(kDecks),
                                 [&](const InverseDynamicsDeck& k) { return decks[i].id == k.id; });
    EXPECT_EQ(test_runs::step_lines(work / decks[i].id / "run.out"), x->step_lines) << decks[i].id;
    EXPECT_LE(results[i].error, x->max_error) << decks[i].id;
    // Every column: the velocities too (corpus tool, 1e-4 of each range), the prescribed motion's
    // derivative drives taken as given (at t = 0.5, where `Time <= T1` switches them, too).
    EXPECT_TRUE(results[i].velocities_agree) << decks[i].id << ": " << results[i].velocity_worst << " = "
                                             << results[i].velocity_error;
    if (x->mbdyn_iterations) {
      EXPECT_EQ(test_runs::step_iterations(work / decks[i].id / "run.out"),
                test_runs::step_iterations(work / decks[i].id / "ref.out"))
          << decks[i].id;
    }
  }
}

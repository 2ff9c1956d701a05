// The inverse dynamics decks of the corpus (MBDyn's tests/invdyn, `problem: inverse dynamics`):
// fully actuated (invdyn, invdyn1) and underdetermined fully actuated ones, with ergonomy
// deformable hinges, rods and beams and the PA-10 arm, agree with MBDyn's .mov with its number
// of records. Two decks are left out: t.invdyn.beam.planar_3link_beam (its ergonomy beam2 in
// MBDyn's inverse dynamics measures curvature from a reference of its own, 4e-2 apart by mid
// run) and t.invdyn.pa10 (6e-4 apart: MBDyn stops its position Newton on the constraint rows
// while the optimality rows, linearised at the previous step, lag behind).
#include <gtest/gtest.h>

#include <algorithm>

#include "support/run_program.hpp"
#include "tools/corpus.hpp"

using namespace mbl::corpus;

namespace {

const fs::path kCorpus = fs::path(MBL_SHARED_DIR) / "corpus";

const char* const kDecks[] = {
    "t.invdyn.invdyn",
    "t.invdyn.invdyn1",
    "t.invdyn.beam.planar_3link_rod",
    "t.invdyn.beam2.idcheck",
    "t.invdyn.pa10_test_traj",
    "t.invdyn.pa10_test_traj2",
    "t.invdyn.pa10_test_traj3",
    "t.invdyn.planar_3link",
    "t.invdyn.planar_3link_ergo",
    "t.invdyn.planar_3link_ergo2",
    "t.invdyn.planar_3link_ergo2_driven",
    "t.invdyn.planar_3link_ergo_gravity",
};

}  // namespace

TEST(CorpusInverseDynamics, DecksAgreeWithMBDyn) {
  if (!fs::exists(kCorpus / "index.json")) GTEST_SKIP() << "no " << kCorpus;
  std::vector<Deck> decks;
  for (const Deck& d : read_index(kCorpus))
    if (std::any_of(std::begin(kDecks), std::end(kDecks), [&](const char* id) { return d.id == id; }))
      decks.push_back(d);
  ASSERT_EQ(decks.size(), std::size(kDecks));
  Options o;
  o.program = MBL_BINARY;
  o.corpus = kCorpus;
  o.work = mbl::test::fresh_temp_dir("utest_corpus_inverse_dynamics");
  o.run = true;
  const std::vector<Result> results = process(decks, o);
  for (std::size_t i = 0; i < decks.size(); ++i) {
    EXPECT_STREQ(outcome_name(results[i].outcome), outcome_name(Outcome::Agree))
        << decks[i].id << ": " << results[i].message;
    EXPECT_EQ(results[i].run_records, decks[i].records) << decks[i].id;
  }
}

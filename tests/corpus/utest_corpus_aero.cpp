// Aerodynamic decks of the corpus (../shared/corpus): airfoil tables on clamped and driven
// surfaces, and four-blade rotors in forward flight with MBDyn's uniform inflow, run as
// `mbl-corpus --run` runs them; each agrees with MBDyn's node positions (1e-4 of the model size,
// same records).
#include <gtest/gtest.h>

#include <algorithm>

#include "support/run_program.hpp"
#include "tools/corpus.hpp"

using namespace mbl::corpus;

namespace {

const fs::path kCorpus = fs::path(MBL_SHARED_DIR) / "corpus";

const char* const kAeroDecks[] = {
    "t.c81.c81",
    "t.c81.c81-2",
    "t.aero.p0",
    "t.aero.front1d",
    "t.eig.divergence-rigid",
    // Rigid articulated rotor, NetCDF output, `output meter` from the 45th revolution on.
    "alx.AERO_MBDyn.aero_NLV.rotor_std_Nb4_nswlve",
    // The same rotor on a swashplate: total joints with two of three rotations constrained whose
    // free axis turns many times (MBDyn keeps their constraint rotation small by moving the
    // target, TotalJoint::theta_target; without it Newton fails at 3.5 revolutions).
    "alx.AERO_MBDyn.aerodynamic_sw.rotor_std_Nb4_sw",
    // A flapping blade under `rigid body kinematics` (40 rad/s): the air it meets is the moving
    // frame's velocity, subtracted from the airstream as MBDyn's air properties do.
    "t.eig.rigidflapaero2",
    // The same blade as an aerodynamic body, the frame turning by an orientation drive and
    // translating at 5 m/s: the drives are absolute, seen from the turning frame (1/rev flap).
    "t.eig.rigidflapaero",
};

}  // namespace

TEST(CorpusAero, AerodynamicDecksAgreeWithMBDyn) {
  if (!fs::exists(kCorpus / "index.json")) GTEST_SKIP() << "no " << kCorpus;
  std::vector<Deck> decks;
  for (const Deck& d : read_index(kCorpus))
    if (std::any_of(std::begin(kAeroDecks), std::end(kAeroDecks), [&](const char* id) { return d.id == id; }))
      decks.push_back(d);
  ASSERT_EQ(decks.size(), std::size(kAeroDecks));
  Options o;
  o.program = MBL_BINARY;
  o.corpus = kCorpus;
  o.work = mbl::test::fresh_temp_dir("utest_corpus_aero");
  o.run = true;
  const std::vector<Result> results = process(decks, o);
  for (std::size_t i = 0; i < decks.size(); ++i) {
    EXPECT_STREQ(outcome_name(results[i].outcome), outcome_name(Outcome::Agree))
        << decks[i].id << ": " << results[i].message;
    EXPECT_EQ(results[i].run_records, decks[i].records) << decks[i].id;
  }
}

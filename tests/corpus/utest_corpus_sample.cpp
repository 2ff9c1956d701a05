// A fixed sample of the real-deck corpus (../shared/corpus), run as `mbl-corpus --run` runs the
// whole of it: each deck reads without an input error, and those listed as agreeing run to the
// end and write MBDyn's node positions (1e-4 of the model size) with MBDyn's number of records.
#include <gtest/gtest.h>

#include <algorithm>

#include "support/run_program.hpp"
#include "tools/corpus.hpp"

using namespace mbl::corpus;

namespace {

const fs::path kCorpus = fs::path(MBL_SHARED_DIR) / "corpus";

struct SampleDeck {
  const char* id;
  Outcome expected;
  bool velocities = false;  ///< every column agrees: XP and Omega too (1e-4 of each range)
};

// Small and quick decks of several sources and card families; the whole corpus is
// `build/mbl-corpus --run` (README, "Agreement with MBDyn").
const SampleDeck kSample[] = {
    {"t.benchmarks.andrewssqueezer.andrewssqueezer_assembler", Outcome::Agree},
    {"t.benchmarks.andrewssqueezer.andrewssqueezer_int", Outcome::Agree},
    {"t.beam.DETC2007-35511.beam_legacy", Outcome::Agree},
    {"t.drives.drive.drive", Outcome::NoReference},
    {"t.genel.hopf-bifurcation.hb", Outcome::NoReference},
    {"t.elec.accelerometer", Outcome::Agree},   // accelerometers (translational, rotational)
    {"t.elec.accelerometer2", Outcome::Agree},  // the same, read back by genels
    {"t.elec.motor", Outcome::Agree},           // DC motor between electric nodes
    {"t.thermo.source", Outcome::NoReference},  // thermal capacitances, resistance, source
    // Two beam sliders on strings of five beams, one starting on the last beam (its abscissa
    // starts at 0 as MBDyn's, and the derivatives phase walks it back one beam per residual),
    // without and with friction.
    {"t.joints.slider.sliders", Outcome::Agree, true},
    {"t.joints.slider.sliders_friction", Outcome::Agree, true},
};

}  // namespace

TEST(CorpusSample, ReadsRunsAndAgreesWithMBDyn) {
  if (!fs::exists(kCorpus / "index.json")) GTEST_SKIP() << "no " << kCorpus;
  std::vector<Deck> decks;
  for (const Deck& d : read_index(kCorpus))
    if (std::any_of(std::begin(kSample), std::end(kSample),
                    [&](const SampleDeck& s) { return d.id == s.id; }))
      decks.push_back(d);
  ASSERT_EQ(decks.size(), std::size(kSample));
  Options o;
  o.program = MBL_BINARY;
  o.corpus = kCorpus;
  o.work = mbl::test::fresh_temp_dir("utest_corpus_sample");
  o.run = true;
  const std::vector<Result> results = process(decks, o);
  for (std::size_t i = 0; i < decks.size(); ++i) {
    const auto* s = std::find_if(std::begin(kSample), std::end(kSample),
                                 [&](const SampleDeck& x) { return decks[i].id == x.id; });
    EXPECT_NE(results[i].check, Outcome::InputError) << decks[i].id << ": " << results[i].message;
    EXPECT_STREQ(outcome_name(results[i].outcome), outcome_name(s->expected))
        << decks[i].id << ": " << results[i].message;
    if (s->expected == Outcome::Agree) EXPECT_EQ(results[i].run_records, decks[i].records) << decks[i].id;
    if (s->velocities)
      EXPECT_TRUE(results[i].velocities_agree)
          << decks[i].id << ": " << results[i].velocity_worst << " = " << results[i].velocity_error;
  }
}

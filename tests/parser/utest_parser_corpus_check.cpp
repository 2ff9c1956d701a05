// `--check` on a fixed sample of real decks from ../shared/corpus that MBDyn reads (issue 12):
// each uses a form fixed for it (integer ^ integer is real, c81 data between blocks, cards on
// hydraulic or electric nodes, `reference` prefixes of template vectors, legacy forces, the
// inverse-dynamics forms, model::current in a rod's law, ...). None may give an input error;
// kinds MBDyn has and we do not are reported as not implemented.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/support/run_program.hpp"

namespace {

struct CorpusDeck {
  const char* id;
  const char* main;  ///< path of the main file under <id>/deck
};

const CorpusDeck kSample[] = {
    {"alx.AERO_MBDyn.aero_NLV.rotor_i2b_Nb4_nswfr", "rotor_i2b_Nb4_nswfr.mbd"},
    {"alx.AERO_MBDyn.harmonic_f.rotor_aero_ib_Nb4", "rotor_aero_ib_Nb4.mbd"},
    {"bld.tests.puma_rotor.puma-4blade-elastic", "puma-4blade-elastic"},
    {"t.beam.beig", "beig"},
    {"t.beam.beig_legacy", "beig_legacy"},
    {"t.elec.motor", "motor"},
    {"t.genel.dryden-gust.dryden-gust", "dryden-gust"},
    {"t.hydr.fullpipe.fullpipe", "fullpipe"},
    {"t.invdyn.planar_3link", "planar_3link.mbd"},
    {"t.joints.modal.beam.beam_2", "beam_2.mbd"},
    {"t.joints.plane.planefriction", "planefriction"},
    {"t.joints.screw.screw_test_1", "screw_test_1.mbd"},
};

class CorpusCheck : public ::testing::TestWithParam<CorpusDeck> {};

TEST_P(CorpusCheck, ReadsWithoutInputError) {
  const std::filesystem::path corpus = std::filesystem::path(MBL_SHARED_DIR) / "corpus";
  if (!std::filesystem::exists(corpus)) GTEST_SKIP() << "no " << corpus;
  const std::filesystem::path main = corpus / GetParam().id / "deck" / GetParam().main;
  ASSERT_TRUE(std::filesystem::exists(main)) << main;
  const std::filesystem::path dir = mbl::test::fresh_temp_dir("corpus_check");
  // Run in a folder of our own, never in ../shared (files a deck writes to the working directory
  // go there); includes and data files are found from the deck's folder.
  const int rc = mbl::test::run("cd " + mbl::test::quoted(dir) + " && " + mbl::test::quoted(MBL_BINARY) +
                                    " --check " + mbl::test::quoted(std::filesystem::absolute(main)),
                                dir / "log");
  const std::string log = mbl::test::read_file(dir / "log");
  EXPECT_EQ(log.find("error:"), std::string::npos) << log;
  EXPECT_NE(rc, 2) << log;  // exit 2 is an input error
}

INSTANTIATE_TEST_SUITE_P(Sample, CorpusCheck, ::testing::ValuesIn(kSample),
                         [](const auto& info) { return mbl::test::test_identifier(info.param.id); });

}  // namespace

// The modal beam decks of the corpus (MBDyn's tests/joints/modal/beam: beam_2, two modal joints
// hinged together, and beam_2_clamped, the first one clamped): a follower force on the tip of
// two 5-mode modal beams, solved by `nonlinear solver: matrix free, gmres` with one Newton
// iteration per step (no solution tolerance: MBDyn's gmres.cc stops on the solution test after
// the first update). The steps are numerically unstable in MBDyn as in ours (MBDyn's residual
// reaches 1e37, its nodes 1e11 m): from step 12 on, a last-bit change of the input moves the
// solution as much as ours differs from MBDyn's, so only the steps before can agree.
//   - Steps 1-11: our residual errors are MBDyn's (the .out's ResErr) to 2e-9.
//   - The record at step 13 (MBDyn's strided .mov, record 1): positions and velocities.
//   - One unit in the last place of the force's amplitude leaves steps 1-11 alone (1e-12) and
//     moves step 12's residual by more than 1e-6: the rest of the run is round-off, which is
//     why the later records (and the step where a run breaks down) cannot follow MBDyn's.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_program.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path kCorpus = fs::path(MBL_SHARED_DIR) / "corpus";

/// ResErr (fifth field) of the "Step" lines of a .out text, by step number.
std::vector<double> residual_errors(const std::string& out) {
  std::vector<double> v;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    std::istringstream f(line);
    std::string word;
    long step = 0;
    double t = 0.0, dt = 0.0, res = 0.0;
    int iterations = 0;
    if (!(f >> word) || word != "Step" || !(f >> step >> t >> dt >> iterations >> res)) continue;
    if (step >= 0 && std::size_t(step) >= v.size()) v.resize(std::size_t(step) + 1, NAN);
    if (step >= 0) v[std::size_t(step)] = res;
  }
  return v;
}

std::string gunzip(const fs::path& gz, const fs::path& dir) {
  const fs::path plain = dir / gz.stem();
  mbl::test::run("gzip -dc " + mbl::test::quoted(gz), plain);
  return mbl::test::read_file(plain);
}

/// Runs `deck_text` as <dir>/<name>.mbd next to a link to the case's beam.fem; returns the
/// output prefix.
fs::path run_in(const fs::path& dir, const std::string& name, const std::string& deck_text, const fs::path& fem) {
  std::ofstream(dir / (name + ".mbd")) << deck_text;
  std::error_code ec;
  fs::create_symlink(fem, dir / "beam.fem", ec);
  mbl::test::run("cd " + mbl::test::quoted(dir) + " && " + mbl::test::quoted(MBL_BINARY) + " -f " + name +
                     ".mbd -o " + name,
                 dir / (name + ".log"));
  return dir / name;
}

class ModalBeamDeck : public ::testing::TestWithParam<const char*> {};

TEST_P(ModalBeamDeck, AgreesWithMbdynUntilTheStepsTurnChaotic) {
  const fs::path case_dir = kCorpus / GetParam();
  const fs::path deck = case_dir / "deck" / (std::string(GetParam()).substr(std::string(GetParam()).rfind('.') + 1) + ".mbd");
  if (!fs::exists(deck)) GTEST_SKIP() << "no " << deck;
  const fs::path dir = mbl::test::fresh_temp_dir("utest_corpus_modal_" + mbl::test::test_identifier(GetParam()));
  const std::string text = mbl::test::read_file(deck);
  const fs::path fem = case_dir / "deck" / "beam.fem";
  const fs::path ours = run_in(dir, "run", text, fem);

  // Residual errors of steps 1-11 against MBDyn's .out.
  const std::vector<double> res = residual_errors(mbl::test::read_file(ours.string() + ".out"));
  const std::vector<double> ref = residual_errors(gunzip(case_dir / "mbdyn" / "ref.out.gz", dir));
  ASSERT_GT(res.size(), 14u);
  ASSERT_GT(ref.size(), 14u);
  for (std::size_t k = 1; k <= 11; ++k) EXPECT_NEAR(res[k], ref[k], 2e-9 * ref[k]) << "step " << k;

  // MBDyn's .mov is strided by 13: its record 1 is step 13, as ours.
  std::ofstream(dir / "ref.mov") << gunzip(case_dir / "mbdyn" / "ref.mov.gz", dir);
  for (unsigned label : {2u, 3u, 4u, 5u}) {
    const auto theirs = mbl::test::records(dir / "ref.mov", label);
    const auto mine = mbl::test::records(ours.string() + ".mov", label);
    ASSERT_GE(theirs.size(), 2u);
    ASSERT_GE(mine.size(), 14u);
    const std::vector<double>& a = theirs[1];
    const std::vector<double>& b = mine[13];
    // Positions within 2e-5 m (the beams are 1 m long); velocities and angular velocities
    // within 2e-4 of their largest component in MBDyn's record (29 m/s, 34 rad/s).
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(b[c], a[c], 2e-5) << "node " << label << " X" << c;
    for (int c = 6; c < 12; ++c) EXPECT_NEAR(b[c], a[c], 2e-4 * 35.0) << "node " << label << " field " << c;
  }

  // One unit in the last place of the force's amplitude (50 -> 50 + 7.1e-15).
  std::string perturbed = text;
  const auto at = perturbed.find("50./2.,");
  ASSERT_NE(at, std::string::npos);
  perturbed.replace(at, 7, "50.00000000000001/2.,");
  const std::vector<double> res_p =
      residual_errors(mbl::test::read_file(run_in(dir, "perturbed", perturbed, fem).string() + ".out"));
  ASSERT_GT(res_p.size(), 12u);
  for (std::size_t k = 1; k <= 11; ++k) EXPECT_NEAR(res_p[k], res[k], 1e-12 * res[k]) << "step " << k;
  EXPECT_GT(std::abs(res_p[12] - res[12]), 1e-6 * res[12]);
}

INSTANTIATE_TEST_SUITE_P(Corpus, ModalBeamDeck,
                         ::testing::Values("t.joints.modal.beam.beam_2", "t.joints.modal.beam.beam_2_clamped"),
                         [](const auto& info) { return mbl::test::test_identifier(info.param); });

}  // namespace

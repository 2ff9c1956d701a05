// Modal joints of the corpus (../shared/corpus, decks using `joint: modal` that MBDyn completes)
// against MBDyn's strided .mov (every `stride`-th output record kept, from the first).
#include <gtest/gtest.h>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_program.hpp"

namespace fs = std::filesystem;
using mbl::test::fresh_temp_dir;
using mbl::test::quoted;
using mbl::test::read_file;
using mbl::test::run;

namespace {

/// The node positions of a .mov text, one vector of (label, x, y, z) rows per output record.
std::vector<std::vector<std::vector<double>>> mov_records(const std::string& text, std::size_t nodes) {
  std::vector<std::vector<std::vector<double>>> recs;
  std::istringstream in(text);
  std::string line;
  std::vector<std::vector<double>> rec;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::vector<double> row(4);
    for (double& v : row) ls >> v;
    rec.push_back(row);
    if (rec.size() == nodes) {
      recs.push_back(rec);
      rec.clear();
    }
  }
  return recs;
}

}  // namespace

// Two flexible beams on modal nodes spinning about a revolute hinge and exchanging their angular
// momentum through a second hinge. The first 27 s agree to 5e-5 of the model size; later the
// exchange amplifies the Newton tolerance of the runs (our own run moves by 2.6e-5 of the model
// size between tolerances 1e-6 and 1e-12) and the difference grows to 4e-4 at 46 s. With
// MBDyn's linearisation of the modal joint our Newton stops, as MBDyn's, at residuals near the
// deck's 1e-6 (step 1: 2 iterations, 7.2031e-7, MBDyn 7.20323e-7), though with one iteration
// fewer than MBDyn's 3-4 on most later steps.
TEST(ModalCorpus, TwoSpinningBeamsAgreeWithMBDyn) {
  const fs::path folder = fs::path(MBL_SHARED_DIR) / "corpus" / "t.joints.modal.two-beams.modal";
  const std::size_t nodes = 7, stride = 3;
  const fs::path dir = fresh_temp_dir("corpus_two_beams");
  // Run from a scratch folder: the deck echoes its FEM data to the working directory.
  ASSERT_EQ(run("cd " + quoted(dir) + " && " + quoted(MBL_BINARY) + " -s -f " + quoted(folder / "deck" / "modal") +
                    " -o run",
                dir / "run.log"),
            0)
      << read_file(dir / "run.log");
  EXPECT_TRUE(fs::exists(dir / "echo1.fem"));
  ASSERT_EQ(run("(zcat " + quoted(folder / "mbdyn" / "ref.mov.gz") + " > " + quoted(dir / "ref.mov") + ")", dir / "zcat.log"),
            0);
  const auto ours = mov_records(read_file(dir / "run.mov"), nodes);
  const auto ref = mov_records(read_file(dir / "ref.mov"), nodes);
  ASSERT_GE(ours.size(), (ref.size() - 1) * stride);
  const double dt = 0.05, t_end = 27.0;
  Eigen::Vector3d lo = Eigen::Vector3d::Constant(1e300), hi = -lo;
  double worst = 0.0;
  std::size_t compared = 0;
  for (std::size_t k = 0; k < ref.size() && k * stride * dt <= t_end; ++k, ++compared)
    for (std::size_t n = 0; n < nodes; ++n) {
      ASSERT_EQ(ours[k * stride][n][0], ref[k][n][0]);
      for (int c = 0; c < 3; ++c) {
        lo[c] = std::min(lo[c], ref[k][n][1 + c]);
        hi[c] = std::max(hi[c], ref[k][n][1 + c]);
        worst = std::max(worst, std::abs(ours[k * stride][n][1 + c] - ref[k][n][1 + c]));
      }
    }
  EXPECT_GT(compared, 150u);
  EXPECT_LT(worst / (hi - lo).norm(), 1e-4) << "worst position difference " << worst;
  if (!HasFailure()) fs::remove_all(dir);
}

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

/// The NIter column of the "Step" lines of a .out text, one entry per step.
std::vector<int> step_iterations(const std::string& text) {
  std::vector<int> iterations;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.starts_with("Step ")) continue;
    std::istringstream ls(line.substr(5));
    double step = 0.0, t = 0.0, dt = 0.0;
    int n = -1;
    ls >> step >> t >> dt >> n;
    iterations.push_back(n);
  }
  return iterations;
}

}  // namespace

// Two flexible beams on modal nodes spinning about a revolute hinge and exchanging their angular
// momentum through a second hinge. The exchange amplifies the Newton tolerance of a run (ours
// moves by 8.6e-4 of the model size at 46 s between tolerances 1e-6 and 1e-10), so agreement
// needs MBDyn's Newton iterates: the hinges' Jacobians at the nodes' reference orientations, and
// the first residual of each step with the modal nodes' accelerations of the previous step
// (MBDyn's modal node refreshes them in Update(), which the prediction does not call). Then
// every step takes MBDyn's number of iterations and the whole run agrees to the printed digits.
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
  ASSERT_EQ(run("(zcat " + quoted(folder / "mbdyn" / "ref.out.gz") + " > " + quoted(dir / "ref.out") + ")", dir / "zcat.log"),
            0);
  const std::vector<int> iterations = step_iterations(read_file(dir / "run.out"));
  const std::vector<int> mbdyn_iterations = step_iterations(read_file(dir / "ref.out"));
  ASSERT_EQ(iterations.size(), mbdyn_iterations.size());
  EXPECT_EQ(iterations, mbdyn_iterations);
  const auto ours = mov_records(read_file(dir / "run.mov"), nodes);
  const auto ref = mov_records(read_file(dir / "ref.mov"), nodes);
  ASSERT_GE(ours.size(), (ref.size() - 1) * stride);
  Eigen::Vector3d lo = Eigen::Vector3d::Constant(1e300), hi = -lo;
  double worst = 0.0;
  std::size_t compared = 0;
  for (std::size_t k = 0; k < ref.size(); ++k, ++compared)
    for (std::size_t n = 0; n < nodes; ++n) {
      ASSERT_EQ(ours[k * stride][n][0], ref[k][n][0]);
      for (int c = 0; c < 3; ++c) {
        lo[c] = std::min(lo[c], ref[k][n][1 + c]);
        hi[c] = std::max(hi[c], ref[k][n][1 + c]);
        worst = std::max(worst, std::abs(ours[k * stride][n][1 + c] - ref[k][n][1 + c]));
      }
    }
  EXPECT_GT(compared, 330u);
  EXPECT_LT(worst / (hi - lo).norm(), 1e-6) << "worst position difference " << worst;
  if (!HasFailure()) fs::remove_all(dir);
}

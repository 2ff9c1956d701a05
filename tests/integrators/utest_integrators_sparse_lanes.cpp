// The parallel assembly of SparseMatrix (lanes): the same sums as the serial assembly, bit for bit,
// whatever slots the segments share; a lane that leaves the trace is reported, not guessed.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "integrators/sparse_matrix.hpp"

using mbl::integrators::SparseMatrix;

namespace {

/// One add of an assembly: a block (3x3, 6x3 or a single entry) at (row, col), with values whose
/// sums depend on the order they are added in.
struct Add {
  int row, col;
  Eigen::MatrixXd block;
};

/// Overlapping blocks along a band (neighbours share slots, as elements sharing nodes do), some
/// with zeros outside the pattern of the first assembly (skew-like blocks).
std::vector<Add> assembly(std::mt19937& rng, int n) {
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<Add> adds;
  for (int k = 0; k + 6 <= n; k += 2) {
    Eigen::MatrixXd b(k % 4 == 0 ? 6 : 3, 3);
    for (int j = 0; j < b.cols(); ++j)
      for (int i = 0; i < b.rows(); ++i) b(i, j) = (i == j + 1) ? 0.0 : value(rng) * 1e3 + value(rng) * 1e-9;
    adds.push_back({k, k + 1, b});
    adds.push_back({k + 3, k, Eigen::MatrixXd::Constant(1, 1, value(rng))});
  }
  return adds;
}

void add_serial(SparseMatrix& J, const std::vector<Add>& adds) {
  for (const Add& a : adds) {
    if (a.block.size() == 1) J.add(a.row, a.col, a.block(0, 0));
    else J.add_block(a.row, a.col, a.block);
  }
}

void add_lane(SparseMatrix::Lane& lane, const std::vector<Add>& adds, std::size_t first, std::size_t last) {
  for (std::size_t i = first; i < last; ++i) {
    if (adds[i].block.size() == 1) lane.add(adds[i].row, adds[i].col, adds[i].block(0, 0));
    else lane.add_block(adds[i].row, adds[i].col, adds[i].block);
  }
}

/// The values through lanes of `cuts` (indices into adds), after one serial assembly that
/// records the trace positions; false when finish_lanes() reports a lane off the trace.
bool assemble_in_lanes(SparseMatrix& J, const std::vector<Add>& recorded, const std::vector<Add>& adds,
                       const std::vector<std::size_t>& cuts) {
  J.zero();
  std::vector<std::size_t> bounds;
  for (std::size_t i = 0, c = 0; i <= recorded.size(); ++i) {
    if (c < cuts.size() && cuts[c] == i) {
      bounds.push_back(J.trace_cursor());
      ++c;
    }
    if (i < recorded.size()) add_serial(J, {recorded[i]});
  }
  J.zero();
  std::vector<SparseMatrix::Lane> lanes = J.lanes(bounds);
  EXPECT_EQ(lanes.size(), cuts.size() - 1);
  std::vector<std::thread> threads;
  for (std::size_t k = 0; k < lanes.size(); ++k)
    threads.emplace_back([&, k] { add_lane(lanes[k], adds, cuts[k], cuts[k + 1]); });
  for (auto& t : threads) t.join();
  return J.finish_lanes(lanes);
}

}  // namespace

TEST(SparseLanes, SameBitsAsSerial) {
  const int n = 400;
  std::mt19937 rng(17);
  const std::vector<Add> first = assembly(rng, n), second = assembly(rng, n);
  SparseMatrix serial(n), parallel(n);
  // Pattern from the first assembly, then the second one's values.
  for (SparseMatrix* J : {&serial, &parallel}) {
    J->zero();
    add_serial(*J, first);
  }
  serial.zero();
  add_serial(serial, second);
  const std::size_t m = second.size();
  ASSERT_TRUE(assemble_in_lanes(parallel, first, second, {0, m / 3, m / 3 + 1, 2 * m / 3, m}));
  ASSERT_EQ(serial.values().size(), parallel.values().size());
  EXPECT_EQ(std::memcmp(serial.values().data(), parallel.values().data(), serial.values().size() * sizeof(double)), 0);
  // Adjacent segments share slots: some terms went aside and still landed in the serial order.
  EXPECT_EQ(serial.to_dense(), parallel.to_dense());
}

TEST(SparseLanes, LeavingTheTraceIsReported) {
  const int n = 60;
  std::mt19937 rng(3);
  std::vector<Add> adds = assembly(rng, n);
  SparseMatrix J(n);
  J.zero();
  add_serial(J, adds);
  std::vector<Add> changed = adds;
  changed[5].row += 1;  // a block somewhere else: the pattern may not hold it
  const std::size_t m = adds.size();
  EXPECT_FALSE(assemble_in_lanes(J, adds, changed, {0, m / 2, m}));
  // A zero left out of the pattern that is not zero now.
  std::vector<Add> filled = adds;
  filled[0].block(1, 0) = 1.0;
  EXPECT_FALSE(assemble_in_lanes(J, adds, filled, {0, m / 2, m}));
  // The same adds again go through.
  EXPECT_TRUE(assemble_in_lanes(J, adds, adds, {0, m / 2, m}));
}

TEST(SparseLanes, NoLanesWithoutATraceAtTheCursor) {
  SparseMatrix J(10);
  EXPECT_TRUE(J.lanes({0, 0}).empty());  // no zero() yet: nothing traced
  J.zero();
  J.add(1, 1, 1.0);
  J.zero();
  J.add(1, 1, 1.0);
  EXPECT_TRUE(J.lanes({0, 1}).empty());  // the cursor is past the first bound
}

TEST(SparseTrace, ResizeClearsTheHoleMasksAndRetraces) {
  // A block column whose middle row is a zero outside the pattern: traced as a run with a hole.
  Eigen::Matrix3d b;
  b << 1, 2, 3, 0, 4, 0, 5, 0, 6;
  auto assemble = [&](SparseMatrix& J) {
    J.zero();
    J.add_block(0, 0, b);
  };
  SparseMatrix J(6);
  for (int k = 0; k < 3; ++k) assemble(J);  // the pattern, then its trace, then the trace replayed
  EXPECT_GE(J.hole_mask_count(), 1u);
  J.resize(6);
  EXPECT_EQ(J.hole_mask_count(), 0u);
  for (int k = 0; k < 3; ++k) assemble(J);
  EXPECT_GE(J.hole_mask_count(), 1u);
  EXPECT_EQ(J.to_dense().topLeftCorner(3, 3), b);
  EXPECT_EQ(J.nonzeros(), 6u);
}

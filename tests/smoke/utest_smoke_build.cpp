#include <gtest/gtest.h>

#include "integrators/sparse_matrix.hpp"

// The sparse matrix keeps its pattern across assemblies (so KLU can keep its analysis).
TEST(SparseMatrix, PatternIsKeptAcrossZeroing) {
  mbl::integrators::SparseMatrix J(3);
  J.add(0, 0, 1.0);
  J.add(2, 1, 2.0);
  J.add(2, 1, 3.0);
  EXPECT_DOUBLE_EQ(J.coeff(2, 1), 5.0);
  const auto v0 = J.pattern_version();
  J.zero();
  auto v1 = J.pattern_version();
  EXPECT_NE(v0, v1);  // first compress
  J.add(2, 1, 1.0);
  J.zero();
  EXPECT_EQ(J.pattern_version(), v1);
  EXPECT_EQ(J.nonzeros(), 2u);
}

// KluRefactorPlan: the refactorisation recorded from a KLU factorisation gives klu_refactor's
// factors bit for bit (every row scaling, BTF blocks with singletons and off-diagonal entries),
// and reports a zero pivot.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "integrators/klu_refactor.hpp"
#include "integrators/linear_solver.hpp"

namespace mbl::integrators {
namespace {

/// Compressed columns of a block upper triangular pattern: square diagonal blocks of the given
/// sizes (sparse, with a dominant-free random diagonal so KLU pivots off the diagonal too) and
/// sparse entries above them.
struct Csc {
  int n = 0;
  std::vector<int> ap, ai;
  std::vector<double> ax;
};

Csc random_btf(const std::vector<int>& block_sizes, std::mt19937& rng) {
  std::vector<int> block_of;
  for (int b = 0; b < int(block_sizes.size()); ++b)
    for (int i = 0; i < block_sizes[b]; ++i) block_of.push_back(b);
  Csc m;
  m.n = int(block_of.size());
  std::uniform_real_distribution<double> u(-1.0, 1.0), p(0.0, 1.0);
  m.ap.push_back(0);
  for (int c = 0; c < m.n; ++c) {
    for (int r = 0; r < m.n; ++r) {
      const bool same = block_of[r] == block_of[c];
      if (r == c || (same && p(rng) < 0.3) || (block_of[r] < block_of[c] && p(rng) < 0.1)) {
        m.ai.push_back(r);
        m.ax.push_back(u(rng) * (r == c ? 0.2 : 1.0) * std::pow(10.0, 3.0 * u(rng)));
      }
    }
    m.ap.push_back(int(m.ai.size()));
  }
  return m;
}

struct KluFactors {
  klu_common common{};
  klu_symbolic* symbolic = nullptr;
  klu_numeric* numeric = nullptr;
  KluFactors(Csc& m, int scale) {
    klu_defaults(&common);
    common.scale = scale;
    common.halt_if_singular = 1;
    symbolic = klu_analyze(m.n, m.ap.data(), m.ai.data(), &common);
    numeric = klu_factor(m.ap.data(), m.ai.data(), m.ax.data(), symbolic, &common);
  }
  ~KluFactors() {
    klu_free_numeric(&numeric, &common);
    klu_free_symbolic(&symbolic, &common);
  }
  std::vector<double> solve(std::vector<double> b) {
    klu_solve(symbolic, numeric, int(b.size()), 1, b.data(), &common);
    return b;
  }
};

bool same_bits(const double* a, const double* b, int n) { return std::memcmp(a, b, sizeof(double) * n) == 0; }

TEST(KluRefactorPlan, FactorsAreKlusBitForBit) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int scale : {-1, 0, 1, 2}) {
    Csc m = random_btf({1, 9, 1, 1, 25, 3, 1, 14}, rng);
    KluFactors reference(m, scale), planned(m, scale);
    ASSERT_NE(planned.numeric, nullptr);
    ASSERT_GT(reference.symbolic->nblocks, 4) << "the test wants singletons and several blocks";
    ASSERT_GT(reference.symbolic->nzoff, 0);
    KluRefactorPlan plan;
    plan.build(m.n, m.ap.data(), m.ai.data(), *planned.symbolic, *planned.numeric, scale);
    for (int rep = 0; rep < 4; ++rep) {
      for (double& v : m.ax) v *= 1.0 + 0.2 * u(rng);  // same pattern, new values
      ASSERT_TRUE(klu_refactor(m.ap.data(), m.ai.data(), m.ax.data(), reference.symbolic,
                               reference.numeric, &reference.common));
      ASSERT_TRUE(plan.refactor(m.ai.data(), m.ax.data(), *planned.numeric));
      const klu_numeric &a = *reference.numeric, &b = *planned.numeric;
      EXPECT_TRUE(same_bits(static_cast<double*>(a.Udiag), static_cast<double*>(b.Udiag), m.n));
      EXPECT_TRUE(same_bits(static_cast<double*>(a.Offx), static_cast<double*>(b.Offx),
                            reference.symbolic->nzoff));
      if (scale > 0) EXPECT_TRUE(same_bits(a.Rs, b.Rs, m.n)) << "scale " << scale;
      std::vector<double> rhs(m.n);
      for (double& v : rhs) v = u(rng);
      const std::vector<double> xa = reference.solve(rhs), xb = planned.solve(rhs);
      EXPECT_TRUE(same_bits(xa.data(), xb.data(), m.n)) << "scale " << scale << " rep " << rep;
    }
  }
}

TEST(KluRefactorPlan, ZeroPivotIsReported) {
  std::mt19937 rng(11);
  Csc m = random_btf({20}, rng);
  KluFactors f(m, 2);
  KluRefactorPlan plan;
  plan.build(m.n, m.ap.data(), m.ai.data(), *f.symbolic, *f.numeric, 2);
  std::vector<double> zero_column = m.ax;
  for (int p = m.ap[5]; p < m.ap[6]; ++p) zero_column[p] = 0.0;
  EXPECT_FALSE(plan.refactor(m.ai.data(), zero_column.data(), *f.numeric));
  // The work column is clean again: the original values refactor to klu_factor's factors.
  EXPECT_TRUE(plan.refactor(m.ai.data(), m.ax.data(), *f.numeric));
  KluFactors fresh(m, 2);
  std::vector<double> rhs(m.n, 1.0);
  const std::vector<double> xa = fresh.solve(rhs), xb = f.solve(rhs);
  EXPECT_TRUE(same_bits(xa.data(), xb.data(), m.n));
}

TEST(KluRefactorPlan, SolverFallsBackToAFreshFactorisation) {
  // A pivot order that was fine for the first values and fails for the next: the solver
  // refactorises from scratch and still solves exactly.
  SparseMatrix J(2);
  J.add(0, 0, 1.0);
  J.add(0, 1, 1.0);
  J.add(1, 0, 1.0);
  J.add(1, 1, 2.0);
  KluSolver klu;
  ASSERT_TRUE(klu.factor(J).ok);
  J.zero();
  J.add(0, 0, 1.0);
  J.add(0, 1, 1.0);
  J.add(1, 0, 1.0);
  J.add(1, 1, 1.0);
  EXPECT_FALSE(klu.factor(J).ok);  // singular
  J.zero();
  J.add(0, 0, 0.0);
  J.add(0, 1, 1.0);
  J.add(1, 0, 1.0);
  J.add(1, 1, 1.0);
  ASSERT_TRUE(klu.factor(J).ok);
  Eigen::VectorXd b(2);
  b << 3.0, 5.0;
  klu.solve(b);
  EXPECT_DOUBLE_EQ(b[0], 2.0);
  EXPECT_DOUBLE_EQ(b[1], 3.0);
}

}  // namespace
}  // namespace mbl::integrators

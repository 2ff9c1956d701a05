// Linear solvers (KLU vs dense, symbolic reuse, singularity), Newton options, step controller.
#include <algorithm>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "integrators/linear_solver.hpp"
#include "integrators/newton.hpp"
#include "integrators/step_controller.hpp"
#include "test_problems.hpp"

namespace mbl::integrators {
namespace {

SparseMatrix random_sparse(int n, std::mt19937& rng, double density) {
  std::uniform_real_distribution<double> u(-1.0, 1.0), p(0.0, 1.0);
  SparseMatrix J(n);
  for (int i = 0; i < n; ++i) {
    J.add(i, i, 4.0 + u(rng));  // diagonally dominant: well conditioned
    for (int j = 0; j < n; ++j)
      if (j != i && p(rng) < density) J.add(i, j, 0.5 * u(rng));
  }
  return J;
}

TEST(IntegratorLinearSolver, KluMatchesDenseAndReusesSymbolic) {
  std::mt19937 rng(42);
  const int n = 60;
  SparseMatrix J = random_sparse(n, rng, 0.05);
  KluSolver klu;
  DenseSolver dense;
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int rep = 0; rep < 3; ++rep) {
    // New values, same pattern.
    const auto vals = J.values();
    J.zero();
    for (int c = 0; c < n; ++c)
      for (int k = J.col_ptr()[c]; k < J.col_ptr()[c + 1]; ++k)
        J.add(J.row_idx()[k], c, (J.row_idx()[k] == c ? 4.0 : 0.5) + 0.3 * u(rng));
    ASSERT_TRUE(klu.factor(J).ok);
    ASSERT_TRUE(dense.factor(J).ok);
    Eigen::VectorXd b = Eigen::VectorXd::Random(n), x1 = b, x2 = b;
    klu.solve(x1);
    dense.solve(x2);
    EXPECT_LT((x1 - x2).norm(), 1e-12 * x2.norm());
    EXPECT_LT((J.multiply(x1) - b).norm(), 1e-12 * b.norm());
  }
  EXPECT_EQ(klu.symbolic_analyses(), 1u);  // pattern unchanged
  EXPECT_EQ(klu.numeric_factorizations(), 3u);
  EXPECT_EQ(klu.solves(), 3u);
  J.add(0, n - 1, 1e-3);  // outside the pattern: new analysis
  if (J.coeff(0, n - 1) == 1e-3) {
    ASSERT_TRUE(klu.factor(J).ok);
    EXPECT_EQ(klu.symbolic_analyses(), 2u);
  }
}

TEST(IntegratorLinearSolver, SingularMatrixReportsUnknown) {
  SparseMatrix J(3);
  J.add(0, 0, 1.0);
  J.add(1, 1, 2.0);
  J.add(2, 0, 1.0);
  J.add(0, 2, 0.0 + 1e-300 * 0);  // structurally present but zero column 2
  J.add(1, 0, 1.0);
  for (LinearSolver* s : std::initializer_list<LinearSolver*>{new KluSolver(), new DenseSolver(),
                                                             new DenseSolver(DenseSolver::Pivoting::Full)}) {
    std::unique_ptr<LinearSolver> owner(s);
    const FactorStatus st = s->factor(J);
    EXPECT_FALSE(st.ok) << s->name();
    EXPECT_NE(st.message.find("singular"), std::string::npos);
    EXPECT_GE(st.singular_index, 0) << s->name();
  }
}

TEST(IntegratorLinearSolver, FactoryMapsMbdynNames) {
  auto c = make_linear_solver({.name = "umfpack", .threads = 2});
  EXPECT_EQ(c.solver->name(), "klu");
  EXPECT_NE(c.message.find("umfpack mapped to klu"), std::string::npos);
  EXPECT_EQ(make_linear_solver({.name = "klu"}).message, "");
  EXPECT_EQ(make_linear_solver({.name = "lapack"}).solver->name(), "dense");
  EXPECT_THROW(make_linear_solver({.name = "mumps"}), std::invalid_argument);
  EXPECT_THROW(make_linear_solver({.name = "klu", .pivot_factor = 2.0}), std::invalid_argument);
}

// f(x) = [x0^2 + x1 - 3, x0 - x1^3 + 1] written as an algebraic problem (y += d).
class Algebraic : public testing::PlainProblem {
 public:
  int size() const override { return 2; }
  DofOrder dof_order(int) const override { return DofOrder::Algebraic; }
  void residual(double, double, Vector& r, Vector* abs_r) override {
    r[0] = -(y_[0] * y_[0] + y_[1] - 3.0 + shift);
    r[1] = -(y_[0] - std::pow(y_[1], 3) + 1.0);
    if (abs_r) {
      (*abs_r)[0] = y_[0] * y_[0] + std::abs(y_[1]) + 3.0;
      (*abs_r)[1] = 1e6 * (std::abs(y_[0]) + std::abs(std::pow(y_[1], 3)) + 1.0);
    }
    ++residuals;
  }
  void jacobian(double, double, SparseMatrix& J) override {
    J.add(0, 0, 2 * y_[0]);
    J.add(0, 1, singular ? 2 * y_[0] : 1.0);
    J.add(1, 0, singular ? 1.0 : 1.0);
    J.add(1, 1, singular ? 1.0 : -3 * y_[1] * y_[1]);
    if (singular) J.add(0, 1, 0.0);
  }
  int equation_dimension(int i) const override { return i; }
  double shift = 0.0;
  bool singular = false;
  int residuals = 0;
};

TEST(IntegratorNewton, QuadraticConvergenceAndCounts) {
  Algebraic p;
  NewtonOptions o;
  o.residual_tolerance = 1e-12;
  NewtonSolver nw(o, std::make_unique<KluSolver>());
  Vector y(2), yp = Vector::Zero(2);
  y << 1.5, 1.5;
  // Record the error sequence with max_iterations = k.
  std::vector<double> errs;
  for (int k = 0; k <= 4; ++k) {
    Vector yk = y, ypk = yp;
    nw.options().max_iterations = k;
    p.update(0, yk, ypk);
    NewtonResult r = nw.solve(p, 0.0, 0.1, 0.1, yk, ypk);
    errs.push_back(r.residual_error);
  }
  for (int k = 1; k + 1 < 4; ++k) EXPECT_LT(errs[k + 1], 10.0 * errs[k] * errs[k]) << k;
  nw.options().max_iterations = 20;
  p.update(0, y, yp);
  const NewtonResult r = nw.solve(p, 0.0, 0.1, 0.1, y, yp);
  ASSERT_TRUE(r.converged);
  // Root of x0^2 + x1 = 3, x0 = x1^3 - 1.
  EXPECT_NEAR(y[0] * y[0] + y[1], 3.0, 1e-12);
  EXPECT_NEAR(y[0] - std::pow(y[1], 3), -1.0, 1e-12);
  EXPECT_NEAR(yp[0], 0.1 * (y[0] - 1.5), 1e-12);  // algebraic: y' += dCoef_alg * d
  EXPECT_EQ(r.iterations, static_cast<int>(nw.linear_solver().solves()) - 10);  // 0+1+2+3+4 before
}

TEST(IntegratorNewton, ModifiedNewtonRefreshesEveryN) {
  Algebraic p;
  NewtonOptions o;
  o.residual_tolerance = 1e-12;
  o.jacobian_every = 3;
  NewtonSolver nw(o, std::make_unique<KluSolver>());
  Vector y(2), yp = Vector::Zero(2);
  y << 1.2, 1.8;
  p.update(0, y, yp);
  const NewtonResult r = nw.solve(p, 0.0, 0.1, 0.1, y, yp);
  ASSERT_TRUE(r.converged);
  EXPECT_GT(r.iterations, 3);
  EXPECT_EQ(nw.jacobian_assemblies(), static_cast<std::uint64_t>((r.iterations + 2) / 3));
  // Without `keep jacobian matrix` the next point starts with a fresh Jacobian.
  const auto before = nw.jacobian_assemblies();
  y << 1.2, 1.8;
  p.update(0, y, yp);
  nw.solve(p, 0.0, 0.1, 0.1, y, yp);
  EXPECT_GT(nw.jacobian_assemblies(), before);
  nw.options().keep_jacobian = true;
  const auto before2 = nw.jacobian_assemblies();
  p.update(0, y, yp);  // converged point: no iteration, no assembly
  nw.solve(p, 0.0, 0.1, 0.1, y, yp);
  EXPECT_EQ(nw.jacobian_assemblies(), before2);
}

// y' = -y + 1 as differential: f = y' + y - 1.
class Decay : public testing::PlainProblem {
 public:
  int size() const override { return 1; }
  DofOrder dof_order(int) const override { return DofOrder::Differential; }
  void residual(double, double, Vector& r, Vector*) override {
    r[0] = -(yp_[0] + y_[0] - 1.0);
    if (make_nan) r[0] = std::nan("");
  }
  void jacobian(double, double dCoef, SparseMatrix& J) override { J.add(0, 0, 1.0 + dCoef); }
  bool make_nan = false;
};

// Derivatives mode moves the states by dCoef times the derivative update, as MBDyn's derivative
// solver does; problems restore what must stay in derivatives_update() (nothing here).
TEST(IntegratorNewton, DerivativesModeMovesStateByDCoef) {
  Decay p;
  NewtonSolver nw({}, std::make_unique<DenseSolver>());
  Vector y(1), yp(1);
  y << 3.0;
  yp << 0.0;
  p.update(0, y, yp);
  const NewtonResult r = nw.solve(p, 0.0, 1e-6, 1e-6, y, yp, UpdateMode::Derivatives);
  // Incomplete Jacobian (1 + dCoef): converges linearly, fast for small dCoef.
  ASSERT_TRUE(r.converged);
  EXPECT_NEAR(y[0], 3.0 + 1e-6 * yp[0], 1e-15);
  EXPECT_NEAR(yp[0], -2.0, 1e-5);
}

TEST(IntegratorNewton, ToleranceTests) {
  Vector r(3), a(3);
  r << 3.0, -4.0, 0.0;
  a << 30.0, 40.0, 0.0;
  EXPECT_DOUBLE_EQ(convergence_error(ConvergenceTest::Norm, r, nullptr, nullptr), 5.0);
  EXPECT_DOUBLE_EQ(convergence_error(ConvergenceTest::MinMax, r, nullptr, nullptr), 4.0);
  EXPECT_DOUBLE_EQ(convergence_error(ConvergenceTest::RelNorm, r, &a, nullptr), 0.1);
  EXPECT_DOUBLE_EQ(convergence_error(ConvergenceTest::None, r, &a, nullptr), 0.0);
  Algebraic p;  // dimension class = equation index
  Vector r2(2), a2(2);
  r2 << 1e-3, 1.0;
  a2 << 1.0, 1e6;
  // sepnorm: worst of 1e-3/1 and 1/1e6.
  EXPECT_DOUBLE_EQ(convergence_error(ConvergenceTest::SepNorm, r2, &a2, &p), 1e-3);
  // relnorm on the whole vector is dominated by the big set.
  EXPECT_LT(convergence_error(ConvergenceTest::RelNorm, r2, &a2, &p), 2e-6);

  // Solution test alone (`tolerance: null, 1e-9`).
  NewtonOptions o;
  o.residual_tolerance = 0.0;
  o.solution_tolerance = 1e-9;
  NewtonSolver nw(o, std::make_unique<DenseSolver>());
  Vector y(2), yp = Vector::Zero(2);
  y << 1.2, 1.8;
  p.update(0, y, yp);
  const NewtonResult res = nw.solve(p, 0.0, 0.1, 0.1, y, yp);
  EXPECT_TRUE(res.converged);
  EXPECT_LE(res.solution_error, 1e-9);
  EXPECT_NEAR(y[0] * y[0] + y[1], 3.0, 1e-12);
  // relnorm/sepnorm through the solver.
  for (ConvergenceTest t : {ConvergenceTest::RelNorm, ConvergenceTest::SepNorm, ConvergenceTest::MinMax}) {
    NewtonOptions o2;
    o2.residual_test = t;
    o2.residual_tolerance = 1e-10;
    NewtonSolver n2(o2, std::make_unique<DenseSolver>());
    y << 1.2, 1.8;
    p.update(0, y, yp);
    EXPECT_TRUE(n2.solve(p, 0.0, 0.1, 0.1, y, yp).converged);
    // relnorm/sepnorm are relative to the (here 1e6-scaled) contributions: looser absolute.
    EXPECT_NEAR(y[1], 1.3193191251078045, t == ConvergenceTest::MinMax ? 1e-9 : 1e-3);
  }
}

TEST(IntegratorNewton, FailuresAreReportedNotThrown) {
  Algebraic p;
  p.singular = true;
  NewtonSolver nw({}, std::make_unique<KluSolver>());
  Vector y(2), yp = Vector::Zero(2);
  y << 0.5, 1.0;  // row 0 = 2*y0*[1 1] = row 1 -> singular
  p.update(0, y, yp);
  NewtonResult r = nw.solve(p, 0.0, 0.1, 0.1, y, yp);
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.failure, FailureReason::SingularMatrix);
  EXPECT_GE(r.singular_index, 0);

  Decay d;
  d.make_nan = true;
  NewtonSolver nw2({}, std::make_unique<DenseSolver>());
  Vector y1(1), yp1(1);
  y1 << 1.0;
  yp1 << 0.0;
  d.update(0, y1, yp1);
  r = nw2.solve(d, 0.0, 0.1, 0.1, y1, yp1);
  EXPECT_EQ(r.failure, FailureReason::NotANumber);

  // max iterations, and `at most` accepting a reduced error.
  Algebraic q;
  NewtonOptions o;
  o.residual_tolerance = 1e-14;
  o.max_iterations = 2;
  NewtonSolver nw3(o, std::make_unique<DenseSolver>());
  y << 1.5, 1.5;
  q.update(0, y, yp);
  r = nw3.solve(q, 0.0, 0.1, 0.1, y, yp);
  EXPECT_EQ(r.failure, FailureReason::MaxIterations);
  EXPECT_EQ(r.iterations, 2);
  nw3.options().at_most = true;
  y << 1.5, 1.5;
  q.update(0, y, yp);
  EXPECT_TRUE(nw3.solve(q, 0.0, 0.1, 0.1, y, yp).converged);
}

TEST(IntegratorNewton, LineSearchFromFarAway) {
  Algebraic p;
  NewtonOptions o;
  o.residual_tolerance = 1e-10;
  o.max_iterations = 100;
  o.line_search.enabled = true;
  NewtonSolver nw(o, std::make_unique<DenseSolver>());
  Vector y(2), yp = Vector::Zero(2);
  y << 8.0, -5.0;
  p.update(0, y, yp);
  const NewtonResult r = nw.solve(p, 0.0, 0.1, 0.1, y, yp);
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_NEAR(y[0] * y[0] + y[1], 3.0, 1e-9);
}

// MBDyn 2024's rule (nr.cc, linesearch.cc): with a solution tolerance the point has converged
// only when the residual test and the solution test both pass.
TEST(IntegratorNewton, ResidualAndSolutionTestsMustBothPass) {
  auto solve = [](double res_tol, double sol_tol, bool line_search) {
    Algebraic p;
    NewtonOptions o;
    o.residual_tolerance = res_tol;
    o.solution_tolerance = sol_tol;
    o.max_iterations = 50;
    o.line_search.enabled = line_search;
    NewtonSolver nw(o, std::make_unique<DenseSolver>());
    Vector y(2), yp = Vector::Zero(2);
    y << 1.2, 1.8;
    p.update(0, y, yp);
    return nw.solve(p, 0.0, 0.1, 0.1, y, yp);
  };
  for (bool line_search : {false, true}) {
    const NewtonResult loose = solve(1e-2, 0.0, line_search);
    const NewtonResult both = solve(1e-2, 1e-12, line_search);
    ASSERT_TRUE(loose.converged && both.converged) << line_search;
    EXPECT_LE(both.solution_error, 1e-12) << line_search;
    EXPECT_LE(both.residual_error, 1e-2) << line_search;
    // The solution test alone keeps iterating after the residual has passed.
    EXPECT_GE(both.iterations, loose.iterations + 2) << line_search;
  }
}

// The line search tests its first residual (the prediction) against 1e-2 of the tolerance;
// plain Newton-Raphson against the tolerance itself.
TEST(IntegratorNewton, LineSearchIsStricterAtThePrediction) {
  for (bool line_search : {false, true}) {
    Algebraic p;
    NewtonOptions o;
    o.residual_tolerance = 1e-6;
    o.line_search.enabled = line_search;
    NewtonSolver nw(o, std::make_unique<DenseSolver>());
    Vector y(2), yp = Vector::Zero(2);
    y << 1.2, 1.8;
    p.update(0, y, yp);
    ASSERT_TRUE(nw.solve(p, 0.0, 0.1, 0.1, y, yp).converged);
    p.shift = 5e-7;  // residual 5e-7: below the tolerance, above 1e-2 of it
    p.update(0, y, yp);
    const NewtonResult r = nw.solve(p, 0.0, 0.1, 0.1, y, yp);
    ASSERT_TRUE(r.converged);
    EXPECT_EQ(r.iterations, line_search ? 1 : 0);
  }
}

// Lambda at its minimum without a sufficient decrease: with `abort at lambda min, no` the step
// is kept and the iteration goes on; by default the solver stops with a message.
TEST(IntegratorNewton, LineSearchAtLambdaMin) {
  Algebraic p;
  NewtonOptions o;
  o.residual_tolerance = 1e-10;
  o.max_iterations = 100;
  o.line_search.enabled = true;
  o.line_search.lambda_min = 1.0;  // no backtracking at all
  o.line_search.divergence_check = false;
  Vector y(2), yp = Vector::Zero(2);
  y << 8.0, -5.0;
  p.update(0, y, yp);
  NewtonSolver aborting(o, std::make_unique<DenseSolver>());
  const NewtonResult r = aborting.solve(p, 0.0, 0.1, 0.1, y, yp);
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.failure, FailureReason::LineSearchFailed);
  EXPECT_NE(r.message.find("lambda"), std::string::npos) << r.message;
  o.line_search.abort_at_lambda_min = false;
  NewtonSolver going_on(o, std::make_unique<DenseSolver>());
  y << 8.0, -5.0;
  p.update(0, y, yp);
  const NewtonResult r2 = going_on.solve(p, 0.0, 0.1, 0.1, y, yp);
  ASSERT_TRUE(r2.converged) << r2.message;
  EXPECT_NEAR(y[0] * y[0] + y[1], 3.0, 1e-9);
}

TEST(IntegratorStepController, FactorStrategy) {
  StepStrategy s;
  s.kind = StepStrategy::Kind::Factor;
  s.reduction_factor = 0.5;
  s.steps_before_reduction = 0;
  s.raise_factor = 2.0;
  s.steps_before_raise = 2;
  s.min_iterations = 1;
  s.min_time_step = 0.01;
  s.max_time_step = 0.2;
  StepController c(s, 0.1, 10);
  StepResult fail;
  fail.failure = FailureReason::MaxIterations;
  auto d = c.after_failure(0.0, fail);
  EXPECT_TRUE(d.retry);
  EXPECT_DOUBLE_EQ(d.dt, 0.05);
  EXPECT_DOUBLE_EQ(c.after_success(0.05, 5), 0.05);
  EXPECT_DOUBLE_EQ(c.after_success(0.10, 1), 0.05);  // not before steps_before_raise
  EXPECT_DOUBLE_EQ(c.after_success(0.15, 1), 0.1);
  EXPECT_DOUBLE_EQ(c.after_success(0.25, 1), 0.1);
  EXPECT_DOUBLE_EQ(c.after_success(0.35, 1), 0.1);
  EXPECT_DOUBLE_EQ(c.after_success(0.45, 1), 0.2);  // clamped at max time step
  // Reduce down to the minimum, one last chance at min, then stop.
  while (c.after_failure(0.5, fail).retry && c.current() > 0.01) {}
  EXPECT_DOUBLE_EQ(c.current(), 0.01);
  EXPECT_FALSE(c.after_failure(0.5, fail).retry);

  StepController none({}, 0.1, 10);
  auto dn = none.after_failure(1.0, fail);
  EXPECT_FALSE(dn.retry);
  EXPECT_NE(dn.reason.find("cannot be reduced further"), std::string::npos);

  StepStrategy ch;
  ch.kind = StepStrategy::Kind::Change;
  ch.time_step = [](double t) { return t < 1.0 ? 0.1 : 0.05; };
  StepController cc(ch, 0.1, 10);
  EXPECT_DOUBLE_EQ(cc.after_success(1.5, 3), 0.05);
  EXPECT_FALSE(cc.after_failure(1.5, fail).retry);  // the drive gives the same step
}

}  // namespace
}  // namespace mbl::integrators

// Assemblies that repeat, change their order, skip zeros or grow the pattern: the traced
// SparseMatrix holds exactly what a fresh matrix assembled by binary search holds.
TEST(SparseMatrixTrace, RepeatedAssembliesEqualFreshOnes) {
  using mbl::integrators::SparseMatrix;
  std::mt19937 rng(7);
  const int n = 40;
  std::uniform_int_distribution<int> idx(0, n - 1);
  std::uniform_real_distribution<double> val(-1.0, 1.0);
  struct Add { int r, c; };
  std::vector<Add> order;
  for (int k = 0; k < 300; ++k) order.push_back({idx(rng), idx(rng)});
  SparseMatrix traced(n);
  for (int pass = 0; pass < 8; ++pass) {
    // Pass 3 changes the order of the second half, pass 5 grows the pattern; every pass leaves
    // a random tenth of the values at exactly zero (left out by add_block).
    if (pass == 3) std::shuffle(order.begin() + 150, order.end(), rng);
    if (pass == 5) order.push_back({n - 1, 0});
    traced.zero();
    SparseMatrix fresh(n);
    for (const Add& a : order) {  // the same pattern first, then this pass's values
      fresh.add(a.r, a.c, 1.0);
    }
    fresh.zero();
    std::vector<double> v(order.size());
    for (auto& x : v) x = std::uniform_int_distribution<int>(0, 9)(rng) == 0 ? 0.0 : val(rng);
    for (std::size_t k = 0; k < order.size(); ++k) {
      const Eigen::Matrix<double, 1, 1> m(v[k]);
      traced.add_block(order[k].r, order[k].c, m);
      fresh.add_block(order[k].r, order[k].c, m);
    }
    ASSERT_EQ(traced.to_dense(), fresh.to_dense()) << "pass " << pass;
  }
}

// Block columns with zeros left out of the pattern are one trace entry each: assemblies of
// blocks hold what the same adds entry by entry hold (values, pattern, pattern changes), also
// when a zero left out earlier becomes nonzero (the pattern grows) or a block moves.
TEST(SparseMatrixTrace, BlockColumnsWithZerosEqualEntryByEntry) {
  using mbl::integrators::SparseMatrix;
  std::mt19937 rng(11);
  const int n = 30;
  std::uniform_int_distribution<int> corner(0, n - 4);
  std::uniform_real_distribution<double> val(-1.0, 1.0);
  std::vector<std::pair<int, int>> at;
  for (int k = 0; k < 40; ++k) at.push_back({corner(rng), corner(rng)});
  SparseMatrix blocks(n), entries(n);
  for (int pass = 0; pass < 10; ++pass) {
    if (pass == 6) at[7] = {corner(rng), corner(rng)};
    blocks.zero();
    entries.zero();
    for (const auto& [r, c] : at) {
      // Each entry zero with probability 1/3 (a different set each pass).
      Eigen::Matrix<double, 4, 3> m;
      for (int i = 0; i < m.size(); ++i)
        m.data()[i] = std::uniform_int_distribution<int>(0, 2)(rng) == 0 ? 0.0 : val(rng);
      blocks.add_block(r, c, m);
      for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 4; ++i) entries.add_block(r + i, c + j, Eigen::Matrix<double, 1, 1>(m(i, j)));
    }
    ASSERT_EQ(blocks.to_dense(), entries.to_dense()) << "pass " << pass;
    ASSERT_EQ(blocks.nonzeros(), entries.nonzeros()) << "pass " << pass;
    ASSERT_EQ(blocks.col_ptr(), entries.col_ptr()) << "pass " << pass;
    ASSERT_EQ(blocks.row_idx(), entries.row_idx()) << "pass " << pass;
    ASSERT_EQ(blocks.values(), entries.values()) << "pass " << pass;
  }
}

// Block columns longer than 64 rows (rows from 64 on are always in the pattern) and runs whose
// rows left out as zeros repeat the same few masks: the trace replays them as the searched adds.
TEST(SparseMatrixTrace, LongBlockColumnsWithHoles) {
  using mbl::integrators::SparseMatrix;
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> val(-1.0, 1.0);
  const int n = 80;
  SparseMatrix blocks(n), entries(n);
  for (int pass = 0; pass < 6; ++pass) {
    blocks.zero();
    entries.zero();
    Eigen::Matrix<double, 70, 2> m;
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 70; ++i) m(i, j) = (i % 5 == j && i < 64 && pass < 4) ? 0.0 : val(rng);
    Eigen::Matrix3d skew;
    skew << 0.0, -val(rng), val(rng), val(rng), 0.0, -val(rng), -val(rng), val(rng), 0.0;
    blocks.add_block(3, 1, m);
    for (int k = 0; k < 20; ++k) blocks.add_block(3 * k % 75, 3 * k % 77, skew);
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 70; ++i) entries.add_block(3 + i, 1 + j, Eigen::Matrix<double, 1, 1>(m(i, j)));
    for (int k = 0; k < 20; ++k)
      for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i)
          entries.add_block(3 * k % 75 + i, 3 * k % 77 + j, Eigen::Matrix<double, 1, 1>(skew(i, j)));
    ASSERT_EQ(blocks.col_ptr(), entries.col_ptr()) << "pass " << pass;
    ASSERT_EQ(blocks.row_idx(), entries.row_idx()) << "pass " << pass;
    ASSERT_EQ(blocks.values(), entries.values()) << "pass " << pass;
  }
}

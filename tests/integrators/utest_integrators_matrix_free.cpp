// `nonlinear solver: matrix free` (integrators/matrix_free.cpp): MBDyn's Newton-Krylov.
#include <gtest/gtest.h>

#include <cmath>

#include "integrators/linear_solver.hpp"
#include "integrators/newton.hpp"
#include "test_problems.hpp"

namespace mbl::integrators {
namespace {

using Krylov = NewtonOptions::MatrixFree::Krylov;

/// f(x) = A x + c x^3 - b (componentwise cube), algebraic unknowns (y += d); A non-symmetric.
class CubicSystem : public testing::PlainProblem {
 public:
  static constexpr int n = 4;
  int size() const override { return n; }
  DofOrder dof_order(int) const override { return DofOrder::Algebraic; }
  double a(int i, int j) const { return i == j ? 4.0 + i : 0.3 * (i + 1) - 0.2 * (j + 1); }
  void residual(double, double, Vector& r, Vector*) override {
    for (int i = 0; i < n; ++i) {
      double f = c * std::pow(y_[i], 3) - (1.0 + i);
      for (int j = 0; j < n; ++j) f += a(i, j) * y_[j];
      r[i] = -f;
    }
  }
  void jacobian(double, double, SparseMatrix& J) override {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) J.add(i, j, a(i, j) + (i == j ? 3.0 * c * y_[i] * y_[i] : 0.0));
  }
  /// |f| at y (for the tests).
  double error_at(const Vector& y) {
    Vector r(n);
    update(0.0, y, Vector::Zero(n));
    residual(0.0, 0.0, r, nullptr);
    return r.norm();
  }
  double c = 0.5;
};

NewtonOptions matrix_free(Krylov k) {
  NewtonOptions o;
  o.residual_tolerance = 1e-10;
  o.matrix_free.krylov = k;
  return o;
}

NewtonResult solve_from(NewtonSolver& s, CubicSystem& p, Vector& y, double dCoef = 0.1) {
  Vector yp = Vector::Zero(CubicSystem::n);
  p.update(0.0, y, yp);
  return s.solve(p, 0.0, dCoef, dCoef, y, yp);
}

// With a solution tolerance the outer iteration goes on until the residual test passes: the
// root is the one Newton-Raphson finds, with either inner solver.
TEST(IntegratorMatrixFree, ConvergesToTheNewtonRoot) {
  CubicSystem p;
  NewtonSolver newton(NewtonOptions{.residual_tolerance = 1e-12}, std::make_unique<KluSolver>());
  Vector root = Vector::Constant(CubicSystem::n, 1.0);
  ASSERT_TRUE(solve_from(newton, p, root).converged);
  for (Krylov k : {Krylov::Gmres, Krylov::BiCGStab}) {
    NewtonOptions o = matrix_free(k);
    o.solution_tolerance = 1e-14;
    NewtonSolver mf(o, std::make_unique<KluSolver>());
    Vector y = Vector::Constant(CubicSystem::n, 1.0);
    const NewtonResult r = solve_from(mf, p, y);
    ASSERT_TRUE(r.converged) << r.message;
    EXPECT_LE(r.residual_error, 1e-10);
    EXPECT_LT((y - root).norm(), 1e-9);
    EXPECT_GT(r.iterations, 1);
  }
}

// Without a solution tolerance MBDyn's solution test ("none", 0 <= 0) accepts the point after
// the first update, with the residual left by that one inexact step.
TEST(IntegratorMatrixFree, WithoutSolutionToleranceOneUpdatePerPoint) {
  CubicSystem p;
  NewtonOptions o = matrix_free(Krylov::Gmres);
  NewtonSolver mf(o, std::make_unique<KluSolver>());
  Vector y = Vector::Constant(CubicSystem::n, 1.0);
  const double e0 = p.error_at(y);
  const NewtonResult r = solve_from(mf, p, y);
  ASSERT_TRUE(r.converged);
  EXPECT_EQ(r.iterations, 1);
  EXPECT_DOUBLE_EQ(r.residual_error, e0);  // the error tested before the update (MBDyn's ResErr)
  const double e1 = p.error_at(y);
  EXPECT_GT(e1, o.residual_tolerance);
  // With the fresh Jacobian as preconditioner the step is Newton's: quadratic decrease.
  EXPECT_LT(e1, 10.0 * e0 * e0);
}

// The preconditioner is kept over points of the same coefficient; a new coefficient (another
// integrator), or an inner solve that needed `preconditioner steps` iterations, refreshes it.
TEST(IntegratorMatrixFree, PreconditionerKeptUntilCoefficientOrInnerStepsChange) {
  CubicSystem p;
  NewtonSolver mf(matrix_free(Krylov::Gmres), std::make_unique<KluSolver>());
  for (int k = 0; k < 4; ++k) {
    Vector y = Vector::Constant(CubicSystem::n, 1.0 + 0.5 * k);
    ASSERT_TRUE(solve_from(mf, p, y).converged);
  }
  EXPECT_EQ(mf.jacobian_assemblies(), 1u);
  Vector y = Vector::Constant(CubicSystem::n, 1.0);
  solve_from(mf, p, y, 0.2);
  EXPECT_EQ(mf.jacobian_assemblies(), 2u);

  // eta small: the stale preconditioner needs more than one inner iteration; with
  // `preconditioner, full jacobian matrix, steps, 1` the next point assembles a new one.
  NewtonOptions o = matrix_free(Krylov::Gmres);
  o.matrix_free.eta_max = 1e-4;
  o.matrix_free.preconditioner_steps = 1;
  NewtonSolver strict(o, std::make_unique<KluSolver>());
  y = Vector::Constant(CubicSystem::n, 1.0);
  solve_from(strict, p, y);
  y = Vector::Constant(CubicSystem::n, 3.0);
  solve_from(strict, p, y);
  EXPECT_EQ(strict.jacobian_assemblies(), 1u);
  y = Vector::Constant(CubicSystem::n, 3.0);
  solve_from(strict, p, y);
  EXPECT_EQ(strict.jacobian_assemblies(), 2u);
}

// The finite-difference products J w are those of the problem's Jacobian: on a linear problem,
// with the preconditioner of another (stale) point, the inner solver still solves J d = r to
// within eta |r|.
TEST(IntegratorMatrixFree, InnerSolveMeetsTheForcingTerm) {
  for (Krylov k : {Krylov::Gmres, Krylov::BiCGStab}) {
    CubicSystem p;
    NewtonOptions o = matrix_free(k);
    o.matrix_free.eta_max = 1e-9;
    o.matrix_free.preconditioner_steps = 1000;
    NewtonSolver mf(o, std::make_unique<KluSolver>());
    Vector y = Vector::Constant(CubicSystem::n, 3.0);
    solve_from(mf, p, y);  // the preconditioner: the cubic's Jacobian near y = 3
    p.c = 0.0;  // linear: one exact inner solve reaches the root
    y = Vector::Zero(CubicSystem::n);
    const double e0 = p.error_at(y);
    ASSERT_TRUE(solve_from(mf, p, y).converged);
    // MBDyn's BiCGStab takes omega = t.s / |t| (not / |t|^2), which slows it: it stops at its
    // 20 steps above the forcing term.
    EXPECT_LT(p.error_at(y), (k == Krylov::Gmres ? 1e-8 : 1e-4) * e0);
    EXPECT_EQ(mf.jacobian_assemblies(), 1u);
  }
}

}  // namespace
}  // namespace mbl::integrators

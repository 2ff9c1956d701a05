// Error control (`strategy: error control`, docs/adaptive.md) through the Problem interface:
// - every first-order family's local error estimate scales as h^(p+1), p the order the method
//   reports (error_estimate_order), on the smooth forced Duffing oscillator;
// - the multistep methods keep their order 2 on a varying step sequence (the fixed-step members
//   hand the unequal steps to the variable-step ms2 / trapezoidal formula), and so do the
//   single-step ss2-4 (their auxiliary variables rescaled to the new step);
// - a rejected step leaves the integrator where it was: the retry equals the smaller step taken
//   directly, bit for bit (the auxiliary variables of ss2-4 included);
// - the controller: rejection below 1, the PI step choice, and the bounds;
// - `global`: the transported global error estimate follows the true global error of implicit
//   euler (its exact linearised step), bdf and ms on the undamped oscillator.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "integrators/integrator.hpp"
#include "integrators/linear_solver.hpp"
#include "integrators/step_controller.hpp"
#include "test_problems.hpp"

namespace mbl::integrators {
namespace {

struct Method {
  const char* name;
  double rho;  ///< < 0: the method takes none
};
const Method kMethods[] = {
    {"crank nicolson", -1}, {"implicit euler", -1}, {"bdf", -1},   {"ms", 0.6},     {"ms3", 0.6},
    {"ms4", 0.0},           {"hope", 0.6},          {"ss2", 0.6},  {"ss3", 0.6},    {"ss4", 0.6},
    {"Bathe", 0.6},         {"msstc3", 0.6},        {"msstc5", 0.6}, {"mssth3", 0.0}, {"mssth5", 0.0},
    {"DIRK33", -1},         {"DIRK43", -1},         {"DIRK54", -1},
};
void PrintTo(const Method& m, std::ostream* os) { *os << m.name << ", rho " << m.rho; }

using testing::tight_newton;
const auto make = testing::make_method;

/// An error test that records the estimate and accepts every step.
ErrorTest accept_all() {
  ErrorTest e;
  e.rtol = 1.0;
  e.atol = 1.0;
  e.accept = [](double, double) { return true; };
  return e;
}

void start_duffing(ImplicitStepIntegrator& integ, testing::ForcedDuffing& p) {
  Vector y0(3), yp0(3);
  y0 << 1.0, 0.0, 1.0;
  yp0 << 0.0, -2.0 + 0.5, 0.0;
  integ.start(p, 0.0, y0, yp0);
}

/// |estimate| of x and v, summed over the steps in [1, 2] s, with a fixed step h (the sum of a
/// local error of O(h^(p+1)) over 1/h steps is O(h^p) and smoother than a single sample).
double estimate_over_interval(const Method& m, double h) {
  testing::ForcedDuffing p;
  auto integ = make(m.name, m.rho);
  integ->set_error_test(accept_all());
  NewtonSolver newton = tight_newton();
  start_duffing(*integ, p);
  double sum = 0.0;
  const int steps = static_cast<int>(std::lround(2.0 / h));
  for (int k = 1; k <= steps; ++k) {
    const StepResult r = integ->advance(p, k * h, h, newton);
    EXPECT_TRUE(r.converged);
    if (!r.converged) return 0.0;
    if (k * h > 1.0 + 1e-12) sum += integ->error_estimate().head<2>().cwiseAbs().maxCoeff();
  }
  return sum;
}

class ErrorEstimate : public ::testing::TestWithParam<Method> {};

TEST_P(ErrorEstimate, ScalesAsTheStepToTheOrderPlusOne) {
  const Method m = GetParam();
  const int p = make(m.name, m.rho)->error_estimate_order();
  std::vector<double> sums;
  for (double h : {0.04, 0.02, 0.01}) sums.push_back(estimate_over_interval(m, h));
  for (std::size_t k = 1; k < sums.size(); ++k) {
    ASSERT_GT(sums[k], 0.0);
    // The sum over 1/h steps of a local estimate of O(h^(p+1)): order p.
    const double observed = std::log2(sums[k - 1] / sums[k]);
    EXPECT_GT(observed, p - 0.2) << m.name << " refinement " << k << " (estimate sums " << sums[k - 1] << ", "
                                 << sums[k] << ")";
    // Nor of a higher order than the controller assumes: an estimate that shrinks faster than the
    // error it stands for lets the error run far below the tolerance (docs/adaptive.md).
    EXPECT_LT(observed, p + 0.5) << m.name << " refinement " << k;
    std::printf("%-15s estimate order %d, observed %.2f\n", m.name, p + 1, observed + 1);
  }
}

INSTANTIATE_TEST_SUITE_P(Methods, ErrorEstimate, ::testing::ValuesIn(kMethods),
                         [](const ::testing::TestParamInfo<Method>& i) {
                           std::string n = i.param.name;
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n + "_" + std::to_string(i.index);
                         });

/// The state at t = 4 s with the steps h r_k, r_k cycling through 1, 1.5, 0.7, 1.2, 0.6 (the run
/// ends with whatever step reaches 4 s exactly).
Vector solve_varying(const Method& m, double h) {
  testing::ForcedDuffing p;
  auto integ = make(m.name, m.rho);
  integ->set_error_test(accept_all());
  NewtonSolver newton = tight_newton();
  start_duffing(*integ, p);
  const double ratios[] = {1.0, 1.5, 0.7, 1.2, 0.6};
  double t = 0.0;
  for (int k = 0; t < 4.0 - 1e-12; ++k) {
    double dt = h * ratios[k % 5];
    if (t + dt > 4.0) dt = 4.0 - t;
    const double t_new = t + dt >= 4.0 ? 4.0 : t + dt;
    const StepResult r = integ->advance(p, t_new, dt, newton);
    EXPECT_TRUE(r.converged);
    if (!r.converged) break;
    t = t_new;
  }
  return integ->y();
}

TEST(VariableStep, MultistepAndSingleStepMethodsKeepOrderTwo) {
  // Reference: DIRK54 with a fine fixed step.
  testing::ForcedDuffing p;
  auto ref_integ = make("DIRK54", -1);
  NewtonSolver newton = tight_newton();
  start_duffing(*ref_integ, p);
  for (int k = 1; k <= 4000; ++k) ref_integ->advance(p, k * 1e-3, 1e-3, newton);
  const Vector ref = ref_integ->y();
  for (const Method& m : {Method{"ms", 0.6}, Method{"ms3", 0.6}, Method{"ms4", 0.0}, Method{"ms4", 0.6},
                          Method{"hope", 0.6}, Method{"bdf", -1}, Method{"crank nicolson", -1},
                          Method{"ss2", 0.6}, Method{"ss3", 0.6}, Method{"ss4", 0.0}}) {
    const double e1 = (solve_varying(m, 0.02) - ref).head<2>().cwiseAbs().maxCoeff();
    const double e2 = (solve_varying(m, 0.01) - ref).head<2>().cwiseAbs().maxCoeff();
    const double order = std::log2(e1 / e2);
    EXPECT_NEAR(order, 2.0, 0.25) << m.name << " rho " << m.rho << ": errors " << e1 << ", " << e2;
  }
}

TEST(RejectedStep, LeavesTheIntegratorWhereItWas) {
  for (const Method& m : {Method{"ms4", 0.6}, Method{"ss3", 0.6}, Method{"DIRK43", -1}, Method{"hope", 0.6}}) {
    testing::ForcedDuffing pa, pb;
    auto a = make(m.name, m.rho), b = make(m.name, m.rho);
    int calls = 0;
    ErrorTest reject_third = accept_all();
    reject_third.accept = [&calls](double, double) { return ++calls != 3; };
    a->set_error_test(reject_third);
    b->set_error_test(accept_all());
    NewtonSolver na = tight_newton(), nb = tight_newton();
    start_duffing(*a, pa);
    start_duffing(*b, pb);
    for (ImplicitStepIntegrator* i : {a.get(), b.get()}) {
      NewtonSolver& n = i == a.get() ? na : nb;
      testing::ForcedDuffing& p = i == a.get() ? pa : pb;
      ASSERT_TRUE(i->advance(p, 0.1, 0.1, n).converged);
      ASSERT_TRUE(i->advance(p, 0.2, 0.1, n).converged);
    }
    const StepResult rejected = a->advance(pa, 0.3, 0.1, na);
    EXPECT_FALSE(rejected.converged);
    EXPECT_TRUE(rejected.error_rejected);
    EXPECT_EQ(a->time(), 0.2);
    for (int k = 0; k < 6; ++k) {
      const double t = 0.2 + (k + 1) * 0.05;
      ASSERT_TRUE(a->advance(pa, t, 0.05, na).converged);
      ASSERT_TRUE(b->advance(pb, t, 0.05, nb).converged);
    }
    EXPECT_EQ(a->y(), b->y()) << m.name;
    EXPECT_EQ(a->yp(), b->yp()) << m.name;
  }
}

// The oscillator x'' = -4 x from x = 1 at rest, a fixed step of 0.01 s over 5 s (implicit euler
// loses a tenth of the amplitude): every second of the run the transported estimate's norm (the
// error test's weights, 1 + |y| here) is within 15 % of the true global error's, the largest of
// |y_i - exact_i| / (1 + |y_i|) over x and v.
TEST(GlobalError, TransportFollowsTheTrueErrorOnTheOscillator) {
  for (const Method& m : {Method{"implicit euler", -1}, Method{"bdf", -1}, Method{"ms", 0.6}}) {
    testing::Oscillator p(2.0);
    auto integ = make(m.name, m.rho);
    ErrorTest test = accept_all();
    test.transport_global_error = true;
    integ->set_error_test(test);
    NewtonSolver newton = tight_newton();
    Vector y0(2), yp0(2);
    y0 << 1.0, 0.0;
    yp0 << 0.0, -4.0;
    integ->start(p, 0.0, y0, yp0);
    const double h = 0.01;
    for (int k = 1; k <= 500; ++k) {
      const double t = k * h;
      ASSERT_TRUE(integ->advance(p, t, h, newton).converged) << m.name;
      if (k % 100 != 0) continue;
      const double exact[2] = {std::cos(2.0 * t), -2.0 * std::sin(2.0 * t)};
      double e = 0.0;
      for (int i = 0; i < 2; ++i) e = std::max(e, std::abs(integ->y()[i] - exact[i]) / (1.0 + std::abs(integ->y()[i])));
      EXPECT_NEAR(integ->global_error_norm() / e, 1.0, 0.15) << m.name << " at t = " << t << ": true error " << e;
    }
  }
}

TEST(StepControllerErrorControl, RejectsAboveOneAndChoosesTheNextStep) {
  StepStrategy s;
  s.kind = StepStrategy::Kind::ErrorControl;
  s.relative_tolerance = 1e-4;
  s.min_time_step = 1e-6;
  s.max_time_step = 0.5;
  {
    // Per unit step (the default): the norm e / h = O(h^p), the exponent 1/p, here 1/2.
    StepController per_unit_step(s, 0.01, 10);
    const ErrorTest u = per_unit_step.error_test(2);
    EXPECT_TRUE(u.per_unit_step);
    EXPECT_FALSE(u.accept(9.0, 0.01));
    EXPECT_DOUBLE_EQ(per_unit_step.current(), 0.01 * 0.9 / 3.0);
  }
  s.per_unit_step = false;  // `per step`
  StepController c(s, 0.01, 10);
  const ErrorTest e = c.error_test(2);  // k = 3
  EXPECT_EQ(e.rtol, 1e-4);
  EXPECT_EQ(e.atol, 1e-4);  // the relative tolerance when none is given
  // Rejected: shrink by s err^(-1/3), at least max shrink 0.2.
  EXPECT_FALSE(e.accept(8.0, 0.01));
  EXPECT_DOUBLE_EQ(c.current(), 0.01 * 0.9 / 2.0);
  EXPECT_FALSE(e.accept(1e6, c.current()));
  EXPECT_DOUBLE_EQ(c.current(), 0.01 * 0.9 / 2.0 * 0.2);
  // At the smallest step the step is taken whatever its error.
  EXPECT_TRUE(e.accept(50.0, 1e-6));
  // Accepted after a rejection: the step does not grow.
  EXPECT_DOUBLE_EQ(c.after_accepted(0.1, 1e-3), c.current());
  EXPECT_DOUBLE_EQ(c.current(), 0.01 * 0.9 / 2.0 * 0.2);
  // Then the PI controller, bounded by max growth 2 and max time step.
  const double before = c.current();
  EXPECT_DOUBLE_EQ(c.after_accepted(0.2, 1e-6), 2.0 * before);
  for (int k = 0; k < 20; ++k) c.after_accepted(0.3, 1e-6);
  EXPECT_DOUBLE_EQ(c.current(), 0.5);
  EXPECT_EQ(c.summary().rejected, 2);
}

}  // namespace
}  // namespace mbl::integrators

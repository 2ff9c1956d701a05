// Drives with memory over sequences of steps, with the model's calling pattern: set the time of
// step k, evaluate, then after_convergence(t_k). Reference numbers from the real MBDyn runs of
// tests/drives/drivecallers (the .frc and .out files under /work/shared/decks).
#include <cmath>
#include <numbers>
#include <vector>

#include "drive_test_util.hpp"
#include "elements/drives/drive_stateful.hpp"

namespace mbl::drives::test {
namespace {

constexpr double pi = std::numbers::pi;

/// Runs steps 0..n-1 at t_k = k dt, returning the value seen during each step. `after_initial`
/// also calls after_convergence at step 0 (the derivatives phase).
std::vector<double> run(DriveDeck& k, const DriveCallerPtr& d, int n, double dt,
                        bool after_initial = true) {
  std::vector<double> seen;
  for (int s = 0; s < n; ++s) {
    const double t = s * dt;
    k.set_time(t, dt, s);
    seen.push_back(d->value(t));
    if (s > 0 || after_initial)
      for (const auto& sd : stateful_drives(k.ctx)) sd->after_convergence(t);
  }
  return seen;
}

TEST(DrivesStateful, DiscreteFilterMatchesMBDyn) {
  DriveDeck k;
  // t.drives.drivecallers.discretefilter: 2nd order Butterworth, 10 Hz cut, dt = 1e-3
  auto f = k.drive(
      "discrete filter, 2, 1.911197067426073, -0.914975834801434, 0.000944691843840, "
      "2, 0.001889383687680, 0.000944691843840, sine, 0., 2*pi/.1, 10., forever, 0.");
  ASSERT_TRUE(f->is_stateful());
  ASSERT_EQ(stateful_drives(k.ctx).size(), 1u);
  const auto y = run(k, f, 8, 1e-3);
  // MBDyn's force 2 (.frc, 7 significant digits)
  const double mbdyn[] = {0.0, 1.779531e-03, 7.546249e-03, 1.928868e-02,
                          3.877807e-02, 6.757099e-02, 1.070127e-01, 1.582410e-01};
  for (int i = 0; i < 8; ++i) EXPECT_NEAR(y[i], mbdyn[i], 5e-7 * std::max(1.0, mbdyn[i])) << i;
  // Re-evaluating within a step does not change anything.
  EXPECT_DOUBLE_EQ(f->value(7e-3), y[7]);
}

TEST(DrivesStateful, DiscreteFilterFirstOrderLowPass) {
  DriveDeck k;
  // y_k = 0.5 y_{k-1} + 0.5 u_k on a unit step: 0.5, 0.75, 0.875, ... (n_b = 0)
  auto f = k.drive("discrete filter, 1, .5, .5, 0, const, 1.");
  const auto y = run(k, f, 5, 0.1);
  EXPECT_DOUBLE_EQ(y[0], 0.5);
  EXPECT_DOUBLE_EQ(y[1], 0.75);
  EXPECT_DOUBLE_EQ(y[2], 0.875);
  EXPECT_DOUBLE_EQ(y[4], 1.0 - 1.0 / 32.0);
}

TEST(DrivesStateful, ClosestNextMatchesMBDynOutputSteps) {
  DriveDeck k;
  // t.drives.drivecallers.closestnext: output meter closest next, 0., forever, const, .01 with
  // dt = 1e-3; MBDyn outputs steps 0, 1, 10, 20, ..., 1000 (102 outputs).
  auto c = k.drive("closest next, 0., forever, const, .01");
  std::vector<int> out;
  double t = 0.0;
  for (int s = 0; s <= 1000; ++s) {
    k.set_time(t, 1e-3, s);
    if (c->value(t) != 0.0) out.push_back(s);
    c->after_convergence(t);
    t += 1e-3;  // accumulated like the solver's time
  }
  ASSERT_EQ(out.size(), 102u);
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(out[1], 1);
  EXPECT_EQ(out[2], 10);
  EXPECT_EQ(out[3], 20);
  EXPECT_EQ(out.back(), 1000);
}

TEST(DrivesStateful, ClosestNextFinalTimeAndBareIncrement) {
  DriveDeck k;
  auto c = k.drive("closest next, 0., .05, .02");  // the increment may be a bare number
  std::vector<int> out;
  for (int s = 0; s <= 100; ++s) {
    const double t = s * 1e-2;
    k.set_time(t, 1e-2, s);
    if (c->value(t) != 0.0) out.push_back(s);
    c->after_convergence(t);
  }
  // step 1: the first threshold (step 0 has no start-of-step update); step 2: the threshold
  // 0.02 is consumed while moving past it; step 4: 0.04; nothing after t = 0.05.
  EXPECT_EQ(out, (std::vector<int>{0, 1, 4}));
}

TEST(DrivesStateful, SampleAndHoldMatchesMBDyn) {
  DriveDeck k;
  // t.drives.drivecallers.sampleandhold: function = 10 * (node z), trigger true at step 200
  // only; MBDyn holds 10 * z(step 199) from step 200 on (z(199) = 0.3953782).
  k.math.execute_set("real z = 0.", {});
  auto s = k.drive(
      "sample and hold, string, \"10.*z\", string, \"(Time > .1995) && (Time < .2005)\"");
  std::vector<double> seen;
  for (int step = 0; step <= 203; ++step) {
    const double t = step * 1e-3;
    k.set_time(t, 1e-3, step);
    // the "node" moves during the step: z_k = 2 t_k - small
    k.math.set_variable("z", math::Value(std::sin(2.0 * t)));
    seen.push_back(s->value(t));
    s->after_convergence(t);
  }
  EXPECT_DOUBLE_EQ(seen[0], 0.0);
  EXPECT_DOUBLE_EQ(seen[199], 0.0);
  EXPECT_NEAR(seen[200], 10.0 * std::sin(2.0 * 0.199), 1e-12);
  EXPECT_NEAR(seen[203], 10.0 * std::sin(2.0 * 0.199), 1e-12);
}

TEST(DrivesStateful, SampleAndHoldInitialValue) {
  DriveDeck k;
  auto s = k.drive("sample and hold, time, string, \"Step == 3\", initial value, -1.");
  const auto y = run(k, s, 6, 0.5);
  EXPECT_EQ(y, (std::vector<double>{-1.0, -1.0, -1.0, 1.0, 1.0, 1.0}));  // holds t_2
}

TEST(DrivesStateful, BistopIsIrreversibleLikeTheManualExample) {
  DriveDeck k;
  auto b = k.drive(
      "bistop, initial status, active, null, string, \"Time > 0.25 && Time < 0.35\"");
  const auto y = run(k, b, 8, 0.1);
  EXPECT_EQ(y, (std::vector<double>{1, 1, 1, 0, 0, 0, 0, 0}));
  auto toggle = k.drive("bistop, string, \"Time > .15\", string, \"Time > .45\"");
  // re-activated at once: the activation condition still holds after the deactivation
  EXPECT_EQ(run(k, toggle, 7, 0.1), (std::vector<double>{0, 0, 1, 1, 1, 0, 1}));
}

TEST(DrivesStateful, MeterCountsSteps) {
  DriveDeck k;
  auto m = k.drive("meter, 0., forever, steps, 3");
  EXPECT_FALSE(m->is_stateful());
  EXPECT_EQ(run(k, m, 7, 0.1), (std::vector<double>{1, 0, 0, 1, 0, 0, 1}));
  auto limited = k.drive("meter, .15, .45");
  EXPECT_EQ(run(k, limited, 7, 0.1), (std::vector<double>{0, 0, 1, 1, 1, 0, 0}));
}

TEST(DrivesStateful, RandomIsReproducibleAndHeld) {
  DriveDeck k;
  auto r1 = k.drive("random, 2., 10., 0., forever, steps, 2, seed, 42");
  auto r2 = k.drive("random, 2., 10., 0., forever, steps, 2, seed, 42");
  auto other = k.drive("random, 2., 10., 0., forever, steps, 2, seed, 43");
  const auto a = run(k, r1, 40, 0.1), b = run(k, r2, 40, 0.1), c = run(k, other, 40, 0.1);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  double mean = 0.0;
  for (int i = 0; i < 40; ++i) {
    EXPECT_GE(a[i], 8.0);
    EXPECT_LT(a[i], 12.0);
    if (i % 2 == 1) {
      EXPECT_EQ(a[i], a[i - 1]);  // held for 2 steps
    }
    mean += a[i] / 40.0;
  }
  EXPECT_NEAR(mean, 10.0, 0.8);
  auto window = k.drive("random, 2., 10., 1., 2.");
  k.set_time(0.5, 0.1, 5);
  EXPECT_DOUBLE_EQ(window->value(0.5), 10.0);  // the mean outside [t0, t1]
}

TEST(DrivesStateful, OuterDrivesAdvanceFirst) {
  DriveDeck k;
  // sample and hold of a discrete filter: both stateful; the holder must sample the filter
  // before the filter moves on.
  auto s = k.drive(
      "sample and hold, discrete filter, 1, .5, .5, 0, const, 1., string, \"Step == 2\"");
  const auto order = stateful_drives(k.ctx);
  ASSERT_EQ(order.size(), 2u);
  EXPECT_EQ(order[0], s);
  const auto y = run(k, s, 5, 0.1);
  // filter outputs 0.5, 0.75, 0.875...; held at step 2 = converged output of step 1
  EXPECT_DOUBLE_EQ(y[2], 0.75);
  EXPECT_DOUBLE_EQ(y[4], 0.75);
}

}  // namespace
}  // namespace mbl::drives::test

// Closed-form drive callers (manual §2.6) read from deck text and checked against their formulas,
// at boundaries included; derivatives against central differences.
#include <cmath>
#include <numbers>

#include "drive_test_util.hpp"

namespace mbl::drives::test {
namespace {

constexpr double pi = std::numbers::pi;

TEST(DrivesFunctions, ConstNullUnitAndBareNumber) {
  DriveDeck k;
  EXPECT_DOUBLE_EQ(k.drive("const, 9.81")->value(3.0), 9.81);
  EXPECT_DOUBLE_EQ(k.drive("2.5*2")->value(1.0), 5.0);  // a number is a const drive
  EXPECT_DOUBLE_EQ(k.drive("null")->value(7.0), 0.0);
  EXPECT_DOUBLE_EQ(k.drive("unit")->value(7.0), 1.0);
  EXPECT_DOUBLE_EQ(k.drive("one")->value(7.0), 1.0);  // deprecated alias
  EXPECT_DOUBLE_EQ(k.drive("direct")->value(-4.0), -4.0);
  EXPECT_DOUBLE_EQ(k.drive("time")->value(0.25), 0.25);
  k.set_time(1.0, 0.125, 8);
  EXPECT_DOUBLE_EQ(k.drive("timestep")->value(1.0), 0.125);
}

TEST(DrivesFunctions, Polynomials) {
  DriveDeck k;
  auto lin = k.drive("linear, 1., -.5");
  EXPECT_DOUBLE_EQ(lin->value(2.0), 0.0);
  EXPECT_DOUBLE_EQ(lin->derivative(2.0), -0.5);
  auto par = k.drive("parabolic, 1., 2., 3.");
  EXPECT_DOUBLE_EQ(par->value(2.0), 1.0 + 4.0 + 12.0);
  expect_derivative(*par, 0.7);
  auto cub = k.drive("cubic, 1., 2., 3., 4.");
  EXPECT_DOUBLE_EQ(cub->value(-1.0), 1.0 - 2.0 + 3.0 - 4.0);
  EXPECT_DOUBLE_EQ(cub->derivative(2.0), 2.0 + 12.0 + 48.0);
  expect_derivative(*cub, 1.3);
}

TEST(DrivesFunctions, StepAndDoubleStep) {
  DriveDeck k;
  auto s = k.drive("step, 1., 3., 0.5");
  EXPECT_DOUBLE_EQ(s->value(0.99), 0.5);
  EXPECT_DOUBLE_EQ(s->value(1.01), 3.5);
  EXPECT_DOUBLE_EQ(s->value(1.0), 1.75);  // MBDyn: (initial + step) / 2 at the step time
  EXPECT_DOUBLE_EQ(s->derivative(2.0), 0.0);
  auto d = k.drive("double step, 1., 2., 3., 0.");
  EXPECT_DOUBLE_EQ(d->value(0.5), 0.0);
  EXPECT_DOUBLE_EQ(d->value(1.5), 3.0);
  EXPECT_DOUBLE_EQ(d->value(2.5), 0.0);
  EXPECT_DOUBLE_EQ(d->value(2.0), 1.5);
}

TEST(DrivesFunctions, Ramp) {
  DriveDeck k;
  auto r = k.drive("ramp, 2., 1., 3., 0.5");
  EXPECT_DOUBLE_EQ(r->value(0.0), 0.5);
  EXPECT_DOUBLE_EQ(r->value(1.0), 0.5);
  EXPECT_DOUBLE_EQ(r->value(2.0), 2.5);
  EXPECT_DOUBLE_EQ(r->value(3.0), 4.5);
  EXPECT_DOUBLE_EQ(r->value(10.0), 4.5);
  EXPECT_DOUBLE_EQ(r->derivative(2.0), 2.0);
  EXPECT_DOUBLE_EQ(r->derivative(1.0), 1.0);  // corner: mean of the sides
  EXPECT_DOUBLE_EQ(r->derivative(4.0), 0.0);
  auto f = k.drive("ramp, 2., 1., forever, 0.");
  EXPECT_DOUBLE_EQ(f->value(101.0), 200.0);
}

TEST(DrivesFunctions, DoubleRamp) {
  DriveDeck k;
  // up with slope 1 on [0, 1], hold, down with slope -2 on [2, 2.5]
  auto r = k.drive("double ramp, 1., 0., 1., -2., 2., 2.5, 10.");
  EXPECT_DOUBLE_EQ(r->value(-1.0), 10.0);
  EXPECT_DOUBLE_EQ(r->value(0.5), 10.5);
  EXPECT_DOUBLE_EQ(r->value(1.5), 11.0);
  EXPECT_DOUBLE_EQ(r->value(2.25), 10.5);
  EXPECT_DOUBLE_EQ(r->value(3.0), 10.0);
  EXPECT_DOUBLE_EQ(r->derivative(0.5), 1.0);
  EXPECT_DOUBLE_EQ(r->derivative(1.5), 0.0);
  EXPECT_DOUBLE_EQ(r->derivative(2.25), -2.0);
  auto forever = k.drive("double ramp, 1., 0., 1., -1., 2., forever, 0.");
  EXPECT_DOUBLE_EQ(forever->value(12.0), 1.0 - 10.0);
}

TEST(DrivesFunctions, SineCycles) {
  DriveDeck k;
  const double w = 2.0 * pi;  // period 1
  auto f = k.drive("sine, 0.5, 2*pi, 3., forever, 1.");
  EXPECT_DOUBLE_EQ(f->value(0.4), 1.0);
  EXPECT_NEAR(f->value(0.75), 4.0, 1e-12);
  EXPECT_NEAR(f->value(10.75), 4.0, 1e-9);
  expect_derivative(*f, 0.9);
  // one: half a period, back to the initial value
  auto one = k.drive("sine, 0., 2*pi, 3., one, 0.");
  EXPECT_NEAR(one->value(0.25), 3.0, 1e-12);
  EXPECT_DOUBLE_EQ(one->value(0.6), 0.0);
  EXPECT_DOUBLE_EQ(one->derivative(0.6), 0.0);
  // half: a quarter period, stays at initial + amplitude
  auto half = k.drive("sine, 0., 2*pi, 3., half, 0.");
  EXPECT_NEAR(half->value(0.2), 3.0 * std::sin(w * 0.2), 1e-12);
  EXPECT_DOUBLE_EQ(half->value(0.3), 3.0);
  EXPECT_DOUBLE_EQ(half->value(100.0), 3.0);
  // 2 cycles: 1.5 periods; -2: 1.25 periods then held at the top
  auto two = k.drive("sine, 0., 2*pi, 3., 2, 0.");
  EXPECT_NEAR(two->value(1.25), 3.0, 1e-12);
  EXPECT_DOUBLE_EQ(two->value(1.6), 0.0);
  auto m2 = k.drive("sine, 0., 2*pi, 3., -2, 0.");
  EXPECT_NEAR(m2->value(1.2), 3.0 * std::sin(w * 1.2), 1e-12);
  EXPECT_DOUBLE_EQ(m2->value(1.3), 3.0);
}

TEST(DrivesFunctions, CosineCycles) {
  DriveDeck k;
  // (2.13): v0 + A (1 - cos(w (t - t0)))
  auto f = k.drive("cosine, 1.2, 2*pi, .5, forever, 0.");
  EXPECT_DOUBLE_EQ(f->value(1.0), 0.0);
  EXPECT_NEAR(f->value(1.7), 1.0, 1e-12);
  expect_derivative(*f, 1.45);
  // one: a full bump back to 0
  auto one = k.drive("cosine, 0., 2*pi, .5, one, 0.");
  EXPECT_NEAR(one->value(0.5), 1.0, 1e-12);
  EXPECT_DOUBLE_EQ(one->value(1.5), 0.0);
  // half (manual's example: pi/T, ends at 2A after T)
  auto half = k.drive("cosine, .1, pi/.5, .5, half, 0.");
  EXPECT_NEAR(half->value(0.35), 0.5, 1e-12);
  EXPECT_DOUBLE_EQ(half->value(0.6), 1.0);
  EXPECT_DOUBLE_EQ(half->value(5.0), 1.0);
  EXPECT_DOUBLE_EQ(half->derivative(5.0), 0.0);
  expect_derivative(*half, 0.3);
  // -2: 1.5 cycles, ends at the top
  auto m2 = k.drive("cosine, 0., 2*pi, 1., -2, 0.");
  EXPECT_DOUBLE_EQ(m2->value(1.6), 2.0);
}

TEST(DrivesFunctions, Exponential) {
  DriveDeck k;
  auto e = k.drive("exponential, 10.0, 0.2, 5.0, 1.0");
  EXPECT_DOUBLE_EQ(e->value(4.0), 1.0);
  EXPECT_DOUBLE_EQ(e->value(5.0), 1.0);
  EXPECT_NEAR(e->value(5.2), 1.0 + 10.0 * (1.0 - std::exp(-1.0)), 1e-12);
  EXPECT_NEAR(e->derivative(5.2), 10.0 / 0.2 * std::exp(-1.0), 1e-10);
  expect_derivative(*e, 5.3);
}

TEST(DrivesFunctions, Step5) {
  DriveDeck k;
  auto s = k.drive("step5, 1., 2., 3., 6.");
  EXPECT_DOUBLE_EQ(s->value(1.0), 2.0);
  EXPECT_DOUBLE_EQ(s->value(3.0), 6.0);
  EXPECT_DOUBLE_EQ(s->value(2.0), 4.0);  // xi = 1/2: 1/8 (10 - 7.5 + 1.5) = 1/2
  const double xi = 0.25;
  EXPECT_NEAR(s->value(1.5), 2.0 + 4.0 * xi * xi * xi * (10 - 15 * xi + 6 * xi * xi), 1e-14);
  expect_derivative(*s, 1.7);
  EXPECT_DOUBLE_EQ(s->derivative(1.0), 0.0);
  EXPECT_DOUBLE_EQ(s->derivative(3.0), 0.0);
}

TEST(DrivesFunctions, Tanh) {
  DriveDeck k;
  auto t = k.drive("tanh, 1., 2., 3., .5");
  EXPECT_DOUBLE_EQ(t->value(1.0), 0.5);
  EXPECT_NEAR(t->value(1.2), 0.5 + 2.0 * std::tanh(0.6), 1e-14);
  EXPECT_NEAR(t->derivative(1.0), 6.0, 1e-14);
  expect_derivative(*t, 1.3);
}

TEST(DrivesFunctions, FourierSeries) {
  DriveDeck k;
  // t0 = 1, w = 2 pi, 2 terms: a0 = 2, (a1, b1) = (1, 0.5), (a2, b2) = (0, 0.25); one cycle
  auto f = k.drive("fourier series, 1., 2*pi, 2, 2., 1., .5, 0., .25, one, 10.");
  auto formula = [](double t) {
    const double tau = t - 1.0, w = 2 * pi;
    return 10.0 + 1.0 + std::cos(w * tau) + 0.5 * std::sin(w * tau) + 0.25 * std::sin(2 * w * tau);
  };
  EXPECT_DOUBLE_EQ(f->value(0.5), 10.0);
  EXPECT_NEAR(f->value(1.3), formula(1.3), 1e-12);
  EXPECT_NEAR(f->value(1.0), formula(1.0), 1e-12);
  EXPECT_DOUBLE_EQ(f->value(2.5), 10.0);  // after one cycle
  expect_derivative(*f, 1.4);
  auto forever = k.drive("fourier series, 0., 1., 1, 0., 0., 1., forever, 0.");
  EXPECT_NEAR(forever->value(100.0), std::sin(100.0), 1e-12);
}

TEST(DrivesFunctions, PiecewiseLinear) {
  DriveDeck k;
  auto p = k.drive("piecewise linear, 3, 0., 0., 1., 2., 3., -2.");
  EXPECT_DOUBLE_EQ(p->value(-1.0), 0.0);  // held beyond the ends
  EXPECT_DOUBLE_EQ(p->value(0.5), 1.0);
  EXPECT_DOUBLE_EQ(p->value(1.0), 2.0);
  EXPECT_DOUBLE_EQ(p->value(2.0), 0.0);
  EXPECT_DOUBLE_EQ(p->value(5.0), -2.0);
  EXPECT_DOUBLE_EQ(p->derivative(0.5), 2.0);
  EXPECT_DOUBLE_EQ(p->derivative(2.0), -2.0);
  EXPECT_DOUBLE_EQ(p->derivative(1.0), 0.0);  // break point: mean of 2 and -2
  EXPECT_DOUBLE_EQ(p->derivative(4.0), 0.0);
}

TEST(DrivesFunctions, ArrayMultNestedPeriodic) {
  DriveDeck k;
  auto a = k.drive("array, 3, const, 1., linear, 0., 2., time");
  EXPECT_DOUBLE_EQ(a->value(2.0), 1.0 + 4.0 + 2.0);
  EXPECT_DOUBLE_EQ(a->derivative(2.0), 3.0);
  auto single = k.drive("array, 1, const, 4.");
  EXPECT_DOUBLE_EQ(single->value(0.0), 4.0);
  auto m = k.drive("mult, linear, 1., 1., sine, 0., 1., 1., forever, 0.");
  EXPECT_NEAR(m->value(2.0), 3.0 * std::sin(2.0), 1e-14);
  expect_derivative(*m, 0.7);
  // drive: outer(inner(t)); manual's example, string outer = max(Var, 0)
  auto n = k.drive("drive, linear, 0., 3., parabolic, 0., 0., 1.");
  EXPECT_DOUBLE_EQ(n->value(2.0), 12.0);
  EXPECT_DOUBLE_EQ(n->derivative(2.0), 12.0);
  auto p = k.drive("periodic, 1.5, 2., linear, 0., 1.");
  EXPECT_DOUBLE_EQ(p->value(1.0), 0.0);
  EXPECT_DOUBLE_EQ(p->value(2.0), 0.5);
  EXPECT_DOUBLE_EQ(p->value(4.0), 0.5);
  EXPECT_DOUBLE_EQ(p->value(9.0), 1.5);
  EXPECT_DOUBLE_EQ(p->derivative(9.0), 1.0);
}

TEST(DrivesFunctions, FrequencySweep) {
  DriveDeck k;
  // w(t) = 1 + t, A(t) = 2: f = 1 + 2 sin((1 + t)(t - 0.5)) on [0.5, 3], then 7
  auto f = k.drive("frequency sweep, .5, linear, 1., 1., const, 2., 1., 3., 7.");
  EXPECT_DOUBLE_EQ(f->value(0.2), 1.0);
  EXPECT_NEAR(f->value(1.5), 1.0 + 2.0 * std::sin(2.5 * 1.0), 1e-14);
  EXPECT_DOUBLE_EQ(f->value(3.5), 7.0);
  expect_derivative(*f, 1.7);
  auto forever = k.drive("frequency sweep, 0., const, 1., const, 1., 0., forever, 7.");
  EXPECT_NEAR(forever->value(50.0), std::sin(50.0), 1e-12);
}

TEST(DrivesFunctions, StringDrive) {
  DriveDeck k;
  auto s = k.drive("string, \"e^(-Time)*cos(2.*pi*Time)\"");
  k.set_time(0.3, 1e-3, 300);
  EXPECT_NEAR(s->value(0.3), std::exp(-0.3) * std::cos(2 * pi * 0.3), 1e-14);
  // The input is the current time, so the difference shifts Time too.
  const double e = std::exp(-0.3), c = std::cos(2 * pi * 0.3), sn = std::sin(2 * pi * 0.3);
  EXPECT_NEAR(s->derivative(0.3), -e * c - 2 * pi * e * sn, 1e-6);
  EXPECT_DOUBLE_EQ(k.math.find_variable("Time")->to_real(), 0.3);  // restored
  // Var is the input (function of function)
  auto v = k.drive("drive, string, \"Var*(Var>0.)\", sine, 0., 2*pi/.2, 10., forever, 0.");
  k.set_time(0.05, 1e-3, 50);
  EXPECT_NEAR(v->value(0.05), 10.0, 1e-12);
  k.set_time(0.15, 1e-3, 150);
  EXPECT_NEAR(v->value(0.15), 0.0, 1e-12);
  // Variables are read at evaluation time (§2.6.35)
  k.math.execute_set("real K = 2.", {});
  auto kv = k.drive("string, \"K*Time\"");
  k.set_time(1.5, 1e-3, 1);
  EXPECT_DOUBLE_EQ(kv->value(1.5), 3.0);
  k.math.execute_set("K = 4.", {});
  EXPECT_DOUBLE_EQ(kv->value(1.5), 6.0);
}

}  // namespace
}  // namespace mbl::drives::test

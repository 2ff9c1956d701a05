// The conditionally explicit central differences of seed 002: stability limits of Table 3 (and
// §5.2) found by bisection, the spectral radii of Table 5, and the energy drift of the simple
// pendulum (Tables 2 and 4). The tables go to build/seeds_central_differences.txt
// (docs/seeds.md).
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <iostream>

#include "integrators/central_differences.hpp"
#include "second_order_problems.hpp"

using namespace mbl::integrators;
using mbl::integrators::testing::AnglePendulum;
using mbl::integrators::testing::LinearOscillator;

namespace {

void say(const std::string& s) { mbl::integrators::testing::table_line("seeds_central_differences.txt", s); }

NewtonOptions tight() { return mbl::integrators::testing::tight_newton(); }

CentralDifferencesParameters params(int degree, double alpha, double beta, double gamma = 0.5, double zeta = 1.0) {
  return {degree, alpha, beta, gamma, zeta};
}

/// Runs q'' = -q (omega = 1) for `steps` steps of h; true if |q| stays below 10.
bool bounded_run(const CentralDifferencesParameters& c, double h, int steps) {
  LinearOscillator p(1.0, 0.0, 1.0);
  p.set_q(Vector::Constant(1, 1.0));
  CentralDifferences m(c);
  CentralDifferencesState s;
  s.d[0] = Vector::Zero(1);
  s.lambda = Vector::Zero(0);
  if (!m.start(p, 0.0, h, s, tight()).converged) return false;
  for (int k = 1; k <= steps; ++k) {
    if (!m.step(p, k * h, h, s, tight()).converged) return false;
    if (!(std::abs(p.q()[0]) < 10.0)) return false;
  }
  return true;
}

/// Maximum energy drift over 10 s of the angle pendulum.
double energy_drift(const CentralDifferencesParameters& c, double h) {
  AnglePendulum p;
  CentralDifferences m(c);
  CentralDifferencesState s;
  s.d[0] = Vector::Zero(1);
  s.lambda = Vector::Zero(0);
  EXPECT_TRUE(m.start(p, 0.0, h, s, tight()).converged);
  const double E0 = p.energy(0.0);
  double worst = 0.0;
  const int steps = static_cast<int>(std::lround(10.0 / h));
  for (int k = 1; k <= steps; ++k) {
    EXPECT_TRUE(m.step(p, k * h, h, s, tight()).converged);
    worst = std::max(worst, std::abs(p.energy(s.d[0][0]) - E0));
  }
  return worst;
}

}  // namespace

TEST(CentralDifferences, StabilityLimitsOfTable3ByBisection) {
  struct Row {
    CentralDifferencesParameters c;
    const char* name;
    double paper;
  };
  const Row rows[] = {{params(3, 1.0, 0.5), "degree 3, alpha 1, beta 1/2", 2.0},
                      {params(3, 4.0 / 3, 0.5), "degree 3, alpha 4/3, beta 1/2", 1.549},
                      {params(3, 2.0, 0.5), "degree 3, alpha 2, beta 1/2", 1.154},
                      {params(4, 0.25, 1.0 / 3, 0.5), "degree 4, alpha 1/4, beta 1/3, gamma 1/2", 1.264911},
                      {params(4, 0.75, 1.0 / 3, 0.5), "degree 4, alpha 3/4, beta 1/3, gamma 1/2", 1.7310020041}};
  say("Central differences: stability limit Omega = omega dt (seed 002 Table 3, §5.2)\n");
  say("parameters                                   paper          bisection (spectral radius)  bisection (runs)\n");
  for (const Row& r : rows) {
    const CentralDifferences m(r.c);
    // Bisection on dt of 4000-step runs of q'' = -q: bounded below the limit, growing above.
    double lo = 0.5, hi = 2.5;
    for (int k = 0; k < 30; ++k) {
      const double mid = 0.5 * (lo + hi);
      (bounded_run(r.c, mid, 4000) ? lo : hi) = mid;
    }
    say(fmt::format("{:<44} {:<14.6g} {:<28.6f} {:.4f}\n", r.name, r.paper, m.stability_limit(), lo));
    EXPECT_NEAR(m.stability_limit(), r.paper, 1.5e-3) << r.name;
    EXPECT_NEAR(lo, r.paper, 2e-2) << r.name;
  }
}

TEST(CentralDifferences, UnstableFourthDegreeSpectralRadiiOfTable5) {
  const CentralDifferences m(params(4, 1.25, 1.0 / 3, 0.5));
  EXPECT_EQ(m.stability_limit(), 0.0);
  say("\nDegree 4, alpha 5/4, beta 1/3, gamma 1/2: spectral radius (seed 002 Table 5)\n");
  say("omega dt  paper               ours\n");
  const double paper[] = {1.0033389, 1.00003333389, 1.000000333333389};
  int k = 0;
  for (double W : {0.1, 0.01, 0.001}) {
    say(fmt::format("{:<9} {:<19.15g} {:.15g}\n", W, paper[k], m.spectral_radius(W)));
    EXPECT_NEAR(m.spectral_radius(W) - 1.0, paper[k] - 1.0, 1e-3 * (paper[k] - 1.0) + 1e-12);
    ++k;
  }
}

TEST(CentralDifferences, PendulumEnergyDriftOfTables2And4) {
  struct Col {
    CentralDifferencesParameters c;
    const char* name;
    double paper[2];  // dt = 1e-3, 1e-4
  };
  const Col cols[] = {{params(3, 1.0, 0.5), "deg 3, alpha 1", {2.00492e-5, 2.00492e-7}},
                      {params(3, 4.0 / 3, 0.5), "deg 3, alpha 4/3", {1.27955e-5, 1.21061e-7}},
                      {params(3, 2.0, 0.5), "deg 3, alpha 2", {3.85689e-6, 3.99453e-8}},
                      {params(4, 0.25, 1.0 / 3, 0.5), "deg 4, alpha 1/4", {8.67265e-7, 8.6753e-10}},
                      {params(4, 0.75, 1.0 / 3, 0.5), "deg 4, alpha 3/4", {4.3364e-7, 4.33685e-10}}};
  say("\nSimple pendulum (IFToMM, 10 s): maximum energy drift, J (seed 002 Tables 2 and 4)\n");
  say("method              dt      paper         ours\n");
  for (const Col& c : cols) {
    int k = 0;
    for (double h : {1e-3, 1e-4}) {
      const double ours = energy_drift(c.c, h);
      say(fmt::format("{:<19} {:<7} {:<13.6g} {:.6g}\n", c.name, h, c.paper[k], ours));
      EXPECT_NEAR(ours / c.paper[k], 1.0, 2e-3) << c.name << " dt " << h;
      ++k;
    }
  }
}

/// Seed 002 eq. 74 (the fifth-degree amplification on (q_{t+h}, q', q'', q''', q'''')) with its
/// entry (1, 5) = (c15 - (alpha + 4 beta + 4 zeta) / (24 gamma)) h^4 given; the row of q''(t),
/// -omega^2 q_t, is the one the printed matrix leaves out.
static double eq74_spectral_radius(double a, double b, double g, double z, double c15, double h) {
  const double S = a + 4 * b + 4 * z;
  Eigen::MatrixXd A(5, 5);
  A << 1 - (a + 4 * b + 6 * g + 4 * z) / (12 * g) * h * h, h, (1 - S / (12 * g)) * h * h,
      (2.0 / 3 - S / (12 * g)) * h * h * h, (c15 - S / (24 * g)) * std::pow(h, 4),  //
      -b / (3 * g) * h, 1, (1 - b / (3 * g)) * h, (0.5 - b / (3 * g)) * h * h, (1.0 / 6 - b / (6 * g)) * h * h * h,
      -1, 0, 0, 0, 0,  //
      -2 * z / g / h, 0, -2 * z / g / h, 1 - 2 * z / g, (1 - z / g) * h,  //
      -2 / g / h / h, 0, -2 / g / h / h, -2 / g / h, 1 - 1 / g;
  return A.eigenvalues().cwiseAbs().maxCoeff();
}

// The fifth degree with alpha = 4/5, beta = gamma = zeta = 1 (seed 002 §5.3, "stable for
// omega dt <= 0.6"): eqs. 69-72 give eq. 74 except its entry (1, 5), 3/8 where the paper prints
// 3/4; with 3/8 (our method) the spectral radius exceeds one for every step, with the printed
// 3/4 it stays near one up to ~0.65 and jumps above.
TEST(CentralDifferences, FifthDegreeAmplificationAgainstEq74) {
  const CentralDifferences m(params(5, 0.8, 1.0, 1.0, 1.0));
  say("\nDegree 5, alpha 4/5, beta = gamma = zeta = 1: spectral radius (seed 002 eq. 74, §5.3)\n");
  say("omega dt  ours (eqs. 69-72)  eq. 74 with 3/8    eq. 74 as printed (3/4)\n");
  for (double W : {0.01, 0.1, 0.3, 0.5, 0.6, 0.65, 0.7}) {
    const double ours = m.spectral_radius(W);
    say(fmt::format("{:<9} {:<18.9f} {:<18.9f} {:.9f}\n", W, ours, eq74_spectral_radius(0.8, 1, 1, 1, 0.375, W),
                    eq74_spectral_radius(0.8, 1, 1, 1, 0.75, W)));
    EXPECT_NEAR(ours, eq74_spectral_radius(0.8, 1, 1, 1, 0.375, W), 1e-9) << W;
  }
  EXPECT_EQ(m.stability_limit(), 0.0);
}

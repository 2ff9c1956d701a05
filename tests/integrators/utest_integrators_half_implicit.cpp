// Half-implicit index-3 integration (seed 003): first-order convergence of positions and
// velocities on the constrained pendulum, constraints met at every step, and a bounded energy
// error over 100 s (the method is symplectic, seed 003 Fig. 3). Table in
// build/seeds_half_implicit.txt (docs/seeds.md).
#include <gtest/gtest.h>

#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <iostream>

#include "integrators/generalized_alpha.hpp"
#include "integrators/half_implicit.hpp"
#include "second_order_problems.hpp"

using namespace mbl::integrators;
using mbl::integrators::testing::CartesianPendulum;

namespace {

void say(const std::string& s) { mbl::integrators::testing::table_line("seeds_half_implicit.txt", s); }

NewtonOptions tight() { return mbl::integrators::testing::tight_newton(); }

struct PendulumRun {
  Eigen::Vector2d q, v;
  double worst_phi = 0, worst_energy = 0;
};

PendulumRun run(double h, double t_end) {
  CartesianPendulum p(1.0, 1.0, 9.81, 0.3);
  HalfImplicitState s{Vector::Zero(2), Vector::Zero(2), Vector::Zero(1)};
  auto energy = [&](const Vector& v) { return 0.5 * v.squaredNorm() + 9.81 * p.q()[1]; };
  const double E0 = energy(s.v);
  PendulumRun out;
  const int steps = static_cast<int>(std::lround(t_end / h));
  for (int k = 0; k < steps; ++k) {
    const StepResult r = half_implicit_step(p, k * h, h, s, tight());
    EXPECT_TRUE(r.converged) << r.message;
    out.worst_phi = std::max(out.worst_phi, std::abs(0.5 * (p.q().squaredNorm() - 1.0)));
    out.worst_energy = std::max(out.worst_energy, std::abs(energy(s.v) - E0));
  }
  out.q = p.q();
  out.v = s.v;
  return out;
}

}  // namespace

TEST(HalfImplicit, FirstOrderConvergenceOnTheConstrainedPendulum) {
  const PendulumRun ref = run(1e-5, 1.0);
  say("Half-implicit index-3, constrained pendulum (L = 1, theta0 = 0.3), errors at t = 1 against h = 1e-5\n");
  say("h        |q - q_ref|  order  |v - v_ref|  order  max|Phi|\n");
  double prev_q = 0, prev_v = 0;
  for (double h : {4e-3, 2e-3, 1e-3, 5e-4}) {
    const PendulumRun r = run(h, 1.0);
    const double eq = (r.q - ref.q).norm(), ev = (r.v - ref.v).norm();
    EXPECT_LE(r.worst_phi, 1e-12);
    if (prev_q > 0) {
      const double oq = std::log2(prev_q / eq), ov = std::log2(prev_v / ev);
      say(fmt::format("{:<8} {:<12.3e} {:<6.2f} {:<12.3e} {:<6.2f} {:.1e}\n", h, eq, oq, ev, ov, r.worst_phi));
      EXPECT_NEAR(oq, 1.0, 0.15) << h;
      EXPECT_GT(ov, 0.9) << h;  // at least first order (here the velocities at t = 1 do better)
    } else {
      say(fmt::format("{:<8} {:<12.3e} {:<6} {:<12.3e} {:<6} {:.1e}\n", h, eq, "", ev, "", r.worst_phi));
    }
    prev_q = eq;
    prev_v = ev;
  }
}

TEST(HalfImplicit, BoundedEnergyErrorOver100Seconds) {
  // Symplectic: the energy error oscillates with an O(h) amplitude and does not drift.
  const PendulumRun r10 = run(1e-3, 10.0), r100 = run(1e-3, 100.0);
  say(fmt::format("\nmax |E - E0| over 10 s: {:.3e} J, over 100 s: {:.3e} J (h = 1e-3)\n", r10.worst_energy,
                  r100.worst_energy));
  EXPECT_LT(r100.worst_energy, 0.05);
  EXPECT_LT(r100.worst_energy, 1.2 * r10.worst_energy);
}

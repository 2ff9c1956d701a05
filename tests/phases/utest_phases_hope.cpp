// `method: hope` on a coarse step: a pendulum at h = 1e-2 follows MBDyn's HOPE step by step
// (stepsol_impl.cc HopeSolver::SetCoef, dPredState; solver.cc: the first regular step is
// MBDyn's CrankNicolsonIntegrator). HopeSolver starts with its flag at 0 and flips it at every
// new step, so after the Crank-Nicolson step 1 the even steps are trapezoidal,
//     x_n = x_{n-1} + h/2 (x'_n + x'_{n-1}),
// and the odd steps from 3 on the two-step formula with A = 4 rho / (3 + rho),
//     x_n = (4 - A)/3 x_{n-1} + (A - 1)/3 x_{n-2} + h (4 - A)/6 x'_n + h A/2 x'_{n-1}.
// The node's written velocity is the x' of its position; MBDyn's update keeps each formula
// exactly (x += b0 dx'), so the velocity the step's formula gives from our positions and the
// previous velocity is the velocity we write, to round-off.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_program.hpp"

namespace {

struct Record {
  double x[3], v[3];
};

/// Node 2's records of a .mov file.
std::vector<Record> node_records(const std::string& mov, int label) {
  std::vector<Record> out;
  std::istringstream in(mov);
  for (std::string line; std::getline(in, line);) {
    std::istringstream ls(line);
    int l = 0;
    double phi[3];
    Record r;
    ls >> l >> r.x[0] >> r.x[1] >> r.x[2] >> phi[0] >> phi[1] >> phi[2] >> r.v[0] >> r.v[1] >> r.v[2];
    if (ls && l == label) out.push_back(r);
  }
  return out;
}

}  // namespace

TEST(Hope, CoarsePendulumFollowsMbdynsStepSequence) {
  const double h = 1e-2, rho = 0.6;
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value;
  initial time: 0.; final time: 0.3; time step: 1e-2; max iterations: 20; tolerance: 1e-10;
  method: hope, .6;
end: initial value;
begin: control data; structural nodes: 1; rigid bodies: 1; joints: 1; gravity; output precision: 17; end: control data;
begin: nodes;
  structural: 2, dynamic, 2., 0., 0., eye, null, null;
end: nodes;
begin: elements;
  # a rigid pendulum: the node 2 m from a pin at the origin about the global y axis
  joint: 1, revolute pin, 2, position, -2., 0., 0., orientation, 3, 0., 1., 0., 1, 1., 0., 0.,
    position, null, orientation, 3, 0., 1., 0., 1, 1., 0., 0.;
  body: 2, 2, 3., null, diag, .1, .1, .1;
  gravity: uniform, 0., 0., -1., const, 9.81;
end: elements;
)";
  const auto run = mbl::test::run_deck_text("hope_pendulum", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const std::vector<Record> rec = node_records(mbl::test::read_file(run.output("mov")), 2);
  ASSERT_EQ(rec.size(), 31u);  // t = 0 and 30 steps
  const double A = 4.0 * rho / (3.0 + rho);
  const double a1 = (4.0 - A) / 3.0, a2 = (A - 1.0) / 3.0, b0 = h * (4.0 - A) / 6.0, b1 = h * A / 2.0;
  double largest_other = 0.0;  // how far the other formula of each step is from our velocity
  for (std::size_t n = 1; n < rec.size(); ++n) {
    for (int k = 0; k < 3; ++k) {
      const double x = rec[n].x[k], x1 = rec[n - 1].x[k], v1 = rec[n - 1].v[k];
      const double v_trapezoidal = 2.0 * (x - x1) / h - v1;
      const bool two_step = n >= 3 && n % 2 == 1;
      double v_mbdyn = v_trapezoidal;
      if (n >= 2) {
        const double v_two_step = (x - a1 * x1 - a2 * rec[n - 2].x[k] - b1 * v1) / b0;
        if (two_step) v_mbdyn = v_two_step;
        largest_other = std::max(largest_other, std::abs((two_step ? v_trapezoidal : v_two_step) - rec[n].v[k]));
      }
      EXPECT_NEAR(rec[n].v[k], v_mbdyn, 1e-9) << "step " << n << " component " << k;
    }
  }
  // The swinging pendulum tells the two formulas apart: the wrong one misses by far more.
  EXPECT_GT(largest_other, 1e-5);
}

// The `piezoelectric actuator` sub-card of beam2/beam3 (input manual §8.3.2): an electrode
// voltage V adds T V to the sections' internal forces. A free cantilever with an actuation moment
// t V about y bends until the elastic moment cancels it: curvature -t V / EI.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "support/run_program.hpp"

using namespace mbl;

TEST(PiezoBeam, ActuationMomentBendsAFreeCantileverByMinusTVOverEI) {
  // The electrode holds V = F / k through a spring support and an abstract force.
  const double EI = 1.0e3, t = 2.0, V = 0.05, L = 1.0;
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 0.5; tolerance: 1e-9; max iterations: 20; end: initial value;
begin: control data; structural nodes: 3; abstract nodes: 1; joints: 1; beams: 1; genels: 1; forces: 1; output precision: 16; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, static, .5, 0., 0., eye, null, null;
  structural: 3, static, 1., 0., 0., eye, null, null;
  abstract: 11, algebraic;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  beam3: 1, 1, null, 2, null, 3, null, eye,
    linear elastic generic, diag, 1.e6, 1.e6, 1.e6, 1.e4, 1.e3, 1.e3, same, same,
    piezoelectric actuator, 1, 11, 0., 0., 0., 0., 2., 0., same;
  genel: 12, spring support, 11, abstract, algebraic, linear elastic, 4.;
  force: 11, abstract, 11, abstract, const, 0.2;
end: elements;
)";
  const auto run = test::run_deck_text("piezo_cantilever", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  // Small rotation: tip rotation about y -t V L / EI (degrees in the .mov).
  const double theta = -t * V * L / EI;
  const auto mov = test::last_record(run.output("mov"), 3);
  EXPECT_NEAR(mov[4], theta * 180.0 / M_PI, 1e-6 * std::abs(theta) * 180.0 / M_PI);
  EXPECT_NEAR(mov[2], -0.5 * theta * L, 1e-6 * std::abs(theta));  // z = -kappa L^2 / 2 for rotation about y
  // The sections carry no net moment: the elastic moment cancels the actuation.
  const auto act = test::last_record(run.output("act"), 1);
  ASSERT_EQ(act.size(), 12u);
  EXPECT_NEAR(act[4], 0.0, 1e-9);
  EXPECT_NEAR(act[10], 0.0, 1e-9);
}

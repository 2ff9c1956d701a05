// Screw joint (input manual §8.12.44, technical manual §9.1.16): finite-difference Jacobian and
// the constrained motion of a body driven by a couple about the screw axis.
#include <gtest/gtest.h>

#include <cmath>

#include "elements/joints/screw.hpp"
#include "support/element_fixture.hpp"
#include "support/run_program.hpp"

using namespace mbl;
using namespace mbl::elements;

TEST(ScrewJoint, JacobianAgainstFiniteDifferences) {
  // Generic node states (finite relative rotation), offsets on both sides, a tilted axis.
  for (double pitch : {0.3, -1.7}) {
    test_support::ElementFixture f;
    f.model.add_element(std::make_unique<ScrewJoint>(1, f.att(f.n1, 1), f.att(f.n2, 2), pitch));
    const auto r = f.check();
    EXPECT_LT(r.max_error, 1e-6) << pitch << ": " << r.str();
  }
}

namespace {

/// Node 2 (dynamic, at z = 0.5) may only rotate about z and move along z (a total joint to the
/// clamped node 1); joint 3 is the screw along node 1's axis 3, `screw` its card after the nodes
/// (pitch, friction); `loads` the body and the loads.
std::string screw_deck(const std::string& screw, const std::string& loads, const std::string& control) {
  return R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-3; tolerance: 1e-9; max iterations: 50;
  derivatives coefficient: 1e-7; derivatives max iterations: 20; end: initial value;
begin: control data; structural nodes: 2; rigid bodies: 1; joints: 3; )" + control + R"( end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, dynamic, 0., 0., .5, eye, null, null;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  joint: 2, total joint,
    1, position, null, position orientation, eye, rotation orientation, eye,
    2, position, 0., 0., -.5, position orientation, eye, rotation orientation, eye,
    position constraint, active, active, inactive, null,
    orientation constraint, active, active, inactive, null;
  joint: 3, screw, 1, position, null, orientation, eye, 2, offset, 0., 0., -.5, )" + screw + R"(;
)" + loads + R"(
end: elements;
)";
}

}  // namespace

TEST(ScrewJoint, CoupleDrivesRotationAndAdvanceAlongTheAxis) {
  // Node 2 (mass m, inertia J about z) may only rotate about z and move along z; the screw ties
  // z = k theta, k = P / 2 pi. A couple C about z: (J + m k^2) theta'' = C, so from rest
  // theta(t) = C t^2 / (2 (J + m k^2)). The axis of the joint is node 1's axis 3.
  const std::string deck = screw_deck("pitch, .25",
                                      "  body: 2, 2, 3., null, diag, 1., 1., 2.;\n"
                                      "  couple: 1, absolute, 2, 0., 0., 1., const, 5.;",
                                      "forces: 1;");
  const auto run = test::run_deck_text("screw", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const double k = 0.25 / (2.0 * M_PI), theta = 5.0 / (2.0 * (2.0 + 3.0 * k * k));
  const auto jnt = test::last_record(run.output("jnt"), 3);
  ASSERT_EQ(jnt.size(), 20u);
  EXPECT_NEAR(jnt[12] * M_PI / 180.0, theta, 1e-5);  // unwrapped angle, degrees
  EXPECT_NEAR(jnt[13], k * theta, 1e-6);  // e . d, d from node 1 to the offset point of node 2
  const auto mov = test::last_record(run.output("mov"), 2);
  ASSERT_GE(mov.size(), 6u);
  EXPECT_NEAR(mov[2], 0.5 + k * theta, 1e-6);
  // Axial force: the node's axial acceleration times its mass, m k theta''.
  EXPECT_NEAR(jnt[2], 3.0 * k * 5.0 / (2.0 + 3.0 * k * k), 1e-6);
}

// ---- friction (`screw joint` shape, §2.8.2) -------------------------------------------------------

namespace {

/// A nut (node 2, mass 3) on a vertical screw of pitch 0.005 under its weight; the thread has
/// radius 0.01 and half thread angle 0.5 rad; modlugre friction with coefficient `mu` (discrete
/// coulomb cannot start: MBDyn's screw friction scales with the axial load, zero at the start).
std::string nut_deck(double mu) {
  return screw_deck("pitch, .005, friction, modlugre, 1.e3, 30., 0., .5, \"mu\", const, " + test::number_text(mu) +
                        ", screw joint, radius, .01, half thread angle, .5",
                    "  body: 2, 2, 3., null, diag, 1.e-3, 1.e-3, 2.e-3;\n"
                    "  gravity: uniform, 0., 0., -1., const, 9.81;",
                    "gravity;");
}

}  // namespace

TEST(ScrewJointFriction, SelfLocksWhenTheThreadFrictionSuffices) {
  // Holding the weight W needs the moment W k (k = p / 2 pi) from the thread. The nut would run
  // down (v < 0, f < 0): r |f| sec (1 + t^2) / (1 + |f| sec t) = k, t = p / (2 pi r), i.e.
  // |f*| = k / (r sec (1 + t^2) - k sec t) = 0.0698.
  const double k = 0.005 / (2.0 * M_PI), t = 0.005 / (2.0 * M_PI * 0.01), sec = 1.0 / std::cos(0.5);
  const double f_star = k / (0.01 * sec * (1.0 + t * t) - k * sec * t);
  const auto stuck = test::run_deck_text("screw_friction_stuck", nut_deck(0.2));
  ASSERT_EQ(stuck.rc, 0) << stuck.log();
  // The bristles deflect by f* / sigma0 (the nut turns by that over r / cos(pitch angle)), then stick.
  EXPECT_NEAR(test::last_record(stuck.output("mov"), 2).at(2), 0.5, 1e-5);
  const auto jnt = test::last_record(stuck.output("jnt"), 3);
  ASSERT_EQ(jnt.size(), 25u);  // 4 x 3 reactions, 8 screw columns, vrel, fc, M e
  EXPECT_NEAR(jnt[21], -f_star, 1e-6);
  EXPECT_NEAR(jnt[20], 0.0, 1e-7);  // no sliding
  EXPECT_NEAR(std::abs(jnt[24]), 3.0 * 9.81 * k, 1e-6);  // the friction moment holds the weight
  // Below f* the nut runs down the screw.
  const auto sliding = test::run_deck_text("screw_friction_sliding", nut_deck(0.03));
  ASSERT_EQ(sliding.rc, 0) << sliding.log();
  EXPECT_LT(test::last_record(sliding.output("mov"), 2).at(2), 0.5 - 1e-4);
}

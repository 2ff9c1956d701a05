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

TEST(ScrewJoint, CoupleDrivesRotationAndAdvanceAlongTheAxis) {
  // Node 2 (mass m, inertia J about z) may only rotate about z and move along z; the screw ties
  // z = k theta, k = P / 2 pi. A couple C about z: (J + m k^2) theta'' = C, so from rest
  // theta(t) = C t^2 / (2 (J + m k^2)). The axis of the joint is node 1's axis 3.
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-3; tolerance: 1e-10; end: initial value;
begin: control data; structural nodes: 2; rigid bodies: 1; joints: 3; forces: 1; end: control data;
set: real P = .25;
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
  joint: 3, screw, 1, position, null, orientation, eye, 2, offset, 0., 0., -.5, pitch, P;
  body: 2, 2, 3., null, diag, 1., 1., 2.;
  couple: 1, absolute, 2, 0., 0., 1., const, 5.;
end: elements;
)";
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

// Rigid body kinematics (input manual §5.3.17): the apparent loads of the bodies and the
// Coriolis terms of the dynamic nodes against finite differences, and two limiting cases: a mass
// at rest in the inertial frame seen from a frame spinning at W turns by -W t, and a free mass in
// a frame accelerating at a0 falls back as -a0 t^2 / 2.
#include <gtest/gtest.h>

#include "elements/bodies/body.hpp"
#include "elements/bodies/rigid_body_kinematics.hpp"
#include "support/element_fixture.hpp"
#include "support/run_program.hpp"

using namespace mbl;
using namespace mbl::elements;

TEST(RigidBodyKinematicsJacobian, BodiesWithOffsetsOnSpinningNodes) {
  test_support::ElementFixture f;
  for (StructNode* n : {f.n1, f.n2}) {
    BodyParams p;
    p.mass = 1.5 + n->label();
    p.b_N = Vec3(0.1, -0.2 * n->label(), 0.3);
    p.J_cm_N << 2.0, 0.1, -0.2, 0.1, 3.0, 0.3, -0.2, 0.3, 4.0;
    f.model.add_element(std::make_unique<Body>(n->label(), *n, p));
  }
  RigidBodyKinematics::Params p;
  p.W = [](double t) { return Vec3(0.3, -0.2 + t, 0.5); };
  p.dW = [](double) { return Vec3(0.1, 0.4, -0.3); };
  p.a0 = [](double) { return Vec3(1.0, -2.0, 0.5); };
  f.model.add_element(std::make_unique<RigidBodyKinematics>(p));
  const auto r = f.check(0.37);
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

namespace {

std::string free_mass_deck(const std::string& rbk, const std::string& x0, const std::string& v0) {
  return "begin: data; problem: initial value; end: data;\n"
         "begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-3; tolerance: 1e-10;\n"
         "  max iterations: 20; end: initial value;\n"
         "begin: control data; structural nodes: 1; rigid bodies: 1;\n"
         "  rigid body kinematics: " + rbk + ";\n"
         "end: control data;\n"
         "begin: nodes; structural: 1, dynamic, " + x0 + ", eye, " + v0 + ", null; end: nodes;\n"
         "begin: elements; body: 1, 1, 2., null, diag, 1., 1., 1.; end: elements;\n";
}

}  // namespace

TEST(RigidBodyKinematicsLimits, MassAtRestSeenFromASpinningFrame) {
  // W = 2 about z; x0 = (1, 0, 0), relative velocity -W x x0 = (0, -2, 0).
  const auto run = test::run_deck_text("rbk_spin", free_mass_deck("const, angular velocity, 0., 0., 2.",
                                                                  "1., 0., 0.", "0., -2., 0."));
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto mov = test::records(run.output("mov"), 1);
  ASSERT_GE(mov.size(), 1001u);
  for (std::size_t i : {250u, 1000u}) {
    const double t = 1e-3 * static_cast<double>(i);
    EXPECT_NEAR(mov[i][0], std::cos(2.0 * t), 1e-5) << t;
    EXPECT_NEAR(mov[i][1], -std::sin(2.0 * t), 1e-5) << t;
    EXPECT_NEAR(mov[i][2], 0.0, 1e-12) << t;
  }
}

TEST(RigidBodyKinematicsLimits, FreeMassInAnAcceleratingFrame) {
  const auto run = test::run_deck_text("rbk_accel", free_mass_deck("drive, acceleration, single, 1., 0., -2., const, 3.",
                                                                   "null", "null"));
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto mov = test::records(run.output("mov"), 1);
  ASSERT_GE(mov.size(), 1001u);
  const double t = 1.0;
  EXPECT_NEAR(mov[1000][0], -3.0 * t * t / 2, 1e-9);
  EXPECT_NEAR(mov[1000][2], 6.0 * t * t / 2, 1e-9);
}

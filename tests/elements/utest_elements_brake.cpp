// Brake (input manual §8.12.5): Jacobian against finite differences with both friction models,
// and a wheel braked by a constant normal force: while it slides the angular velocity falls
// linearly, w = w0 - mu N r t / J, then the wheel stays at rest.
#include <gtest/gtest.h>

#include "elements/joints/brake.hpp"
#include "support/element_fixture.hpp"
#include "support/run_program.hpp"

using namespace mbl;
using namespace mbl::elements;

TEST(BrakeJacobian, ModLugreAndDiscreteCoulomb) {
  auto mu = std::make_shared<drives::ConstScalarFunction>(0.3);
  for (bool lugre : {true, false}) {
    for (double state : {0.01, 0.9}) {
      test_support::ElementFixture f;
      std::unique_ptr<FrictionModel> model;
      if (lugre) model = std::make_unique<ModLugreFriction>(20.0, 2.8, 0.1, 0.71, mu);
      else model = std::make_unique<DiscreteCoulombFriction>(mu, 0.05, 0.8);
      auto& b = f.model.add_element(std::make_unique<Brake>(
          1, f.att(f.n1, 1), f.att(f.n2, 2),
          std::make_unique<JointFriction>(std::move(model), FrictionShape::Simple, 0.5, 0.05),
          std::make_shared<ConstDrive>(12.0)));
      auto set = [&b, state](Vector& y) { y[b.first_index()] = state; };
      f.check(0.37, set);  // discrete coulomb: a first residual switches to sliding above fs(0)
      const auto r = f.check(0.37, set);
      EXPECT_LT(r.max_error, 1e-6) << lugre << " " << state << ": " << r.str();
    }
  }
}

TEST(BrakeLimits, WheelBrakedByAConstantNormalForce) {
  // J = 1, w0 = 10, mu = 0.2, N = 50, r = 0.1: braking torque 1, at rest after 10 s.
  const std::string deck =
      "begin: data; problem: initial value; end: data;\n"
      "begin: initial value; initial time: 0.; final time: 12.; time step: 1.e-3; tolerance: 1e-9;\n"
      "  max iterations: 20; derivatives max iterations: 20; end: initial value;\n"
      "begin: control data; structural nodes: 2; rigid bodies: 1; joints: 3; end: control data;\n"
      "begin: nodes;\n"
      "  structural: 1, static, null, eye, null, null;\n"
      "  structural: 2, dynamic, null, eye, null, 0., 0., 10.;\n"
      "end: nodes;\n"
      "begin: elements;\n"
      "  joint: 1, clamp, 1, node, node;\n"
      "  joint: 2, revolute hinge, 1, null, 2, null;\n"
      "  joint: 3, brake, 1, null, 2, null, friction, 0.1, modlugre, 1.e3, 0., 0., 0.5, \"mu\", const, 0.2,\n"
      "    simple, const, 50.;\n"
      "  body: 2, 2, 1., null, diag, 1., 1., 1.;\n"
      "end: elements;\n";
  const auto run = test::run_deck_text("brake_wheel", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto mov = test::records(run.output("mov"), 2);
  ASSERT_GE(mov.size(), 12001u);
  EXPECT_NEAR(mov[5000][11], 5.0, 0.01);  // w_z at t = 5 s
  EXPECT_NEAR(mov[8000][11], 2.0, 0.01);
  EXPECT_NEAR(mov[12000][11], 0.0, 0.05);  // at rest (rocking on the bristles)
  // .jnt: the moment about the axis, then E (3), w (3), friction coefficient, N.
  const auto jnt = test::records(run.output("jnt"), 3);
  ASSERT_GE(jnt.size(), 5001u);
  EXPECT_NEAR(jnt[5000][5], -1.0, 0.02);  // M3 = f N r with f = -0.2 sliding (w_1 - w_2 < 0)
  EXPECT_NEAR(jnt[5000][18], -0.2, 1e-3);
  EXPECT_NEAR(jnt[5000][19], 50.0, 1e-12);
}

// `joint regularization` of types dynamic and jacobian (MBDyn's jointreg.cc
// DynamicRegularization, JacobianRegularization; input manual §8.13).
#include <gtest/gtest.h>

#include <string>

#include "mbdyn-like/model/model_builder.hpp"
#include "support/clamped_body_deck.hpp"
#include "support/jacobian_check.hpp"
#include "support/run_program.hpp"

using namespace mbl;

namespace {

std::string pendulum(const std::string& regularization) {
  return test::clamped_body_deck(
      "initial time: 0.; final time: 0.1; time step: 1.e-3; tolerance: 1e-10; max iterations: 30;",
      std::string("joints: 2; gravity; ") + (regularization.empty() ? "" : "joint regularizations: 1; ") +
          "output precision: 16;",
      "joint: 2, spherical hinge, 1, null, 2, -1., 0., 0.;\n"
      "  gravity: uniform, 0., 0., -1., const, 9.81;\n  " + regularization);
}

}  // namespace

TEST(JointRegularization, DynamicUsesTheMultipliersOfThePreviousResidualResetAtConvergence) {
  BuildResult b = read_deck_text("dynamic", pendulum("joint regularization: 2, dynamic, 1e-3;"));
  ASSERT_EQ(b.not_implemented, 0u);
  Model& m = *b.model;
  m.setup_elements();
  m.number_dofs();
  Vector y, yp, r;
  m.initial_state(y, yp);
  const Element* joint = m.find_element("joint", 2);
  ASSERT_NE(joint, nullptr);
  const int l = joint->first_index();
  for (int k = 0; k < 3; ++k) y[l + k] = 2.0 + k;
  m.after_predict(0.1, y, yp);
  m.update(0.1, y, yp);
  Vector r_bare;
  {
    BuildResult bare = read_deck_text("bare", pendulum(""));
    Model& mb = *bare.model;
    mb.setup_elements();
    mb.number_dofs();
    mb.after_predict(0.1, y, yp);
    mb.update(0.1, y, yp);
    mb.residual(0.1, 0.5, r_bare, nullptr);
  }
  m.residual(0.1, 0.5, r, nullptr);  // first evaluation: no previous multipliers
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(r[l + k], r_bare[l + k], 1e-14);
  for (int k = 0; k < 3; ++k) y[l + k] = 5.0 + k;
  m.update(0.1, y, yp);
  m.residual(0.1, 0.5, r, nullptr);  // the multipliers of the first evaluation
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(r[l + k] - r_bare[l + k], -1e-3 * (2.0 + k), 1e-14);
  m.after_convergence(0.1, y, yp);
  m.residual(0.1, 0.5, r, nullptr);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(r[l + k], r_bare[l + k], 1e-14);
}

TEST(JointRegularization, JacobianLeavesTheResidualAndSoTheSolutionOfTheBareJoint) {
  const auto bare = test::run_deck_text("jreg_bare", pendulum(""));
  const auto reg = test::run_deck_text("jreg_jacobian", pendulum("joint regularization: 2, jacobian, list, 1e-9, 1e-9, 1e-9;"));
  ASSERT_EQ(bare.rc, 0) << bare.log();
  ASSERT_EQ(reg.rc, 0) << reg.log();
  const auto a = test::last_record(bare.output("mov"), 2), b = test::last_record(reg.output("mov"), 2);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < 3; ++k) EXPECT_NEAR(a[k], b[k], 1e-9) << k;
  EXPECT_NEAR(a[2], -0.5 * 9.81 * 0.01 / 2.0, 2e-4);  // it fell: z = -g t^2 / 4 (m L^2 = J = 1)
  const auto dyn = test::run_deck_text("jreg_dynamic", pendulum("joint regularization: 2, dynamic;"));
  ASSERT_EQ(dyn.rc, 0) << dyn.log();
  const auto d = test::last_record(dyn.output("mov"), 2);
  for (std::size_t k = 0; k < 3; ++k) EXPECT_NEAR(a[k], d[k], 1e-4) << k;  // default c = 1e-6
}

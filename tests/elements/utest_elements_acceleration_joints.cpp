// Linear and angular acceleration joints (input manual §8.12.29, §8.12.1): Jacobian against
// finite differences, and a mass pushed by an imposed acceleration against the closed form.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "elements/bodies/body.hpp"
#include "elements/joints/acceleration_joints.hpp"
#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/core/rotations.hpp"
#include "support/jacobian_check.hpp"
#include "support/run_program.hpp"

using namespace mbl;
using namespace mbl::elements;

namespace {

using T = StructNode::Type;
using Kind = AccelerationJoint::Kind;

test_support::JacobianCheck check(Kind kind, T type) {
  Model model;
  StructNode::InitialConditions ic;
  ic.x_W = Vec3(0.3, -0.2, 0.1);
  ic.R_WN = rot::euler123_to_R(Vec3(0.2, -0.4, 0.7));
  ic.v_W = Vec3(0.5, 0.1, -0.3);
  ic.w_W = Vec3(0.4, -0.8, 1.2);
  auto& n = static_cast<StructNode&>(model.add_node(std::make_unique<StructNode>(1, type, ic)));
  if (type == T::Dynamic) {
    BodyParams p;
    p.mass = 2.0;
    p.J_cm_N = Vec3(0.3, 0.4, 0.5).asDiagonal();
    model.add_element(std::make_unique<Body>(2, n, p));
  }
  model.add_element(
      std::make_unique<AccelerationJoint>(3, kind, n, Vec3(1.0, 2.0, -0.5), std::make_shared<ConstDrive>(1.5)));
  model.setup_elements();
  model.number_dofs();
  Vector y, yp;
  model.initial_state(y, yp);
  model.after_predict(0.0, y, yp);  // the nodes' angular velocity becomes w_ref (g = 0)
  const int j = model.elements().back()->first_index();
  y[j + 1] = 0.7;  // reaction
  yp[j] = -0.4;
  return test_support::check_jacobian(model, 0.0, 0.37, y, yp);
}

std::string deck(const std::string& joint) {
  return R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 0.01; tolerance: 1e-10; max iterations: 10; end: initial value;
begin: control data; structural nodes: 1; rigid bodies: 1; joints: 1; output precision: 16; end: control data;
begin: nodes; structural: 1, dynamic, 0., 0., 0., eye, 0.5, 0., 0., 0., 0., 2.; end: nodes;
begin: elements;
  body: 1, 1, 3., null, diag, 1., 1., 1.;
  )" + joint + R"(
end: elements;
)";
}

}  // namespace

TEST(AccelerationJoint, LinearJacobianMatchesFiniteDifferences) {
  for (T type : {T::Dynamic, T::Static}) {
    const auto r = check(Kind::Linear, type);
    EXPECT_LT(r.max_error, 1e-7) << r.str();
  }
}

TEST(AccelerationJoint, AngularJacobianMatchesFiniteDifferences) {
  for (T type : {T::Dynamic, T::Static}) {
    const auto r = check(Kind::Angular, type);
    EXPECT_LT(r.max_error, 1e-7) << r.str();
  }
}

// x(t) = v0 t + a t^2 / 2 along the imposed direction; the other directions keep their motion.
TEST(AccelerationJoint, LinearAccelerationMovesTheMassAsClosedForm) {
  const auto run = test::run_deck_text("linear_acceleration", deck("joint: 2, linear acceleration, 1, 1., 0., 0., const, 4.;"));
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto mov = test::last_record(run.output("mov"), 1);
  // (to the dCoef-sized offset of MBDyn's derivatives phase)
  EXPECT_NEAR(mov[0], 0.5 * 1.0 + 0.5 * 4.0 * 1.0, 1e-6);
  EXPECT_NEAR(mov[6], 0.5 + 4.0 * 1.0, 1e-6);  // velocity
  // .jnt: f = (lambda, 0, 0), ..., then the imposed acceleration.
  const auto jnt = test::last_record(run.output("jnt"), 2);
  ASSERT_EQ(jnt.size(), 13u);
  EXPECT_EQ(jnt[12], 4.0);
}

// The spin about z starts at 2 rad/s and grows by wp t.
TEST(AccelerationJoint, AngularAccelerationSpinsTheBodyAsClosedForm) {
  const auto run =
      test::run_deck_text("angular_acceleration", deck("joint: 2, angular acceleration, 1, 0., 0., 1., const, -1.5;"));
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto mov = test::last_record(run.output("mov"), 1);
  EXPECT_NEAR(mov[11], 2.0 - 1.5 * 1.0, 1e-6);  // omega_z
  // The angle integrates omega through the incremental rotations: second order in the step.
  const double angle = 2.0 * 1.0 - 0.5 * 1.5 * 1.0;
  EXPECT_NEAR(mov[5] * M_PI / 180.0, angle, 1e-4);
}

// Offset and rigid body displacement joints (input manual §8.12.32 and after §8.12.33):
// Jacobians against finite differences, a loaded offset point (reaction -F, -a x F) and a master
// node that follows the rigid motion of four slaves exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "elements/joints/displacement_joints.hpp"
#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/core/rotations.hpp"
#include "support/jacobian_check.hpp"
#include "support/run_program.hpp"

using namespace mbl;
using namespace mbl::elements;

namespace {

using T = StructNode::Type;

StructNode& add_node(Model& m, unsigned label, T type, const Vec3& x, const Mat3& R = Mat3::Identity()) {
  StructNode::InitialConditions ic;
  ic.x_W = x;
  ic.R_WN = R;
  ic.w_W = Vec3(0.3, -0.2, 0.5);
  return static_cast<StructNode&>(m.add_node(std::make_unique<StructNode>(label, type, ic)));
}

test_support::JacobianCheck check(Model& model) {
  model.setup_elements();
  model.number_dofs();
  Vector y, yp;
  model.initial_state(y, yp);
  model.after_predict(0.0, y, yp);
  const int j = model.elements().back()->first_index();
  for (int k = 0; k < model.elements().back()->dof_count(); ++k) y[j + k] = 0.3 * std::sin(1.0 + k);
  // Nodes moved off the constraint (positions only: rotations stay at the reference g = 0).
  for (const auto& n : model.nodes()) {
    auto& s = static_cast<StructNode&>(*n);
    y.segment<3>(s.dof_index()) += Vec3(0.01 * s.label(), -0.02, 0.015);
  }
  return test_support::check_jacobian(model, 0.0, 0.37, y, yp);
}

}  // namespace

TEST(OffsetDisplacementJoint, JacobianMatchesFiniteDifferences) {
  for (T type : {T::Static, T::Dynamic}) {
    Model model;
    auto& n1 = add_node(model, 1, type, Vec3(0.1, 0.2, 0.3), rot::euler123_to_R(Vec3(0.3, -0.2, 0.6)));
    auto& n2 = add_node(model, 2, T::StaticDisplacement, Vec3(0.8, -0.1, 0.4));
    model.add_element(std::make_unique<OffsetDisplacementJoint>(3, n1, Vec3(0.5, -0.4, 0.2), n2));
    const auto r = check(model);
    EXPECT_LT(r.max_error, 1e-7) << r.str();
  }
}

TEST(RigidBodyDisplacementJoint, JacobianMatchesFiniteDifferences) {
  for (T type : {T::Static, T::Dynamic}) {
    Model model;
    auto& m = add_node(model, 1, type, Vec3(0.1, 0.2, 0.3), rot::euler123_to_R(Vec3(0.3, -0.2, 0.6)));
    std::vector<RigidBodySlave> slaves;
    const Vec3 o[4] = {Vec3(1, 0, 0.1), Vec3(0, 1, -0.2), Vec3(-1, 0.1, 0), Vec3(0.2, -1, 0.3)};
    for (int k = 0; k < 4; ++k) {
      auto& s = add_node(model, 10 + k, k % 2 ? T::DynamicDisplacement : T::StaticDisplacement,
                         m.x_W() + m.R_WN() * o[k]);
      slaves.push_back({&s, o[k], 0.5 + 0.25 * k});
    }
    model.add_element(std::make_unique<RigidBodyDisplacementJoint>(3, m, slaves));
    const auto r = check(model);
    EXPECT_LT(r.max_error, 1e-7) << r.str();
  }
}

// A force F on a displacement node held at offset a from a clamped, rotated node: the node stays
// put, the joint reports F = -F_ext, M = -a x F_ext (global), and their components in the node's
// frame.
TEST(OffsetDisplacementJoint, HoldsALoadedPointWithTheRigidReaction) {
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 0.5; tolerance: 1e-10; max iterations: 10; end: initial value;
begin: control data; structural nodes: 2; joints: 2; forces: 1; output precision: 16; use automatic differentiation; end: control data;
begin: nodes;
  structural: 1, static, 0., 0., 0., euler123, 0., 0., pi/2, null, null;
  structural: 2, static displacement, 1., 2., 0., null;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  joint: 2, offset displacement joint, 1, 2;
  force: 1, absolute displacement, 2, 0., 0., 3., const, 1.;
end: elements;
)";
  const auto run = test::run_deck_text("offset_displacement", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto mov = test::last_record(run.output("mov"), 2);
  EXPECT_NEAR(mov[0], 1.0, 1e-12);
  EXPECT_NEAR(mov[1], 2.0, 1e-12);
  const auto jnt = test::last_record(run.output("jnt"), 2);
  ASSERT_EQ(jnt.size(), 12u);
  // Global F = (0, 0, -3), M = -a x F_ext = -(1, 2, 0) x (0, 0, 3) = (-6, 3, 0).
  const double expected_F[3] = {0.0, 0.0, -3.0}, expected_M[3] = {-6.0, 3.0, 0.0};
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(jnt[6 + k], expected_F[k], 1e-9) << k;
    EXPECT_NEAR(jnt[9 + k], expected_M[k], 1e-9) << k;
  }
  // Local (node frame turned by 90 deg about z): f = R^T F, m = R^T M = (3, 6, 0).
  EXPECT_NEAR(jnt[2], -3.0, 1e-9);
  EXPECT_NEAR(jnt[3], 3.0, 1e-9);
  EXPECT_NEAR(jnt[4], 6.0, 1e-9);
  const std::string log = test::read_file(run.output("log"));
  EXPECT_NE(log.find("offsetdisplacementjoint: 2 1 2 -1 0 2\n"), std::string::npos) << log;
}

// Four slaves at the corners of a square turn about z by theta(t) and translate by u(t): the free
// master at the centre follows the same rigid motion.
TEST(RigidBodyDisplacementJoint, MasterFollowsTheSlavesRigidMotion) {
  std::string genels;
  const char* corners[4][2] = {{"1.", "1."}, {"-1.", "1."}, {"-1.", "-1."}, {"1.", "-1."}};
  int g = 1;
  for (int k = 0; k < 4; ++k) {
    const std::string X = corners[k][0], Y = corners[k][1], n = std::to_string(10 + k);
    genels += "genel: " + std::to_string(g++) + ", clamp, " + n + ", structural, 1, algebraic, string, \"0.1*Time + " + X +
              "*cos(0.5*Time) - " + Y + "*sin(0.5*Time)\";\n";
    genels += "genel: " + std::to_string(g++) + ", clamp, " + n + ", structural, 2, algebraic, string, \"-0.2*Time + " + X +
              "*sin(0.5*Time) + " + Y + "*cos(0.5*Time)\";\n";
    genels += "genel: " + std::to_string(g++) + ", clamp, " + n + ", structural, 3, algebraic, string, \"0.3*Time\";\n";
  }
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 0.25; tolerance: 1e-10; max iterations: 20; end: initial value;
begin: control data; structural nodes: 5; joints: 1; genels: 12; output precision: 16; end: control data;
begin: nodes;
  structural: 1, static, 0., 0., 0., eye, null, null;
  structural: 10, static displacement, 1., 1., 0., null;
  structural: 11, static displacement, -1., 1., 0., null;
  structural: 12, static displacement, -1., -1., 0., null;
  structural: 13, static displacement, 1., -1., 0., null;
end: nodes;
begin: elements;
  joint: 1, rigid body displacement joint, 1, 4, 10, 11, weight, 2., 12, 13, weight, 2.;
  )" + genels + R"(
end: elements;
)";
  const auto run = test::run_deck_text("rigid_body_displacement", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto mov = test::last_record(run.output("mov"), 1);
  const double t = 1.0;
  EXPECT_NEAR(mov[0], 0.1 * t, 1e-9);
  EXPECT_NEAR(mov[1], -0.2 * t, 1e-9);
  EXPECT_NEAR(mov[2], 0.3 * t, 1e-9);
  EXPECT_NEAR(mov[3], 0.0, 1e-7);
  EXPECT_NEAR(mov[4], 0.0, 1e-7);
  EXPECT_NEAR(mov[5], 0.5 * t * 180.0 / M_PI, 1e-6);
}

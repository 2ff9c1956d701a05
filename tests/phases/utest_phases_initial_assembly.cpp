// Initial assembly (technical manual §6.1): inconsistent input configurations and velocities are
// corrected by the minimum-norm amount that satisfies the constraints.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "mbdyn-like/core/rotations.hpp"
#include "mbdyn-like/model/model_builder.hpp"
#include "mbdyn-like/phases/initial_assembly.hpp"

namespace mbl {
namespace {

std::string deck(const std::string& control, const std::string& nodes, const std::string& elements) {
  return "begin: data; problem: initial value; end: data;\n"
         "begin: initial value; initial time: 0.; final time: 1.e-2; time step: 1.e-3; end: initial value;\n"
         "begin: control data;\n" +
         control + "\nend: control data;\nbegin: nodes;\n" + nodes + "\nend: nodes;\nbegin: elements;\n" +
         elements + "\nend: elements;\n";
}

// A pendulum: node 2 at distance 1 from the clamped node 1, given 1.08 away and with a radial
// velocity component.
const char* kPendulumNodes = R"(
  structural: 1, static, null, eye, null, null;
  structural: 2, dynamic, 0.9, 0.6, 0., eye, 0.3, 0.5, 0.2, null;)";
const char* kPendulumElements = R"(
  joint: 1, clamp, 1, node, node;
  joint: 2, distance, 1, position, null, 2, position, null, const, 1.;
  body: 2, 2, 1., null, eye;)";

// Node 2 hinged to the ground at a point 1 below it in its frame, given 1 away from the hinge.
const char* kHingeNodes = R"(
  structural: 1, static, null, eye, null, null;
  structural: 2, dynamic, 0., 1., 1., eye, null, null;)";
const char* kHingeElements = R"(
  joint: 1, clamp, 1, node, node;
  joint: 2, spherical hinge, 1, position, null, 2, position, 0., -1., 0.;
  body: 2, 2, 1., null, eye;)";

BuildResult pendulum(const std::string& control) {
  return read_deck_text("pendulum", deck("structural nodes: 2; joints: 2; rigid bodies: 1; " + control,
                                         kPendulumNodes, kPendulumElements));
}

BuildResult hinge(const std::string& control) {
  return read_deck_text(
      "hinge", deck("structural nodes: 2; joints: 2; rigid bodies: 1; " + control, kHingeNodes, kHingeElements));
}

AssemblyReport assemble(BuildResult& b) {
  b.model->number_dofs();
  b.model->set_time(b.settings.initial_time, b.settings.time_step, 0);
  std::ostringstream log;
  return run_initial_assembly(*b.model, b.settings, log);
}

TEST(InitialAssembly, PendulumIsAssembledOntoTheConstraintWithMinimumNormCorrections) {
  BuildResult b = pendulum("max iterations: 20; tolerance: 1e-12;");
  const AssemblyReport r = assemble(b);
  ASSERT_TRUE(r.performed);
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_GT(r.iterations, 0);

  const StructNode& n2 = *b.model->find_struct_node(2);
  const StructNode::InitialConditions& ic = n2.initial();
  // Phi = |x| - 1 = 0, with the least displacement: the radial projection of the input point.
  const Vec3 x0(0.9, 0.6, 0.0), v0(0.3, 0.5, 0.2);
  const Vec3 x_hand = x0 / x0.norm();
  EXPECT_NEAR(ic.x_W.norm(), 1.0, 1e-12);
  EXPECT_NEAR((ic.x_W - x_hand).norm(), 0.0, 1e-9);
  // Phi_q v = x . v = 0, with the least velocity change: v0 minus its radial component.
  const Vec3 v_hand = v0 - x_hand.dot(v0) * x_hand;
  EXPECT_NEAR(ic.x_W.dot(ic.v_W), 0.0, 1e-12);
  EXPECT_NEAR((ic.v_W - v_hand).norm(), 0.0, 1e-9);
  // Nothing asks the orientation or the angular velocity to change; the clamped node stays.
  EXPECT_NEAR((ic.R_WN - Mat3::Identity()).norm(), 0.0, 1e-12);
  EXPECT_NEAR(ic.w_W.norm(), 0.0, 1e-12);
  EXPECT_NEAR(b.model->find_struct_node(1)->initial().x_W.norm(), 0.0, 1e-12);
}

TEST(InitialAssembly, VelocityStiffnessWeighsTheVelocityCorrection) {
  // With a grounded distance (node 1 clamped) only node 2 moves: the weight does not change the
  // minimiser. Two free nodes on a distance share the correction in inverse proportion to their
  // velocity stiffness: v1, v2 with k1 (v1 - v1_0) = -k2 (v2 - v2_0) along the rod.
  const char* nodes = R"(
  structural: 1, dynamic, 0., 0., 0., eye, 0., 0., 0., null, assembly, 1., 3., no;
  structural: 2, dynamic, 1., 0., 0., eye, 1., 0., 0., null, assembly, 1., 1., no;)";
  const char* elements = R"(
  joint: 1, distance, 1, position, null, 2, position, null, const, 1.;
  body: 1, 1, 1., null, eye;
  body: 2, 2, 1., null, eye;)";
  BuildResult b = read_deck_text(
      "two", deck("structural nodes: 2; joints: 1; rigid bodies: 2; max iterations: 5;", nodes, elements));
  const AssemblyReport r = assemble(b);
  ASSERT_TRUE(r.converged) << r.message;
  const Vec3 v1 = b.model->find_struct_node(1)->initial().v_W;
  const Vec3 v2 = b.model->find_struct_node(2)->initial().v_W;
  // Minimise 3 dv1^2 + dv2^2 subject to (x2 - x1) . (v2 - v1) = 0, i.e. dv2 - dv1 = -1 along x:
  // dv1 = 1/4, dv2 = -3/4.
  EXPECT_NEAR(v1[0], 0.25, 1e-12);
  EXPECT_NEAR(v2[0], 0.25, 1e-12);
  EXPECT_NEAR(v1.tail<2>().norm() + v2.tail<2>().norm(), 0.0, 1e-12);
}

TEST(InitialAssembly, OffsetHingeRotatesTheNodeAsMBDynsSprings) {
  // imppin0-like: the hinge point, 1 below node 2 in its frame, must reach the origin. MBDyn's
  // rotation spring acts on the CGR parameters g = 2 tan(theta/2) of R R0^T, so the rotation
  // theta about x solves 2 tan(theta/2) = cos(theta) - sin(theta) (moment balance with the
  // hinge reaction K (x0 - x)), and x = (0, cos theta, sin theta).
  BuildResult b = hinge("max iterations: 20; tolerance: 1e-12;");
  const AssemblyReport r = assemble(b);
  ASSERT_TRUE(r.converged) << r.message;
  double lo = 0.0, hi = 1.0;
  for (int k = 0; k < 200; ++k) {
    const double mid = 0.5 * (lo + hi);
    (2 * std::tan(mid / 2) - (std::cos(mid) - std::sin(mid)) > 0 ? hi : lo) = mid;
  }
  const double theta = 0.5 * (lo + hi);
  EXPECT_NEAR(theta * 180 / M_PI, 25.968, 1e-3);  // MBDyn's t.joints.impdisp.imppin0
  const StructNode::InitialConditions& ic = b.model->find_struct_node(2)->initial();
  EXPECT_NEAR((ic.x_W - Vec3(0, std::cos(theta), std::sin(theta))).norm(), 0.0, 1e-9);
  EXPECT_NEAR((rot::R_to_rotvec(ic.R_WN) - Vec3(theta, 0, 0)).norm(), 0.0, 1e-9);
  EXPECT_NEAR((ic.x_W + ic.R_WN * Vec3(0, -1, 0)).norm(), 0.0, 1e-12);
}

TEST(InitialAssembly, StopsAtMaxIterationsLikeMBDyn) {
  // MBDyn's default allows one iteration: not enough for the rotation of the offset hinge.
  BuildResult b = hinge("");
  const AssemblyReport r = assemble(b);
  EXPECT_TRUE(r.performed);
  EXPECT_FALSE(r.converged);
  EXPECT_NE(r.message.find("maximum number 1"), std::string::npos) << r.message;
  // The distance correction is radial, where the constraint's linearisation is exact: one
  // iteration is enough.
  BuildResult p = pendulum("");
  const AssemblyReport rp = assemble(p);
  EXPECT_TRUE(rp.converged) << rp.message;
  EXPECT_EQ(rp.iterations, 1);
}

TEST(InitialAssembly, SkippedByTheControlDataCard) {
  BuildResult b = pendulum("skip initial joint assembly;");
  const AssemblyReport r = assemble(b);
  EXPECT_FALSE(r.performed);
  EXPECT_TRUE(r.converged);
  EXPECT_NEAR((b.model->find_struct_node(2)->initial().x_W - Vec3(0.9, 0.6, 0.0)).norm(), 0.0, 0.0);
}

TEST(InitialAssembly, PositionProblemJacobianMatchesFiniteDifferences) {
  BuildResult b = hinge("");
  Model& m = *b.model;
  m.number_dofs();
  std::vector<Element*> parts;
  for (const auto& e : m.elements())
    if (takes_part_in_assembly(*e, b.settings)) parts.push_back(e.get());
  ASSERT_EQ(parts.size(), 2u);  // the joints, not the body
  AssemblyPositionProblem p(m, parts, assembly_springs(m, b.settings), std::vector<char>(m.size(), 0));
  Vector y, yp;
  m.initial_state(y, yp);
  for (int i = 0; i < m.size(); ++i) y[i] += 0.01 * (i % 5);  // multipliers, a displaced node
  for (unsigned label : {1u, 2u})  // g = 0: the linearisation point
    y.segment<3>(m.find_struct_node(label)->dof_index() + 3).setZero();
  // Finite differences of the residual along the Newton update (y += d, dCoef = 1) against J,
  // on the equations that take part (the momentum definitions of node 2 are identities that
  // keep the momenta fixed). The springs' rotation stiffness, MBDyn's K I, is exact here because
  // the node sits at its input orientation.
  const StructNode& n2 = *m.find_struct_node(2);
  const int n = m.size();
  integrators::SparseMatrix J(n);
  p.update(0.0, y, yp);
  p.jacobian(0.0, 1.0, J);
  const Eigen::MatrixXd Ja = J.to_dense();
  const double h = 1e-6;
  double worst = 0.0;
  for (int col = 0; col < n; ++col) {
    Vector rp(n), rm(n), y1 = y, yp1 = yp;
    y1[col] += h;
    yp1[col] += h;
    p.update(0.0, y1, yp1);
    p.residual(0.0, 1.0, rp, nullptr);
    y1[col] -= 2 * h;
    yp1[col] -= 2 * h;
    p.update(0.0, y1, yp1);
    p.residual(0.0, 1.0, rm, nullptr);
    for (int row = 0; row < n; ++row) {
      if (row >= n2.momentum_eq_index() && row < n2.momentum_eq_index() + 6) {
        EXPECT_EQ(Ja(row, col), col == row + 6 ? 1.0 : 0.0);
        continue;
      }
      const double e = std::abs(Ja(row, col) + (rp[row] - rm[row]) / (2 * h));
      worst = std::max(worst, e);
    }
  }
  EXPECT_LT(worst, 1e-7);
}

}  // namespace
}  // namespace mbl

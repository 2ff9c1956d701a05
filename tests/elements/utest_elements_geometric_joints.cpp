// Geometric joints (input manual §8.12): in line, in plane, prismatic, Cardano/universal,
// gimbal rotation. Jacobians against finite differences, constraint values and reactions
// against hand-computed ones, and every card variant of the real decks through the reader.
#include <gtest/gtest.h>

#include "elements/joints/cardano.hpp"
#include "elements/joints/gimbal_rotation.hpp"
#include "elements/joints/in_line.hpp"
#include "elements/joints/prismatic.hpp"
#include "elements/joints/viscous_body.hpp"
#include "mbdyn-like/model/model_builder.hpp"
#include "parser/errors.hpp"
#include "support/element_fixture.hpp"
#include "support/run_program.hpp"

using namespace mbl;
using namespace mbl::elements;
using test_support::ElementFixture;

namespace {

StructNode::InitialConditions at(const Vec3& x, const Mat3& R = Mat3::Identity()) {
  StructNode::InitialConditions c;
  c.x_W = x;
  c.R_WN = R;
  return c;
}

/// Residual of the model at its initial state with the given multipliers (g = 0).
Vector residual_at(Model& m, double dCoef, const std::vector<double>& multipliers, int first) {
  m.setup_elements();
  m.number_dofs();
  Vector y, yp;
  m.initial_state(y, yp);
  for (std::size_t i = 0; i < multipliers.size(); ++i) y[first + int(i)] = multipliers[i];
  m.update(0.0, y, yp);
  Vector r(m.size());
  r.setZero();
  m.residual(0.0, dCoef, r, nullptr);
  return r;
}

}  // namespace

TEST(GeometricJointJacobians, CardanoHingePinRotation) {
  using V = Cardano::Variant;
  for (V v : {V::Hinge, V::Pin, V::Rotation}) {
    ElementFixture f;
    const Attachment ground{nullptr, Vec3(1, 2, 3), rot::euler123_to_R(Vec3(0.2, 0.1, 0.3))};
    const Attachment a = v == V::Pin ? ground : f.att(f.n1, 1);
    f.model.add_element(std::make_unique<Cardano>(1, v, a, f.att(f.n2, 2)));
    const auto r = f.check();
    EXPECT_LT(r.max_error, 1e-6) << static_cast<int>(v) << ": " << r.str();
  }
}

TEST(GeometricJointJacobians, Prismatic) {
  ElementFixture f;
  f.model.add_element(std::make_unique<Prismatic>(1, f.att(f.n1, 1), f.att(f.n2, 2)));
  const auto r = f.check();
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

TEST(GeometricJointJacobians, InLineAndInPlaneWithOffsets) {
  for (auto kind : {PointOnSubspace::Kind::InLine, PointOnSubspace::Kind::InPlane}) {
    for (bool offset : {false, true}) {
      ElementFixture f;
      Attachment b{f.n2};
      if (offset) b.offset_N = Vec3(-0.2, 0.3, 0.25);
      const Attachment a = f.att(f.n1, 1);
      auto& j = f.model.add_element(std::make_unique<PointOnSubspace>(1, kind, a, b, Vec3(0.3, -1.0, 2.0)));
      if (kind == PointOnSubspace::Kind::InLine)
        f.known_deviation = test_support::in_line_mbdyn_terms(static_cast<PointOnSubspace&>(j), a, b);
      const auto r = f.check(0.29);
      EXPECT_LT(r.max_error, 1e-6) << static_cast<int>(kind) << offset << ": " << r.str();
    }
  }
}

TEST(GeometricJointJacobians, GimbalRotationAtAConsistentState) {
  // Node 2 oriented so that R_a^T R_b = R(theta, phi) for the angles put in the state.
  const double theta = 0.3, phi = -0.45;
  const auto ic1 = test_support::generic_ic(1);
  const Mat3 R1h = rot::euler123_to_R(Vec3(0.1, 0.2, -0.3)), R2h = rot::euler123_to_R(Vec3(0.2, 0.4, -0.3));
  auto ic2 = test_support::generic_ic(2);
  ic2.R_WN = ic1.R_WN * R1h * GimbalRotation::gimbal_R(theta, phi) * R2h.transpose();
  ElementFixture f(ic1, ic2);
  auto& g = f.model.add_element(std::make_unique<GimbalRotation>(1, Attachment{f.n1, Vec3::Zero(), R1h},
                                                                 Attachment{f.n2, Vec3::Zero(), R2h}));
  const auto r = f.check(0.37, [&](Vector& y) {
    y[g.first_index() + 3] = theta;
    y[g.first_index() + 4] = phi;
  });
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

namespace {
/// F = C eps' with a full damping matrix (tests only).
class LinearViscous6D final : public ConstitutiveLaw6D {
 public:
  explicit LinearViscous6D(const MatN& C) { F_eps_dot_ = C; }
  void update(const VecN&, const VecN& eps_dot, double) override { F_ = F_eps_dot_ * eps_dot; }
  bool is_viscous() const override { return true; }
  std::unique_ptr<ConstitutiveLaw> clone() const override { return std::make_unique<LinearViscous6D>(*this); }
};
}  // namespace

TEST(GeometricJointJacobians, ViscousBody) {
  ElementFixture f;
  Eigen::Matrix<double, 6, 6> C;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) C(i, j) = (i == j ? 3.0 + i : 0.2 * std::sin(1.0 + i + 2.0 * j));
  f.model.add_element(std::make_unique<ViscousBody>(1, f.att(f.n1, 1), std::make_unique<LinearViscous6D>(C)));
  const auto r = f.check(0.31);
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

TEST(GeometricJoints, ViscousBodyForceOpposesTheVelocity) {
  // Node moving at v = (2, 0, 0), no rotation, law F = 5 k': node gets -10 e_x.
  Model m;
  StructNode::InitialConditions ic = at(Vec3::Zero());
  ic.v_W = Vec3(2, 0, 0);
  auto& n = static_cast<StructNode&>(m.add_node(std::make_unique<StructNode>(1, StructNode::Type::Static, ic)));
  m.add_element(std::make_unique<ViscousBody>(1, Attachment{&n}, std::make_unique<LinearViscous6D>(5.0 * Eigen::Matrix<double, 6, 6>::Identity())));
  const Vector r = residual_at(m, 1.0, {}, 0);
  EXPECT_NEAR(r[n.eq_index()], -10.0, 1e-12);
  EXPECT_NEAR(r[n.eq_index() + 1], 0.0, 1e-12);
}

TEST(GeometricJoints, GimbalMatrixIsTwoHalfRotationsAboutAxis2AroundOneAboutAxis1) {
  EXPECT_TRUE(GimbalRotation::gimbal_R(0.0, 0.7).isApprox(rot::R1(0.7), 1e-14));
  EXPECT_TRUE(GimbalRotation::gimbal_R(0.4, 0.0).isApprox(rot::R2(0.8), 1e-14));
}

TEST(GeometricJoints, InPlaneConstraintIsTheDistanceFromThePlane) {
  // Plane through (0, 0, 1) of node 1 (at the origin), normal along z (given unnormalised);
  // node 2 at (1, 2, 3) with offset (0, 0, 0.5): distance 2.5. Multiplier 4: node 1 gets +4 e_z.
  Model m;
  auto& n1 = static_cast<StructNode&>(m.add_node(std::make_unique<StructNode>(1, StructNode::Type::Static, at(Vec3::Zero()))));
  auto& n2 = static_cast<StructNode&>(m.add_node(std::make_unique<StructNode>(2, StructNode::Type::Static, at(Vec3(1, 2, 3)))));
  auto& j = m.add_element(std::make_unique<PointOnSubspace>(1, PointOnSubspace::Kind::InPlane,
                                                             Attachment{&n1, Vec3(0, 0, 1)},
                                                             Attachment{&n2, Vec3(0, 0, 0.5)}, Vec3(0, 0, 2)));
  const double dCoef = 0.5;
  m.setup_elements();
  m.number_dofs();
  const Vector r = residual_at(m, dCoef, {4.0}, j.first_index());
  EXPECT_NEAR(r[j.first_index()], 2.5 / dCoef, 1e-12);
  EXPECT_NEAR(r[n1.eq_index() + 2], 4.0, 1e-12);
  EXPECT_NEAR(r[n2.eq_index() + 2], -4.0, 1e-12);
  // Moment on node 1: (x2 + q - x1) x F = (1, 2, 3.5) x (0, 0, 4) = (8, -4, 0).
  EXPECT_NEAR(r[n1.eq_index() + 3], 8.0, 1e-12);
  EXPECT_NEAR(r[n1.eq_index() + 4], -4.0, 1e-12);
}

TEST(GeometricJoints, CardanoReactionIsTheMomentAboutTheCrossAxis) {
  // Node 1 identity, node 2 rotated 30 deg about x: e3_a = z, e2_b = (0, cos, sin); the axes are
  // not orthogonal, the constraint is -(e3_a . e2_b) = -sin(30 deg).
  Model m;
  const Mat3 R2 = rot::R1(M_PI / 6);
  auto& n1 = static_cast<StructNode&>(m.add_node(std::make_unique<StructNode>(1, StructNode::Type::Static, at(Vec3::Zero()))));
  auto& n2 = static_cast<StructNode&>(m.add_node(std::make_unique<StructNode>(2, StructNode::Type::Static, at(Vec3::Zero(), R2))));
  auto& j = m.add_element(std::make_unique<Cardano>(1, Cardano::Variant::Rotation, Attachment{&n1}, Attachment{&n2}));
  m.setup_elements();
  m.number_dofs();
  const Vector r = residual_at(m, 1.0, {2.0}, j.first_index());
  EXPECT_NEAR(r[j.first_index()], -0.5, 1e-12);
  // e2_b x e3_a = (cos 30, 0, 0): node 1 gets -2 (cos 30) e_x.
  EXPECT_NEAR(r[n1.eq_index() + 3], -2.0 * std::cos(M_PI / 6), 1e-12);
  EXPECT_NEAR(r[n2.eq_index() + 3], 2.0 * std::cos(M_PI / 6), 1e-12);
  Vector y(m.size()), yp(m.size());
  m.initial_state(y, yp);
  y[j.first_index()] = 2.0;
  j.after_convergence(StepContext{0.0, 1.0, &y, &yp});
  EXPECT_NEAR(j.private_data(j.private_data_index("Mx")), 2.0, 1e-12);
  EXPECT_NEAR(j.private_data(j.private_data_index("My")), 0.0, 1e-12);
}

TEST(GeometricJointReaders, EveryCardVariantOfTheRealDecksReads) {
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-3; end: initial value;
begin: control data; structural nodes: 2; joints: 14; end: control data;
reference: 1, reference, global, 0., 0., 1., reference, global, eye, reference, global, null, reference, global, null;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, static, reference, 1, null, reference, 1, eye, null, null;
end: nodes;
begin: elements;
  joint: 1, inline, 1, reference, 1, null, reference, 1, 3, 0., 1., 0., 1, 1., 0., 0., 2, offset, reference, 1, null;
  joint: 2, in line, 2, 0, 1, 0, 1, 0, 0, 1, 2, 1, 0, 0, 1;
  joint: 3, inplane, 1, position, reference, 1, null, reference, 1, -1., 0., 1., 2;
  joint: 4, in plane, 1, null, 0, 0, 1, 2;
  joint: 5, prismatic, 1, 2, hinge, 3, 0.,0.,1., 1, cos(.5),-sin(.5),0.;
  joint: 6, universal hinge, 1, reference, 1, null, hinge, reference, 1, 1, 0.,0.,1., 2, 0.,1.,0.,
    2, reference, 1, null, hinge, reference, 1, 1, 0.,0.,1., 2, 0.,1.,0.;
  joint: 7, cardano hinge, 1, position, null, 2, position, 0., 0., -1.;
  joint: 8, cardano pin, 2, position, null, position, 0., 0., 1., orientation, eye;
  joint: 9, universal pin, 2, null, null;
  joint: 10, cardano rotation, 1, orientation, eye, 2, orientation description, euler321;
  joint: 11, universal rotation, 1, 2;
  joint: 12, gimbal rotation, 1, orientation, eye, 2, orientation, eye, orientation description, orientation vector;
  joint: 13, plane hinge, 1, null, 2, 0., 0., -1.;
  joint: 14, plane pin, 2, null, null, output, no;
end: elements;
)";
  BuildResult b = read_deck_text("geometric", deck);
  EXPECT_EQ(b.not_implemented, 0u);
  ASSERT_EQ(b.model->elements().size(), 14u);
  EXPECT_EQ(b.model->find_element("joint", 1)->type_name(), "Inline");
  EXPECT_EQ(b.model->find_element("joint", 3)->type_name(), "In plane");
  EXPECT_EQ(b.model->find_element("joint", 6)->type_name(), "Cardano hinge");
  EXPECT_EQ(b.model->find_element("joint", 9)->type_name(), "Cardano pin");
  EXPECT_EQ(b.model->find_element("joint", 11)->type_name(), "Cardano rotation");
  EXPECT_EQ(b.model->find_element("joint", 12)->type_name(), "Gimbal rotation");
  EXPECT_EQ(b.model->find_element("joint", 13)->type_name(), "revolute hinge");
  EXPECT_FALSE(b.model->find_element("joint", 14)->output_enabled());
}

TEST(GeometricJointReaders, BeamSliderNeedsThreeNodeBeamsAndWarnsOfTheSplineType) {
  const std::string head = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-3; end: initial value;
begin: control data; structural nodes: 4; joints: 1; beams: 1; end: control data;
begin: nodes; structural: 1, static, null, eye, null, null;
  structural: 2, static, 1., 0., 0., eye, null, null; structural: 3, static, 2., 0., 0., eye, null, null;
  structural: 4, static, null, eye, null, null; end: nodes;
begin: elements;
  beam3: 7, 1, null, 2, null, 3, null, eye, linear elastic generic, diag, 1., 1., 1., 1., 1., 1., same, same;
)";
  BuildResult ok = read_deck_text("slider", head + "  joint: 1, beam slider, 4, null, type, classic, 1, 7, null, null, null;\nend: elements;\n");
  EXPECT_EQ(ok.not_implemented, 0u);
  EXPECT_NE(ok.model->find_element("joint", 1), nullptr);
  BuildResult spline = read_deck_text("slider", head + "  joint: 1, beam slider, 4, null, type, spline, 1, 7, null, null, null;\nend: elements;\n");
  // Read as MBDyn reads it (its run then stops on the singular Jacobian), with a warning.
  EXPECT_EQ(spline.not_implemented, 0u);
  EXPECT_NE(spline.model->find_element("joint", 1), nullptr);
  EXPECT_EQ(spline.read_context->count("warning"), 1u);
  try {
    read_deck_text("slider", head + "  joint: 1, beam slider, 4, null, 1, 5, null, null, null;\nend: elements;\n");
    ADD_FAILURE() << "an undefined beam is an input error";
  } catch (const parser::InputError& e) {
    EXPECT_NE(e.message().find("three-node beam, found 5"), std::string::npos) << e.message();
  }
}

TEST(RejectedJointTypes, CoincidenceGimbalHingeAndPlaneDisplacementAreInputErrorsAsInMBDyn) {
  // MBDyn lists these joints but rejects them; so do we, naming the replacement.
  const std::pair<const char*, const char*> cases[] = {
      {"coincidence, 1, 2", "spherical hinge and a prismatic"},
      {"gimbal hinge, 1, 2", "gimbal rotation and a spherical hinge"},
      {"plane displacement, 1, position, null, 2, position, null", "total joint"},
      {"plane displacement pin, 1, position, null, position, null", "total pin joint"}};
  for (const auto& [card, hint] : cases) {
    const std::string deck = std::string(R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 1.; end: initial value;
begin: control data; structural nodes: 2; joints: 1; end: control data;
begin: nodes; structural: 1, static, null, eye, null, null; structural: 2, static, null, eye, null, null; end: nodes;
begin: elements; joint: 1, )") + card + R"(; end: elements;
)";
    const auto run = test::run_deck_text("rejected_joint", deck);
    EXPECT_EQ(run.rc, 2) << card;
    EXPECT_NE(run.log().find("MBDyn does not implement it either"), std::string::npos) << run.log();
    EXPECT_NE(run.log().find(hint), std::string::npos) << run.log();
  }
}

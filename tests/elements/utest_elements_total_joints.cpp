// Total joint family (technical manual §9.1.8-9.1.14): Jacobians against finite differences and
// the relative kinematics against hand-computed values.
#include <gtest/gtest.h>

#include "elements/joints/total_joint.hpp"
#include "elements/joints/velocity_joints.hpp"
#include "support/element_fixture.hpp"

using namespace mbl;
using namespace mbl::elements;
using mbl::test_support::ElementFixture;
using Status = TotalJoint::Status;
using Flavor = TotalJoint::Flavor;

namespace {

drives::TplDriveCallerPtr<Vec3> single(const Vec3& v, double a) {
  return std::make_shared<drives::TplSingleDrive<Vec3>>(v, std::make_shared<ConstDrive>(a));
}

TotalSide side(StructNode* n, int k) {
  return {n, Vec3(0.1 * k, 0.2, -0.15 * k), rot::euler123_to_R(Vec3(0.1 * k, 0.2 * k, -0.3)),
          rot::euler123_to_R(Vec3(-0.2, 0.1 * k, 0.3 * k))};
}

TotalJoint::Params total_params(ElementFixture& f, std::array<Status, 3> pos, std::array<Status, 3> rot) {
  TotalJoint::Params p;
  p.a = side(f.n1, 1);
  p.b = side(f.n2, 2);
  p.position = pos;
  p.rotation = rot;
  p.x0 = single(Vec3(0.3, -0.1, 0.2), 1.5);
  p.theta0 = single(Vec3(0.2, 0.4, -0.1), 1.2);
  return p;
}

constexpr Status P = Status::Position, V = Status::Velocity, O = Status::Inactive;

}  // namespace

TEST(TotalJointJacobian, AllActiveHolonomic) {
  ElementFixture f;
  f.model.add_element(std::make_unique<TotalJoint>(1, total_params(f, {P, P, P}, {P, P, P})));
  const auto r = f.check();
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

TEST(TotalJointJacobian, MixedStatuses) {
  const std::array<std::array<Status, 3>, 4> cases{{{P, O, V}, {V, V, V}, {O, P, O}, {V, P, P}}};
  for (const auto& pos : cases)
    for (const auto& rot : cases) {
      ElementFixture f;
      f.model.add_element(std::make_unique<TotalJoint>(1, total_params(f, pos, rot)));
      for (double dCoef : {0.37, 1.3}) {
        const auto r = f.check(dCoef);
        EXPECT_LT(r.max_error, 1e-6) << int(pos[0]) << int(pos[1]) << int(pos[2]) << " "
                                     << int(rot[0]) << int(rot[1]) << int(rot[2]) << ": " << r.str();
      }
    }
}

TEST(TotalJointJacobian, PinVariants) {
  for (Flavor fl : {Flavor::TotalPin, Flavor::DriveDisplacementPin, Flavor::ImposedDisplacementPin}) {
    ElementFixture f;
    TotalJoint::Params p = total_params(f, {P, V, P}, {P, O, V});
    p.flavor = fl;
    p.a = {nullptr, Vec3(1.0, 2.0, 3.0), rot::euler123_to_R(Vec3(0.2, 0.1, 0.3)),
           rot::euler123_to_R(Vec3(-0.1, 0.5, 0.2))};
    f.model.add_element(std::make_unique<TotalJoint>(1, p));
    const auto r = f.check();
    EXPECT_LT(r.max_error, 1e-6) << int(fl) << ": " << r.str();
  }
}

TEST(TotalJointJacobian, DriveHingeAndAxialRotation) {
  {
    ElementFixture f;
    TotalJoint::Params p = total_params(f, {O, O, O}, {P, P, P});
    p.flavor = Flavor::DriveHinge;
    f.model.add_element(std::make_unique<TotalJoint>(1, p));
    const auto r = f.check();
    EXPECT_LT(r.max_error, 1e-6) << r.str();
  }
  {
    ElementFixture f;
    TotalJoint::Params p = total_params(f, {P, P, P}, {P, P, V});
    p.flavor = Flavor::AxialRotation;
    p.theta0 = single(Vec3::UnitZ(), 3.0);
    f.model.add_element(std::make_unique<TotalJoint>(1, p));
    const auto r = f.check();
    EXPECT_LT(r.max_error, 1e-6) << r.str();
  }
}

TEST(TotalJointKinematics, RelativePositionRotationAndVelocities) {
  Model model;
  StructNode::InitialConditions c1, c2;
  c1.x_W = Vec3(1.0, 0.0, 0.0);
  c1.R_WN = rot::R3(M_PI / 2);  // node 1 axis 1 along global y
  c1.w_W = Vec3(0.0, 0.0, 2.0);
  c2.x_W = Vec3(1.0, 3.0, 0.5);
  c2.R_WN = rot::R3(M_PI / 2 + 0.3);
  c2.v_W = Vec3(0.0, 0.0, 1.0);
  c2.w_W = Vec3(0.0, 0.0, 2.5);
  auto& n1 = static_cast<StructNode&>(model.add_node(std::make_unique<StructNode>(1, StructNode::Type::Dynamic, c1)));
  auto& n2 = static_cast<StructNode&>(model.add_node(std::make_unique<StructNode>(2, StructNode::Type::Dynamic, c2)));
  TotalJoint::Params p;
  p.a = {&n1};
  p.b = {&n2};
  TotalJoint j(1, p);
  const TotalJoint::Kinematics k = j.kinematics();
  // d = (0, 3, 0.5) in W; node 1 axes: 1 = +y, 2 = -x, 3 = z.
  EXPECT_NEAR(k.X[0], 3.0, 1e-12);
  EXPECT_NEAR(k.X[1], 0.0, 1e-12);
  EXPECT_NEAR(k.X[2], 0.5, 1e-12);
  EXPECT_NEAR(k.theta[2], 0.3, 1e-12);
  EXPECT_NEAR(k.Omega[2], 0.5, 1e-12);
  // V = R1^T (v2 - w1 x d) = R1^T ((0,0,1) - (2 z) x (0,3,.5)) = R1^T (6, 0, 1) = (0, -6, 1).
  EXPECT_NEAR(k.V[0], 0.0, 1e-12);
  EXPECT_NEAR(k.V[1], -6.0, 1e-12);
  EXPECT_NEAR(k.V[2], 1.0, 1e-12);
}

TEST(TotalJointReactions, NodeOneReceivesLambdaAndReportsIt) {
  // Static check of the residual: the force on node 1 is R_ah lambda~, the couple is
  // b1 x F + R_ahr lambda~_theta; node 2 gets the opposite force at its point.
  ElementFixture f;
  TotalJoint::Params p = total_params(f, {P, P, P}, {P, P, P});
  auto j = std::make_unique<TotalJoint>(1, p);
  TotalJoint* jp = j.get();
  f.model.add_element(std::move(j));
  f.model.setup_elements();
  f.model.number_dofs();
  Vector y, yp;
  f.model.initial_state(y, yp);
  const Vec3 lx(1.0, -2.0, 0.5), lt(0.3, 0.2, -0.7);
  y.segment<3>(jp->first_index()) = lx;
  y.segment<3>(jp->first_index() + 3) = lt;
  f.model.update(0.0, y, yp);
  Vector r = Vector::Zero(y.size());
  ResidualSink sink(r, nullptr);
  StepContext c{0.0, 1.0, &y, &yp};
  jp->residual(sink, c);
  const Mat3 R_ah = f.n1->R_WN() * p.a.R_h, R_ahr = f.n1->R_WN() * p.a.R_hr;
  const Vec3 F = R_ah * lx, M = R_ahr * lt;
  const Vec3 b1 = f.n2->x_W() + f.n2->R_WN() * p.b.f - f.n1->x_W();
  EXPECT_LT((r.segment<3>(f.n1->eq_index()) - F).norm(), 1e-12);
  EXPECT_LT((r.segment<3>(f.n1->eq_index() + 3) - (b1.cross(F) + M)).norm(), 1e-12);
  EXPECT_LT((r.segment<3>(f.n2->eq_index()) + F).norm(), 1e-12);
  jp->after_convergence(c);
  EXPECT_NEAR(jp->private_data(jp->private_data_index("Fy")), lx[1], 1e-12);
  EXPECT_NEAR(jp->private_data(jp->private_data_index("m[3]")), lt[2], 1e-12);
}

TEST(VelocityJointJacobian, LinearAndAngular) {
  for (auto kind : {VelocityJoint::Kind::Linear, VelocityJoint::Kind::Angular}) {
    ElementFixture f;
    f.model.add_element(std::make_unique<VelocityJoint>(1, kind, *f.n2, Vec3(0.3, -1.0, 0.5),
                                                        std::make_shared<ConstDrive>(2.0)));
    for (double dCoef : {0.37, 1.3}) {
      const auto r = f.check(dCoef);
      EXPECT_LT(r.max_error, 1e-6) << int(kind) << ": " << r.str();
    }
  }
}

TEST(TotalJointInverseDynamics, FramesAtReferenceOrientation) {
  // MBDyn's inverse-dynamics Jacobian (totalj.cc) takes side a's frames at the node's reference
  // orientation and the rotation rows without Gamma^-1: with node 1 turned away from its
  // reference, the constraint rows hold (R_ref R_h)^T, not (R R_h)^T.
  // The phase says so through StepContext::inverse_dynamics.
  for (const bool at_reference : {false, true}) {
    ElementFixture f;
    TotalJoint::Params p = total_params(f, {P, P, P}, {P, P, P});
    auto j = std::make_unique<TotalJoint>(1, p);
    TotalJoint* jp = j.get();
    f.model.add_element(std::move(j));
    Vector y, yp;
    mbl::test_support::numbered_initial_state(f.model, y, yp);
    y.segment<3>(f.n1->dof_index() + 3) = Vec3(0.2, -0.1, 0.3);  // node 1 off its reference
    f.model.update(0.25, y, yp);
    integrators::SparseMatrix J(f.model.size());
    JacobianSink sink(J);
    jp->jacobian(sink, StepContext{.t = 0.25, .dCoef = 1.0, .y = &y, .yp = &yp, .inverse_dynamics = at_reference});
    const Eigen::MatrixXd Jd = J.to_dense();
    const Mat3& R_a = at_reference ? f.n1->R_ref() : f.n1->R_WN();
    const Mat3 R_ah = R_a * p.a.R_h, R_ahr = R_a * p.a.R_hr;
    const int c = jp->first_index(), xb = f.n2->dof_index(), gb = xb + 3;
    EXPECT_LT((Jd.block<3, 3>(c, xb) + R_ah.transpose()).norm(), 1e-12) << at_reference;
    if (at_reference) EXPECT_LT((Jd.block<3, 3>(c + 3, gb) + R_ahr.transpose()).norm(), 1e-12);
    EXPECT_GT((f.n1->R_ref() - f.n1->R_WN()).norm(), 0.1);
  }
}

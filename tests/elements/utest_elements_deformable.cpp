// Rods and deformable joints: Jacobians against finite differences of the residual (with
// offsets, rotated hinges, angular velocities, viscous laws), and forces against hand values.
#include <gtest/gtest.h>

#include "elements/joints/deformable_joint.hpp"
#include "elements/joints/deformable_kinematics.hpp"
#include "elements/joints/rod.hpp"
#include "elements/laws/elastic_laws.hpp"
#include "elements/laws/invariant_angular_law.hpp"
#include "elements/laws/shock_absorber_law.hpp"
#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/core/rotations.hpp"
#include "support/element_fixture.hpp"
#include "support/run_program.hpp"

using namespace mbl;
using namespace mbl::elements;

namespace {

using Fixture = test_support::ElementFixture;

/// An attachment without offset.
Attachment centred(StructNode* n) { return {n, Vec3::Zero(), rot::euler123_to_R(Vec3(0.1, 0.2, -0.3))}; }

template <int N>
std::unique_ptr<ConstitutiveLaw<N>> viscoelastic(double k, double c) {
  using M = typename ConstitutiveLaw<N>::MatN;
  M K = k * M::Identity(), C = c * M::Identity();
  // Anisotropic and coupled, to exercise the frames.
  for (int i = 0; i + 1 < N; ++i) K(i, i + 1) = K(i + 1, i) = 0.3 * k, C(i, i + 1) = 0.1 * c;
  if constexpr (N > 1) K(N - 1, N - 1) *= 2.0;
  return std::make_unique<laws::LinearViscoElasticLaw<N>>(K, C);
}

/// A nonlinear 3D law (cubic) so that the stiffness varies with the strain.
std::unique_ptr<ConstitutiveLaw3D> cubic3() {
  return std::make_unique<laws::CubicViscoElasticLaw<3>>(Vec3(10, 20, 30), Vec3(1, 2, 3), Vec3(5, 6, 7),
                                                         Mat3(Vec3(0.5, 0.6, 0.7).asDiagonal()));
}

/// The residual of `model` at (y, y').
Vector residual_at(Model& model, const Vector& y, const Vector& yp) {
  model.update(0.0, y, yp);
  Vector r = Vector::Zero(model.size());
  model.residual(0.0, 1.0, r, nullptr);
  return r;
}

/// The residual of `model` at its initial state.
Vector residual_at_start(Model& model) {
  Vector y, yp;
  test_support::numbered_initial_state(model, y, yp);
  return residual_at(model, y, yp);
}

/// Two static nodes at the origin and at (x2, R2) with velocity v2.
std::pair<StructNode*, StructNode*> two_static_nodes(Model& model, const Vec3& x2, const Mat3& R2, const Vec3& v2) {
  StructNode::InitialConditions a, b;
  b.x_W = x2;
  b.R_WN = R2;
  b.v_W = v2;
  auto* n1 = static_cast<StructNode*>(&model.add_node(std::make_unique<StructNode>(1, StructNode::Type::Static, a)));
  auto* n2 = static_cast<StructNode*>(&model.add_node(std::make_unique<StructNode>(2, StructNode::Type::Static, b)));
  return {n1, n2};
}

/// Finite-difference Jacobian check of a deformable joint between two offset, rotated attachments.
test_support::JacobianCheck check_deformable(DeformableJoint::Kind kind, bool invariant, DeformableJoint::Law law) {
  Fixture f;
  f.model.add_element(
      std::make_unique<DeformableJoint>(1, kind, invariant, f.att(f.n1, 1), f.att(f.n2, 2), std::move(law)));
  return f.check();
}

}  // namespace

TEST(DeformableJacobians, Rod) {
  for (double c : {0.0, 3.0}) {
    Fixture f;
    f.model.add_element(std::make_unique<Rod>(1, false, centred(f.n1), centred(f.n2), 0.4,
                                              viscoelastic<1>(50.0, c)));
    const auto r = f.check();
    EXPECT_LT(r.max_error, 1e-6) << "c=" << c << " " << r.str();
  }
}

TEST(DeformableJacobians, RodWithOffset) {
  Fixture f;
  f.model.add_element(std::make_unique<Rod>(1, true, f.att(f.n1, 1), f.att(f.n2, 2), 0.3, viscoelastic<1>(50.0, 2.0)));
  const auto r = f.check();
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

TEST(DeformableJacobians, Hinge) {
  for (bool invariant : {false, true}) {
    const auto r = check_deformable(DeformableJoint::Kind::Hinge, invariant, {.law3 = viscoelastic<3>(20.0, 1.5)});
    EXPECT_LT(r.max_error, 1e-6) << "invariant=" << invariant << " " << r.str();
  }
}

TEST(DeformableJacobians, HingeNonlinearLaw) {
  const auto r = check_deformable(DeformableJoint::Kind::Hinge, false, {.law3 = cubic3()});
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

TEST(DeformableJacobians, DisplacementJoint) {
  for (double c : {0.0, 1.5}) {
    const auto r = check_deformable(DeformableJoint::Kind::Displacement, false, {.law3 = viscoelastic<3>(20.0, c)});
    EXPECT_LT(r.max_error, 1e-6) << "c=" << c << " " << r.str();
  }
}

TEST(DeformableJacobians, DeformableJoint6D) {
  const auto r = check_deformable(DeformableJoint::Kind::Full, false, {.law6 = viscoelastic<6>(20.0, 1.5)});
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

TEST(DeformableJacobians, AxialJoint) {
  const auto r = check_deformable(DeformableJoint::Kind::Axial, false, {.law1 = viscoelastic<1>(20.0, 1.5)});
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

TEST(DeformableKinematics, GammaInverse) {
  for (const Vec3& phi : {Vec3(0.3, -0.2, 0.5), Vec3(1e-6, 2e-6, 0.0), Vec3(2.0, 1.0, -0.5)}) {
    EXPECT_TRUE((rotvec_gamma(phi) * rotvec_gamma_inverse(phi)).isApprox(Mat3::Identity(), 1e-10));
    // Gamma maps d phi to the rotation of R = exp(phi x) (left perturbation).
    const Vec3 dphi(1e-7, -2e-7, 3e-7);
    const Mat3 dR = rot::rotvec_to_R(phi + dphi) * rot::rotvec_to_R(phi).transpose();
    EXPECT_TRUE(ax(dR).isApprox(rotvec_gamma(phi) * dphi, 1e-5));
  }
}

// Issue #30: the coefficients of Gamma and Gamma^-1 keep full precision at small angles, where
// their closed forms cancel: 1 - (a/2) cot(a/2) ~ a^2/12 loses half the digits near a = 1e-4 and
// the derivative c'(a)/a (screw joint) lost four near a = 2e-3. The reference is the closed form
// evaluated in 113-bit floating point (sin and cos by their series), where the cancellation
// still leaves more digits than a double holds.
namespace quad {
using Real = __float128;
Real sin_cos(Real x, bool cosine) {
  Real term = cosine ? Real(1) : x, sum = term;
  for (int k = cosine ? 1 : 2; k < 80; k += 2) {
    term *= -x * x / (Real(k) * Real(k + 1));
    sum += term;
  }
  return sum;
}
Real c(Real a) {  // (1 - (a/2) cot(a/2)) / a^2
  const Real h = a / 2;
  return (1 - h * sin_cos(h, true) / sin_cos(h, false)) / (a * a);
}
Real dc_over_a(Real a) {
  const Real h = a / 2, s = sin_cos(h, false), cot = sin_cos(h, true) / s;
  const Real g = 1 - h * cot, dg = -cot / 2 + a / (4 * s * s);
  return (dg / (a * a) - 2 * g / (a * a * a)) / a;
}
Real c1(Real a) { return (1 - sin_cos(a, true)) / (a * a); }
Real c2(Real a) { return (a - sin_cos(a, false)) / (a * a * a); }
}  // namespace quad

TEST(DeformableKinematics, GammaCoefficientsAtSmallAngles) {
  using C = RotvecGammaCoefficients;
  auto relative = [](double value, quad::Real reference) {
    return std::abs(double((quad::Real(value) - reference) / reference));
  };
  for (double a : {1e-8, 1e-6, 1e-4, 1.0001e-4, 3e-4, 1e-3, 2e-3, 0.05, 0.5, 0.999, 1.0, 1.5, 3.0}) {
    SCOPED_TRACE(a);
    // Series below a = 1: a couple of ulps; closed forms above: a few more.
    const double tolerance = a < 1.0 ? 4e-16 : 2e-15;
    EXPECT_LT(relative(C::c(a), quad::c(a)), tolerance);
    EXPECT_LT(relative(C::c1(a), quad::c1(a)), tolerance);
    EXPECT_LT(relative(C::c2(a), quad::c2(a)), tolerance);
    // The reference derivative cancels as 1/a^4 twice over: 113 bits leave enough from 1e-3.
    if (a >= 1e-3) EXPECT_LT(relative(C::dc_over_a(a), quad::dc_over_a(a)), a < 1.0 ? 4e-16 : 1e-13);
  }
  // And Gamma^-1 inverts Gamma there.
  for (double a : {1e-8, 1e-6, 1e-4, 1.0001e-4}) {
    const Vec3 phi = a * Vec3(0.6, -0.8, 0.0);
    EXPECT_LT((rotvec_gamma(phi) * rotvec_gamma_inverse(phi) - Mat3::Identity()).norm(), 1e-15) << a;
  }
}

// Hand values: a rod along x stretched by 1% with EA = 1000 pulls node 1 by +10 x.
TEST(DeformableForces, RodTension) {
  Model model;
  auto [n1, n2] = two_static_nodes(model, Vec3(1.01, 0, 0), Mat3::Identity(), Vec3(0.02, 0, 0));
  model.add_element(std::make_unique<Rod>(1, false, Attachment{n1}, Attachment{n2}, 1.0,
                                          std::make_unique<laws::LinearViscoElasticLaw<1>>(
                                              ConstitutiveLaw1D::MatN(1000.0), ConstitutiveLaw1D::MatN(10.0))));
  const Vector r = residual_at_start(model);
  // f = EA eps + C eps' = 1000 * 0.01 + 10 * 0.02 = 10.2
  EXPECT_NEAR(r[n1->eq_index()], 10.2, 1e-9);
  EXPECT_NEAR(r[n2->eq_index()], -10.2, 1e-9);
}

// A hinge rotated by 0.1 rad about the z axis of node 1 with k = 100: node 1 receives +10 about z.
TEST(DeformableForces, HingeMoment) {
  Model model;
  auto [n1, n2] = two_static_nodes(model, Vec3::Zero(), rot::R3(0.1), Vec3::Zero());
  DeformableJoint::Law law;
  law.law3 = std::make_unique<laws::LinearViscoElasticLaw<3>>(100.0 * Mat3::Identity(), Mat3::Zero());
  model.add_element(std::make_unique<DeformableJoint>(1, DeformableJoint::Kind::Hinge, false, Attachment{n1},
                                                      Attachment{n2}, std::move(law)));
  const Vector r = residual_at_start(model);
  EXPECT_NEAR(r[n1->eq_index() + 5], 10.0, 1e-9);
  EXPECT_NEAR(r[n2->eq_index() + 5], -10.0, 1e-9);
}

// Static nodes (equations at first_index()) with offsets, velocities and a rotated node 2.
TEST(DeformableJacobians, RodWithOffsetStaticNodes) {
  Model model;
  auto [n1, n2] = two_static_nodes(model, Vec3(0.8, 0.3, -0.2), rot::euler123_to_R(Vec3(0.2, -0.1, 0.4)),
                                   Vec3(0.1, -0.2, 0.05));
  model.add_element(std::make_unique<Rod>(1, true, Attachment{n1, Vec3(0.1, 0.0, 0.2)},
                                          Attachment{n2, Vec3(-0.1, 0.2, 0.0)}, 0.7, viscoelastic<1>(50.0, 2.0)));
  model.setup_elements();
  model.number_dofs();
  Vector y, yp;
  model.initial_state(y, yp);
  model.after_predict(0.25, y, yp);
  const auto r = test_support::check_jacobian(model, 0.25, 0.37, y, yp);
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

// A rod with a shock absorber law (§2.10.23): its items are the rod's private data
// "constitutiveLaw.<item>" after F, l, lP; the Jacobian includes the law's exact derivatives.
TEST(DeformableJacobians, RodShockAbsorber) {
  laws::ShockAbsorberLaw::Params p;
  p.p0 = 1e3, p.A0 = 1e-2, p.c_int = 2.0, p.gamma = 1.4, p.eps_max = 1.0, p.eps_min = -0.9;
  p.metering = std::make_shared<ConstDrive>(1e-2);
  p.metering_negative = p.metering;
  p.fluid_area = 2e-2, p.fluid_density = 900.0, p.drag = 0.7;
  Fixture f;
  auto& rod = f.model.add_element(std::make_unique<Rod>(1, false, centred(f.n1), centred(f.n2), 0.4,
                                                         std::make_unique<laws::ShockAbsorberLaw>(p)));
  const auto r = f.check();
  EXPECT_LT(r.max_error, 1e-6) << r.str();
  EXPECT_EQ(rod.private_data_count(), 7u);
  EXPECT_EQ(rod.private_data_index("constitutiveLaw.p"), 4u);
  EXPECT_EQ(rod.private_data_index("constitutiveLaw.Fv"), 7u);
  EXPECT_EQ(rod.private_data_index("constitutiveLaw.q"), 0u);
  EXPECT_GT(rod.private_data(4), 0.0);  // the gas pressure of the current strain
}

// A hinge whose law is referred to the mid orientation (`invariant angular, 0.5`, §2.10.42).
TEST(DeformableJacobians, HingeInvariantAngularLaw) {
  const auto r = check_deformable(DeformableJoint::Kind::Hinge, false,
                                  {.law3 = std::make_unique<laws::InvariantAngularLaw>(0.5, viscoelastic<3>(20.0, 1.5))});
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

// The invariant deformable displacement joint (MBDyn 2024's ElasticDispJointInv): law frame halfway
// between the nodes' reference orientations, fixed during the step, so the residual's Jacobian is
// exact with respect to the current positions and rotations.
TEST(DeformableJacobians, InvariantDisplacementJoint) {
  const auto r =
      check_deformable(DeformableJoint::Kind::Displacement, true, {.law3 = viscoelastic<3>(20.0, 0.0)});
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

// Node 2 turned by phi about z and moved by d: the strain is d in the halfway frame R_z(phi/2),
// F = R_z(phi/2) K R_z(phi/2)^T d on node 1; the element is in equilibrium (forces and moments
// about the origin sum to zero), and the moment of d x F is shared I_hat / I_hat^T.
TEST(DeformableForces, InvariantDisplacementHalfwayFrame) {
  const double phi = 0.6;
  const Vec3 d(0.3, 0.1, -0.2);
  Model model;
  auto [n1, n2] = two_static_nodes(model, d, rot::R3(phi), Vec3::Zero());
  const Mat3 K = Vec3(100.0, 200.0, 300.0).asDiagonal();
  DeformableJoint::Law law;
  law.law3 = std::make_unique<laws::LinearViscoElasticLaw<3>>(K, Mat3::Zero());
  model.add_element(std::make_unique<DeformableJoint>(1, DeformableJoint::Kind::Displacement, true,
                                                      Attachment{n1}, Attachment{n2}, std::move(law)));
  const Vector r = residual_at_start(model);
  const Mat3 R_half = rot::R3(0.5 * phi);
  const Vec3 F = R_half * K * R_half.transpose() * d;
  const Vec3 F1 = r.segment<3>(n1->eq_index()), F2 = r.segment<3>(n2->eq_index());
  const Vec3 M1 = r.segment<3>(n1->eq_index() + 3), M2 = r.segment<3>(n2->eq_index() + 3);
  EXPECT_LT((F1 - F).norm(), 1e-12);
  EXPECT_LT((F2 + F).norm(), 1e-12);
  EXPECT_LT((M1 + M2 + d.cross(F2)).norm(), 1e-12);
  // Symmetric sharing about z: I_hat = R_half (I + R_z(phi/2))^-1 R_half^T.
  const Mat3 I_hat = R_half * (Mat3::Identity() + rot::R3(0.5 * phi)).inverse() * R_half.transpose();
  EXPECT_LT((M1 - I_hat * d.cross(F)).norm(), 1e-12);
  // The non-invariant joint measures d in node 1's frame: a different force.
  EXPECT_GT((F - K * d).norm(), 1.0);
}

// Its law frame is fixed while the iterations turn the nodes and follows their references when a
// new prediction moves them (the frame is computed once per reference).
TEST(DeformableForces, InvariantDisplacementFrameFollowsTheReference) {
  const Vec3 d(0.3, 0.1, -0.2);
  const Mat3 K = Vec3(100.0, 200.0, 300.0).asDiagonal();
  Model model;
  auto [n1, n2] = two_static_nodes(model, d, rot::R3(0.6), Vec3::Zero());
  DeformableJoint::Law law;
  law.law3 = std::make_unique<laws::LinearViscoElasticLaw<3>>(K, Mat3::Zero());
  model.add_element(std::make_unique<DeformableJoint>(1, DeformableJoint::Kind::Displacement, true,
                                                      Attachment{n1}, Attachment{n2}, std::move(law)));
  Vector y, yp;
  test_support::numbered_initial_state(model, y, yp);
  auto force_on_node_1 = [&, n1 = n1] { return Vec3(residual_at(model, y, yp).segment<3>(n1->eq_index())); };
  // F = R_z(phi/2) K R_z(phi/2)^T d, phi node 2's reference rotation about z.
  auto force_at = [&](double phi) {
    const Mat3 R_half = rot::R3(0.5 * phi);
    return Vec3(R_half * K * R_half.transpose() * d);
  };
  EXPECT_LT((force_on_node_1() - force_at(0.6)).norm(), 1e-12);
  y.segment<3>(n2->dof_index() + 3) = rot::R_to_cgr(rot::R3(0.4));
  EXPECT_LT((force_on_node_1() - force_at(0.6)).norm(), 1e-12);
  model.after_predict(0.0, y, yp);  // node 2's reference: R_z(1.0)
  EXPECT_LT((force_on_node_1() - force_at(1.0)).norm(), 1e-12);
  EXPECT_GT((force_at(1.0) - force_at(0.6)).norm(), 1.0);
}

// The invariant deformable joint (MBDyn 2024's ElasticJointInv): the law sees the relative position
// in the halfway frame and the relative rotation of the nodes' reference orientations, both fixed
// in the step; its Jacobian is exact but for the law's stiffness on the relative rotation, which
// it keeps as MBDyn does (the residual has none within the step). With a law that has no
// stiffness on the rotation the whole Jacobian is that of the residual.
TEST(DeformableJacobians, InvariantDeformableJoint) {
  using Mat6 = ConstitutiveLaw6D::MatN;
  Mat6 K = Mat6::Zero();
  K.leftCols<3>() << 20.0, 3.0, 0.0, 3.0, 25.0, 4.0, 0.0, 4.0, 30.0, 1.0, 2.0, 0.5, -1.0, 0.7, 2.0, 0.3, 0.2, 1.5;
  DeformableJoint::Law law;
  law.law6 = std::make_unique<laws::LinearViscoElasticLaw<6>>(K, Mat6::Zero());
  const auto r = check_deformable(DeformableJoint::Kind::Full, true, std::move(law));
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

// Node 2 at d, turned by phi about z: F~ = K (R_z(phi/2)^T d, phi e3) acts along R1h = I; node 1
// takes I_hat (d x F) of the moment of F; the moment does not follow the rotations of the
// iterations, only a new prediction.
TEST(DeformableForces, InvariantDeformableJointFrozenRotation) {
  using Mat6 = ConstitutiveLaw6D::MatN;
  using Vec6 = ConstitutiveLaw6D::VecN;
  const double phi = 0.6;
  const Vec3 d(0.3, 0.1, -0.2);
  Model model;
  auto [n1, n2] = two_static_nodes(model, d, rot::R3(phi), Vec3::Zero());
  const Mat6 K = Vec6(100.0, 200.0, 300.0, 40.0, 50.0, 60.0).asDiagonal();
  DeformableJoint::Law law;
  law.law6 = std::make_unique<laws::LinearViscoElasticLaw<6>>(K, Mat6::Zero());
  model.add_element(std::make_unique<DeformableJoint>(1, DeformableJoint::Kind::Full, true, Attachment{n1},
                                                      Attachment{n2}, std::move(law)));
  Vector y, yp;
  test_support::numbered_initial_state(model, y, yp);
  auto loads_on_node_1 = [&, n1 = n1] {
    const Vector r = residual_at(model, y, yp);
    return std::pair{Vec3(r.segment<3>(n1->eq_index())), Vec3(r.segment<3>(n1->eq_index() + 3))};
  };
  auto expected = [&](double angle) {
    const Mat3 R_half = rot::R3(0.5 * angle);
    Vec6 e;
    e << R_half.transpose() * d, 0.0, 0.0, angle;
    const Vec6 F6 = K * e;
    const Vec3 F = F6.head<3>(), M = F6.tail<3>();
    const Mat3 I_hat = R_half * (Mat3::Identity() + R_half).inverse() * R_half.transpose();
    return std::pair{F, Vec3(I_hat * d.cross(F) + M)};
  };
  auto near = [](const std::pair<Vec3, Vec3>& a, const std::pair<Vec3, Vec3>& b) {
    return (a.first - b.first).norm() + (a.second - b.second).norm();
  };
  EXPECT_LT(near(loads_on_node_1(), expected(phi)), 1e-12);
  y.segment<3>(n2->dof_index() + 3) = rot::R_to_cgr(rot::R3(0.4));  // an iteration turns node 2
  EXPECT_LT(near(loads_on_node_1(), expected(phi)), 1e-12);
  model.after_predict(0.0, y, yp);  // the new reference: R_z(1.0)
  EXPECT_LT(near(loads_on_node_1(), expected(1.0)), 1e-12);
}

// A disc of polar inertia J on a torsional spring k about z, started with angular velocity w0:
// theta = w0 / Omega sin(Omega t), Omega = sqrt(k / J). The invariant joint's moment lags by the
// prediction within each step, so it follows the closed form to O(h) like the deformable joint.
// Viscous laws are rejected, as MBDyn does.
TEST(DeformableForces, InvariantDeformableJointTorsionalOscillator) {
  auto deck = [](const std::string& joint, const std::string& law) {
    return R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 1e-3; tolerance: 1e-9; max iterations: 20;
  method: ms, .6; end: initial value;
begin: control data; structural nodes: 2; rigid bodies: 1; joints: 2; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, dynamic, null, eye, null, 0., 0., 2.;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  body: 2, 2, 1., null, diag, 1., 1., 0.5;
  joint: 2, )" + joint + R"(, 1, null, 2, null, )" + law + R"(;
end: elements;
)";
  };
  const std::string law = "linear elastic generic, diag, 1e4, 1e4, 1e4, 1e3, 1e3, 8.";
  const double J = 0.5, k = 8.0, w0 = 2.0, Omega = std::sqrt(k / J);
  for (const std::string joint : {"invariant deformable joint", "deformable joint"}) {
    const auto run = test::run_deck_text("invariant_joint", deck(joint, law));
    ASSERT_EQ(run.rc, 0) << run.log();
    const auto mov = test::records(run.output("mov"), 2);
    ASSERT_GE(mov.size(), 1000u);
    for (std::size_t s : {250u, 500u, 1000u}) {
      const double t = 1e-3 * static_cast<double>(s);
      EXPECT_NEAR(mov[s][5] * M_PI / 180.0, w0 / Omega * std::sin(Omega * t), 5e-3) << joint << " t=" << t;
    }
    const std::string log = test::read_file(run.output("log"));
    EXPECT_NE(log.find("deformablejoint: 2 1"), std::string::npos) << log;
  }
  const auto bad = test::run_deck_text(
      "invariant_joint_viscous", deck("invariant deformable joint", "linear viscoelastic isotropic, 10., 1."));
  EXPECT_EQ(bad.rc, 2) << bad.log();
}

// MBDyn's `point contact` joint (struct/point_contact.cc PointSurfaceContact) and the joints'
// `initial state` (joint.cc ReadJoint, ReadInitialState of genj.cc ClampJoint and planej.cc
// PlaneHingeJoint, PlanePinJoint).
#include <gtest/gtest.h>

#include <cmath>

#include "elements/joints/clamp.hpp"
#include "elements/joints/point_contact.hpp"
#include "elements/joints/revolute_hinge.hpp"
#include "support/element_fixture.hpp"
#include "support/run_program.hpp"

using namespace mbl;
using namespace mbl::elements;

TEST(PointContact, JacobianAgainstFiniteDifferences) {
  // Generic node states; the normal, tilted in the surface node's frame, has the point inside.
  test_support::ElementFixture f;
  const Vec3 n_W = Vec3(0.3, 0.5, -1.0).normalized();
  const Vec3 normal_S = f.n2->R_WN().transpose() * n_W;
  auto& pc = static_cast<PointContact&>(f.model.add_element(std::make_unique<PointContact>(1, *f.n1, *f.n2, normal_S, 250.)));
  ASSERT_LT(pc.distance(), 0.0);
  const auto r = f.check();
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

TEST(PointContact, ForceAndMomentOfAPenetration) {
  // point_contact.cc AssVec: F1 = -k delta n on the point, -F1 on the surface node with the
  // moment (x - delta n) x (-F1) about it.
  test_support::ElementFixture f;
  const Vec3 n_W = Vec3(0.3, 0.5, -1.0).normalized();
  const double k = 250.;
  auto& pc = static_cast<PointContact&>(
      f.model.add_element(std::make_unique<PointContact>(1, *f.n1, *f.n2, f.n2->R_WN().transpose() * n_W, k)));
  const Vector r = f.residual_at_start(pc);
  const Vec3 x = f.n1->x_W() - f.n2->x_W();
  const double delta = x.dot(n_W);
  ASSERT_LT(delta, 0.0);
  const Vec3 F1 = -k * delta * n_W;
  EXPECT_LT((r.segment<3>(f.n1->eq_index()) - F1).norm(), 1e-12);
  EXPECT_LT(r.segment<3>(f.n1->eq_index() + 3).norm(), 1e-15);
  EXPECT_LT((r.segment<3>(f.n2->eq_index()) + F1).norm(), 1e-12);
  EXPECT_LT((r.segment<3>(f.n2->eq_index() + 3) - (x - delta * n_W).cross(-F1)).norm(), 1e-12);
}

TEST(PointContact, NoForceOutsideTheSurface) {
  test_support::ElementFixture f;
  const Vec3 n_W = -Vec3(0.3, 0.5, -1.0).normalized();  // the point is now on the free side
  auto& pc = static_cast<PointContact&>(
      f.model.add_element(std::make_unique<PointContact>(1, *f.n1, *f.n2, f.n2->R_WN().transpose() * n_W, 250.)));
  EXPECT_GT(pc.distance(), 0.0);
  EXPECT_EQ(f.residual_at_start(pc).norm(), 0.0);
}

namespace {

/// A body of mass 1 (node 2) on the plane of the clamped node 1, whose normal `normal` is given in
/// node 1's frame (node 1 turned by 90 degrees about x: its axis 2 is the global z); the point
/// starts at x = 0.3, z = z0 with no velocity; gravity along -z; `contact` ends the joint card.
std::string contact_deck(const std::string& z0, const std::string& normal, const std::string& contact_tail) {
  return R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 0.5; time step: 1.e-4; tolerance: 1e-10;
  max iterations: 20; method: crank nicolson; derivatives coefficient: 1e-9; end: initial value;
begin: control data; structural nodes: 2; rigid bodies: 1; joints: 3; gravity; end: control data;
begin: nodes;
  structural: 1, static, null, 1, 1., 0., 0., 2, 0., 0., 1., null, null;
  structural: 2, dynamic, .3, 0., )" + z0 + R"(, eye, null, null;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  joint: 2, total pin joint, 2, position, null, position orientation, eye, rotation orientation, eye,
    position, .3, 0., 0., position orientation, eye, rotation orientation, eye,
    position constraint, active, active, inactive, null,
    orientation constraint, active, active, active, null;
  joint: 3, point contact, 2, 1, )" + normal + R"(, 100.)" + contact_tail + R"(;
  body: 2, 2, 1., null, eye;
  gravity: uniform, 0., 0., -1., const, 9.81;
end: elements;
)";
}

}  // namespace

TEST(PointContact, BodyOscillatesOnTheSurfaceAsASpring) {
  // The initial assembly takes the contact in (MBDyn's PointSurfaceContact is not deformable): the
  // node's spring of unit stiffness (the default position stiffness) against k gives
  // z_a = z0 / (1 + k). Then m z'' = -m g - k z while z < 0 (delta = z, n = z):
  // z(t) = -mg/k + (z_a + mg/k) cos(w t), w^2 = k/m, inside the surface all along. The normal is
  // node 1's axis 2, given with length 2 (normalised as MBDyn's GetUnitVecRel).
  const double m = 1.0, k = 100.0, g = 9.81, z0 = -0.5 * m * g / k, w = std::sqrt(k / m), h = 1e-4;
  const auto run = test::run_deck_text("point_contact", contact_deck(test::number_text(z0), "0., 2., 0.", ""));
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto mov = test::records(run.output("mov"), 2);
  ASSERT_GT(mov.size(), 1000u);
  const double z_a = z0 / (1.0 + k);
  EXPECT_NEAR(mov.front()[2], z_a, 1e-9);
  const double t = h * double(mov.size() - 1);
  const double z = -m * g / k + (z_a + m * g / k) * std::cos(w * t);
  EXPECT_NEAR(mov.back()[2], z, 2e-5);
  // The clamp carries the surface's load: Fs = k delta n at the foot (0.3, 0, 0) of the point,
  // moment (0.3, 0, 0) x Fs about node 1.
  const auto jnt = test::last_record(run.output("jnt"), 1);
  ASSERT_EQ(jnt.size(), 12u);
  EXPECT_NEAR(jnt[8], k * mov.back()[2], 1e-6);
  EXPECT_NEAR(jnt[10], -0.3 * k * mov.back()[2], 1e-6);
  // MBDyn's PointSurfaceContact::Output writes nothing.
  EXPECT_TRUE(test::records(run.output("jnt"), 3).empty());
}

TEST(PointContact, NullNormalIsAnInputError) {
  const auto run = test::run_deck_text("point_contact_null", contact_deck("-.01", "null", ""));
  EXPECT_EQ(run.rc, 2) << run.log();
  EXPECT_NE(run.log().find("error: expected a direction, found a null vector"), std::string::npos) << run.log();
}

// ---- joint `initial state` -------------------------------------------------------------------------

TEST(JointInitialState, ClampAndHingeMultipliersStartFromIt) {
  test_support::ElementFixture f;
  auto& clamp = static_cast<Clamp&>(f.model.add_element(std::make_unique<Clamp>(1, *f.n1, Vec3::Zero(), Mat3::Identity())));
  auto& hinge = static_cast<RevoluteHinge&>(f.model.add_element(
      std::make_unique<RevoluteHinge>(2, RevoluteHinge::Variant::Hinge, f.att(f.n1, 1), f.att(f.n2, 2))));
  auto& pin = static_cast<RevoluteHinge&>(f.model.add_element(
      std::make_unique<RevoluteHinge>(3, RevoluteHinge::Variant::Pin, f.att(f.n2, 1), Attachment{})));
  EXPECT_EQ(clamp.initial_reaction_form(), Joint::InitialReaction::ForceMoment);
  EXPECT_EQ(hinge.initial_reaction_form(), Joint::InitialReaction::ForceTwoMoments);
  EXPECT_EQ(pin.initial_reaction_form(), Joint::InitialReaction::ForceTwoMoments);
  clamp.set_initial_reaction(Vec3(1., 2., 3.), Vec3(4., 5., 6.));
  hinge.set_initial_reaction(Vec3(7., 8., 9.), Vec3(10., 11., 0.));
  pin.set_initial_reaction(Vec3(7., 8., 9.), Vec3(10., 11., 0.));
  Vector y, yp;
  test_support::numbered_initial_state(f.model, y, yp);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(y[clamp.first_index() + i], 1. + i);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(y[hinge.first_index() + i], 7. + i);
  // PlanePinJoint::SetValue reads the initial state but does not put it in its multipliers.
  for (int i = 0; i < 5; ++i) EXPECT_EQ(y[pin.first_index() + i], 0.);
}

TEST(JointInitialState, ReadAfterTheOutputFlagAndSolvedAway) {
  // The clamp's multipliers only start from the initial state: the converged reaction is the
  // contact's, as without it. Other joints read nothing after `initial state`.
  const double m = 1.0, k = 100.0, g = 9.81, z0 = -0.5 * m * g / k;
  const std::string z = test::number_text(z0);
  std::string deck = contact_deck(z, "0., 1., 0.", ", output, no, initial state");
  const std::string clamp = "joint: 1, clamp, 1, node, node;";
  deck.replace(deck.find(clamp), clamp.size(), "joint: 1, clamp, 1, node, node, initial state, 1., 2., 3., 4., 5., 6.;");
  const auto with = test::run_deck_text("initial_state", deck);
  ASSERT_EQ(with.rc, 0) << with.log();
  const auto without = test::run_deck_text("initial_state_without", contact_deck(z, "0., 1., 0.", ""));
  ASSERT_EQ(without.rc, 0) << without.log();
  const auto a = test::last_record(with.output("jnt"), 1), b = test::last_record(without.output("jnt"), 1);
  ASSERT_EQ(a.size(), 12u);
  ASSERT_EQ(b.size(), 12u);
  for (int i = 0; i < 12; ++i) EXPECT_NEAR(a[i], b[i], 1e-8) << i;
}

TEST(JointInitialState, NumbersAfterAJointThatReadsNoneAreAnInputError) {
  const std::string deck = contact_deck("-.01", "0., 1., 0.", ", initial state, 1.");
  const auto run = test::run_deck_text("initial_state_extra", deck);
  EXPECT_EQ(run.rc, 2) << run.log();
}

// Friction in joints (input manual §2.8): Jacobians of in line and revolute hinge with the
// modlugre and discrete coulomb models against finite differences, and two closed forms: a
// block sliding to rest on a line under gravity stops after v0^2 / (2 mu g), and a block held by
// friction under a ramp force F = k t sticks until k t = mu m g, then x = k (t - t*)^3 / (6 m).
#include <gtest/gtest.h>

#include "elements/joints/in_line.hpp"
#include "elements/joints/revolute_hinge.hpp"
#include "elements/joints/screw.hpp"
#include "elements/joints/total_joint.hpp"
#include "support/element_fixture.hpp"
#include "support/run_program.hpp"

using namespace mbl;
using namespace mbl::elements;
using test_support::ElementFixture;

namespace {

std::unique_ptr<JointFriction> lugre(FrictionShape shape, double preload, double radius) {
  auto mu = std::make_shared<drives::ConstScalarFunction>(0.3);
  return std::make_unique<JointFriction>(std::make_unique<ModLugreFriction>(20.0, 2.8, 0.1, 0.71, mu), shape,
                                         preload, radius);
}

std::unique_ptr<JointFriction> coulomb(double preload, double radius) {
  auto mu = std::make_shared<drives::ConstScalarFunction>(0.3);
  return std::make_unique<JointFriction>(std::make_unique<DiscreteCoulombFriction>(mu, 0.05, 0.8),
                                         FrictionShape::Simple, preload, radius);
}

/// The friction state is the joint's last unknown.
std::function<void(Vector&)> set_last_unknown(const Element& e, double value) {
  return [&e, value](Vector& y) { y[e.first_index() + e.dof_count() - 1] = value; };
}

}  // namespace

TEST(FrictionJacobians, InLineModLugre) {
  // z within the transition band of alpha (kappa z_ss < |z| < z_ss, z_ss = 0.3 / 20) and of
  // the sign of the sliding velocity, and beyond it; preload below and above |F|. (A small
  // sigma0 keeps the half sine smooth on the scale of the finite differences.)
  for (double z : {-1.2e-2, 1.2e-2, -3e-2}) {
    for (double preload : {0.1, 5.0}) {
      ElementFixture f;
      const Attachment a = f.att(f.n1, 1), b{f.n2};
      auto& j = f.model.add_element(std::make_unique<PointOnSubspace>(
          1, PointOnSubspace::Kind::InLine, a, b, Vec3::UnitZ(), lugre(FrictionShape::Simple, preload, 1.0)));
      f.known_deviation = test_support::in_line_mbdyn_terms(static_cast<PointOnSubspace&>(j), a, b);
      const auto r = f.check(0.37, set_last_unknown(j, z));
      EXPECT_LT(r.max_error, 1e-6) << z << " " << preload << ": " << r.str();
    }
  }
}

TEST(FrictionJacobians, RevoluteHingeModLugreSimplePlaneHinge) {
  for (double z : {-1.2e-2, 2e-3, 5e-2}) {
    ElementFixture f;
    auto& j = f.model.add_element(std::make_unique<RevoluteHinge>(1, RevoluteHinge::Variant::Hinge, f.att(f.n1, 1),
                                                                  f.att(f.n2, 2),
                                                                  lugre(FrictionShape::SimplePlaneHinge, 0.2, 0.05)));
    const auto r = f.check(0.37, set_last_unknown(j, z));
    EXPECT_LT(r.max_error, 1e-6) << z << ": " << r.str();
  }
}

TEST(FrictionJacobians, DiscreteCoulombStuckAndSliding) {
  // Stuck: |f| below fs(0) keeps the state a multiplier of v = 0. Sliding: a first residual with
  // |f| above fs(0) switches the model, whose Jacobian is then that of f = fs(v) sign + s2 v.
  for (double f0 : {0.1, 0.9}) {
    ElementFixture f;
    const Attachment a = f.att(f.n1, 1), b{f.n2};
    auto& j = f.model.add_element(
        std::make_unique<PointOnSubspace>(1, PointOnSubspace::Kind::InLine, a, b, Vec3::UnitZ(), coulomb(0.1, 1.0)));
    f.known_deviation = test_support::in_line_mbdyn_terms(static_cast<PointOnSubspace&>(j), a, b);
    f.check(0.37, set_last_unknown(j, f0));
    const auto r = f.check(0.37, set_last_unknown(j, f0));
    EXPECT_LT(r.max_error, 1e-6) << f0 << ": " << r.str();
  }
  ElementFixture f;
  auto& j = f.model.add_element(std::make_unique<RevoluteHinge>(1, RevoluteHinge::Variant::Hinge, f.att(f.n1, 1),
                                                                f.att(f.n2, 2), coulomb(0.0, 0.05)));
  f.check(0.37, set_last_unknown(j, 0.9));
  const auto r = f.check(0.37, set_last_unknown(j, 0.9));
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

namespace {

/// A block (node 2, mass m) on a line along x through the clamped node 1, gravity g along -z,
/// initial velocity v0, a force F = k t along x, friction coefficient 0.2, the shape function `shape`.
std::string block_deck(const std::string& model, double v0, double k, double final_time,
                       const std::string& shape = "simple") {
  using test::number_text;
  return "begin: data; problem: initial value; end: data;\n"
         "begin: initial value; initial time: 0.; final time: " + number_text(final_time) +
         "; time step: 1.e-3; tolerance: 1e-9; max iterations: 50; derivatives coefficient: 1e-7; derivatives max iterations: 20; end: initial value;\n"
         "begin: control data; structural nodes: 2; rigid bodies: 1; joints: 2; forces: 1; gravity; end: control data;\n"
         "begin: nodes;\n"
         "  structural: 1, static, null, eye, null, null;\n"
         "  structural: 2, dynamic, null, eye, " + number_text(v0) + ", 0., 0., null;\n"
         "end: nodes;\n"
         "begin: elements;\n"
         "  joint: 1, clamp, 1, node, node;\n"
         "  joint: 2, in line, 1, null, 3, 1., 0., 0., 2, 0., 1., 0., 2, friction, " + model + ", " + shape + ";\n"
         "  body: 2, 2, 2., null, diag, 1., 1., 1.;\n"
         "  force: 1, absolute, 2, position, null, 1., 0., 0., linear, 0., " + number_text(k) + ";\n"
         "  gravity: uniform, 0., 0., -1., const, 9.81;\n"
         "end: elements;\n";
}

// The bristle relaxation time of modlugre, fs / (sigma0 |v|), must stay above the time step.
const std::string kLugre = "modlugre, 1.e3, 0., 0., 0.5, \"mu\", const, 0.2";
const std::string kCoulomb = "preload, 19.62, discrete coulomb, \"mu\", const, 0.2";

}  // namespace

TEST(FrictionClosedForms, BlockSlidesToRestAfterTheCoulombDistance) {
  // modlugre: the block then rocks on the undamped bristles (sigma1 = 0), a fraction of a mm.
  const double v0 = 1.0, mu = 0.2, g = 9.81;
  const auto run = test::run_deck_text("friction_slide", block_deck(kLugre, v0, 0.0, 1.0));
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto mov = test::records(run.output("mov"), 2);
  ASSERT_EQ(mov.size(), 1001u);
  double x_max = 0.0;
  for (const auto& rec : mov) x_max = std::max(x_max, rec[0]);
  const double d = v0 * v0 / (2 * mu * g);  // 0.2548
  EXPECT_NEAR(x_max, d, 1e-3);
  EXPECT_NEAR(mov.back()[0], d, 2e-3);
  EXPECT_NEAR(mov[500][6], 0.0, 0.05);  // at rest at t = 0.5 s > v0 / (mu g) = 0.51 s - a step
  EXPECT_NEAR(mov.back()[2], 0.0, 1e-9);  // on the line
}

TEST(FrictionClosedForms, ScrewJointShapeOutsideTheScrew) {
  // Without a pitch, MBDyn's ScrewJointSh_c gives sh(f) = r f sec(hta) (1 + 0) / (0 - 1): with
  // r sec(hta) = 1 the friction force is the Coulomb one reversed, and the sliding block speeds
  // up by mu g as much as it slows down with the `simple` shape: the velocity changes mirrored once
  // sliding is established (the discrete Coulomb state takes its first step or two to settle).
  const double v0 = 1.0, mu = 0.2, g = 9.81, T = 0.4;
  const auto screw = test::run_deck_text(
      "friction_screw_shape",
      block_deck(kCoulomb, v0, 0.0, T, "screw joint, radius, 0.5, half thread angle, " + test::number_text(std::acos(0.5))));
  ASSERT_EQ(screw.rc, 0) << screw.log();
  const auto simple = test::run_deck_text("friction_simple_shape", block_deck(kCoulomb, v0, 0.0, T));
  ASSERT_EQ(simple.rc, 0) << simple.log();
  const auto a = test::records(screw.output("mov"), 2), b = test::records(simple.output("mov"), 2);
  ASSERT_EQ(a.size(), 401u);
  ASSERT_EQ(b.size(), 401u);
  for (std::size_t i = 50; i < a.size(); i += 50) EXPECT_NEAR(a[i][6] - a[10][6], -(b[i][6] - b[10][6]), 1e-5) << i;
  EXPECT_NEAR(a.back()[6], v0 + mu * g * T, 5e-3);
}

TEST(FrictionClosedForms, StickSlipUnderARampForce) {
  const double m = 2.0, mu = 0.2, g = 9.81, k = 10.0;
  const double t_slip = mu * m * g / k;  // 0.3924 s
  const double T = 1.0;
  // Tolerances: discrete coulomb is exact to the step; modlugre creeps on its bristles before
  // sliding (alpha > 0 beyond kappa z_ss), a few tenths of a mm, and slides a little earlier.
  struct Case {
    std::string model;
    double stuck_x, x_T_rel;
  };
  for (const Case& c : {Case{kCoulomb, 1e-9, 0.005}, Case{kLugre, 5e-4, 0.03}}) {
    const std::string& model = c.model;
    const auto run = test::run_deck_text("friction_ramp", block_deck(model, 0.0, k, T));
    ASSERT_EQ(run.rc, 0) << model << "\n" << run.log();
    const auto mov = test::records(run.output("mov"), 2);
    ASSERT_EQ(mov.size(), 1001u);  // record i at t = i 1e-3
    const std::size_t stuck = static_cast<std::size_t>(0.95 * t_slip / 1e-3);
    EXPECT_LT(std::abs(mov[stuck][0]), c.stuck_x) << model;
    const double x_T = k * std::pow(T - t_slip, 3) / (6 * m);  // 0.1785
    EXPECT_NEAR(mov.back()[0], x_T, c.x_T_rel * x_T) << model;
  }
}

TEST(FrictionJacobians, AxialRotationModLugre) {
  using S = TotalJoint::Status;
  for (double z : {-1.2e-2, 5e-2}) {
    ElementFixture f;
    TotalJoint::Params p;
    p.flavor = TotalJoint::Flavor::AxialRotation;
    const Attachment a = f.att(f.n1, 1), b = f.att(f.n2, 2);
    p.a = TotalSide{f.n1, a.offset_N, a.R_NH, a.R_NH};
    p.b = TotalSide{f.n2, b.offset_N, b.R_NH, b.R_NH};
    p.position = {S::Position, S::Position, S::Position};
    p.rotation = {S::Position, S::Position, S::Velocity};
    p.theta0 = std::make_shared<drives::TplSingleDrive<Vec3>>(Vec3::UnitZ(), std::make_shared<ConstDrive>(2.0));
    p.friction = lugre(FrictionShape::SimplePlaneHinge, 0.2, 0.05);
    auto& j = f.model.add_element(std::make_unique<TotalJoint>(1, std::move(p)));
    const auto r = f.check(0.37, set_last_unknown(j, z));
    EXPECT_LT(r.max_error, 1e-6) << z << ": " << r.str();
  }
}

// ---- the screw joint's friction (`screw joint` shape, §2.8.2) ------------------------------------

TEST(FrictionJacobians, ScrewJointModLugreBothLoadSigns) {
  // The thread: radius 0.05, half thread angle 0.5 rad; both signs of the axial load lambda (the
  // joint's first unknown) and states within and beyond the transition band.
  for (double lambda : {3.0, -2.0}) {
    for (double z : {1.2e-2, -3e-2}) {
      ElementFixture f;
      auto mu = std::make_shared<drives::ConstScalarFunction>(0.3);
      auto friction = std::make_unique<JointFriction>(std::make_unique<ModLugreFriction>(20.0, 2.8, 0.1, 0.71, mu),
                                                      FrictionShape::ScrewJoint, 0.0, 1.0, ScrewThread{0.05, 0.5});
      auto& j = f.model.add_element(
          std::make_unique<ScrewJoint>(1, f.att(f.n1, 1), f.att(f.n2, 2), 0.3, std::move(friction)));
      EXPECT_EQ(j.dof_count(), 2);
      const auto r = f.check(0.37, [&j, lambda, z](Vector& y) {
        y[j.first_index()] = lambda;
        y[j.first_index() + 1] = z;
      });
      EXPECT_LT(r.max_error, 1e-6) << lambda << " " << z << ": " << r.str();
    }
  }
}

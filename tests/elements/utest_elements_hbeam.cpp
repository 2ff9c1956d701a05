// MBDyn's helicoidal two-node beam `hbeam`: Jacobian against finite differences, a cantilever
// bent by a tip couple into the exact circular arc (the helicoidal interpolation of a constant
// curvature is exact), and axial stretch and twist against the closed form.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "elements/beams/hbeam.hpp"
#include "elements/laws/elastic_laws.hpp"
#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/core/rotations.hpp"
#include "support/jacobian_check.hpp"
#include "support/run_program.hpp"

using namespace mbl;
using namespace mbl::elements;

namespace {

using T = StructNode::Type;

std::string cantilever(const std::string& load) {
  return R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 0.125; tolerance: 1e-8; max iterations: 50; end: initial value;
begin: control data; structural nodes: 2; joints: 1; forces: 1; beams: 1; output precision: 16; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, static, 2., 0., 0., eye, null, null;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  )" + load + R"(
  hbeam: 1, 1, null, 2, null, linear elastic generic, diag, 1.e6, 2.e6, 3.e6, 40., 50., 60.;
end: elements;
)";
}

}  // namespace

namespace {

/// A skewed hbeam with offsets and point orientations, its nodes moved by `load` times a fixed
/// strain (0: the unstressed input configuration), at the Newton reference g = 0.
test_support::JacobianCheck hbeam_check(double load) {
  Model model;
  std::array<HBeamPoint, 2> pts;
  const T types[] = {T::Dynamic, T::Static};
  for (int k = 0; k < 2; ++k) {
    StructNode::InitialConditions ic;
    ic.x_W = Vec3(0.9 * k, 0.2 * k, -0.1 * k);
    ic.R_WN = rot::euler123_to_R(Vec3(0.2 * k, -0.1, 0.3 + 0.4 * k));
    auto& n = static_cast<StructNode&>(model.add_node(std::make_unique<StructNode>(k + 1, types[k], ic)));
    pts[k] = {&n, Vec3(0.01, 0.02 * k, -0.015), rot::euler123_to_R(Vec3(0.05 * k, 0.1, -0.02))};
  }
  Mat6 K = Vec6(3.0e3, 1.2e3, 1.5e3, 20.0, 35.0, 50.0).asDiagonal();
  K(0, 4) = K(4, 0) = 40.0;
  model.add_element(std::make_unique<HBeam>(10, pts, std::make_unique<laws::LinearViscoElasticLaw<6>>(K, Mat6::Zero())));
  model.setup_elements();
  model.number_dofs();
  Vector y, yp;
  model.initial_state(y, yp);
  y.segment<3>(pts[1].node->dof_index()) += load * Vec3(0.03, -0.02, 0.04);
  return test_support::check_jacobian(model, 0.0, 0.37, y, yp);
}

}  // namespace

// MBDyn's Jacobian (the material part; its reference forces stay unstressed) is exact where the
// beam carries no load.
TEST(HBeam, JacobianMatchesFiniteDifferencesWhenUnstressed) {
  const auto r = hbeam_check(0.0);
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

// Under load the geometric terms MBDyn leaves out show, and grow with the load.
TEST(HBeam, OmittedGeometricTermsGrowWithTheLoad) {
  const double e1 = hbeam_check(1.0).max_error, e2 = hbeam_check(0.5).max_error;
  EXPECT_GT(e1, 1e-3);
  EXPECT_GT(e1, 1.5 * e2);
}

// A tip couple M about y bends the cantilever into a circular arc of curvature M / EI (no axial
// force, no shear): tip rotation theta = M L / EI, tip at (rho sin theta, 0, -rho (1 - cos theta)).
TEST(HBeam, TipCoupleBendsTheCantileverIntoTheExactArc) {
  const double EI = 50.0, L = 2.0, M = 25.0;  // theta = 1 rad
  const auto run = test::run_deck_text("hbeam_arc", cantilever("couple: 1, absolute, 2, 0., 1., 0., linear, 0., 25.;"));
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto mov = test::last_record(run.output("mov"), 2);
  const double theta = M * L / EI, rho = EI / M;
  EXPECT_NEAR(mov[0], rho * std::sin(theta), 1e-8);
  EXPECT_NEAR(mov[1], 0.0, 1e-10);
  EXPECT_NEAR(mov[2], -rho * (1.0 - std::cos(theta)), 1e-8);
  EXPECT_NEAR(mov[4], theta * 180.0 / M_PI, 1e-6);  // euler123, degrees
  // .act: label, F and M in the section frame: the bending moment only.
  const auto act = test::last_record(run.output("act"), 1);
  ASSERT_EQ(act.size(), 6u);
  EXPECT_NEAR(act[4], M, 1e-6);
  for (int k : {0, 1, 2, 3, 5}) EXPECT_NEAR(act[k], 0.0, 1e-6) << k;
}

// A tip force P along the axis stretches it by P L / EA; a tip torque T twists it by T L / GJ.
TEST(HBeam, AxialForceAndTorqueGiveTheClosedForm) {
  const auto axial = test::run_deck_text("hbeam_axial", cantilever("force: 1, absolute, 2, position, null, 1., 0., 0., linear, 0., 100.;"));
  ASSERT_EQ(axial.rc, 0) << axial.log();
  EXPECT_NEAR(test::last_record(axial.output("mov"), 2)[0], 2.0 + 100.0 * 2.0 / 1.0e6, 1e-12);
  const auto torsion = test::run_deck_text("hbeam_torsion", cantilever("couple: 1, absolute, 2, 1., 0., 0., linear, 0., 4.;"));
  ASSERT_EQ(torsion.rc, 0) << torsion.log();
  EXPECT_NEAR(test::last_record(torsion.output("mov"), 2)[3], 4.0 * 2.0 / 40.0 * 180.0 / M_PI, 1e-6);
}

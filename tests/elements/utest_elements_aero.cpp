// Aerodynamic elements (elements/aero): c81 tables, the quasi-steady section loads on a flat
// plate, the aerodynamic body's Jacobian, the standard atmosphere and the rotor's uniform inflow.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "elements/aero/aerodynamic_body.hpp"
#include "elements/aero/air_properties.hpp"
#include "elements/aero/airfoil.hpp"
#include "elements/aero/c81_data.hpp"
#include "elements/aero/rotor.hpp"
#include "support/aero_tables.hpp"
#include "support/element_fixture.hpp"
#include "support/run_program.hpp"

using namespace mbl;
using namespace mbl::elements::aero;

namespace {

constexpr double kPi = std::numbers::pi;

using test_support::flat_plate;
using test_support::flat_plate_c81;
using test_support::rotor_params;

}  // namespace

TEST(ElementAero, C81TraditionalTableFromTheCorpus) {
  const auto file = std::filesystem::path(MBL_SHARED_DIR) / "corpus" / "t.c81.c81" / "deck" / "naca0012.c81";
  std::ifstream in(file);
  ASSERT_TRUE(in) << file;
  const C81Data d = read_c81(in, 1e-6, false);
  EXPECT_EQ(d.lift.mach.size(), 11u);
  EXPECT_EQ(d.lift.rows(), 39);
  EXPECT_EQ(d.drag.rows(), 65);
  EXPECT_EQ(d.moment.rows(), 47);
  // Row "-172.5 .78 ..." at Mach 0 and 0.2; between Mach points linear.
  EXPECT_DOUBLE_EQ(d.lift.lookup(-172.5, 0.), .78);
  // Row "-11. -1.161-1.161 ..." (fields touching): 7-column fields.
  EXPECT_DOUBLE_EQ(d.lift.lookup(-11., 0.1), -1.161);
  // Linear in alpha between -13 (-1.334) and -12 (-1.255) at Mach 0.
  EXPECT_NEAR(d.lift.lookup(-12.5, 0.), 0.5 * (-1.334 - 1.255), 1e-12);
  // Outside the Mach range: clamped to the last column.
  EXPECT_DOUBLE_EQ(d.lift.lookup(-172.5, 5.), d.lift.lookup(-172.5, 1.));
  // The linear lift slope at low Mach is near 2 pi per radian.
  EXPECT_NEAR(d.lift_slope(0.) * 180. / kPi, 2. * kPi, 1.0);
}

TEST(ElementAero, C81FreeFormatAndFlip) {
  C81Data d = flat_plate();
  EXPECT_NEAR(d.lift.lookup(5., 0.5), 2. * kPi * 5. * kPi / 180., 1e-12);
  // Linear range: from -10 to 10 deg, slope 2 pi / rad.
  EXPECT_NEAR(d.lift_slope(0.3), 2. * kPi * kPi / 180., 1e-12);
  // Drag: linear between the table points.
  EXPECT_NEAR(d.drag.lookup(5., 0.5), 0.01 + 0.05 * std::pow(10. * kPi / 180., 2), 1e-12);
  // Upside down: alpha and Cl change sign, Cd does not.
  C81Data cambered = flat_plate(0.2);
  const double cl_minus5 = cambered.lift.lookup(-5., 0.), cd_minus5 = cambered.drag.lookup(-5., 0.);
  cambered.flip();
  EXPECT_NEAR(cambered.lift.lookup(5., 0.), -cl_minus5, 1e-12);
  EXPECT_NEAR(cambered.drag.lookup(5., 0.), cd_minus5, 1e-12);
}

TEST(ElementAero, FlatPlateSectionLoadsAtGivenAlpha) {
  const C81Data d = flat_plate();
  const double rho = 1.225, c = 340., chord = 0.5, V = 50., alpha = 5. * kPi / 180.;
  // Air coming from ahead and below: v = (V cos a, -V sin a, 0) in the airfoil frame.
  const Vec6d W{V * std::cos(alpha), -V * std::sin(alpha), 0., 0., 0., 0.};
  SectionOutput out;
  const double ac = 0.1;
  const Vec6d F = c81_section_forces(d, SectionData{rho, c, chord, ac, 0.}, W, out);
  const double q = 0.5 * rho * chord * V * V;
  const double cl = 2. * kPi * alpha, cd = 0.01 + 0.05 * std::pow(10. * kPi / 180., 2);
  EXPECT_NEAR(out.alpha, 5., 1e-12);
  EXPECT_NEAR(out.mach, V / c, 1e-12);
  EXPECT_NEAR(out.cl, cl, 1e-12);
  // Lift normal to the relative wind, drag along it.
  EXPECT_NEAR(F[0], q * (cl * std::sin(alpha) - cd * std::cos(alpha)), 1e-10);
  EXPECT_NEAR(F[1], q * (cl * std::cos(alpha) + cd * std::sin(alpha)), 1e-10);
  EXPECT_NEAR(F[2], 0., 1e-14);
  EXPECT_NEAR(F[5], ac * F[1], 1e-10);  // cm = 0: moment of the normal force about the reference
  // No load below 1e-6 of the sound celerity.
  const Vec6d F0 = c81_section_forces(d, SectionData{rho, c, chord, ac, 0.}, Vec6d{1e-5, 0, 0, 0, 0, 0}, out);
  EXPECT_EQ(F0[1], 0.);
}

TEST(ElementAero, GaussLegendrePoints) {
  std::vector<double> x, w;
  gauss_legendre(5, x, w);
  EXPECT_NEAR(x[0], -0.9061798459386640, 1e-15);
  EXPECT_NEAR(x[2], 0., 1e-15);
  EXPECT_NEAR(w[2], 0.5688888888888889, 1e-15);
  gauss_legendre(1, x, w);
  EXPECT_DOUBLE_EQ(x[0], 0.);
  EXPECT_DOUBLE_EQ(w[0], 2.);
}

TEST(ElementAero, StandardAtmosphere) {
  StandardAtmosphere A;
  A.rho0 = std::make_shared<ConstDrive>(1.225);
  AirProperties air(A, [](double) { return Vec3(10., 0., 0.); });
  double rho = 0., c = 0.;
  air.properties(Vec3::Zero(), 0., rho, c);
  EXPECT_DOUBLE_EQ(rho, 1.225);
  EXPECT_NEAR(c, std::sqrt(1.4 * 287. * 288.16), 1e-12);
  // Continuous at the tropopause, decreasing above.
  double rho1 = 0., rho2 = 0.;
  air.properties(Vec3(0., 0., 11000. - 1e-6), 0., rho1, c);
  air.properties(Vec3(0., 0., 11000.), 0., rho2, c);
  EXPECT_NEAR(rho1, rho2, 1e-9);
  air.properties(Vec3(0., 0., 12000.), 0., rho, c);
  EXPECT_LT(rho, rho2);
  EXPECT_DOUBLE_EQ(air.private_data(air.private_data_index("vinf")), 0.);  // before any residual
  Vector r;
  ResidualSink sink(r, nullptr);
  air.residual(sink, StepContext{});
  EXPECT_DOUBLE_EQ(air.private_data(air.private_data_index("vinf")), 10.);
}

TEST(ElementAero, AerodynamicBodyJacobianMatchesFiniteDifferences) {
  test_support::ElementFixture f;
  auto& air = f.model.add_element(
      std::make_unique<AirProperties>(std::make_shared<ConstDrive>(1.2), 340., [](double) { return Vec3(-30., 5., 2.); }));
  (void)air;
  auto table = std::make_shared<const C81Data>(flat_plate());
  AeroSurfaceParams p;
  p.chord.coef = {0.3};
  p.force_point.kind = Shape1D::Kind::Linear;
  p.force_point.coef = {0.02, 0.01};
  p.bc_point.coef = {-0.05};
  p.twist.kind = Shape1D::Kind::Linear;
  p.twist.coef = {0.05, -0.02};
  p.tip_loss.coef = {1.};
  p.points = 1;
  p.airfoil.at_point.assign(1, table);
  p.jacobian = true;
  const Mat3 R_NA = rot::euler123_to_R(Vec3(0.1, -0.2, 0.3));
  f.model.add_element(std::make_unique<AerodynamicBody>(7, *f.n1, Vec3::Zero(), R_NA, 1., p));
  // MBDyn's Jacobian (aeroelem.cc AssJac) is the exact one where its approximations vanish: one
  // point of weight 1 (span 1) at the node, no tip loss; what is left is the forward difference
  // of the airfoil (steps 1e-3 |v|, across the flat plate's table breakpoints here).
  const auto r = f.check(0.37);
  EXPECT_LT(r.max_error, 1e-1) << r.str();
}

TEST(ElementAero, TheodorsenBodyJacobianMatchesFiniteDifferences) {
  test_support::ElementFixture f;
  f.model.add_element(
      std::make_unique<AirProperties>(std::make_shared<ConstDrive>(1.2), 340., [](double) { return Vec3(-30., 5., 2.); }));
  AeroSurfaceParams p;
  p.chord.coef = {0.3};
  p.force_point.coef = {0.075};
  p.bc_point.coef = {-0.075};
  p.twist.coef = {0.05};
  p.tip_loss.coef = {1.};
  p.points = 2;
  p.airfoil.at_point.assign(2, std::make_shared<const C81Data>(flat_plate()));
  p.theodorsen = true;
  const Mat3 R_NA = rot::euler123_to_R(Vec3(0.1, -0.2, 0.3));
  auto& body = f.model.add_element(std::make_unique<AerodynamicBody>(7, *f.n1, Vec3(0.2, 0.1, -0.1), R_NA, 1.5, p));
  // Nonzero lag states: the loads depend on them through the lagged angle.
  const auto r = f.check(0.37, [&](Vector& y) {
    for (int k = 0; k < body.dof_count(); ++k) y[body.first_index() + k] = 0.01 * (k + 1);
  });
  EXPECT_EQ(body.dof_count(), 4);
  EXPECT_LT(r.max_error, 1e-5) << r.str();
}

TEST(ElementAero, UniformInflowInHoverIsMomentumTheory) {
  test_support::ElementFixture f;
  f.model.add_element(
      std::make_unique<AirProperties>(std::make_shared<ConstDrive>(1.225), 340., [](double) { return Vec3::Zero(); }));
  // Rotor node n2 spins about z relative to n1, the craft (both frames aligned with W here).
  const RotorParams p = rotor_params(f, RotorParams::Model::Uniform);
  auto& rotor = static_cast<Rotor&>(f.model.add_element(std::make_unique<Rotor>(1, p)));
  f.model.setup_elements();
  const double T = 10.;
  const Vec3 axis = f.n1->R_WN().col(2);
  Vector r = Vector::Zero(1);
  ResidualSink sink(r, nullptr);
  StepContext c;
  // Loads along the axis, summed before the rotor's evaluation; the elements see the new value
  // after convergence. Hover: mu = 0 only if the hub does not move relative to the air.
  rotor.add_load(1, axis * T, Vec3::Zero(), f.n2->x_W());
  rotor.residual(sink, c);
  rotor.after_convergence(c);
  const double U = rotor.velocity(Vec3::Zero()).dot(axis);
  // With the hub's own velocity the airstream is not zero: check the equation instead.
  const double v_tip = (f.n2->w_W() - f.n1->w_W()).norm() * p.radius;
  const double A = kPi * p.radius * p.radius, ct = T / (1.225 * A * v_tip * v_tip);
  const Vec3 v_rel = -(f.n1->R_WN().transpose() * f.n2->v_W());
  const double mu = std::hypot(v_rel.x(), v_rel.y()) / v_tip, lambda0 = -v_rel.z() / v_tip;
  const double lambda_i = U / v_tip, lambda = lambda0 + lambda_i;
  EXPECT_NEAR(lambda_i, ct / (2. * std::sqrt(mu * mu + lambda * lambda)), 1e-10);
  EXPECT_GT(U, 0.);
}

TEST(ElementAero, DynamicInflowInSteadyHoverIsMomentumTheory) {
  // Craft at rest, rotor spinning about the craft's axis 3: mu = 0, chi = 0, so the states
  // decouple and the steady constant state is lambda_i = sqrt(Ct / 2).
  StructNode::InitialConditions craft, hub;
  hub.w_W = Vec3(0., 0., 40.);
  test_support::ElementFixture f(craft, hub);
  f.model.add_element(
      std::make_unique<AirProperties>(std::make_shared<ConstDrive>(1.225), 340., [](double) { return Vec3::Zero(); }));
  RotorParams p = rotor_params(f, RotorParams::Model::DynamicInflow);
  p.v_const = 0.01;
  auto& rotor = static_cast<Rotor&>(f.model.add_element(std::make_unique<Rotor>(1, p)));
  f.model.setup_elements();
  f.model.number_dofs();
  Vector y, yp;
  f.model.initial_state(y, yp);
  f.model.update(0., y, yp);
  ASSERT_EQ(rotor.dof_count(), 3);
  EXPECT_DOUBLE_EQ(y[rotor.first_index()], 0.01);  // `initial value`
  const double T = 2000., A = kPi * 25., v_tip = 200., ct = T / (1.225 * A * v_tip * v_tip);
  const double lambda_i = std::sqrt(ct / 2.);
  y[rotor.first_index()] = lambda_i;
  StepContext c;
  c.y = &y;
  c.yp = &yp;
  Vector r = Vector::Zero(f.model.size());
  ResidualSink sink(r, nullptr);
  rotor.add_load(1, Vec3(0., 0., T), Vec3::Zero(), f.n2->x_W());
  rotor.residual(sink, c);
  EXPECT_NEAR(r[rotor.first_index()], 0., 1e-12);
  EXPECT_NEAR(r[rotor.first_index() + 1], 0., 1e-14);
  EXPECT_NEAR(r[rotor.first_index() + 2], 0., 1e-14);
  // The inflow the blades see: uniform, lambda_i Omega R along the axis.
  EXPECT_NEAR(rotor.velocity(Vec3(3., 1., 0.)).z(), lambda_i * v_tip, 1e-10);
  // Jacobian: M11 + dCoef L11 with L11 = 2 Omega |lambda|.
  SparseMatrix J(f.model.size());
  JacobianSink jsink(J);
  c.dCoef = 0.1;
  rotor.jacobian(jsink, c);
  EXPECT_NEAR(J.coeff(rotor.first_index(), rotor.first_index()), 128. / (75. * kPi) + 0.1 * 2. * 40. * lambda_i, 1e-9);
}

// The roll and pitch coefficients of the dynamic inflow take the hub moment in the wind frame:
// the disc frame turned by psi0 about the axis, its axis 1 toward the airstream (MBDyn's
// DynamicInflowRotor: M = R3(-psi0) M_disc). An airstream along the disc's axis 2 gives psi0 =
// 90 deg, so a moment about the disc's axis 2 is a roll moment (CL = -M1 / (rho A Omega R^3))
// and one about its axis 1 a pitch moment (CM = M2 / ..., M2 = -M_disc1).
TEST(ElementAero, DynamicInflowTakesMomentsInTheWindFrame) {
  StructNode::InitialConditions craft, hub;
  hub.w_W = Vec3(0., 0., 40.);
  test_support::ElementFixture f(craft, hub);
  f.model.add_element(
      std::make_unique<AirProperties>(std::make_shared<ConstDrive>(1.225), 340., [](double) { return Vec3(0., 50., 0.); }));
  auto& rotor = static_cast<Rotor&>(
      f.model.add_element(std::make_unique<Rotor>(1, rotor_params(f, RotorParams::Model::DynamicInflow))));
  f.model.setup_elements();
  f.model.number_dofs();
  Vector y, yp;
  f.model.initial_state(y, yp);
  f.model.update(0., y, yp);
  StepContext c;
  c.y = &y;
  c.yp = &yp;
  const int i0 = rotor.first_index();
  const double dim = 1.225 * kPi * 25. * 40. * 125.;  // rho A Omega R^3
  // States and rates zero: each row is its load coefficient.
  auto coefficients = [&](const Vec3& M_W) {
    Vector r = Vector::Zero(f.model.size());
    ResidualSink sink(r, nullptr);
    rotor.add_load(1, Vec3::Zero(), M_W, f.n2->x_W());
    rotor.residual(sink, c);
    return Vec3(r[i0], r[i0 + 1], r[i0 + 2]);
  };
  const Vec3 about_2 = coefficients(Vec3(0., 300., 0.));
  EXPECT_NEAR(about_2[0], 0., 1e-15);
  EXPECT_NEAR(about_2[1], -300. / dim, 1e-15);
  EXPECT_NEAR(about_2[2], 0., 1e-15);
  const Vec3 about_1 = coefficients(Vec3(200., 0., 0.));
  EXPECT_NEAR(about_1[1], 0., 1e-15);
  EXPECT_NEAR(about_1[2], -200. / dim, 1e-15);
}

TEST(ElementAero, PositiveTwistIsNoseUp) {
  // A body at rest in a wind along -axis 1 of the surface (air coming from ahead): the twist
  // turns the chord nose up, so the angle of attack equals the twist and the lift is up.
  test_support::ElementFixture f;
  StructNode::InitialConditions at_rest;
  auto& node = static_cast<StructNode&>(f.model.add_node(std::make_unique<StructNode>(3, StructNode::Type::Dynamic, at_rest)));
  f.model.add_element(
      std::make_unique<AirProperties>(std::make_shared<ConstDrive>(1.225), 340., [](double) { return Vec3(-20., 0., 0.); }));
  AeroSurfaceParams p;
  p.chord.coef = {0.2};
  p.force_point.coef = {0.};
  p.bc_point.coef = {0.};
  p.twist.coef = {3. * kPi / 180.};
  p.tip_loss.coef = {1.};
  p.points = 2;
  p.airfoil.at_point.assign(2, std::make_shared<const C81Data>(flat_plate()));
  auto& body = static_cast<AerodynamicBody&>(
      f.model.add_element(std::make_unique<AerodynamicBody>(9, node, Vec3::Zero(), Mat3::Identity(), 1., p)));
  f.residual_at_start(body);
  EXPECT_NEAR(body.section(0).alpha, 3., 1e-12);
  EXPECT_GT(body.force_W().y(), 0.);
  const double q = 0.5 * 1.225 * 0.2 * 400., a = 3. * kPi / 180.;
  // Drag linear in alpha between the table's 0 and 10 deg.
  const double cl = 2. * kPi * a, cd = 0.01 + 0.3 * 0.1 * std::pow(10. * kPi / 180., 2);
  // Lift normal to the wind (along +y), drag along it (-x), over a unit span.
  EXPECT_NEAR(body.force_W().y(), q * cl, 1e-9);
  EXPECT_NEAR(body.force_W().x(), -q * cd, 1e-9);
}

// Input manual eq. 2.58: a piecewise const shape holds value_i from abscissa_i to the next one,
// the first value before the first abscissa and the last one after the last.
TEST(AeroShape, PiecewiseConstHoldsEachValueUpToTheNextAbscissa) {
  Shape1D s;
  s.kind = Shape1D::Kind::PiecewiseConst;
  s.xi = {-0.5, 0.0, 0.5};
  s.value = {1.0, 2.0, 3.0};
  EXPECT_EQ(s.at(-1.0), 1.0);
  EXPECT_EQ(s.at(-0.5), 1.0);
  EXPECT_EQ(s.at(-0.1), 1.0);
  EXPECT_EQ(s.at(0.0), 2.0);
  EXPECT_EQ(s.at(0.49), 2.0);
  EXPECT_EQ(s.at(0.5), 3.0);
  EXPECT_EQ(s.at(1.0), 3.0);
}

// Input manual eqs. 2.59 and 2.61: `linear` gives the values at xi = -1 and 1 (or, after
// `coefficients`, a0 and a1), `parabolic` the values at -1, 0 and 1. The .log line of the body
// shows them: its trailing and leading edges at both ends, chord `c` and twist `tw` there.
TEST(AeroShape, LinearAndParabolicShapesTakeTheValuesAtTheEnds) {
  auto deck = [](const std::string& chord, const std::string& twist) {
    return R"(begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1e-3; time step: 1e-3; end: initial value;
begin: control data; structural nodes: 1; rigid bodies: 1; air properties; aerodynamic elements: 1; end: control data;
begin: nodes; structural: 1, dynamic, null, eye, null, null; end: nodes;
begin: elements;
  body: 1, 1, 1., null, eye;
  air properties: 1.225, 340., 1., 0., 0., const, 0.;
  aerodynamic body: 1, 1, null, eye, 2., )" +
           chord + ", const, 0., const, 0., " + twist + R"(, 1;
end: elements;
)";
  };
  // The edges of the .log line: ( trailing, leading ) at xi = -1, then at xi = 1 (node frame).
  auto edges = [](const test::TextDeckRun& run) {
    std::ifstream log(run.output("log"));
    std::string line;
    while (std::getline(log, line) && line.rfind("aero0:", 0) != 0) {}
    std::istringstream in(line.substr(6));
    std::vector<double> v;
    double label = 0., node = 0., x = 0.;
    in >> label >> node;
    while (in >> x) v.push_back(x);
    return v;
  };
  const auto linear = test::run_deck_text("aero_shape_linear", deck("linear, 1., 3.", "linear, 0., 90.*deg2rad"));
  ASSERT_EQ(linear.rc, 0) << linear.log();
  const auto e = edges(linear);
  ASSERT_EQ(e.size(), 12u);
  // xi = -1: chord 1, no twist: trailing edge 3/4 chord behind along axis 1, at z = -1.
  EXPECT_NEAR(e[0], -0.75, 1e-12);
  EXPECT_NEAR(e[1], 0., 1e-12);
  EXPECT_NEAR(e[2], -1., 1e-12);
  EXPECT_NEAR(e[3], 0.25, 1e-12);
  // xi = 1: chord 3, twist 90 deg: the chord along axis 2.
  EXPECT_NEAR(e[6], 0., 1e-12);
  EXPECT_NEAR(e[7], -2.25, 1e-12);
  EXPECT_NEAR(e[8], 1., 1e-12);
  EXPECT_NEAR(e[10], 0.75, 1e-12);

  const auto coefficients = test::run_deck_text("aero_shape_coefficients", deck("linear, coefficients, 2., 1.", "const, 0."));
  ASSERT_EQ(coefficients.rc, 0) << coefficients.log();
  const auto ec = edges(coefficients);
  ASSERT_EQ(ec.size(), 12u);
  EXPECT_NEAR(ec[3] - ec[0], 1., 1e-12);  // chord 2 - 1 at xi = -1
  EXPECT_NEAR(ec[9] - ec[6], 3., 1e-12);  // 2 + 1 at xi = 1

  const auto parabolic = test::run_deck_text("aero_shape_parabolic", deck("parabolic, 1., 4., 2.", "const, 0."));
  ASSERT_EQ(parabolic.rc, 0) << parabolic.log();
  const auto ep = edges(parabolic);
  ASSERT_EQ(ep.size(), 12u);
  EXPECT_NEAR(ep[3] - ep[0], 1., 1e-12);
  EXPECT_NEAR(ep[9] - ep[6], 2., 1e-12);
}

// MBDyn's aerodynamic beam2 turns its section frames from node 1's by the rotation vector of
// half the relative rotation of the nodes' frames, scaled by (1 + xi) / 2 (exponential map, not
// Cayley-Gibbs-Rodrigues): with the frames 1.2 rad apart about the span, the single points of
// the two portions (xi = -1/2, 1/2) see angles of attack 0.6 / 4 and 0.6 * 3 / 4 rad.
TEST(AeroBeam, Beam2SectionFramesInterpolateTheRotationVector) {
  const auto run = test::run_deck_text("aero_beam2_frames", R"(begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1e-3; time step: 1e-3; end: initial value;
begin: control data; structural nodes: 2; joints: 2; beams: 1; air properties; aerodynamic elements: 1; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, static, 0., 0., 1., eye, null, null;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  joint: 2, clamp, 2, node, node;
  beam2: 1, 1, null, 2, null, eye, linear elastic, 1e6;
  air properties: 1.225, 340., -1., 0., 0., const, 20.;
  aerodynamic beam2: 1, 1,
    reference, node, null, reference, node, eye,
    reference, node, null, reference, node, 3, 0., 0., 1., 1, cos(1.2), sin(1.2), 0.,
    const, 0.1, const, 0., const, 0., const, 0., 1;
end: elements;
)");
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto aer = test::last_record(run.output("aer"), 1);
  ASSERT_EQ(aer.size(), 16u);
  // .aer angles: MBDyn's rounded degrees (aerod2's DEGRAD .017453293), 7 digits.
  EXPECT_NEAR(aer[0] * .017453293, 0.6 * 0.25, 1e-6);
  EXPECT_NEAR(aer[8] * .017453293, 0.6 * 0.75, 1e-6);
}

// `unsteady, bielawa` without rates and without sideslip is the steady strip theory; with rates
// the corrections follow the sign of alpha: (alpha, rates) and (-alpha, -rates) on a symmetric
// airfoil give opposite lift and moment and the same drag.
TEST(AeroBielawa, ZeroRatesAreSteadyAndCorrectionsFollowTheSignOfAlpha) {
  const C81Data d = flat_plate();
  const SectionData s{1.225, 340., 0.5, 0.1, -0.2};
  const double V = 50., alpha = 4. * kPi / 180.;
  const Vec6d W{V * std::cos(alpha), -V * std::sin(alpha), 0., 0., 0., 0.};
  SectionOutput steady_out, unsteady_out;
  const AlphaRates none;
  const Vec6d steady = c81_section_forces(d, s, W, steady_out);
  const Vec6d still = c81_section_forces(d, s, W, unsteady_out, &none);
  for (int k = 0; k < 6; ++k) EXPECT_NEAR(still[k], steady[k], 1e-12 * (1. + std::abs(steady[k])));

  const AlphaRates pitching{2., 30.}, mirrored{-2., -30.};
  SectionOutput up, down;
  const Vec6d Fu = c81_section_forces(d, s, W, up, &pitching);
  const Vec6d Wm{W[0], -W[1], 0., 0., 0., 0.};
  const Vec6d Fd = c81_section_forces(d, s, Wm, down, &mirrored);
  EXPECT_EQ(up.alf1, 2.);
  EXPECT_EQ(up.alf2, 30.);
  EXPECT_GT(std::abs(up.cl - steady_out.cl), 1e-3);  // the rates change the lift
  EXPECT_NEAR(down.cl, -up.cl, 1e-12);
  EXPECT_NEAR(down.cm, -up.cm, 1e-12);
  EXPECT_NEAR(down.cd, up.cd, 1e-12);
  EXPECT_NEAR(Fd[0], Fu[0], 1e-9);
  EXPECT_NEAR(Fd[1], -Fu[1], 1e-9);
}

// MBDyn's AeroMemory: the rates come from the quadratic through the angles of attack at the last
// two converged times and the current one; a pitch drive quadratic in time is differentiated
// exactly: alpha = .05 + .2 t + .5 t^2 rad gives alpha' = .2 + t, alpha'' = 1 (.aer std
// columns 7 and 8), from the fourth step on.
TEST(AeroBielawa, RatesOfAQuadraticPitchAreExact) {
  const auto table = test::fresh_temp_dir("aero_bielawa_table") / "flat.c81";
  std::ofstream(table) << flat_plate_c81();
  const auto run = test::run_deck_text("aero_bielawa_rates", R"(begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: .1; time step: 1e-2; end: initial value;
begin: control data; structural nodes: 1; joints: 1; air properties; aerodynamic elements: 1; end: control data;
begin: nodes; structural: 1, static, null, eye, null, null; end: nodes;
set: const integer FLAT = 1;
c81 data: FLAT, ")" + table.string() + R"(", free format;
begin: elements;
  joint: 1, clamp, 1, node, node;
  air properties: 1.225, 340., -1., 0., 0., const, 30.;
  aerodynamic body: 1, 1, null, eye, 1.,
    const, .2, const, 0., const, 0., const, 0., 1,
    control, string, ".05 + .2*Time + .5*Time^2",
    c81, FLAT, unsteady, bielawa;
end: elements;
)");
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto aer = test::records(run.output("aer"), 1);
  ASSERT_GE(aer.size(), 11u);  // t = 0, .01, ..., .1
  for (std::size_t k = 0; k < 11; ++k) {
    const double t = 1e-2 * static_cast<double>(k);
    EXPECT_NEAR(aer[k][0] * kPi / 180., .05 + .2 * t + .5 * t * t, 1e-6) << "t = " << t;
    if (k < 3) {
      EXPECT_EQ(aer[k][6], 0.) << "t = " << t;
      continue;
    }
    EXPECT_NEAR(aer[k][6], .2 + t, 1e-6) << "t = " << t;
    EXPECT_NEAR(aer[k][7], 1., 1e-5) << "t = " << t;
  }
}

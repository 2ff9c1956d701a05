// MBDyn's built-in airfoils (`naca 0012`, `rae 9671`): the closed forms of the linear range,
// symmetry, the Prandtl-Glauert scaling, the RAE 9671 cubics near alpha = 0, and the section
// loads (lift normal to the wind, quarter-chord moment zero in the linear range).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "elements/aero/aerodynamic_body.hpp"
#include "elements/aero/air_properties.hpp"
#include "elements/aero/airfoil.hpp"
#include "support/element_fixture.hpp"

using namespace mbl;
using namespace mbl::elements::aero;

TEST(AeroBuiltinAirfoil, Naca0012LinearRangeIsThinAirfoilWithPrandtlGlauert) {
  const double a = 3. * std::numbers::pi / 180., M = 0.5, beta = std::sqrt(1. - M * M);
  const BuiltinCoefficients c = builtin_coefficients(BuiltinAirfoil::Naca0012, a, M);
  EXPECT_NEAR(c.cl, 5.7296 * a / beta, 1e-14);
  EXPECT_NEAR(c.cd, .006 + .13131 * a * a, 1e-14);
  EXPECT_NEAR(c.cm, 0., 1e-14);  // 1.4324 = 5.7296 / 4: no moment about the quarter chord
  EXPECT_NEAR(c.lift_slope0, 5.7296 / beta, 1e-14);
  EXPECT_DOUBLE_EQ(c.alpha_used, a);
  // Symmetric section: cl, cm odd, cd even, also past stall and in reverse flow.
  for (double alpha : {0.05, 0.3, 1.2, 2.9, 3.1}) {
    const BuiltinCoefficients p = builtin_coefficients(BuiltinAirfoil::Naca0012, alpha, 0.3);
    const BuiltinCoefficients m = builtin_coefficients(BuiltinAirfoil::Naca0012, -alpha, 0.3);
    EXPECT_NEAR(p.cl, -m.cl, 1e-14) << alpha;
    EXPECT_NEAR(p.cm, -m.cm, 1e-14) << alpha;
    EXPECT_NEAR(p.cd, m.cd, 1e-14) << alpha;
  }
  // Past stall the lift falls, the drag rises to that of a flat plate at 90 deg.
  const BuiltinCoefficients s = builtin_coefficients(BuiltinAirfoil::Naca0012, std::numbers::pi / 2., 0.);
  EXPECT_GT(s.cd, 1.9);
  EXPECT_LT(std::abs(s.cl), 0.2);
  // Mach capped at 0.99.
  EXPECT_DOUBLE_EQ(builtin_coefficients(BuiltinAirfoil::Naca0012, a, 2.).cl,
                   builtin_coefficients(BuiltinAirfoil::Naca0012, a, .99).cl);
}

TEST(AeroBuiltinAirfoil, Rae9671CubicsNearZeroAndNacaBeyond) {
  // At Mach 0.4, a table point: cl = -37.392 a^3 + 7.0982 a^2 + 6.4158 a.
  const double a = 0.1;
  const BuiltinCoefficients c = builtin_coefficients(BuiltinAirfoil::Rae9671, a, 0.4);
  EXPECT_NEAR(c.cl, ((-37.392 * a + 7.0982) * a + 6.4158) * a, 1e-12);
  EXPECT_NEAR(c.cd, .0035772 + a * (.1915 + a * (-1.966 + a * 6.7937)), 1e-12);
  EXPECT_NEAR(c.lift_slope0, 6.4158, 1e-12);
  EXPECT_NEAR(c.friction_drag, .0035772, 1e-12);
  // Halfway between Mach 0.4 and 0.45: linear in Mach.
  EXPECT_NEAR(builtin_coefficients(BuiltinAirfoil::Rae9671, 0., .425).lift_slope0, (6.4158 + 6.5334) / 2., 1e-12);
  // Negative alpha: the slope correction sees |alpha| (as MBDyn's routine leaves it).
  EXPECT_DOUBLE_EQ(builtin_coefficients(BuiltinAirfoil::Rae9671, -a, 0.4).alpha_used, a);
  // Beyond 0.2196 rad the NACA 0012 fits.
  const BuiltinCoefficients n = builtin_coefficients(BuiltinAirfoil::Naca0012, 0.3, 0.4);
  EXPECT_DOUBLE_EQ(builtin_coefficients(BuiltinAirfoil::Rae9671, 0.3, 0.4).cl, n.cl);
}

TEST(AeroBuiltinAirfoil, SectionLoadsNormalAndAlongTheWind) {
  const double rho = 1.225, sound = 340., chord = 0.4, V = 60., alpha = 4. * std::numbers::pi / 180.;
  const Vec6d W{V * std::cos(alpha), -V * std::sin(alpha), 0., 0., 0., 0.};
  SectionOutput out;
  const double ac = 0.05;
  const Vec6d F = builtin_section_forces(BuiltinAirfoil::Naca0012, SectionData{rho, sound, chord, ac, 0.}, W, out);
  const BuiltinCoefficients c = builtin_coefficients(BuiltinAirfoil::Naca0012, alpha, V / sound);
  const double q = 0.5 * rho * chord * V * V;
  EXPECT_NEAR(out.alpha, alpha * 180. / std::numbers::pi, 1e-6);  // MBDyn's rounded degree
  EXPECT_NEAR(out.cl, c.cl, 1e-14);
  EXPECT_NEAR(F[0], q * (c.cl * std::sin(alpha) - c.cd * std::cos(alpha)), 1e-9);
  EXPECT_NEAR(F[1], q * (c.cl * std::cos(alpha) + c.cd * std::sin(alpha)), 1e-9);
  EXPECT_NEAR(F[2], 0., 1e-14);
  EXPECT_NEAR(F[5], ac * F[1], 1e-9);  // cm = 0 in the linear range
  // Spanwise flow: friction drag against it, proportional to the total speed.
  const Vec6d Ws{V, 0., 10., 0., 0., 0.};
  const Vec6d Fs = builtin_section_forces(BuiltinAirfoil::Naca0012, SectionData{rho, sound, chord, 0., 0.}, Ws, out);
  EXPECT_NEAR(Fs[2], -0.5 * rho * chord * .006 * std::hypot(V, 10.) * 10., 1e-9);
}

TEST(AeroBuiltinAirfoil, AerodynamicBodyJacobianMatchesFiniteDifferences) {
  test_support::ElementFixture f;
  f.model.add_element(
      std::make_unique<AirProperties>(std::make_shared<ConstDrive>(1.2), 340., [](double) { return Vec3(-30., 5., 2.); }));
  AeroSurfaceParams p;
  p.chord.coef = {0.3};
  p.force_point.coef = {0.02};
  p.bc_point.coef = {-0.05};
  p.twist.coef = {0.05};
  p.tip_loss.coef = {1.};
  p.points = 1;
  p.airfoil.builtin = BuiltinAirfoil::Rae9671;
  p.jacobian = true;
  const Mat3 R_NA = rot::euler123_to_R(Vec3(0.1, -0.2, 0.3));
  f.model.add_element(std::make_unique<AerodynamicBody>(7, *f.n1, Vec3::Zero(), R_NA, 1., p));
  // MBDyn's Jacobian (aeroelem.cc AssJac) is the exact one where its approximations vanish: one
  // point of weight 1 (span 1) at the node, no tip loss; what is left is the forward difference
  // of the airfoil (steps 1e-3 |v|).
  const auto r = f.check(0.37);
  EXPECT_LT(r.max_error, 2e-2) << r.str();
}

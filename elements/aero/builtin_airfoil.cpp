// MBDyn's built-in airfoils (`naca 0012`, `rae 9671`, the default airfoil of the aerodynamic
// elements): the semi-analytical coefficients of Stahr's model as MBDyn's aerod2 evaluates them,
// and the steady section loads (Harris's sideslip correction, as for the c81 tables).
#include <algorithm>
#include <cmath>
#include <numbers>

#include "elements/aero/airfoil.hpp"

namespace mbl::elements::aero {
namespace {

constexpr double kPi = std::numbers::pi;
/// MBDyn's degree conversion of the built-in model (a rounded value; it shows in the .aer angles).
constexpr double kRadPerDeg = .017453293;

/// Linear interpolation in a table of (Mach, value) pairs, extrapolating with the end segments.
template <std::size_t N>
double mach_table(const double (&mach)[N], const double (&value)[N], double m) {
  std::size_t k = 0;
  while (k + 2 < N && mach[k + 1] <= m) ++k;
  return value[k] + (value[k + 1] - value[k]) / (mach[k + 1] - mach[k]) * (m - mach[k]);
}

/// RAE 9671 fits near alpha = 0: cl = l3 a^3 + l2 a^2 + l1 a, cd = d0 + d1 |a| + d2 a^2 + d3 |a|^3.
constexpr double kRaeMach[] = {.3, .4, .45, .5, .55};
constexpr double kRaeL3[] = {-28.532, -37.392, -45.97, -55.819, -88.102};
constexpr double kRaeL2[] = {4.826, 7.0982, 8.914, 10.636, 19.93};
constexpr double kRaeL1[] = {6.2085, 6.4158, 6.5334, 6.6613, 6.4065};
constexpr double kRaeD0[] = {.0060145, .0035772, .002612, .0046674, .0029977};
constexpr double kRaeD1[] = {.086845, .1915, .24923, .14568, .25389};
constexpr double kRaeD2[] = {-.91795, -1.966, -2.6795, -1.5943, -3.0426};
constexpr double kRaeD3[] = {4.0357, 6.7937, 9.1332, 6.2569, 12.049};
constexpr double kRaeRange = .21956242;

}  // namespace

BuiltinCoefficients builtin_coefficients(BuiltinAirfoil airfoil, double alpha, double mach) {
  mach = std::min(mach, .99);
  const double beta = std::sqrt(1. - mach * mach);
  // Fold alpha into [0, pi]; the NACA 0012 is symmetric (cl, cm odd, cd even).
  double a = alpha, sign = 1.;
  for (;;) {
    if (a < 0.) a = -a, sign = -sign;
    if (a <= kPi) break;
    a -= 2. * kPi;
  }
  BuiltinCoefficients c;
  c.friction_drag = .006;
  if (a < .22689 * (1. - mach)) {
    c.cl = 5.7296 / beta * a;
    c.cd = .006 + .13131 * a * a;
    c.cm = 1.4324 * a / beta;
  } else {
    if (a < .34906) {
      const double den = (.12217 + .22689 * mach) * beta, num = .29269 * (1. - mach) + (1.3 * mach - .59) * a;
      c.cl = num / den;
      c.cm = num / (4. * den);
    } else if (a < 2.7402) {
      c.cl = (.080373 * std::sin(a) + 1.04308 * std::sin(2. * a) - .011059 * std::sin(3. * a) +
              .023127 * std::sin(4. * a)) / beta;
      c.cm = (-.02827 * std::sin(a) + .14022 * std::sin(2. * a) - .00622 * std::sin(3. * a) +
              .01012 * std::sin(4. * a)) / beta;
    } else if (a < 3.0020) {
      c.cl = -(.4704 + .10313 * a) / beta;
      c.cm = -(.4786 + .02578 * a) / beta;
    } else {
      c.cl = (-17.55 + 5.5864 * a) / beta;
      c.cm = (-12.5109 + 3.9824 * a) / beta;
    }
    c.cd = (1.1233 - .029894 * std::cos(a) - 1.00603 * std::cos(2. * a) + .003115 * std::cos(3. * a) -
            .091487 * std::cos(4. * a)) / beta;
  }
  if (airfoil == BuiltinAirfoil::Rae9671 && a <= kRaeRange) {
    const double s = sign * a;
    c.cl = ((mach_table(kRaeMach, kRaeL3, mach) * s + mach_table(kRaeMach, kRaeL2, mach)) * s +
            mach_table(kRaeMach, kRaeL1, mach)) * s;
    c.lift_slope0 = mach_table(kRaeMach, kRaeL1, mach);
    c.friction_drag = mach_table(kRaeMach, kRaeD0, mach);
    c.cd = c.friction_drag + a * (mach_table(kRaeMach, kRaeD1, mach) +
                                  a * (mach_table(kRaeMach, kRaeD2, mach) + a * mach_table(kRaeMach, kRaeD3, mach)));
    c.cm *= sign;
    c.alpha_used = a;
  } else {
    c.cl *= sign;
    c.cm *= sign;
    c.lift_slope0 = 5.7296 / beta;
    c.alpha_used = sign * a;
  }
  c.cm -= .25 * c.cl;
  return c;
}

Vec6d builtin_section_forces(BuiltinAirfoil airfoil, const SectionData& s, const Vec6d& W, SectionOutput& out) {
  const double d = s.bc_point;
  const double v1 = W[0], v2 = W[1] + d * W[5], v3 = W[2] - d * W[4];
  const double vp = std::hypot(v1, v2), v = std::sqrt(vp * vp + v3 * v3);
  Vec6d F{};
  // Below 1e-6 times the sound celerity the section carries no load; the output keeps its values.
  if (v / s.sound_celerity < 1.e-6) return F;
  const double alpha = std::atan2(-v2, v1);
  out.alpha = alpha / kRadPerDeg;
  double gamma = std::atan2(-v3, std::fabs(v1));
  out.gamma = gamma / kRadPerDeg;
  if (std::fabs(gamma) > kPi / 3.) gamma = kPi / 3.;
  const double cosgam = std::cos(gamma);
  const double mach = v / s.sound_celerity * std::sqrt(cosgam);
  out.mach = mach;
  const BuiltinCoefficients c = builtin_coefficients(airfoil, alpha, mach);
  // Harris's sideslip correction: the secant slope with the swept angle, not above the slope at 0.
  double slope = c.lift_slope0;
  if (std::fabs(c.alpha_used) >= 1.e-6) slope = std::min(c.cl / (c.alpha_used * cosgam), c.lift_slope0);
  const double cl = slope * c.alpha_used;
  out.cl = cl;
  out.cd = c.cd;
  out.cm = c.cm;
  out.alf1 = out.alf2 = 0.;
  const double U1 = v1, U2 = v2 + d * W[5], U3 = v3 - d * W[4];
  const double k = .5 * s.rho * s.chord, axial = c.friction_drag * (vp - v) - c.cd * vp;
  F[0] = k * (axial * U1 - cl * vp * U2);
  F[1] = k * (cl * vp * U1 + axial * U2);
  F[2] = -k * c.friction_drag * v * U3;
  F[5] = s.force_point * F[1] - k * s.chord * c.cm * (v1 * U1 + v2 * U2);
  return F;
}

}  // namespace mbl::elements::aero

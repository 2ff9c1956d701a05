#pragma once
// Sectional aerodynamics of the aerodynamic elements (input manual §8.1.1): the quasi-steady
// strip theory of MBDyn's c81 airfoils. The section velocity W = (v, w) is expressed in the
// airfoil frame (1 forward along the chord, 2 up, 3 along the span); the kinematic boundary
// condition is taken at the point `bc_point` along axis 1, where the velocity is
// v' = (v1, v2 + bc w3, v3 - bc w2). With alpha = atan2(-v2', v1') (degrees in the tables),
// the sideslip gamma = atan2(-v3', |v1'|) (capped at 60 deg) and the Mach number
// |v'| sqrt(cos gamma) / c (capped at 0.99 for the lookup), the coefficients come from the
// tables; beyond the linear range the lift uses the secant slope corrected for sideslip. Forces
// per unit span, q = rho chord |v'_12|^2 / 2:
//   F1 = -q (cl v2' + cd v1') / |v'_12|,   F2 = q (cl v1' - cd v2') / |v'_12|,
//   F3 = -q cd0 v3' / |v'_12|,  M1 = 0,  M2 = -ac F3,  M3 = q chord cm + ac F2.
#include <array>
#include <memory>
#include <vector>

#include "elements/aero/c81_data.hpp"
#include "elements/misc/quadrature.hpp"

namespace mbl::elements::aero {

/// What a section reports (.aer columns of the `std` output): angles in degrees.
struct SectionOutput {
  double alpha = 0., gamma = 0., mach = 0., cl = 0., cd = 0., cm = 0., alf1 = 0., alf2 = 0.;
  double clalpha = 0.;  ///< lift slope used (1/rad; c81 tables), not written
};

struct SectionData {
  double rho = 0., sound_celerity = 0., chord = 0.;
  double force_point = 0.;  ///< aerodynamic centre along axis 1
  double bc_point = 0.;     ///< boundary-condition point along axis 1
};

using Vec6d = std::array<double, 6>;

/// Rates of the angle of attack atan2(-W2, W1) (rad/s, rad/s^2) for `unsteady, bielawa`.
struct AlphaRates {
  double first = 0., second = 0.;
};

/// Force and moment per unit span (airfoil frame) of a c81 airfoil for the section velocity W.
/// With `bielawa`, Bielawa's synthesized unsteady corrections (31st AHS Forum, 1975, as MBDyn's
/// aerodc81 applies them): from the reduced rates A = c alpha' / (2 |v'_12|), B = c^2 alpha'' /
/// (4 |v'_12|^2) (scaled back to the ellipse (A/.048)^2 + (B/.016)^2 <= 1) and the ratio of
/// alpha to the static stall angle .22689 (1 - M), fitted shifts of the lift and moment angles
/// (DAN, DAM) and increments (DCN, DCM); the tables are read at alpha - DAN (lift, drag) and
/// alpha - DAM (moment), the lift keeps the sideslip secant slope, and the normal-force increment
/// cn = a DAN + DCN .9457 / sqrt(1 - M^2) is split into lift and drag along the wind.
Vec6d c81_section_forces(const C81Data& table, const SectionData& s, const Vec6d& W, SectionOutput& out,
                         const AlphaRates* bielawa = nullptr);

/// MBDyn's built-in semi-analytical airfoils (input manual §8.1.1, `naca 0012`, `rae 9671`):
/// closed-form fits of the NACA 0012 coefficients over the whole circle (linear up to the stall
/// angle 0.22689 (1 - M), then Fourier series in alpha), with Prandtl-Glauert scaling; the
/// RAE 9671 replaces them near alpha = 0 (|alpha| <= 0.2196) by cubics whose coefficients are
/// tabulated against Mach. Cm is referred to the quarter chord (cm - cl / 4).
enum class BuiltinAirfoil { Naca0012, Rae9671 };

/// Coefficients of a built-in airfoil at alpha (rad) and Mach number (capped at 0.99).
struct BuiltinCoefficients {
  double cl = 0., cd = 0., cm = 0.;
  double lift_slope0 = 0.;    ///< lift slope at alpha = 0 (1/rad)
  double friction_drag = 0.;  ///< drag coefficient of the spanwise flow
  /// The angle the slope correction uses: alpha, except |alpha| in the RAE 9671 cubic range
  /// (as MBDyn's routine leaves it).
  double alpha_used = 0.;
};
BuiltinCoefficients builtin_coefficients(BuiltinAirfoil airfoil, double alpha, double mach);

/// Force and moment per unit span (airfoil frame) of a built-in airfoil. Unlike the c81 path the
/// loads scale the section velocity taken at twice the boundary-condition offset,
/// U = (v1, v2 + 2 bc w3, v3 - 2 bc w2), while the coefficients use v' (MBDyn's aerod2 applies
/// the offset twice); with k = rho chord / 2, |v'_12| = vp, |v'| = v:
///   F1 = k ((cf (vp - v) - cd vp) U1 - cl vp U2),  F2 = k (cl vp U1 + (cf (vp - v) - cd vp) U2),
///   F3 = -k cf v U3,  M1 = M2 = 0,  M3 = ac F2 - k chord cm (v'1 U1 + v'2 U2).
Vec6d builtin_section_forces(BuiltinAirfoil airfoil, const SectionData& s, const Vec6d& W, SectionOutput& out);

/// A 1D shape of the span coordinate xi in [-1, 1] (input manual §2.5, Shape<1D>).
struct Shape1D {
  enum class Kind { Const, Linear, Parabolic, PiecewiseConst, PiecewiseLinear } kind = Kind::Const;
  std::vector<double> coef;         ///< a0, a1[, a2]
  std::vector<double> xi, value;    ///< points of the piecewise shapes
  double at(double x) const;
};

using quadrature::gauss_legendre;

/// The airfoil tables at each integration point: one table (`c81, <label>`), or chosen by the
/// point's span coordinate (`multiple`), or blended between the two bounding ones
/// (`interpolated`); empty for a built-in airfoil.
struct AirfoilData {
  std::vector<std::shared_ptr<const C81Data>> at_point;
  BuiltinAirfoil builtin = BuiltinAirfoil::Naca0012;  ///< used when at_point is empty
};

}  // namespace mbl::elements::aero

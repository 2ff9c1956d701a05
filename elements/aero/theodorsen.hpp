#pragma once
// Theodorsen unsteady aerodynamics (input manual §8.1.1, `theodorsen, c81, ...`), as MBDyn's
// TheodorsenAeroData: two states per integration point realise Jones's two-pole approximation
// of Theodorsen's function,
//   q1' = q2,   q2' = -b1 b2 d^2 q1 - (b1 + b2) d q2 + u2,   d = 2 U / chord,
// driven by the angle at the boundary-condition point u2 = atan2(-v2 - d34 w3, v1); the lagged
// angle y1 = (A1 + A2) b1 b2 d^2 q1 + (A1 b1 + A2 b2) d q2 + (1 - A1 - A2) u2 gives the velocity
// the c81 tables see, (U cos-like, -v1 tan y1 - d34 w3). The apparent-mass terms add to cl and
// cm from the pivot angle's rate and the angle's second rate, taken by backward differences over
// the step (the pivot angle (u1 d34 - u2 d14) / (d34 - d14), the pitch rate
// U (u1 - u2) / (d34 - d14), u1 the angle at the force point d14):
//   cl += cla / (2 d) (dot alpha_p - a / d ddot alpha),   a = (d14 + d34) / chord,
//   cm += cla / (2 d) (-dot alpha_p / 4 + (a / (4 d) - 1 / (16 d)) ddot alpha - dot alpha / 4),
// with the loads F1 = -qD c (cl v2 + cd v1) / vp, F2 = qD c (cl v1 - cd v2) / vp,
// M3 = qD c^2 cm + d14 F2, qD = rho (U^2 + v3^2) / 2 (the other components from the tables).
// A1 = 0.165, A2 = 0.335, b1 = 0.0455, b2 = 0.3.
#include <array>

#include "elements/aero/airfoil.hpp"

namespace mbl::elements::aero {

/// What a Theodorsen point remembers between evaluations and steps.
struct TheodorsenHistory {
  double alpha_pivot = 0., dot_alpha = 0.;             ///< of the last evaluation
  double dot_alpha_pivot = 0., ddot_alpha = 0.;        ///< of the last evaluation
  double prev_alpha_pivot = 0., prev_dot_alpha = 0.;   ///< of the last converged step
};

/// Loads per unit span at section velocity W with states q; g receives the states' rates
/// (the state equations are q' = g). dt: time since the last converged step (when zero, MBDyn
/// zeroes the rates of the element's first point only and keeps the others'). `h` is updated.
Vec6d theodorsen_section_forces(const C81Data& table, const SectionData& s, const Vec6d& W,
                                const std::array<double, 2>& q, double dt, bool first_point,
                                TheodorsenHistory& h, std::array<double, 2>& g, SectionOutput& out);

}  // namespace mbl::elements::aero

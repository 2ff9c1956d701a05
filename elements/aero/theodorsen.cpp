#include "elements/aero/theodorsen.hpp"

#include <cmath>
#include <limits>

namespace mbl::elements::aero {
namespace {
constexpr double kA1 = .165, kA2 = .335, kB1 = .0455, kB2 = .3;
constexpr double kEps = std::numeric_limits<double>::epsilon();
}  // namespace

Vec6d theodorsen_section_forces(const C81Data& table, const SectionData& s, const Vec6d& W,
                                const std::array<double, 2>& q, double dt, bool first_point,
                                TheodorsenHistory& h, std::array<double, 2>& g, SectionOutput& out) {
  const double d14 = s.force_point, d34 = s.bc_point, chord = s.chord;
  const double a = (d14 + d34) / chord;
  const double v2_34 = W[1] + d34 * W[5];
  const double U = std::sqrt(W[0] * W[0] + v2_34 * v2_34);
  const double u1 = std::atan2(-W[1] - W[5] * d14, W[0]), u2 = std::atan2(-v2_34, W[0]);
  const double d = 2. * U / chord;
  g = {q[1], -kB1 * kB2 * d * d * q[0] - (kB1 + kB2) * d * q[1] + u2};
  // The lagged angle and the velocity the tables see.
  const double y1 = (kA1 + kA2) * kB1 * kB2 * d * d * q[0] + (kA1 * kB1 + kA2 * kB2) * d * q[1] + (1. - kA1 - kA2) * u2;
  const double tan_y1 = std::tan(y1);
  const double vx2 = U * U - std::pow(W[0] * tan_y1, 2) - std::pow(d34 * W[5], 2);
  Vec6d WW = W;
  WW[0] = std::copysign(std::sqrt(vx2), W[0]);
  WW[1] = -WW[0] * tan_y1 - d34 * W[5];
  Vec6d T = c81_section_forces(table, s, WW, out);
  const double qD = .5 * s.rho * (U * U + W[2] * W[2]);
  const double cl0 = out.cl, cd0 = out.cd, cm0 = out.cm;
  h.alpha_pivot = (u1 * d34 - u2 * d14) / (d34 - d14);
  h.dot_alpha = U * (u1 - u2) / (d34 - d14);
  if (dt > kEps) {
    h.dot_alpha_pivot = (h.alpha_pivot - h.prev_alpha_pivot) / dt;
    h.ddot_alpha = (h.dot_alpha - h.prev_dot_alpha) / dt;
  } else if (first_point) {
    h.dot_alpha_pivot = h.ddot_alpha = 0.;
  }
  const double cla = out.clalpha;
  if (cla <= 0. || U <= 1.e-5) return Vec6d{};
  const double cl = cl0 + cla / 2. / d * (h.dot_alpha_pivot - a / d * h.ddot_alpha);
  const double cm = cm0 + cla / 2. / d * (-h.dot_alpha_pivot / 4. + (a / 4. / d - 1. / d / 16.) * h.ddot_alpha - h.dot_alpha / 4.);
  const double v1 = W[0], v2 = v2_34, vp = std::hypot(v1, v2);
  T[0] = -qD * chord * (cl * v2 + cd0 * v1) / vp;
  T[1] = qD * chord * (cl * v1 - cd0 * v2) / vp;
  T[5] = qD * chord * chord * cm + d14 * T[1];
  return T;
}

}  // namespace mbl::elements::aero

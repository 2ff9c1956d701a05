#include "elements/aero/airfoil.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace mbl::elements::aero {

namespace {

/// Bielawa's fits (MBDyn's aerodc81 PN, QN, PM, QM).
constexpr double kPN[] = {-3.464003e-1, -1.549076e+0, 4.306330e+1, -5.397529e+1, 5.781402e+0,
                          -3.233003e+1, -2.162257e+1, 1.866347e+1, 4.198390e+1, 3.295461e+2};
constexpr double kQN[] = {1.533717e+0, 6.977203e+0, 1.749010e+3, 1.694829e+3, -1.771899e+3, -3.291665e+4, 2.969051e+0,
                          -3.632448e+1, -2.268578e+3, 6.601995e+3, -9.654208e+3, 8.533930e+4, -1.492624e+0, 1.163661e+1};
constexpr double kPM[] = {1.970065e+1, -6.751639e+1, 7.265269e+2, 4.865945e+4, 2.086279e+4, 6.024672e+3,
                          1.446334e+2, 8.586896e+2, -7.550329e+2, -1.021613e+1, 2.247664e+1};
constexpr double kQM[] = {-2.322808e+0, -1.322257e+0, -2.633891e+0, -2.180321e-1, 4.580014e+0, 3.125497e-1,
                          -2.828806e+1, -4.396734e+0, 2.565870e+2, -1.204976e+1, -1.157802e+2, 8.612138e+0};

struct Coefficients {
  double cl = 0., cd = 0., cd0 = 0., cm = 0., slope = 0.;  ///< slope: lift slope used (1/rad)
};

/// Steady coefficients: beyond the linear range the lift takes the secant slope with the
/// sideslip-corrected angle (COE0 of aerod2.f).
Coefficients steady_coefficients(const C81Data& table, double alpha, double cosgam, double mach) {
  constexpr double rad2deg = 180. / std::numbers::pi;
  Coefficients k;
  double cl0 = 0.;
  k.cl = table.lift.lookup(alpha * rad2deg, mach, &cl0);
  k.cd = table.drag.lookup(alpha * rad2deg, mach, &k.cd0);
  k.cm = table.moment.lookup(alpha * rad2deg, mach);
  k.slope = table.lift_slope(mach) * rad2deg;
  if (std::fabs(alpha) > 1.e-6) {
    const double secant = (k.cl - cl0) / (alpha * cosgam);
    if (secant < k.slope) k.slope = secant, k.cl = cl0 + secant * alpha;
  }
  return k;
}

/// Bielawa's unsteady coefficients; v1, v2, vp: the velocity at the boundary-condition point.
Coefficients bielawa_coefficients(const C81Data& table, double alpha, double cosgam, double mach, double chord,
                                  double v1, double v2, double vp, const AlphaRates& rates) {
  constexpr double rad2deg = 180. / std::numbers::pi;
  double A = .5 * chord * rates.first / vp, B = .25 * chord * chord * rates.second / (vp * vp);
  const double eta = std::hypot(A / .048, B / .016);
  if (alpha < 0.) A = -A, B = -B;
  if (eta > 1.) A /= eta, B /= eta;
  const double A2 = A * A, B2 = B * B;
  const double stall = .22689 * (1. - mach);  // static stall angle (symmetric airfoil)
  const double sg_max = std::min(1.839 - 70.33 * std::fabs(B), 1.86);
  const double sgn = std::min(std::fabs(alpha / stall), sg_max), sgm = sgn;
  const double* P = kPN;
  const double* Q = kQN;
  double dan = (A * (P[0] + P[4] * sgn) + B * (P[1] + P[5] * sgn) +
                std::exp(-1072.52 * A2) * (A * (P[2] + P[6] * sgn) + A2 * (P[8] + P[9] * sgn)) +
                std::exp(-40316.42 * B2) * B * (P[3] + P[7] * sgn)) * stall;
  double dcn = A * (Q[0] + Q[2] * A2 + sgn * (Q[6] + Q[8] * A2 + Q[12] * sgn) + B2 * (Q[4] + Q[10] * sgn)) +
               B * (Q[1] + Q[3] * A2 + sgn * (Q[7] + Q[9] * A2 + Q[13] * sgn) + B2 * (Q[5] + Q[11] * sgn));
  P = kPM;
  Q = kQM;
  double dam = (A * (P[0] + P[2] * A2 + P[4] * B2 + P[9] * sgm + P[6] * A) +
                B * (P[1] + P[3] * B2 + P[5] * A2 + P[10] * sgm + P[7] * B + P[8] * A)) * stall;
  const double s2 = sgm * sgm;
  double dcm = A * (Q[1] + Q[7] * A + sgm * (Q[3] + Q[9] * A) + s2 * (Q[5] + Q[11] * A)) +
               B * (Q[0] + Q[6] * B + sgm * (Q[2] + Q[8] * B) + s2 * (Q[4] + Q[10] * B));
  // Applied with the sign of alpha (continuous through alpha = 0).
  if (alpha < 0.) dan = -dan, dcn = -dcn, dam = -dam, dcm = -dcm;
  Coefficients k;
  const double alpha_n = (alpha - dan) * rad2deg;  // degrees, as the tables
  double cl0 = 0.;
  k.cl = table.lift.lookup(alpha_n, mach, &cl0);
  k.cd = table.drag.lookup(alpha_n, mach, &k.cd0);
  k.cm = table.moment.lookup((alpha - dam) * rad2deg, mach);
  if (std::fabs(alpha_n) > 1.e-6) k.cl = cl0 + (k.cl - cl0) / cosgam;  // the sideslip secant, always
  const double lift_slope = table.lift_slope(mach) * rad2deg, moment_slope = table.moment_slope(mach) * rad2deg;
  const double c1 = .9457 / std::sqrt(1. - mach * mach);
  const double cn = lift_slope * dan + dcn * c1;
  k.cl += cn * v1 / vp;
  k.cd -= cn * v2 / vp;
  k.cm += moment_slope * dam + dcm * c1;
  k.slope = lift_slope;
  return k;
}

}  // namespace

Vec6d c81_section_forces(const C81Data& table, const SectionData& s, const Vec6d& W, SectionOutput& out,
                         const AlphaRates* bielawa) {
  constexpr double rad2deg = 180. / std::numbers::pi;
  const double v1 = W[0], v2 = W[1] + s.bc_point * W[5], v3 = W[2] - s.bc_point * W[4];
  const double vp2 = v1 * v1 + v2 * v2, vp = std::sqrt(vp2), vtot = std::sqrt(vp2 + v3 * v3);
  Vec6d F{};
  out = SectionOutput{};
  if (bielawa) out.alf1 = bielawa->first, out.alf2 = bielawa->second;
  // Below 1e-6 times the sound celerity the section carries no load (aerodc81).
  if (vp / s.sound_celerity < 1.e-6) return F;
  const double alpha = std::atan2(-v2, v1);
  out.alpha = alpha * rad2deg;
  double gamma = std::atan2(-v3, std::fabs(v1));
  out.gamma = gamma * rad2deg;
  if (std::fabs(gamma) > std::numbers::pi / 3.) gamma = std::numbers::pi / 3.;
  const double cosgam = std::cos(gamma);
  double mach = vtot * std::sqrt(cosgam) / s.sound_celerity;
  out.mach = mach;
  if (mach > .99) mach = .99;
  const Coefficients k = bielawa ? bielawa_coefficients(table, alpha, cosgam, mach, s.chord, v1, v2, vp, *bielawa)
                                 : steady_coefficients(table, alpha, cosgam, mach);
  out.clalpha = k.slope;
  out.cl = k.cl;
  out.cd = k.cd;
  out.cm = k.cm;
  const double q = .5 * s.rho * s.chord * vp2;
  F[0] = -q * (k.cl * v2 + k.cd * v1) / vp;
  F[1] = q * (k.cl * v1 - k.cd * v2) / vp;
  F[2] = -q * k.cd0 * v3 / vp;
  F[3] = 0.;
  F[4] = -s.force_point * F[2];
  F[5] = q * s.chord * k.cm + s.force_point * F[1];
  return F;
}

double Shape1D::at(double x) const {
  switch (kind) {
    case Kind::Const: return coef[0];
    case Kind::Linear: return coef[0] + coef[1] * x;
    case Kind::Parabolic: return coef[0] + (coef[1] + coef[2] * x) * x;
    case Kind::PiecewiseConst: {
      // Input manual eq. 2.58: value_i from abscissa_i up to the next abscissa.
      std::size_t i = 0;
      while (i + 1 < xi.size() && xi[i + 1] <= x) ++i;
      return value[i];
    }
    case Kind::PiecewiseLinear: {
      if (x <= xi.front()) return value.front();
      if (x >= xi.back()) return value.back();
      std::size_t i = 1;
      while (xi[i] < x) ++i;
      const double d = (x - xi[i - 1]) / (xi[i] - xi[i - 1]);
      return value[i - 1] + d * (value[i] - value[i - 1]);
    }
  }
  return 0.;
}


}  // namespace mbl::elements::aero

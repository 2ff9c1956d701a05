#include "elements/aero/airfoil.hpp"

#include <cmath>
#include <numbers>

namespace mbl::elements::aero {

Vec6d c81_section_forces(const C81Data& table, const SectionData& s, const Vec6d& W, SectionOutput& out) {
  constexpr double rad2deg = 180. / std::numbers::pi;
  const double v1 = W[0], v2 = W[1] + s.bc_point * W[5], v3 = W[2] - s.bc_point * W[4];
  const double vp2 = v1 * v1 + v2 * v2, vp = std::sqrt(vp2), vtot = std::sqrt(vp2 + v3 * v3);
  Vec6d F{};
  out = SectionOutput{};
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
  double cl0 = 0., cd0 = 0.;
  double cl = table.lift.lookup(out.alpha, mach, &cl0);
  const double cd = table.drag.lookup(out.alpha, mach, &cd0);
  const double cm = table.moment.lookup(out.alpha, mach);
  // Beyond the linear range: secant slope with the sideslip-corrected angle (COE0 of aerod2.f).
  double slope = table.lift_slope(mach) * rad2deg;
  if (std::fabs(alpha) > 1.e-6) {
    const double secant = (cl - cl0) / (alpha * cosgam);
    if (secant < slope) slope = secant, cl = cl0 + secant * alpha;
  }
  out.clalpha = slope;
  out.cl = cl;
  out.cd = cd;
  out.cm = cm;
  const double q = .5 * s.rho * s.chord * vp2;
  F[0] = -q * (cl * v2 + cd * v1) / vp;
  F[1] = q * (cl * v1 - cd * v2) / vp;
  F[2] = -q * cd0 * v3 / vp;
  F[3] = 0.;
  F[4] = -s.force_point * F[2];
  F[5] = q * s.chord * cm + s.force_point * F[1];
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

void gauss_legendre(int n, std::vector<double>& points, std::vector<double>& weights) {
  points.assign(n, 0.);
  weights.assign(n, 0.);
  // Newton on the Legendre polynomial P_n from Chebyshev guesses; roots come out descending.
  for (int i = 0; i < n; ++i) {
    double x = std::cos(std::numbers::pi * (i + .75) / (n + .5)), dp = 0.;
    for (int it = 0; it < 100; ++it) {
      double p0 = 1., p1 = x;
      for (int k = 2; k <= n; ++k) {
        const double p2 = ((2. * k - 1.) * x * p1 - (k - 1.) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = n * (x * p1 - p0) / (x * x - 1.);
      const double dx = p1 / dp;
      x -= dx;
      if (std::fabs(dx) < 1e-16) break;
    }
    points[n - 1 - i] = x;
    weights[n - 1 - i] = 2. / ((1. - x * x) * dp * dp);
  }
}

}  // namespace mbl::elements::aero

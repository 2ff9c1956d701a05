#pragma once
// The closed-form motion of the kinematically driven mechanisms of seed 003 §3
// (examples/seeds/): the reference of their convergence test and benchmark.
#include <array>
#include <cmath>

namespace mbl::test::seed003 {

using Vec = std::array<double, 3>;

/// slider_crank.mbd: the slider's velocity from x^2 + y^2 + z^2 = 0.3^2 with the crank pin at
/// (y, z) = (0.1 + 0.08 sin 2 pi t, 0.12 + 0.08 cos 2 pi t).
inline Vec slider_velocity(double t) {
  const double w = 2 * M_PI, y = 0.1 + 0.08 * std::sin(w * t), z = 0.12 + 0.08 * std::cos(w * t);
  const double yd = 0.08 * w * std::cos(w * t), zd = -0.08 * w * std::sin(w * t);
  const double x = std::sqrt(0.09 - y * y - z * z);
  return {-(y * yd + z * zd) / x, 0.0, 0.0};
}

/// four_link.mbd: bar 2's midpoint. Rotor pin A = 2 (cos pi t, sin pi t), bar tip B on the
/// circles |B - A| = 12.2, |B - G| = 7.4 about the pivot G = (10, 0), above the line AG.
inline std::array<double, 2> bar2_middle(double t) {
  const double Ax = 2 * std::cos(M_PI * t), Ay = 2 * std::sin(M_PI * t);
  const double ux = 10.0 - Ax, uy = -Ay, d = std::hypot(ux, uy);
  const double a = (d * d + 12.2 * 12.2 - 7.4 * 7.4) / (2 * d), h = std::sqrt(12.2 * 12.2 - a * a);
  const double Bx = Ax + (a * ux - h * uy) / d, By = Ay + (a * uy + h * ux) / d;
  return {(Ax + Bx) / 2, (Ay + By) / 2};
}
/// Its velocity (central difference of the closed form, error ~1e-10).
inline Vec bar2_velocity(double t) {
  const double e = 1e-5;
  const auto p = bar2_middle(t + e), m = bar2_middle(t - e);
  return {(p[0] - m[0]) / (2 * e), (p[1] - m[1]) / (2 * e), 0.0};
}

}  // namespace mbl::test::seed003

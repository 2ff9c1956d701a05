#pragma once
// Integration rules and 1D shape functions shared by the isoparametric elements (solids, input
// manual §8.16 table 8.2; pressure surface loads, §8.17.1): the Gauss-Legendre rules of 2 and 3
// points, the seven-point triangle rule and the quadratic Lagrange polynomials on {-1, 0, 1}.
#include <array>
#include <cmath>
#include <span>
#include <numbers>
#include <stdexcept>
#include <vector>

namespace mbl::elements::quadrature {

struct Point1D {
  double x, w;
};

/// Gauss-Legendre rule of n = 2 or 3 points on [-1, 1], ascending.
inline std::span<const Point1D> gauss(int n) {
  static const std::array<Point1D, 2> g2 = {{{-1.0 / std::sqrt(3.0), 1.0}, {1.0 / std::sqrt(3.0), 1.0}}};
  static const std::array<Point1D, 3> g3 = {
      {{-std::sqrt(0.6), 5.0 / 9.0}, {0.0, 8.0 / 9.0}, {std::sqrt(0.6), 5.0 / 9.0}}};
  if (n == 2) return g2;
  if (n == 3) return g3;
  throw std::invalid_argument("gauss: only the 2- and 3-point rules are tabulated");
}

/// Gauss-Legendre points and weights of any n >= 1 on [-1, 1], ascending.
inline void gauss_legendre(int n, std::vector<double>& points, std::vector<double>& weights) {
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

struct TrianglePoint {
  double r, s, w;
};

/// Degree-5 seven-point rule on the reference triangle (0, 0), (1, 0), (0, 1); the weights sum
/// to its area 1/2.
inline const std::array<TrianglePoint, 7>& triangle7() {
  static const std::array<TrianglePoint, 7> rule = [] {
    const double sq = std::sqrt(15.0);
    const double a = (6.0 - sq) / 21.0, b = (6.0 + sq) / 21.0;
    const double wa = (155.0 - sq) / 2400.0, wb = (155.0 + sq) / 2400.0;
    return std::array<TrianglePoint, 7>{{{1.0 / 3.0, 1.0 / 3.0, 9.0 / 80.0},
                                         {a, a, wa}, {1.0 - 2.0 * a, a, wa}, {a, 1.0 - 2.0 * a, wa},
                                         {b, b, wb}, {1.0 - 2.0 * b, b, wb}, {b, 1.0 - 2.0 * b, wb}}};
  }();
  return rule;
}

/// Quadratic Lagrange polynomial on {-1, 0, 1} that is 1 at `node` (T: a real or an automatic
/// differentiation scalar).
template <class T>
T lagrange_quadratic(const T& x, double node) {
  if (node < 0.0) return 0.5 * x * (x - 1.0);
  if (node > 0.0) return 0.5 * x * (x + 1.0);
  return 1.0 - x * x;
}

/// Its derivative.
inline double lagrange_quadratic_d(double x, double node) {
  if (node < 0.0) return x - 0.5;
  if (node > 0.0) return x + 0.5;
  return -2.0 * x;
}

}  // namespace mbl::elements::quadrature

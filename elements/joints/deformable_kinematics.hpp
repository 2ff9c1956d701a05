#pragma once
// Shared tools of the deformable elements (rod, deformable hinge/displacement/axial joint): the
// tangent operator of the rotation vector, and linearisations over the perturbations of two
// structural nodes, assembled into the Jacobian with MBDyn's updated-updated rules
// (technical manual §9.2, eq. 9.243-9.244): d theta = dCoef d g', d omega = d g' - dCoef w_ref x d g',
// d x = dCoef d x', d v = d x'.
#include <Eigen/Core>
#include <array>
#include <cmath>
#include <iterator>

#include "mbdyn-like/core/assembly.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements {

/// Coefficients of Gamma(phi) and its inverse as functions of a = |phi|, free of cancellation at
/// any angle. Closed forms subtract nearly equal numbers when a is small ((1 - cos a), a - sin a,
/// 1 - (a/2) cot(a/2)), losing digits in proportion to 1/a^2 (1/a^4 for the derivative), so below
/// a = 1 their Taylor series are summed instead (Horner, in a^2): the terms after the last one
/// kept are below 1e-17 of the sum there, and above 1 the closed forms lose at most a few ulps.
struct RotvecGammaCoefficients {
  /// Gamma = I + c1 phi x + c2 phi x phi x: c1 = (1 - cos a)/a^2, c2 = (a - sin a)/a^3.
  static double c1(double a) {
    const double h = 0.5 * a;
    const double sinc_h = h < 1e-8 ? 1.0 - h * h / 6.0 : std::sin(h) / h;
    return 0.5 * sinc_h * sinc_h;  // 2 sin^2(a/2) / a^2: no subtraction
  }
  static double c2(double a) {
    if (a >= 1.0) return (a - std::sin(a)) / (a * a * a);
    // sum_k (-1)^k a^2k / (2k+3)!
    static constexpr double k[] = {1.0 / 6.0,         -1.0 / 120.0,         1.0 / 5040.0,
                                   -1.0 / 362880.0,   1.0 / 39916800.0,     -1.0 / 6227020800.0,
                                   1.0 / 1307674368000.0, -1.0 / 355687428096000.0,
                                   1.0 / 121645100408832000.0, -1.0 / 51090942171709440000.0};
    return horner(k, a * a);
  }
  /// Gamma^-1 = I - 1/2 phi x + c phi x phi x: c = (1 - (a/2) cot(a/2)) / a^2.
  static double c(double a) {
    if (a >= 1.0) return (1.0 - 0.5 * a / std::tan(0.5 * a)) / (a * a);
    return horner(kCotSeries, a * a);
  }
  /// c'(a) / a, for the derivative of Gamma^-1 (screw joint).
  static double dc_over_a(double a) {
    if (a >= 1.0) {
      const double h = 0.5 * a, cot = 1.0 / std::tan(h), s = std::sin(h);
      const double g = 1.0 - h * cot, dg = -0.5 * cot + a / (4.0 * s * s);
      return (dg / (a * a) - 2.0 * g / (a * a * a)) / a;
    }
    // d/da of sum_k beta_k a^2k, over a: sum_k 2k beta_k a^2(k-1)
    static constexpr auto derivative = [] {
      std::array<double, std::size(kCotSeries) - 1> d{};
      for (std::size_t i = 1; i < std::size(kCotSeries); ++i) d[i - 1] = 2.0 * double(i) * kCotSeries[i];
      return d;
    }();
    return horner(derivative, a * a);
  }

 private:
  /// beta_k = |B_2k+2| / (2k+2)! (Bernoulli numbers): 1 - x cot x = sum_k beta_k 4^(k+1) x^(2k+2).
  static constexpr double kCotSeries[] = {
      1.0 / 12.0, 1.0 / 720.0, 1.0 / 30240.0, 1.0 / 1209600.0, 1.0 / 47900160.0,
      691.0 / 1307674368000.0, 1.0 / 74724249600.0, 3617.0 / 10670622842880000.0,
      43867.0 / 5109094217170944000.0, 174611.0 / 802857662698291200000.0,
      77683.0 / 14101100039391805440000.0, 236364091.0 / 1693824136731743669452800000.0,
      657931.0 / 186134520519971831808000000.0};
  template <class Coefficients>
  static double horner(const Coefficients& k, double x) {
    double sum = 0.0;
    for (std::size_t i = std::size(k); i-- > 0;) sum = sum * x + k[i];
    return sum;
  }
};

/// Gamma(phi) of the rotation vector phi (R = exp(phi x)): a perturbation d phi rotates R by
/// (Gamma d phi) x R, Gamma = I + (1 - cos a)/a^2 phi x + (a - sin a)/a^3 phi x phi x.
inline Mat3 rotvec_gamma(const Vec3& phi) {
  const double a = phi.norm();
  const Mat3 px = skew(phi);
  return Mat3::Identity() + RotvecGammaCoefficients::c1(a) * px + RotvecGammaCoefficients::c2(a) * px * px;
}

/// Gamma(phi)^-1 = I - 1/2 phi x + (1 - (a/2) cot(a/2))/a^2 phi x phi x.
inline Mat3 rotvec_gamma_inverse(const Vec3& phi) {
  const Mat3 px = skew(phi);
  return Mat3::Identity() - 0.5 * px + RotvecGammaCoefficients::c(phi.norm()) * px * px;
}

/// Linearisation of a 3-vector over the perturbations of two nodes: columns 12k + {0, 3, 6, 9}
/// multiply d x_k, theta_k, d v_k, d omega_k of node k (0 = node 1, 1 = node 2).
using Lin3 = Eigen::Matrix<double, 3, 24>;
using Lin1 = Eigen::Matrix<double, 1, 24>;
inline constexpr int kX = 0, kTh = 3, kV = 6, kW = 9;
inline int lin_col(int node, int what) { return 12 * node + what; }

/// Adds -(d r / d y' + dCoef d r / d y) of a 3-row residual block `dr` (a Lin3) at `row`.
inline void add_lin_jacobian(JacobianSink& J, int row, const StructNode* const nodes[2],
                             const StepContext& c, const Lin3& dr) {
  for (int k = 0; k < 2; ++k) {
    const StructNode& n = *nodes[k];
    const Mat3 Mx = dr.block<3, 3>(0, lin_col(k, kX)), Mth = dr.block<3, 3>(0, lin_col(k, kTh));
    const Mat3 Mv = dr.block<3, 3>(0, lin_col(k, kV)), Mw = dr.block<3, 3>(0, lin_col(k, kW));
    J.add(row, n.dof_index(), Mat3(-(c.dCoef * Mx + Mv)));
    J.add(row, n.dof_index() + 3, Mat3(-(c.dCoef * Mth + Mw - c.dCoef * Mw * skew(n.w_ref()))));
  }
}

}  // namespace mbl::elements

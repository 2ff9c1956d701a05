#pragma once
// Orientation handling as in MBDyn (technical manual ch. 4, seed 000 §3.1): orientation matrices
// per node, updated by incremental Cayley-Gibbs-Rodrigues (CGR) parameters
//     g = 2 tan(phi/2) n,
//     R(g) = I + 4/(4 + g.g) (g x + 1/2 g x g x),
//     G(g) = 4/(4 + g.g) (I + 1/2 g x)          (omega = G(g) g'),
// plus the parameterisations used in input and output (orientation vector, Euler-like angles
// 123/313/321: successive rotations about the axes as they result from the previous rotation,
// e.g. R = R1(a) R2(b) R3(c) for 123).
//
// Header-only: the parser (orientation input) and the core (nodes, output) share it.
#include <algorithm>
#include <cmath>

#include "mbdyn-like/core/types.hpp"

namespace mbl::rot {

inline Mat3 cgr_to_R(const Vec3& g) {
  const double d = 4.0 / (4.0 + g.squaredNorm());
  const Mat3 gx = skew(g);
  return Mat3::Identity() + d * (gx + 0.5 * gx * gx);
}

inline Mat3 cgr_G(const Vec3& g) {
  const double d = 4.0 / (4.0 + g.squaredNorm());
  return d * (Mat3::Identity() + 0.5 * skew(g));
}

/// Inverse of G(g): I - 1/2 g x + 1/4 g g^T.
inline Mat3 cgr_G_inverse(const Vec3& g) {
  return Mat3::Identity() - 0.5 * skew(g) + 0.25 * g * g.transpose();
}

/// CGR parameters of R (valid for |rotation| < pi): g = 4 ax(R) / (1 + tr R).
inline Vec3 R_to_cgr(const Mat3& R) {
  const double c = 1.0 + R.trace();
  return 4.0 * ax(R) / c;
}

/// Orientation vector phi = angle * axis: R = exp(phi x).
inline Mat3 rotvec_to_R(const Vec3& phi) {
  const double a = phi.norm();
  const Mat3 px = skew(phi);
  if (a < 1e-8) return Mat3::Identity() + px + 0.5 * px * px;
  return Mat3::Identity() + std::sin(a) / a * px + (1.0 - std::cos(a)) / (a * a) * px * px;
}

/// Orientation vector of R (technical manual §4.2), angle in [0, pi].
inline Vec3 R_to_rotvec(const Mat3& R) {
  const Vec3 s = ax(R);  // sin(phi) n
  const double sin_phi = s.norm();
  const double cos_phi = 0.5 * (R.trace() - 1.0);
  if (sin_phi < 1e-12) {
    if (cos_phi > 0.0) return s;  // small angle: phi n ~ sin(phi) n
    // Rotation by pi: axis from the symmetric part, R = 2 n n^T - I.
    const Mat3 nnT = 0.5 * (R + Mat3::Identity());
    int k;
    nnT.diagonal().maxCoeff(&k);
    Vec3 n = nnT.col(k) / std::sqrt(nnT(k, k));
    return M_PI * n;
  }
  const double phi = std::atan2(sin_phi, cos_phi);
  return s * (phi / sin_phi);
}

/// The angle a + 2 pi k nearest to `reference`: relative rotations that keep counting turns
/// across +-pi (the joints' private data "rz", the screw's advance).
inline double unwrap_angle(double a, double reference) {
  constexpr double kTwoPi = 2.0 * 3.14159265358979323846;
  return a + kTwoPi * std::round((reference - a) / kTwoPi);
}

inline Mat3 R1(double a) {
  Mat3 m;
  m << 1, 0, 0, 0, std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a);
  return m;
}
inline Mat3 R2(double a) {
  Mat3 m;
  m << std::cos(a), 0, std::sin(a), 0, 1, 0, -std::sin(a), 0, std::cos(a);
  return m;
}
inline Mat3 R3(double a) {
  Mat3 m;
  m << std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a), 0, 0, 0, 1;
  return m;
}

/// Angles in radians.
inline Mat3 euler123_to_R(const Vec3& e) { return R1(e[0]) * R2(e[1]) * R3(e[2]); }
inline Mat3 euler313_to_R(const Vec3& e) { return R3(e[0]) * R1(e[1]) * R3(e[2]); }
inline Mat3 euler321_to_R(const Vec3& e) { return R3(e[0]) * R2(e[1]) * R1(e[2]); }

// Matrix to angles as MBDyn 2024's MatR2EulerAngles123/313/321 (libmbmath/matvec3.cc): the
// first angle from two entries of R, then the other two from R premultiplied by the first
// rotation's transpose, always by atan2. Its branch choices (and signs of zero) are what MBDyn's
// post-processors expect: at R = I, 313 gives (180, 0, -180) degrees since atan2(+0, -0) = pi.
inline Vec3 R_to_euler123(const Mat3& R) {
  // R = R1(a) R2(b) R3(c): a from the third column.
  const double a = std::atan2(-R(1, 2), R(2, 2));
  const double ca = std::cos(a), sa = std::sin(a);
  const double b = std::atan2(R(0, 2), ca * R(2, 2) - sa * R(1, 2));
  const double c = std::atan2(ca * R(1, 0) + sa * R(2, 0), ca * R(1, 1) + sa * R(2, 1));
  return {a, b, c};
}

inline Vec3 R_to_euler313(const Mat3& R) {
  // R = R3(a) R1(b) R3(c): a from the third column (sin a sin b, -cos a sin b).
  const double a = std::atan2(R(0, 2), -R(1, 2));
  const double ca = std::cos(a), sa = std::sin(a);
  const double b = std::atan2(sa * R(0, 2) - ca * R(1, 2), R(2, 2));
  const double c = std::atan2(-ca * R(0, 1) - sa * R(1, 1), ca * R(0, 0) + sa * R(1, 0));
  return {a, b, c};
}

inline Vec3 R_to_euler321(const Mat3& R) {
  // R = R3(a) R2(b) R1(c): a from the first column (cos a cos b, sin a cos b).
  const double a = std::atan2(R(1, 0), R(0, 0));
  const double ca = std::cos(a), sa = std::sin(a);
  const double b = std::atan2(-R(2, 0), ca * R(0, 0) + sa * R(1, 0));
  const double c = std::atan2(sa * R(0, 2) - ca * R(1, 2), -sa * R(0, 1) + ca * R(1, 1));
  return {a, b, c};
}

}  // namespace mbl::rot

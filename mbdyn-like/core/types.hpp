#pragma once
// Small fixed-size algebra used everywhere (Eigen), and the notation of the project:
// quantity_frame names such as x_W (position measured and expressed in the global frame W),
// R_WN (orientation of node frame N in W), f1_N1 (offset in the frame of node 1), w_W (angular
// velocity in W). See docs/architecture.md.
#include <Eigen/Core>
#include <Eigen/Dense>

namespace mbl {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Vector = Eigen::VectorXd;
using Matrix = Eigen::MatrixXd;

/// Cross-product matrix: skew(a) * b == a.cross(b).
inline Mat3 skew(const Vec3& a) {
  Mat3 m;
  m << 0.0, -a.z(), a.y(),
       a.z(), 0.0, -a.x(),
       -a.y(), a.x(), 0.0;
  return m;
}

/// Axial vector of the skew-symmetric part of m.
inline Vec3 ax(const Mat3& m) {
  return 0.5 * Vec3(m(2, 1) - m(1, 2), m(0, 2) - m(2, 0), m(1, 0) - m(0, 1));
}

}  // namespace mbl

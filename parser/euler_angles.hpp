#pragma once
// Orientation matrices from Euler angles (radians), in MBDyn 2024's closed forms
// (libmbmath/matvec3.cc, EulerAngles123_2MatR, EulerAngles313_2MatR, EulerAngles321_2MatR): each
// entry is the sum of products of the angles' sines and cosines in MBDyn's order, so that the
// matrices equal MBDyn's to the last bit (a product of elementary rotations rounds otherwise).
//   123: R = R1(a) R2(b) R3(c);  313: R = R3(a) R1(b) R3(c);  321: R = R3(a) R2(b) R1(c).
#include <Eigen/Dense>
#include <cmath>

namespace mbl::parser {

namespace euler_detail {
struct SinCos {
  double ca, sa, cb, sb, cc, sc;
  explicit SinCos(const Eigen::Vector3d& e)
      : ca(std::cos(e[0])), sa(std::sin(e[0])), cb(std::cos(e[1])), sb(std::sin(e[1])), cc(std::cos(e[2])),
        sc(std::sin(e[2])) {}
};
/// The matrix from its columns, as MBDyn's Mat3x3(m11, m21, m31, m12, ...) constructor.
inline Eigen::Matrix3d by_columns(double m11, double m21, double m31, double m12, double m22, double m32, double m13,
                                  double m23, double m33) {
  Eigen::Matrix3d R;
  R << m11, m12, m13, m21, m22, m23, m31, m32, m33;
  return R;
}
}  // namespace euler_detail

inline Eigen::Matrix3d euler123_to_R(const Eigen::Vector3d& e) {
  const euler_detail::SinCos t(e);
  return euler_detail::by_columns(t.cb * t.cc, t.ca * t.sc + t.sa * t.sb * t.cc, t.sa * t.sc - t.ca * t.sb * t.cc,
                                  -t.cb * t.sc, t.ca * t.cc - t.sa * t.sb * t.sc, t.sa * t.cc + t.ca * t.sb * t.sc,
                                  t.sb, -t.sa * t.cb, t.ca * t.cb);
}

inline Eigen::Matrix3d euler313_to_R(const Eigen::Vector3d& e) {
  const euler_detail::SinCos t(e);
  return euler_detail::by_columns(t.ca * t.cc - t.sa * t.cb * t.sc, t.sa * t.cc + t.ca * t.cb * t.sc, t.sb * t.sc,
                                  -t.ca * t.sc - t.sa * t.cb * t.cc, -t.sa * t.sc + t.ca * t.cb * t.cc, t.sb * t.cc,
                                  t.sa * t.sb, -t.ca * t.sb, t.cb);
}

inline Eigen::Matrix3d euler321_to_R(const Eigen::Vector3d& e) {
  const euler_detail::SinCos t(e);
  return euler_detail::by_columns(t.ca * t.cb, t.sa * t.cb, -t.sb, -t.sa * t.cc + t.ca * t.sb * t.sc,
                                  t.ca * t.cc + t.sa * t.sb * t.sc, t.cb * t.sc, t.sa * t.sc + t.ca * t.sb * t.cc,
                                  -t.ca * t.sc + t.sa * t.sb * t.cc, t.cb * t.cc);
}

}  // namespace mbl::parser

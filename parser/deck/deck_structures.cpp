// Higher-order math structures of input manual §2.3: vectors, matrices and orientation matrices.
#include <Eigen/Geometry>
#include <fmt/format.h>

#include <array>
#include <cmath>

#include "parser/deck/deck_card_reader.hpp"
#include "parser/euler_angles.hpp"
#include "parser/errors.hpp"

namespace mbl::parser::deck {
namespace {

/// ANBA numbering (§2.3.5): section axes x, y and beam axis z become MBDyn axes 2, 3 and 1, so
/// MBDyn row/column i comes from ANBA row/column kAnba[i] (forces then moments).
constexpr std::array<int, 6> kAnba = {2, 0, 1, 5, 3, 4};

}  // namespace

Vec3 DeckCardReader::three_reals() {
  Vec3 v;
  for (int i = 0; i < 3; ++i) v[i] = real();
  return v;
}

/// §2.3: any non-null structure may be followed by `scale, <factor>`.
template <class M>
M DeckCardReader::scaled(M m) {
  if (keyword_is("scale")) m *= real();
  return m;
}

Vec3 DeckCardReader::vec3() {
  // `default` falls back to zeros: callers of this API have no default of their own (§2.3.1).
  // Neither takes a `scale` (mbpar.cc GetVec3 returns at once).
  if (keyword_is("null") || keyword_is("default")) return Vec3::Zero();
  return scaled(three_reals());
}

Vec6 DeckCardReader::vec6() {
  if (keyword_is("null") || keyword_is("default")) return Vec6::Zero();
  Vec6 v;
  for (int i = 0; i < 6; ++i) v[i] = real();
  return scaled(v);
}

// `default` (mbpar.cc GetMat3x3, GetMat6x6, GetVec6) is the caller's default, zeros for ours.
Mat3 DeckCardReader::mat3() {
  Mat3 m = Mat3::Zero();
  if (keyword_is("null") || keyword_is("default")) return m;  // no `scale` (mbpar.cc GetMat3x3)
  if (keyword_is("eye")) {
    m.setIdentity();
  } else if (keyword_is("diag")) {
    for (int i = 0; i < 3; ++i) m(i, i) = real();
  } else if (keyword_is("sym")) {
    for (int i = 0; i < 3; ++i)
      for (int j = i; j < 3; ++j) m(i, j) = m(j, i) = real();
  } else if (keyword_is("skew")) {
    const Vec3 v = three_reals();
    m << 0, -v[2], v[1], v[2], 0, -v[0], -v[1], v[0], 0;
  } else {
    keyword_is("matr");
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) m(i, j) = real();
  }
  return scaled(m);
}

Mat6 DeckCardReader::mat6() {
  Mat6 m = Mat6::Zero();
  if (keyword_is("null") || keyword_is("default")) return m;  // no `scale` (mbpar.cc GetMat6x6)
  if (keyword_is("eye")) {
    m.setIdentity();
  } else if (keyword_is("diag")) {
    for (int i = 0; i < 6; ++i) m(i, i) = real();
  } else if (keyword_is("sym")) {
    for (int i = 0; i < 6; ++i)
      for (int j = i; j < 6; ++j) m(i, j) = m(j, i) = real();
  } else if (keyword_is("anba")) {
    Mat6 a;
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) a(i, j) = real();
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) m(i, j) = a(kAnba[i], kAnba[j]);
  } else {
    keyword_is("matr");
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) m(i, j) = real();
  }
  return scaled(m);
}

Eigen::MatrixXd DeckCardReader::mat6xn(int n) {
  if (n < 0 || n > 100000) fail(fmt::format("invalid 6xN matrix size N = {}", n));
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(6, n);
  if (keyword_is("null")) {
  } else if (keyword_is("anba")) {
    Eigen::MatrixXd a(6, n);
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < n; ++j) a(i, j) = real();
    for (int i = 0; i < 6; ++i) m.row(i) = a.row(kAnba[i]);
  } else {
    keyword_is("matr");
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < n; ++j) m(i, j) = real();
  }
  return scaled(m);
}

int DeckCardReader::axis_index(std::string_view what) {
  const Arg& a = require(what);
  if (a.text.empty()) fail_expected(what);
  const math::Value v = evaluate_current(what);
  const double d = v.is_number() ? v.to_real() : 0.0;
  if (d != 1.0 && d != 2.0 && d != 3.0) fail_expected(what);
  ++next_;
  return static_cast<int>(d) - 1;
}

Mat3 DeckCardReader::orientation_matrix() {
  if (peek_keyword_is("null"))
    fail("expected an orientation matrix, found \"null\" (a null matrix is not orthogonal)");
  if (keyword_is("eye")) return Mat3::Identity();
  if (keyword_is("matr")) {
    const SourceLocation where = location();
    Mat3 R;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) R(i, j) = real();
    double tolerance = 1e-12;
    if (keyword_is("tolerance")) tolerance = real();
    const double error = (R.transpose() * R - Mat3::Identity()).cwiseAbs().maxCoeff();
    if (!(error <= tolerance))  // only a warning, as in MBDyn (§2.3.4)
      ctx_.report(Diagnostic{where, "warning",
                             fmt::format("orientation matrix is not orthogonal (|R^T R - I| = {:g} > "
                                         "tolerance {:g})", error, tolerance)});
    return R;
  }
  // Euler angles (technical manual §4.1): R = R_a(a1) R_b(a2) R_c(a3), radians unless `degrees`,
  // in MBDyn's closed forms (mbpar.cc: the angles scaled by pi/180, then EulerAngles*_2MatR).
  Mat3 (*euler)(const Vec3&) = nullptr;
  if (keyword_is("euler") || keyword_is("euler123"))
    euler = euler123_to_R;
  else if (keyword_is("euler313"))
    euler = euler313_to_R;
  else if (keyword_is("euler321"))
    euler = euler321_to_R;
  if (euler) {
    const double unit = keyword_is("degrees") ? M_PI / 180 : 1.0;
    return euler(three_reals() * unit);
  }
  if (keyword_is("vector") || keyword_is("orientation vector")) {  // R = exp(phi x), eq. (2.5)
    const Vec3 phi = three_reals();
    const double angle = phi.norm();
    return angle > 0 ? Mat3(Eigen::AngleAxisd(angle, phi / angle).toRotationMatrix())
                     : Mat3(Mat3::Identity());
  }

  // Two vectors (Figure 2.2): axis i1 exactly along v1, axis i2 in the plane of v1 and v2.
  const int i1 = axis_index(
      "an orientation matrix (eye, matr, euler123, euler313, euler321, vector, or an axis index "
      "1, 2 or 3 and a vector)");
  const SourceLocation where1 = location();
  const Vec3 v1 = three_reals();
  const SourceLocation where_i2 = location();
  const int i2 = axis_index("an axis index (1, 2 or 3)");
  if (i2 == i1)
    throw InputError(where_i2, fmt::format("expected an axis index different from {}, found {}", i1 + 1,
                                           i2 + 1));
  const double n1 = v1.norm();
  if (!(n1 > 0)) throw InputError(where1, "expected a non-null vector, found a null vector");
  const Vec3 e1 = v1 / n1;
  Vec3 v2;
  const SourceLocation where2 = location();
  if (keyword_is("guess")) {
    // §2.3.4: 1 at the smallest component of v1, -v1(min)/v1(max) at the largest, 0 elsewhere.
    int imin = 0, imax = 0;
    for (int i = 1; i < 3; ++i) {
      if (std::fabs(v1[i]) < std::fabs(v1[imin])) imin = i;
      if (std::fabs(v1[i]) > std::fabs(v1[imax])) imax = i;
    }
    if (imin == imax) imax = (imin + 1) % 3;
    v2.setZero();
    v2[imin] = 1.0;
    v2[imax] = -v1[imin] / v1[imax];
  } else {
    v2 = three_reals();
  }
  const Vec3 u2 = v2 - v2.dot(e1) * e1;
  if (!(u2.norm() > 1e-12 * std::max(1.0, v2.norm())))
    throw InputError(where2, "expected a vector not parallel to the first one, found a parallel or "
                             "null vector");
  const int i3 = 3 - i1 - i2;
  Mat3 R;
  R.col(i1) = e1;
  R.col(i2) = u2.normalized();
  // Right-handed: e_k = e_i x e_j for (i, j, k) in cyclic order.
  R.col(i3) = (i2 == (i1 + 1) % 3) ? Vec3(R.col(i1).cross(R.col(i2))) : Vec3(R.col(i2).cross(R.col(i1)));
  return R;
}

}  // namespace mbl::parser::deck

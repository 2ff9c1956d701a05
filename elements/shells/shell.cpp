#include "elements/shells/shell.hpp"

#include <cmath>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "elements/misc/quadrature.hpp"
#include "elements/shells/bilinear.hpp"
#include "mbdyn-like/core/rotations.hpp"

namespace mbl::elements {

namespace {

using bilinear::kNodeXi;
using bilinear::shape;
using bilinear::shape_d;
using shell_kinematics::PointState;
using shell_kinematics::RotationTerms;

RotationTerms rotation_terms(const Vec3& phi) {
  RotationTerms r;
  const double t2 = phi.squaredNorm();
  double a;
  if (t2 < 1e-6) {
    a = 1.0 - t2 / 6.0 + t2 * t2 / 120.0 - t2 * t2 * t2 / 5040.0;
    r.b = 0.5 - t2 / 24.0 + t2 * t2 / 720.0 - t2 * t2 * t2 / 40320.0;
    r.c = 1.0 / 6.0 - t2 / 120.0 + t2 * t2 / 5040.0 - t2 * t2 * t2 / 362880.0;
    r.db = -1.0 / 24.0 + t2 / 360.0 - t2 * t2 / 13440.0;
    r.dc = -1.0 / 120.0 + t2 / 2520.0 - t2 * t2 / 120960.0;
  } else {
    const double p = std::sqrt(t2);
    const double s = std::sin(p);
    a = s / p;
    r.b = (1.0 - std::cos(p)) / t2;
    r.c = (p - s) / (t2 * p);
    r.db = (a - 2.0 * r.b) / (2.0 * t2);  // db/dp = (a - 2b)/p
    r.dc = (r.b - 3.0 * r.c) / (2.0 * t2);  // dc/dp = (b - 3c)/p
  }
  r.t2 = t2;
  const Mat3 px = skew(phi);
  const Mat3 px2 = px * px;
  const Mat3 I = Mat3::Identity();
  r.R = I + a * px + r.b * px2;
  r.Gamma = I + r.b * px + r.c * px2;
  return r;
}

/// d(Gamma(phi)^T v)/d phi at fixed v, from Gamma^T v = v - b phi x v + c (phi (phi . v) - t2 v).
Mat3 gamma_T_v_derivative(const RotationTerms& r, const Vec3& phi, const Vec3& v) {
  const double pv = phi.dot(v);
  return 2.0 * r.db * v.cross(phi) * phi.transpose() + r.b * skew(v) +
         2.0 * r.dc * (phi * pv - r.t2 * v) * phi.transpose() +
         r.c * (pv * Mat3::Identity() + phi * v.transpose() - 2.0 * v * phi.transpose());
}

/// d(Gamma(phi) v)/d phi at fixed v, from Gamma v = v + b phi x v + c (phi (phi . v) - t2 v).
Mat3 gamma_v_derivative(const RotationTerms& r, const Vec3& phi, const Vec3& v) {
  const double pv = phi.dot(v);
  return 2.0 * r.db * phi.cross(v) * phi.transpose() - r.b * skew(v) +
         2.0 * r.dc * (phi * pv - r.t2 * v) * phi.transpose() +
         r.c * (pv * Mat3::Identity() + phi * v.transpose() - 2.0 * v * phi.transpose());
}

/// Second derivatives d2b/dt2^2, d2c/dt2^2 of RotationTerms' b and c: power series
/// b = sum (-t2)^j / (2j + 2)!, c = sum (-t2)^j / (2j + 3)! below t2 = 1 (the closed forms
/// lose digits to cancellation near zero), closed forms above.
std::pair<double, double> second_derivatives(double t2) {
  if (t2 < 1.0) {
    double ddb = 0.0, ddc = 0.0, tj = 1.0, fact = 720.0;  // fact = (2j + 2)! for j = 2
    for (int j = 2; j <= 12; ++j) {
      const double sign = j % 2 == 0 ? 1.0 : -1.0;
      ddb += sign * j * (j - 1) * tj / fact;
      ddc += sign * j * (j - 1) * tj / (fact * (2 * j + 3));
      tj *= t2;
      fact *= (2 * j + 3) * (2 * j + 4);
    }
    return {ddb, ddc};
  }
  const double p = std::sqrt(t2), s = std::sin(p), co = std::cos(p);
  const double a = s / p, b = (1.0 - co) / t2, c = (p - s) / (t2 * p);
  const double da = (co - a) / (2.0 * t2), db = (a - 2.0 * b) / (2.0 * t2), dc = (b - 3.0 * c) / (2.0 * t2);
  return {(da - 4.0 * db) / (2.0 * t2), (db - 5.0 * dc) / (2.0 * t2)};
}

/// Hessian w.r.t. phi of p . Gamma(phi) s at fixed p, s (the curvature's virtual work, with
/// p . Gamma s = p . s + b phi . (s x p) + c ((p . phi)(s . phi) - t2 p . s)).
Mat3 curvature_hessian(const RotationTerms& r, std::pair<double, double> dd, const Vec3& phi, const Vec3& p,
                       const Vec3& s) {
  const Vec3 sxp = s.cross(p);
  const double ps = p.dot(s), pphi = p.dot(phi), sphi = s.dot(phi);
  const double a1 = phi.dot(sxp), a2 = pphi * sphi - r.t2 * ps;
  const Vec3 g2 = sphi * p + pphi * s - 2.0 * ps * phi;  // gradient of a2
  const Mat3 I = Mat3::Identity();
  return 4.0 * (dd.first * a1 + dd.second * a2) * phi * phi.transpose() +
         2.0 * r.db * (a1 * I + phi * sxp.transpose() + sxp * phi.transpose()) +
         2.0 * r.dc * (a2 * I + phi * g2.transpose() + g2 * phi.transpose()) +
         r.c * (p * s.transpose() + s * p.transpose() - 2.0 * ps * I);
}

/// Second derivatives of the stretch's virtual work h = (Rot(phi) a) . w at fixed a:
/// d h/d w = Rot a, d h/d phi = Gamma^T ((Rot a) x w), so d2h/dphi dw = Gamma^T (Rot a) x and
/// d2h/dphi2 = d(Gamma^T v)/dphi|_{v = Rot a x w} + Gamma^T w x (Rot a) x Gamma.
struct StretchHessian {
  Mat3 phi_phi, phi_w;
};
StretchHessian stretch_hessian(const RotationTerms& r, const Vec3& phi, const Vec3& a, const Vec3& w) {
  const Vec3 Ra = r.R * a;
  const Mat3 Gamma_T = r.Gamma.transpose();
  return {gamma_T_v_derivative(r, phi, Ra.cross(w)) + Gamma_T * skew(w) * skew(Ra) * r.Gamma, Gamma_T * skew(Ra)};
}

/// The element's reference orientation T = Rot(VecRot(mean T_n)) (eqs. 11.35, 11.36), taken
/// relative to node 1's triad: the mean is near the identity there, so the rotation vector stays
/// far from the angle pi where its axis is ill-defined (the triads may be turned by pi from W).
Mat3 reference_frame(const std::array<Mat3, 4>& T_n) {
  Mat3 mean_1 = Mat3::Zero();
  for (int n = 0; n < 4; ++n) mean_1 += 0.25 * T_n[0].transpose() * T_n[n];
  return T_n[0] * rot::rotvec_to_R(rot::R_to_rotvec(mean_1));
}

/// d theta/d spin (3 x 12): the world spin theta of the reference frame T per unit world spin of
/// each nodal triad. T = T_1 Rot(psi), psi = VecRot(M), M = mean_n T_1^T T_n, so
/// d theta = spin_1 + T_1 Gamma(psi) d psi with dM = mean_n [T_1^T (spin_n - spin_1)]x T_1^T T_n,
/// and d psi the derivative of rot::R_to_rotvec's psi = ax(M) phi / sin, sin = |ax M|,
/// phi = atan2(sin, (tr M - 1) / 2) (M, a mean of rotations, need not be orthogonal).
Eigen::Matrix<double, 3, 12> reference_frame_derivative(const std::array<Mat3, 4>& T_n) {
  std::array<Mat3, 4> M_n;
  Mat3 M = Mat3::Zero();
  for (int n = 0; n < 4; ++n) {
    M_n[n] = T_n[0].transpose() * T_n[n];
    M += 0.25 * M_n[n];
  }
  const Vec3 s = ax(M);
  const double sin_phi = s.norm(), cos_phi = 0.5 * (M.trace() - 1.0);
  const bool small = sin_phi < 1e-12;  // R_to_rotvec's small-angle branch: psi = ax(M)
  const double phi = small ? 0.0 : std::atan2(sin_phi, cos_phi);
  const Vec3 psi = small ? s : Vec3(s * (phi / sin_phi));
  const Mat3 T1_Gamma = T_n[0] * rotation_terms(psi).Gamma;
  Eigen::Matrix<double, 3, 12> A = Eigen::Matrix<double, 3, 12>::Zero();
  for (int n = 0; n < 4; ++n)
    for (int k = 0; k < 3; ++k) {
      const Mat3 e_x = skew(T_n[0].row(k).transpose());  // [T_1^T e_k]x
      Mat3 dM = Mat3::Zero();
      if (n == 0) {
        for (int m = 1; m < 4; ++m) dM -= 0.25 * e_x * M_n[m];
        A(k, k) = 1.0;
      } else {
        dM = 0.25 * e_x * M_n[n];
      }
      const Vec3 ds = ax(dM);
      Vec3 dpsi = ds;
      if (!small) {
        const double d_sin = s.dot(ds) / sin_phi, d_cos = 0.5 * dM.trace();
        const double d_phi = (cos_phi * d_sin - sin_phi * d_cos) / (sin_phi * sin_phi + cos_phi * cos_phi);
        dpsi = (phi / sin_phi) * ds + s * (d_phi / sin_phi - phi * d_sin / (sin_phi * sin_phi));
      }
      A.col(3 * n + k) += T1_Gamma * dpsi;
    }
  return A;
}

}  // namespace

Shell4::Shell4(unsigned label, std::array<StructNode*, 4> nodes, ShellLaw law, bool ans)
    : Element(label), nodes_(nodes), law_(std::move(law)), ans_(ans) {
  const double g = quadrature::gauss(2)[1].x;  // 1/sqrt(3)
  const double gp[4][2] = {{g, g}, {-g, g}, {-g, -g}, {g, -g}};
  const double mp[4][2] = {{0.0, 1.0}, {-1.0, 0.0}, {0.0, -1.0}, {1.0, 0.0}};  // a, b, c, d
  for (int i = 0; i < 4; ++i) {
    gauss_[i].xi1 = gp[i][0];
    gauss_[i].xi2 = gp[i][1];
    mid_[i].xi1 = mp[i][0];
    mid_[i].xi2 = mp[i][1];
  }
}

namespace {

using Mat12x24 = Eigen::Matrix<double, 12, 24>;

template <class PointT, class FrameT>
PointState point_state(const PointT& p, const FrameT& f, const std::array<Vec3, 4>& y_n) {
  PointState ps;
  ps.phi.setZero();
  ps.phi_s = {Vec3::Zero(), Vec3::Zero()};
  for (int n = 0; n < 4; ++n) {
    ps.phi += p.L[n] * f.phi[n];
    for (int k = 0; k < 2; ++k) ps.phi_s[k] += p.dL_ds[n][k] * f.phi[n];
  }
  ps.rt = rotation_terms(ps.phi);
  ps.T_xi = f.T * ps.rt.R;
  ps.y_s = {Vec3::Zero(), Vec3::Zero()};
  for (int n = 0; n < 4; ++n)
    for (int k = 0; k < 2; ++k) ps.y_s[k] += p.dL_ds[n][k] * y_n[n];
  for (int k = 0; k < 2; ++k) ps.w[k] = f.T.transpose() * ps.y_s[k];
  return ps;
}

/// Compatible strains (eps_1, eps_2, kappa_1, kappa_2) at a point (eqs. 11.7, 11.8, 11.62).
template <class PointT>
Vec12 point_strains(const PointT& p, const PointState& ps) {
  Vec12 e;
  for (int k = 0; k < 2; ++k) {
    Vec3 eps = ps.T_xi.transpose() * ps.y_s[k];
    eps[k] -= 1.0;
    e.segment<3>(3 * k) = eps;
    e.segment<3>(6 + 3 * k) = ps.rt.R.transpose() * (ps.rt.Gamma * ps.phi_s[k]) - p.kappa0[k];
  }
  return e;
}

/// Derivatives of the compatible strains w.r.t. the 24 nodal variations (delta y_n, spin_n):
///   d eps_k = T(xi)^T d y_,k + Rt^T w_k x Gamma d phi,
///   d kappa_k = Gamma^T d phi_,k + d(Gamma^T phi_,k)/d phi d phi     (Rt^T Gamma = Gamma^T).
template <class PointT, class FrameT>
Mat12x24 point_B(const PointT& p, const PointState& ps, const FrameT& f) {
  Mat12x24 B;
  const Mat3 Gamma_T = ps.rt.Gamma.transpose();
  for (int k = 0; k < 2; ++k) {
    const Mat3 deps_dphi = ps.rt.R.transpose() * skew(ps.w[k]) * ps.rt.Gamma;
    const Mat3 dkap_dphi = gamma_T_v_derivative(ps.rt, ps.phi, ps.phi_s[k]);
    for (int n = 0; n < 4; ++n) {
      B.block<3, 3>(3 * k, 6 * n) = p.dL_ds[n][k] * ps.T_xi.transpose();
      B.block<3, 3>(3 * k, 6 * n + 3) = p.L[n] * deps_dphi * f.dphi_dspin[n];
      B.block<3, 3>(6 + 3 * k, 6 * n).setZero();
      B.block<3, 3>(6 + 3 * k, 6 * n + 3) = (p.L[n] * dkap_dphi + p.dL_ds[n][k] * Gamma_T) * f.dphi_dspin[n];
    }
  }
  return B;
}

/// Transverse shear strain eps_k3 at a mid-side (what the ANS interpolation samples): the third
/// component of T(xi)^T y_,k, i.e. t3 . y_,k with t3 = T r3, r3 = Rt e3. Its variation is
/// d eps_k3 = t3 . d y_,k + (r3 x w_k) . Gamma d phi.
double mid_shear(const PointState& ps, const Mat3& T, int k) { return (T * ps.rt.R.col(2)).dot(ps.y_s[k]); }
Vec3 mid_shear_dphi(const PointState& ps, int k) {
  return ps.rt.Gamma.transpose() * ps.rt.R.col(2).cross(ps.w[k]);
}

/// ANS weights (eqs. 11.72-11.74) of the mid-sides a, b, c, d at a Gauss point (xi1, xi2): eps_13
/// from a, c, eps_23 from b, d.
std::array<double, 4> ans_weights(double x1, double x2) {
  return {0.5 * (1.0 + x2), 0.5 * (1.0 - x1), 0.5 * (1.0 - x2), 0.5 * (1.0 + x1)};
}

}  // namespace

void Shell4::setup(Model&) {
  NodeStates s0;
  for (int n = 0; n < 4; ++n) {
    s0.x[n] = nodes_[n]->initial().x_W;
    s0.R[n] = nodes_[n]->initial().R_WN;
  }
  // Nodal triads from the surface tangents at the nodes (eq. 11.33): t1 along dx/dxi1, t3 normal.
  for (int n = 0; n < 4; ++n) {
    Vec3 a1 = Vec3::Zero(), a2 = Vec3::Zero();
    for (int m = 0; m < 4; ++m) {
      a1 += shape_d(m, 0, kNodeXi[n][0], kNodeXi[n][1]) * s0.x[m];
      a2 += shape_d(m, 1, kNodeXi[n][0], kNodeXi[n][1]) * s0.x[m];
    }
    const Vec3 normal = a1.cross(a2);
    if (!(a1.norm() > 1e-12) || !(normal.norm() > 1e-12 * a1.squaredNorm()))
      throw std::invalid_argument(fmt::format("shell {}: degenerate geometry at node {}", label(), nodes_[n]->label()));
    iTa_[n] = s0.R[n].transpose() * bilinear::surface_frame(a1, a2);
  }

  // Reference frame and nodal rotation vectors of the initial configuration.
  std::array<Mat3, 4> T_n0;
  for (int n = 0; n < 4; ++n) T_n0[n] = s0.R[n] * iTa_[n];
  Frame f0;
  f0.T = reference_frame(T_n0);
  const Mat3& T = f0.T;
  for (int n = 0; n < 4; ++n) f0.phi[n] = rot::R_to_rotvec(T.transpose() * s0.R[n] * iTa_[n]);

  auto init_point = [&](Point& p) {
    Vec3 phi = Vec3::Zero();
    Vec3 dx[2] = {Vec3::Zero(), Vec3::Zero()};
    for (int n = 0; n < 4; ++n) {
      p.L[n] = shape(n, p.xi1, p.xi2);
      phi += p.L[n] * f0.phi[n];
      for (int j = 0; j < 2; ++j) dx[j] += shape_d(n, j, p.xi1, p.xi2) * s0.x[n];
    }
    const Mat3 T0 = T * rot::rotvec_to_R(phi);
    Eigen::Matrix2d S;  // eq. 11.47: S(a, j) = t0_a . dx/dxi_j
    for (int a = 0; a < 2; ++a)
      for (int j = 0; j < 2; ++j) S(a, j) = T0.col(a).dot(dx[j]);
    p.alpha = S.determinant();
    if (!(p.alpha > 0.0))
      throw std::invalid_argument(fmt::format("shell {}: non-positive area at ({}, {})", label(), p.xi1, p.xi2));
    const Eigen::Matrix2d Sinv = S.inverse();
    for (int n = 0; n < 4; ++n)
      for (int k = 0; k < 2; ++k)
        p.dL_ds[n][k] = shape_d(n, 0, p.xi1, p.xi2) * Sinv(0, k) + shape_d(n, 1, p.xi1, p.xi2) * Sinv(1, k);
    p.kappa0 = {Vec3::Zero(), Vec3::Zero()};
    const Vec12 e0 = point_strains(p, point_state(p, f0, s0.x));
    p.kappa0 = {Vec3(e0.segment<3>(6)), Vec3(e0.segment<3>(9))};
    return S;
  };
  for (auto& p : mid_) init_point(p);
  Point centre;
  const Eigen::Matrix2d S0 = init_point(centre);
  // EAS interpolation (eqs. 11.53-11.56): membrane strains (e11, e22, e12, e21) enhanced in the
  // natural domain, pushed forward with M0 built from S at the centre.
  const double s11 = S0(0, 0), s12 = S0(0, 1), s21 = S0(1, 0), s22 = S0(1, 1);
  Eigen::Matrix4d M0;
  M0 << s11 * s11, s12 * s12, s12 * s11, s11 * s12,  //
      s21 * s21, s22 * s22, s22 * s21, s21 * s22,    //
      s11 * s21, s12 * s22, s11 * s22, s12 * s21,    //
      s11 * s21, s12 * s22, s12 * s21, s11 * s22;
  const Eigen::Matrix4d M0_invT = M0.inverse().transpose();
  constexpr int kRowOf[4] = {0, 4, 1, 3};  // e11 -> eps_11, e22 -> eps_22, e12 -> eps_12, e21 -> eps_21
  for (auto& p : gauss_) {
    init_point(p);
    const double x1 = p.xi1, x2 = p.xi2, x12 = x1 * x2;
    Eigen::Matrix<double, 4, 7> H;
    H << x1, x12, 0, 0, 0, 0, 0,  //
        0, 0, x2, x12, 0, 0, 0,   //
        0, 0, 0, 0, x1, x12, 0,   //
        0, 0, 0, 0, 0, x12, x2;
    const Eigen::Matrix<double, 4, 7> Pm = (centre.alpha / p.alpha) * M0_invT * H;
    p.P.setZero();
    for (int r = 0; r < 4; ++r) p.P.row(kRowOf[r]) = Pm.row(r);
  }
  for (int g = 0; g < 4; ++g) {
    eps_t_[g].setZero();
    sigma_[g] = law_.prestress;
  }
}

Shell4::NodeStates Shell4::current_states() const {
  NodeStates s;
  for (int n = 0; n < 4; ++n) {
    s.x[n] = nodes_[n]->x_W();
    s.R[n] = nodes_[n]->R_WN();
  }
  return s;
}

Vec7 Shell4::beta(const StepContext& c) const {
  if (!c.y || first_index() < 0) return Vec7::Zero();
  return c.y->segment<7>(first_index());
}

std::array<Mat3, 4> Shell4::triads(const NodeStates& s) const {
  std::array<Mat3, 4> T_n;
  for (int n = 0; n < 4; ++n) T_n[n] = s.R[n] * iTa_[n];
  return T_n;
}

Shell4::Frame Shell4::frame(const NodeStates& s) const {
  Frame f;
  const std::array<Mat3, 4> T_n = triads(s);
  f.T = reference_frame(T_n);
  for (int n = 0; n < 4; ++n) {
    f.phi[n] = rot::R_to_rotvec(f.T.transpose() * T_n[n]);
    f.dphi_dspin[n] = rotation_terms(f.phi[n]).Gamma.inverse() * f.T.transpose();
  }
  return f;
}

// Assumed natural shear strains (eqs. 11.72-11.74): eps_13 from the mid-sides a, c, eps_23 from
// b, d. Used by both cards: MBDyn's `shell4eas` results match this shear interpolation (to 1e-8
// on its plate decks), not the fully integrated shear. Only these two components are sampled
// there: a, c give eps_13 (k = 1), b, d eps_23 (k = 2).
Shell4::Strains Shell4::strains(const PointStates& pst, const Frame& f) const {
  Strains out;
  for (int g = 0; g < 4; ++g) {
    const PointState& ps = pst.gauss[g];
    out.eps[g] = point_strains(gauss_[g], ps);
    out.B[g] = point_B(gauss_[g], ps, f);
  }
  std::array<double, 4> shear_mid;
  std::array<Eigen::Matrix<double, 1, 24>, 4> dshear_mid;
  for (int m = 0; m < 4; ++m) {
    const int k = m % 2;
    const PointState& ps = pst.mid[m];
    shear_mid[m] = mid_shear(ps, f.T, k);
    const Vec3 t3 = ps.T_xi.col(2), d_phi = mid_shear_dphi(ps, k);
    for (int n = 0; n < 4; ++n) {
      dshear_mid[m].segment<3>(6 * n) = mid_[m].dL_ds[n][k] * t3.transpose();
      dshear_mid[m].segment<3>(6 * n + 3) = mid_[m].L[n] * d_phi.transpose() * f.dphi_dspin[n];
    }
  }
  for (int g = 0; g < 4; ++g) {
    const std::array<double, 4> a = ans_weights(gauss_[g].xi1, gauss_[g].xi2);
    out.eps[g][2] = a[0] * shear_mid[0] + a[2] * shear_mid[2];
    out.eps[g][5] = a[1] * shear_mid[1] + a[3] * shear_mid[3];
    out.B[g].row(2) = a[0] * dshear_mid[0] + a[2] * dshear_mid[2];
    out.B[g].row(5) = a[1] * dshear_mid[1] + a[3] * dshear_mid[3];
  }
  return out;
}

// f_q = sum_g alpha_g B_g^T sigma_g (Gauss weights 1), accumulated without forming B: the
// rotational parts are gathered per node in the rotation-vector space (g_n) and mapped to the
// spin once per node with dphi_dspin^T; the ANS shear forces are gathered per mid-side.
Shell4::PointStates Shell4::point_states(const NodeStates& s, const Frame& f) const {
  PointStates st;
  for (int g = 0; g < 4; ++g) st.gauss[g] = point_state(gauss_[g], f, s.x);
  for (int m = 0; m < 4; ++m) st.mid[m] = point_state(mid_[m], f, s.x);
  return st;
}

void Shell4::internal_forces(const PointStates& st, const Frame& f, const Vec7& b, Vec24& f_q, Vec7& f_b) {
  const std::array<PointState, 4>& ps_mid = st.mid;
  std::array<double, 4> shear_mid;
  for (int m = 0; m < 4; ++m) shear_mid[m] = mid_shear(ps_mid[m], f.T, m % 2);
  f_q.setZero();
  f_b.setZero();
  std::array<Vec3, 4> g_n{Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
  std::array<double, 4> sigma_mid{0.0, 0.0, 0.0, 0.0};  // sum of alpha sigma_k3 weights per mid-side
  for (int g = 0; g < 4; ++g) {
    const Point& p = gauss_[g];
    const PointState& ps = st.gauss[g];
    Vec12 eps = point_strains(p, ps);
    const std::array<double, 4> a = ans_weights(p.xi1, p.xi2);
    eps[2] = a[0] * shear_mid[0] + a[2] * shear_mid[2];
    eps[5] = a[1] * shear_mid[1] + a[3] * shear_mid[3];
    const Vec12 eps_t = eps + p.P * b;
    const Vec12 sigma = law_.D * eps_t + law_.prestress;
    f_b += p.P.transpose() * sigma * p.alpha;
    eps_t_[g] = eps_t;
    sigma_[g] = sigma;
    const Vec12 as = p.alpha * sigma;
    for (int m = 0; m < 4; ++m) sigma_mid[m] += a[m] * as[m % 2 == 0 ? 2 : 5];
    Vec3 u = Vec3::Zero();  // conjugate to d phi at this point
    for (int k = 0; k < 2; ++k) {
      Vec3 s_eps = as.segment<3>(3 * k);
      s_eps[2] = 0.0;  // the transverse shear is the ANS one
      const Vec3 s_kap = as.segment<3>(6 + 3 * k);
      u -= ps.rt.Gamma.transpose() * ps.w[k].cross(ps.rt.R * s_eps);
      u += gamma_T_v_derivative(ps.rt, ps.phi, ps.phi_s[k]).transpose() * s_kap;
      const Vec3 f_y = ps.T_xi * s_eps, f_kap = ps.rt.Gamma * s_kap;
      for (int n = 0; n < 4; ++n) {
        f_q.segment<3>(6 * n) += p.dL_ds[n][k] * f_y;
        g_n[n] += p.dL_ds[n][k] * f_kap;
      }
    }
    for (int n = 0; n < 4; ++n) g_n[n] += p.L[n] * u;
  }
  for (int m = 0; m < 4; ++m) {
    const int k = m % 2;
    const Vec3 f_y = sigma_mid[m] * ps_mid[m].T_xi.col(2), u = sigma_mid[m] * mid_shear_dphi(ps_mid[m], k);
    for (int n = 0; n < 4; ++n) {
      f_q.segment<3>(6 * n) += mid_[m].dL_ds[n][k] * f_y;
      g_n[n] += mid_[m].L[n] * u;
    }
  }
  for (int n = 0; n < 4; ++n) f_q.segment<3>(6 * n + 3) = f.dphi_dspin[n].transpose() * g_n[n];
}

const Shell4::Evaluation& Shell4::evaluate(const StepContext& c) {
  const NodeStates s = current_states();
  const Vec7 b = beta(c);
  bool same = last_.valid && b == last_.beta;
  for (int n = 0; n < 4 && same; ++n) same = s.x[n] == last_.s.x[n] && s.R[n] == last_.s.R[n];
  if (!same) {
    last_.s = s;
    last_.beta = b;
    last_.f = frame(s);
    last_.ps = point_states(s, last_.f);
    internal_forces(last_.ps, last_.f, b, last_.f_q, last_.f_b);
    last_.valid = true;
  }
  return last_;
}

void Shell4::residual(ResidualSink& r, const StepContext& c) {
  const Evaluation& e = evaluate(c);
  const Vec24& f_q = e.f_q;
  const Vec7& f_b = e.f_b;
  for (int n = 0; n < 4; ++n) {
    if (nodes_[n]->dof_count() == 0) continue;
    r.add(nodes_[n]->eq_index(), Eigen::Matrix<double, 6, 1>(-f_q.segment<6>(6 * n)));
  }
  r.add(first_index(), Vec7(-f_b));
}

// The Hessian of the virtual work Pi = sum_g alpha sigma_g . eps_g at fixed sigma w.r.t. the
// point variables (phi, phi_,k, w_k = T^T y_,k), gathered per node pair with phi = sum L_n phi_n,
// phi_,k = sum L_n,k phi_n, y_,k = sum L_n,k y_n; mapped to the spins with dphi_dspin, plus the
// derivative of dphi_dspin^T = T Gamma(phi_n)^-T itself at the generalised force it maps.
void Shell4::fixed_frame_tangent(const PointStates& pst, const Frame& f, const Strains& st, const Vec24& f_q,
                                 Eigen::Matrix<double, 24, 24>& K_qq, Eigen::Matrix<double, 7, 24>& K_bq) const {
  K_qq.setZero();
  K_bq.setZero();
  for (int g = 0; g < 4; ++g) {
    // Coefficient-based products: at these fixed sizes Eigen's blocked GEMM spends more time
    // packing than multiplying.
    const Eigen::Matrix<double, 12, 24> DB = gauss_[g].alpha * law_.D.lazyProduct(st.B[g]);
    K_qq += st.B[g].transpose().lazyProduct(DB);
    K_bq += gauss_[g].P.transpose().lazyProduct(DB);
  }
  std::array<std::array<Mat3, 4>, 4> H_pp, H_pw;  // (phi_n, phi_m), (phi_n, w of y_m)
  for (auto& row : H_pp) row.fill(Mat3::Zero());
  for (auto& row : H_pw) row.fill(Mat3::Zero());
  // One point's Hessian: phi-phi, phi-phi_,k (rows phi) and phi-w_k.
  auto gather = [&](const Point& p, const Mat3& h_pp, const std::array<Mat3, 2>& h_ps, const std::array<Mat3, 2>& h_pw) {
    std::array<Mat3, 4> S, U, Q;
    for (int m = 0; m < 4; ++m) {
      S[m] = p.L[m] * h_pp + p.dL_ds[m][0] * h_ps[0] + p.dL_ds[m][1] * h_ps[1];
      U[m] = p.dL_ds[m][0] * h_ps[0].transpose() + p.dL_ds[m][1] * h_ps[1].transpose();
      Q[m] = p.dL_ds[m][0] * h_pw[0] + p.dL_ds[m][1] * h_pw[1];
    }
    for (int n = 0; n < 4; ++n)
      for (int m = 0; m < 4; ++m) {
        H_pp[n][m] += p.L[n] * S[m] + p.L[m] * U[n];
        H_pw[n][m] += p.L[n] * Q[m];
      }
  };
  std::array<double, 4> sigma_mid{0.0, 0.0, 0.0, 0.0};
  for (int g = 0; g < 4; ++g) {
    const Point& p = gauss_[g];
    const PointState& ps = pst.gauss[g];
    const Vec12 as = p.alpha * sigma_[g];
    const std::array<double, 4> a = ans_weights(p.xi1, p.xi2);
    for (int m = 0; m < 4; ++m) sigma_mid[m] += a[m] * as[m % 2 == 0 ? 2 : 5];
    const auto dd = second_derivatives(ps.rt.t2);
    Mat3 h_pp = Mat3::Zero();
    std::array<Mat3, 2> h_ps, h_pw;
    for (int k = 0; k < 2; ++k) {
      Vec3 s_eps = as.segment<3>(3 * k);
      s_eps[2] = 0.0;  // the transverse shear is the ANS one
      const Vec3 s_kap = as.segment<3>(6 + 3 * k);
      const StretchHessian hs = stretch_hessian(ps.rt, ps.phi, s_eps, ps.w[k]);
      h_pp += hs.phi_phi + curvature_hessian(ps.rt, dd, ps.phi, ps.phi_s[k], s_kap);
      h_pw[k] = hs.phi_w;
      h_ps[k] = gamma_v_derivative(ps.rt, ps.phi, s_kap).transpose();
    }
    gather(p, h_pp, h_ps, h_pw);
  }
  for (int m = 0; m < 4; ++m) {
    const int k = m % 2;
    const PointState& ps = pst.mid[m];
    const StretchHessian hs = stretch_hessian(ps.rt, ps.phi, Vec3(0.0, 0.0, sigma_mid[m]), ps.w[k]);
    std::array<Mat3, 2> h_pw{Mat3::Zero(), Mat3::Zero()};
    h_pw[k] = hs.phi_w;
    gather(mid_[m], hs.phi_phi, {Mat3::Zero(), Mat3::Zero()}, h_pw);
  }
  const Mat3 T_T = f.T.transpose();
  for (int n = 0; n < 4; ++n) {
    const Mat3 Dn_T = f.dphi_dspin[n].transpose();
    for (int m = 0; m < 4; ++m) {
      K_qq.block<3, 3>(6 * n + 3, 6 * m + 3) += Dn_T * H_pp[n][m] * f.dphi_dspin[m];
      K_qq.block<3, 3>(6 * n + 3, 6 * m) += Dn_T * H_pw[n][m] * T_T;
      K_qq.block<3, 3>(6 * m, 6 * n + 3) += f.T * H_pw[n][m].transpose() * f.dphi_dspin[n];
    }
    // d(T Gamma^-T g)/d phi_n = -T Gamma^-T d(Gamma^T v)/d phi_n at v = Gamma^-T g = T^T f_q,n.
    const RotationTerms rt = rotation_terms(f.phi[n]);
    const Mat3 Gamma_inv_T = (f.dphi_dspin[n] * f.T).transpose();
    const Vec3 v = T_T * f_q.segment<3>(6 * n + 3);
    K_qq.block<3, 3>(6 * n + 3, 6 * n + 3) -=
        f.T * Gamma_inv_T * gamma_T_v_derivative(rt, f.phi[n], v) * f.dphi_dspin[n];
  }
}

void Shell4::jacobian(JacobianSink& J, const StepContext& c) {
  const Evaluation& e = evaluate(c);
  const NodeStates& s = e.s;
  const Frame& f = e.f;
  const PointStates& ps = e.ps;
  const Vec24& f_q = e.f_q;
  // EAS columns (eqs. 11.81, 11.83): the forces are linear in beta.
  const Strains st = strains(ps, f);
  Eigen::Matrix<double, 24, 7> K_qb = Eigen::Matrix<double, 24, 7>::Zero();
  Eigen::Matrix<double, 7, 7> K_bb = Eigen::Matrix<double, 7, 7>::Zero();
  for (int g = 0; g < 4; ++g) {
    const Point& p = gauss_[g];
    const Eigen::Matrix<double, 12, 7> DP = p.alpha * law_.D.lazyProduct(p.P);
    K_qb += st.B[g].transpose().lazyProduct(DP);
    K_bb += p.P.transpose().lazyProduct(DP);
  }
  // Nodal columns: the tangent with T fixed, plus the variation of T (an average of the nodal
  // triads, eqs. 11.35, 11.36): d f = d f/d theta|_nodes d theta, d theta = sum_m A_m spin_m, with
  // theta the world spin of T. A rigid rotation delta of the element (positions about their
  // centroid, every spin delta) turns T by delta and every nodal force vector with it and leaves
  // the beta forces as they are, so
  //   d f/d theta = -[f_n]x - sum_m (K_q,spin_m - K_q,y_m [y_m - y_c]x)   (T fixed in K),
  // exact, as is A_m = d theta/d spin_m.
  Eigen::Matrix<double, 24, 24> K_qq;
  Eigen::Matrix<double, 7, 24> K_bq;
  fixed_frame_tangent(ps, f, st, f_q, K_qq, K_bq);
  const Vec3 y_c = 0.25 * (s.x[0] + s.x[1] + s.x[2] + s.x[3]);
  Eigen::Matrix<double, 24, 3> dfq_dtheta;
  Eigen::Matrix<double, 7, 3> dfb_dtheta = Eigen::Matrix<double, 7, 3>::Zero();
  for (int n = 0; n < 4; ++n) dfq_dtheta.middleRows<3>(6 * n) = -skew(f_q.segment<3>(6 * n));
  for (int n = 0; n < 4; ++n) dfq_dtheta.middleRows<3>(6 * n + 3) = -skew(f_q.segment<3>(6 * n + 3));
  for (int m = 0; m < 4; ++m) {
    const Mat3 r_x = skew(s.x[m] - y_c);
    dfq_dtheta += K_qq.middleCols<3>(6 * m) * r_x - K_qq.middleCols<3>(6 * m + 3);
    dfb_dtheta += K_bq.middleCols<3>(6 * m) * r_x - K_bq.middleCols<3>(6 * m + 3);
  }
  const Eigen::Matrix<double, 3, 12> A = reference_frame_derivative(triads(s));
  for (int n = 0; n < 4; ++n) {
    K_qq.middleCols<3>(6 * n + 3) += dfq_dtheta * A.middleCols<3>(3 * n);
    K_bq.middleCols<3>(6 * n + 3) += dfb_dtheta * A.middleCols<3>(3 * n);
  }
  // The nodes' unknowns are incremental rotations g (R = R(g) R_ref): a change dg is the spin
  // G(g) dg, so the spin columns are mapped with G(g) (exact also away from g = 0).
  for (int n = 0; n < 4; ++n) {
    const StructNode& nd = *nodes_[n];
    if (nd.dof_count() == 0 || !c.y) continue;
    const Mat3 G = rot::cgr_G(c.y->segment<3>(nd.dof_index() + 3));
    K_qq.middleCols<3>(6 * n + 3) = (K_qq.middleCols<3>(6 * n + 3) * G).eval();
    K_bq.middleCols<3>(6 * n + 3) = (K_bq.middleCols<3>(6 * n + 3) * G).eval();
  }
  const int ib = first_index();
  for (int i = 0; i < 4; ++i) {
    const StructNode& ni = *nodes_[i];
    if (ni.dof_count() == 0) continue;
    for (int j = 0; j < 4; ++j) {
      const StructNode& nj = *nodes_[j];
      if (nj.dof_count() == 0) continue;
      J.add(ni.eq_index(), nj.dof_index(), Mat6(c.dCoef * K_qq.block<6, 6>(6 * i, 6 * j)));
    }
    J.add(ni.eq_index(), ib, Eigen::Matrix<double, 6, 7>(K_qb.middleRows<6>(6 * i)));
    J.add(ib, ni.dof_index(), Eigen::Matrix<double, 7, 6>(c.dCoef * K_bq.middleCols<6>(6 * i)));
  }
  J.add(ib, ib, K_bb);
}

void Shell4::output(OutputSink& out) const {
  if (!output_enabled()) return;
  std::ostream* os = out.text(OutputFile::Pla);
  if (!os) return;
  out.write_label(*os, label());
  for (const Vec12& s : sigma_)
    for (int r = 0; r < 12; ++r) out.write(*os, s[r]);
  *os << '\n';
}

std::string Shell4::log_line() const {
  return fmt::format("shell4: {} {} {} {} {}", label(), nodes_[0]->label(), nodes_[1]->label(),
                     nodes_[2]->label(), nodes_[3]->label());
}

}  // namespace mbl::elements

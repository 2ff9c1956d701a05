#include "elements/aero/aerodynamic_body.hpp"

#include <array>
#include <cmath>

#include <fmt/format.h>

#include "elements/aero/air_properties.hpp"
#include "mbdyn-like/core/log_text.hpp"
#include "mbdyn-like/core/model.hpp"

namespace mbl::elements::aero {

AerodynamicBody::AerodynamicBody(unsigned label, StructNode& node, const Vec3& f_N, const Mat3& R_NA, double span,
                                 AeroSurfaceParams p)
    : AeroSurface(label, std::move(p), 1), node_(node), f_N_(f_N), R_NA_(R_NA), half_span_(span / 2.) {}

void AerodynamicBody::kinematics(int i, double t, Vec6d& W, Mat3& R_WS, Vec3& Xb_W, Vec3& Vr_W) const {
  const double xi = xi_[i];
  const Mat3& R_WN = node_.R_WN();
  Xb_W = R_WN * (f_N_ + R_NA_.col(2) * (half_span_ * xi));
  Vr_W = node_.v_W() + node_.w_W().cross(Xb_W) + air_relative(node_.x_W() + Xb_W, t);
  R_WS = section_frame(R_WN * R_NA_, xi, t);
  W = section_velocity(R_WS, Vr_W, node_.w_W());
}

void AerodynamicBody::residual(ResidualSink& r, const StepContext& c) {
  double rho = 0., sound = 0.;
  air_->properties(node_.x_W(), c.t, rho, sound);
  F_W_.setZero();
  M_W_.setZero();
  for (int i = 0; i < p_.points; ++i) {
    Vec6d W;
    Mat3 R_WS;
    Vec3 Xb, Vr;
    kinematics(i, c.t, W, R_WS, Xb, Vr);
    Vec6d T;
    if (p_.theodorsen && !c.initial_assembly) {
      std::array<double, 2> g{};
      T = theodorsen_loads(i, xi_[i], xi_[i], W, rho, sound, c.t, states(*c.y, i), g, true);
      const std::array<double, 2> qp = states(*c.yp, i);
      r.add(first_index() + 2 * i, g[0] - qp[0]);
      r.add(first_index() + 2 * i + 1, g[1] - qp[1]);
    } else {
      T = section_loads(i, xi_[i], xi_[i], W, rho, sound, c.t, true);
    }
    const double weight = half_span_ * w_[i];
    const Vec3 F = R_WS * Vec3(T[0], T[1], T[2]) * weight;
    const Vec3 M = R_WS * Vec3(T[3], T[4], T[5]) * weight;
    send_section_to_induced_velocity(F, M, node_.x_W() + Xb);
    F_W_ += F;
    M_W_ += M + Xb.cross(F);
  }
  send_to_induced_velocity(F_W_, M_W_, node_.x_W());
  if (c.initial_assembly) return;
  r.add(node_.eq_index(), F_W_);
  r.add(node_.eq_index() + 3, M_W_);
}

void AerodynamicBody::jacobian(JacobianSink& J, const StepContext& c) {
  if (!(p_.jacobian || p_.theodorsen) || c.initial_assembly) return;
  double rho = 0., sound = 0.;
  air_->properties(node_.x_W(), c.t, rho, sound);
  const Vec3 w = node_.w_W();
  const int eq = node_.eq_index(), col = node_.dof_index();
  if (!p_.theodorsen) {
    // MBDyn's AerodynamicBody::AssJac (aeroelem.cc): the one-node form of the beams' (the
    // section frame turns with the node), less the term (f x Xb) x of the moment's rotation
    // block that the beams carry and the body's does not.
    Mat3 dF[2] = {Mat3::Zero(), Mat3::Zero()}, dM[2] = {Mat3::Zero(), Mat3::Zero()};
    for (int i = 0; i < p_.points; ++i) {
      Vec6d W, T0;
      Mat3 R;
      Vec3 Xb, Vr;
      kinematics(i, c.t, W, R, Xb, Vr);
      Mat6 JT;
      section_loads_jacobian(i, xi_[i], W, rho, sound, c.t, T0, JT);
      const JacobianNode n{Xb, w, 1., Mat3::Identity()};
      add_point_jacobian(R, T0, JT, half_span_ * w_[i], Vr, w, Xb, 0, &n, 1, c.dCoef, dF, dM);
      dM[1] -= skew(Vec3(R * Vec3(T0[0], T0[1], T0[2]) * c.dCoef).cross(Xb));
    }
    J.add(eq, col, Mat3(-dF[0]));
    J.add(eq, col + 3, Mat3(-dF[1]));
    J.add(eq + 3, col, Mat3(-dM[0]));
    J.add(eq + 3, col + 3, Mat3(-dM[1]));
    return;
  }
  // d(F, M)/d(v, omega, theta) of the node, summed over the points.
  Eigen::Matrix<double, 6, 3> Dv = Eigen::Matrix<double, 6, 3>::Zero(), Dw = Dv, Dth = Dv;
  for (int i = 0; i < p_.points; ++i) {
    Vec6d W;
    Mat3 R;
    Vec3 Xb, Vr;
    kinematics(i, c.t, W, R, Xb, Vr);
    // Section loads and (Theodorsen) state rates as functions of W and of the states.
    const std::array<double, 2> q0 = p_.theodorsen ? states(*c.y, i) : std::array<double, 2>{};
    auto section = [&](const Vec6d& Wx, const std::array<double, 2>& q, std::array<double, 2>& g) {
      g = {};
      return p_.theodorsen ? theodorsen_loads(i, xi_[i], xi_[i], Wx, rho, sound, c.t, q, g, false)
                           : section_loads(i, xi_[i], xi_[i], Wx, rho, sound, c.t, false);
    };
    std::array<double, 2> g0;
    const Vec6d T = section(W, q0, g0);
    const double weight = half_span_ * w_[i];
    // Sectional derivatives dT/dW, dg/dW (and dT/dq, dg/dq) by central differences.
    Mat6 JT;
    Eigen::Matrix<double, 2, 6> G;
    const double vn = std::sqrt(W[0] * W[0] + W[1] * W[1] + W[2] * W[2]);
    const double wn = std::sqrt(W[3] * W[3] + W[4] * W[4] + W[5] * W[5]);
    std::array<double, 2> gp, gm;
    for (int k = 0; k < 6; ++k) {
      const double h = (k < 3 ? vn : wn) * 1e-6 + 1e-9;
      Vec6d Wp = W, Wm = W;
      Wp[k] += h;
      Wm[k] -= h;
      const Vec6d Tp = section(Wp, q0, gp), Tm = section(Wm, q0, gm);
      for (int j = 0; j < 6; ++j) JT(j, k) = (Tp[j] - Tm[j]) / (2. * h);
      for (int j = 0; j < 2; ++j) G(j, k) = (gp[j] - gm[j]) / (2. * h);
    }
    const Vec3 F = R * Vec3(T[0], T[1], T[2]) * weight;
    const Vec3 Mp = R * Vec3(T[3], T[4], T[5]) * weight;
    const Mat3 Rt = R.transpose();
    // Section velocities: dV = R^T (dVr + Vr x dth), dVr = dv - Xb x dw - w x (Xb x dth);
    // dW = R^T (dw + w x dth).
    const Mat3 Vr_v = Mat3::Identity(), Vr_w = -skew(Xb), Vr_th = -skew(w) * skew(Xb);
    Eigen::Matrix<double, 6, 3> dWv, dWw, dWth;
    dWv << Rt * Vr_v, Mat3::Zero();
    dWw << Rt * Vr_w, Rt;
    dWth << Rt * (Vr_th + skew(Vr)), Rt * skew(w);
    auto load_rows = [&](const Eigen::Matrix<double, 6, 3>& dW) {
      const Eigen::Matrix<double, 6, 3> dT = JT * dW;
      Eigen::Matrix<double, 6, 3> out;
      const Mat3 dF = R * dT.topRows<3>() * weight;
      out.topRows<3>() = dF;
      out.bottomRows<3>() = R * dT.bottomRows<3>() * weight + skew(Xb) * dF;
      return out;
    };
    Dv += load_rows(dWv);
    Dw += load_rows(dWw);
    if (p_.theodorsen) {
      // State rows r_s = g(W, q) - q'; the loads depend on the states through T (dq = dCoef dq').
      const int s0 = first_index() + 2 * i;
      Eigen::Matrix<double, 6, 2> Tq;
      Eigen::Matrix2d Gq;
      for (int k = 0; k < 2; ++k) {
        const double h = 1e-6 * (1. + std::abs(q0[k]));
        std::array<double, 2> qp = q0, qm = q0;
        qp[k] += h;
        qm[k] -= h;
        const Vec6d Tp = section(W, qp, gp), Tm = section(W, qm, gm);
        for (int j = 0; j < 6; ++j) Tq(j, k) = (Tp[j] - Tm[j]) / (2. * h);
        for (int j = 0; j < 2; ++j) Gq(j, k) = (gp[j] - gm[j]) / (2. * h);
      }
      const Eigen::Matrix<double, 3, 2> dF = R * Tq.topRows<3>() * weight;
      Eigen::Matrix<double, 6, 2> Lq;
      Lq.topRows<3>() = dF;
      Lq.bottomRows<3>() = R * Tq.bottomRows<3>() * weight + skew(Xb) * dF;
      J.add(eq, s0, (-c.dCoef * Lq).eval());
      J.add(s0, s0, (Eigen::Matrix2d::Identity() - c.dCoef * Gq).eval());
      const Eigen::Matrix<double, 2, 3> Sv = G * dWv, Sw = G * dWw, Sth = G * dWth;
      J.add(s0, col, (-Sv).eval());
      J.add(s0, col + 3, (-(Sw * (Mat3::Identity() - c.dCoef * skew(w)) + c.dCoef * Sth)).eval());
    }
    Eigen::Matrix<double, 6, 3> th = load_rows(dWth);
    // Rotation of the section frame and of the arm: dF += dth x F, dM += dth x Mp + (dth x Xb) x F.
    th.topRows<3>() += -skew(F);
    th.bottomRows<3>() += -skew(Mp) + skew(F) * skew(Xb) - skew(Xb) * skew(F);
    Dth += th;
  }
  // dv = dx', dth = dCoef dg', dw = dg' - dCoef w x dg'; J = -(dr/dy' + dCoef dr/dy).
  const Eigen::Matrix<double, 6, 3> Jx = -Dv;
  const Eigen::Matrix<double, 6, 3> Jg = -(Dw * (Mat3::Identity() - c.dCoef * skew(w)) + c.dCoef * Dth);
  J.add(eq, col, Jx.topRows<3>().eval());
  J.add(eq + 3, col, Jx.bottomRows<3>().eval());
  J.add(eq, col + 3, Jg.topRows<3>().eval());
  J.add(eq + 3, col + 3, Jg.bottomRows<3>().eval());
}

void AerodynamicBody::output(OutputSink& out) const {
  if (!output_enabled()) return;
  std::ostream* os = out.text(OutputFile::Aer);
  if (!os) return;
  out.write_label(*os, label());
  switch (p_.output) {
    case AeroSurfaceParams::Output::Node:
      *os << ' ' << node_.label();
      out.write(*os, F_W_);
      out.write(*os, M_W_);
      break;
    case AeroSurfaceParams::Output::Gauss:
    case AeroSurfaceParams::Output::Std: write_points(out, *os); break;
  }
  *os << '\n';
}

std::string AerodynamicBody::log_line() const {
  // "aero0: <label> <node>" and the leading/trailing edge points at both ends (node frame).
  auto edge = [&](double xi, double along) {
    const double tw = p_.twist.at(xi);
    const Vec3 dir = R_NA_ * Vec3(std::cos(tw), std::sin(tw), 0.);
    return Vec3(f_N_ + R_NA_.col(2) * (half_span_ * xi) + dir * (p_.force_point.at(xi) + along * p_.chord.at(xi)));
  };
  return fmt::format("aero0: {} {} {} {} {} {}", label(), node_.label(), log_text(edge(-1., -.75)),
                     log_text(edge(-1., .25)), log_text(edge(1., -.75)), log_text(edge(1., .25)));
}

}  // namespace mbl::elements::aero

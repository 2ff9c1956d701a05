#include "elements/aero/aerodynamic_beam.hpp"

#include <cmath>

#include <fmt/format.h>

#include "elements/aero/air_properties.hpp"
#include "elements/joints/deformable_kinematics.hpp"
#include "mbdyn-like/core/log_text.hpp"
#include "mbdyn-like/core/rotations.hpp"

namespace mbl::elements::aero {

AerodynamicBeam::AerodynamicBeam(unsigned label, const Beam& beam, std::array<Vec3, 3> f_N, std::array<Mat3, 3> R_NA,
                                 AeroSurfaceParams p)
    : AeroSurface(label, std::move(p), beam.node_count()), beam_(beam), nn_(beam.node_count()), f_N_(f_N),
      R_NA_(R_NA) {}

void AerodynamicBeam::residual(ResidualSink& r, const StepContext& c) {
  std::array<Vec3, 3> x, X, V, w;
  std::array<Mat3, 3> R;
  for (int k = 0; k < nn_; ++k) {
    const StructNode& n = beam_.node(k);
    const Vec3 f = n.R_WN() * f_N_[k];
    x[k] = n.x_W();
    X[k] = x[k] + f;
    V[k] = n.v_W() + n.w_W().cross(f);
    w[k] = n.w_W();
    R[k] = n.R_WN() * R_NA_[k];
  }
  // Frame interpolation (MBDyn's): rotation vectors about node 2 (beam3) or node 1 (beam2; half
  // the relative rotation, as MBDyn's AerodynamicBeam2 takes it), interpolated linearly and
  // mapped back through the exponential.
  Vec3 g1 = Vec3::Zero(), g3 = Vec3::Zero();
  if (nn_ == 3) {
    g1 = rot::R_to_rotvec(R[1].transpose() * R[0]);
    g3 = rot::R_to_rotvec(R[1].transpose() * R[2]);
  } else {
    g1 = rot::R_to_rotvec(R[0].transpose() * R[1]) / 2.;
  }
  double rho = 0., sound = 0.;
  air_->properties(nn_ == 3 ? x[1] : Vec3((x[0] + x[1]) / 2.), c.t, rho, sound);
  const double d13 = 1. / std::sqrt(3.);
  const double begin3[] = {-1., -d13, d13}, end3[] = {-d13, d13, 1.};
  const double begin2[] = {-1., 0.}, end2[] = {0., 1.};
  int point = 0;
  for (int k = 0; k < nn_; ++k) {
    const double s0 = nn_ == 3 ? begin3[k] : begin2[k], s1 = nn_ == 3 ? end3[k] : end2[k];
    const double mid = (s0 + s1) / 2., half = (s1 - s0) / 2.;
    F_W_[k].setZero();
    M_W_[k].setZero();
    for (int i = 0; i < p_.points; ++i, ++point) {
      const double s = mid + half * xi_[i];
      std::array<double, 3> N, dN;
      beam_shape_functions(nn_, s, N, dN);
      Vec3 Xr = Vec3::Zero(), Vr = Vec3::Zero(), wr = Vec3::Zero(), dx_ds = Vec3::Zero();
      for (int j = 0; j < nn_; ++j) {
        Xr += N[j] * X[j];
        Vr += N[j] * V[j];
        wr += N[j] * w[j];
        dx_ds += dN[j] * x[j];
      }
      Vr += air_relative(Xr, c.t);
      const Mat3 R_W0 = nn_ == 3 ? Mat3(R[1] * rot::rotvec_to_R(N[0] * g1 + N[2] * g3))
                                 : Mat3(R[0] * rot::rotvec_to_R(g1 * ((1. + N[1] - N[0]) / 2.)));
      const Mat3 R_WS = section_frame(R_W0, s, c.t);
      const Vec6d T = section_loads(point, s, xi_[i], section_velocity(R_WS, Vr, wr), rho, sound, c.t, true);
      const double weight = dx_ds.norm() * half * w_[i];
      const Vec3 F = R_WS * Vec3(T[0], T[1], T[2]) * weight;
      F_W_[k] += F;
      M_W_[k] += R_WS * Vec3(T[3], T[4], T[5]) * weight + (Xr - x[k]).cross(F);
    }
    send_to_induced_velocity(F_W_[k], M_W_[k], x[k]);
    if (c.initial_assembly) continue;
    const StructNode& n = beam_.node(k);
    r.add(n.eq_index(), F_W_[k]);
    r.add(n.eq_index() + 3, M_W_[k]);
  }
}

void AerodynamicBeam::jacobian(JacobianSink& J, const StepContext& c) {
  if (!p_.jacobian || c.initial_assembly) return;
  std::array<Vec3, 3> x, X, V, w, f;
  std::array<Mat3, 3> R;
  for (int k = 0; k < nn_; ++k) {
    const StructNode& n = beam_.node(k);
    f[k] = n.R_WN() * f_N_[k];
    x[k] = n.x_W();
    X[k] = x[k] + f[k];
    V[k] = n.v_W() + n.w_W().cross(f[k]);
    w[k] = n.w_W();
    R[k] = n.R_WN() * R_NA_[k];
  }
  // The frames as in the residual; beam3 turns the section frame with each node through
  // Theta_k = R_2 Gamma(g) Gamma(g_k)^-1 R_2^T N_k (Theta_2 = I - Theta_1 - Theta_3), beam2
  // through N_k I (MBDyn's AssJac, which leaves out the dependence of g on the half relative
  // rotation).
  Vec3 g1 = Vec3::Zero(), g3 = Vec3::Zero();
  Mat3 G1inv = Mat3::Identity(), G3inv = Mat3::Identity();
  if (nn_ == 3) {
    g1 = rot::R_to_rotvec(R[1].transpose() * R[0]);
    g3 = rot::R_to_rotvec(R[1].transpose() * R[2]);
    G1inv = rotvec_gamma_inverse(g1);
    G3inv = rotvec_gamma_inverse(g3);
  } else {
    g1 = rot::R_to_rotvec(R[0].transpose() * R[1]) / 2.;
  }
  double rho = 0., sound = 0.;
  air_->properties(nn_ == 3 ? x[1] : Vec3((x[0] + x[1]) / 2.), c.t, rho, sound);
  const double d13 = 1. / std::sqrt(3.);
  const double begin3[] = {-1., -d13, d13}, end3[] = {-d13, d13, 1.};
  const double begin2[] = {-1., 0.}, end2[] = {0., 1.};
  int point = 0;
  for (int k = 0; k < nn_; ++k) {
    const double s0 = nn_ == 3 ? begin3[k] : begin2[k], s1 = nn_ == 3 ? end3[k] : end2[k];
    const double mid = (s0 + s1) / 2., half = (s1 - s0) / 2.;
    std::array<Mat3, 6> dF, dM;
    for (int j = 0; j < 6; ++j) dF[j].setZero(), dM[j].setZero();
    for (int i = 0; i < p_.points; ++i, ++point) {
      const double s = mid + half * xi_[i];
      std::array<double, 3> N, dN;
      beam_shape_functions(nn_, s, N, dN);
      Vec3 Xr = Vec3::Zero(), Vr = Vec3::Zero(), wr = Vec3::Zero(), dx_ds = Vec3::Zero();
      for (int j = 0; j < nn_; ++j) {
        Xr += N[j] * X[j];
        Vr += N[j] * V[j];
        wr += N[j] * w[j];
        dx_ds += dN[j] * x[j];
      }
      Vr += air_relative(Xr, c.t);
      std::array<JacobianNode, 3> nodes;
      Mat3 R_W0;
      if (nn_ == 3) {
        const Vec3 g = N[0] * g1 + N[2] * g3;
        R_W0 = R[1] * rot::rotvec_to_R(g);
        const Mat3 RG = R[1] * rotvec_gamma(g);
        const Mat3 Th1 = RG * G1inv * R[1].transpose() * N[0], Th3 = RG * G3inv * R[1].transpose() * N[2];
        nodes = {JacobianNode{f[0], w[0], N[0], Th1}, JacobianNode{f[1], w[1], N[1], Mat3(Mat3::Identity() - Th1 - Th3)},
                 JacobianNode{f[2], w[2], N[2], Th3}};
      } else {
        R_W0 = R[0] * rot::rotvec_to_R(g1 * ((1. + N[1] - N[0]) / 2.));
        for (int j = 0; j < 2; ++j) nodes[j] = JacobianNode{f[j], w[j], N[j], Mat3(Mat3::Identity() * N[j])};
      }
      const Mat3 R_WS = section_frame(R_W0, s, c.t);
      Vec6d T0;
      Mat6 JT;
      section_loads_jacobian(point, s, section_velocity(R_WS, Vr, wr), rho, sound, c.t, T0, JT);
      add_point_jacobian(R_WS, T0, JT, dx_ds.norm() * half * w_[i], Vr, wr, Vec3(Xr - x[k]), k, nodes.data(), nn_,
                         c.dCoef, dF.data(), dM.data());
    }
    const int eq = beam_.node(k).eq_index();
    for (int j = 0; j < nn_; ++j) {
      const int col = beam_.node(j).dof_index();
      J.add(eq, col, Mat3(-dF[2 * j]));
      J.add(eq, col + 3, Mat3(-dF[2 * j + 1]));
      J.add(eq + 3, col, Mat3(-dM[2 * j]));
      J.add(eq + 3, col + 3, Mat3(-dM[2 * j + 1]));
    }
  }
}

void AerodynamicBeam::output(OutputSink& out) const {
  if (!output_enabled()) return;
  std::ostream* os = out.text(OutputFile::Aer);
  if (!os) return;
  out.write_label(*os, label());
  if (p_.output == AeroSurfaceParams::Output::Node) {
    *os << ' ' << beam_.label();
    for (int k = 0; k < nn_; ++k) {
      out.write(*os, F_W_[k]);
      out.write(*os, M_W_[k]);
    }
  } else {
    write_points(out, *os);
  }
  *os << '\n';
}

std::string AerodynamicBeam::log_line() const {
  // "aero2|aero3: <label>" and per node its label, trailing and leading edge (node frame).
  std::string line = fmt::format("aero{}: {}", nn_, label());
  const double at3[] = {-1., 0., 1.}, at2[] = {-1., 1.};
  for (int k = 0; k < nn_; ++k) {
    const double s = nn_ == 3 ? at3[k] : at2[k];
    const Vec3 ra1 = R_NA_[k].col(0);
    const double chord = p_.chord.at(s), ac = p_.force_point.at(s);
    line += fmt::format(" {} {} {}", beam_.node(k).label(), log_text(Vec3(f_N_[k] + ra1 * (ac - chord * .75))),
                        log_text(Vec3(f_N_[k] + ra1 * (ac + chord / 4.))));
  }
  return line;
}

}  // namespace mbl::elements::aero

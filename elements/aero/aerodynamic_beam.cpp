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

AerodynamicBeam::Surface AerodynamicBeam::surface(double t) const {
  Surface S;
  for (int k = 0; k < nn_; ++k) {
    const StructNode& n = beam_.node(k);
    S.f[k] = n.R_WN() * f_N_[k];
    S.x[k] = n.x_W();
    S.X[k] = S.x[k] + S.f[k];
    S.V[k] = n.v_W() + n.w_W().cross(S.f[k]);
    S.w[k] = n.w_W();
    S.R[k] = n.R_WN() * R_NA_[k];
  }
  // Frame interpolation (MBDyn's): rotation vectors about node 2 (beam3) or node 1 (beam2; half
  // the relative rotation, as MBDyn's AerodynamicBeam2 takes it), interpolated linearly and
  // mapped back through the exponential.
  if (nn_ == 3) {
    S.g1 = rot::R_to_rotvec(S.R[1].transpose() * S.R[0]);
    S.g3 = rot::R_to_rotvec(S.R[1].transpose() * S.R[2]);
  } else {
    S.g1 = rot::R_to_rotvec(S.R[0].transpose() * S.R[1]) / 2.;
  }
  air_->properties(nn_ == 3 ? S.x[1] : Vec3((S.x[0] + S.x[1]) / 2.), t, S.rho, S.sound);
  return S;
}

template <class PointFn>
void AerodynamicBeam::for_each_point(const Surface& S, double t, PointFn&& fn) {
  const double d13 = 1. / std::sqrt(3.);
  const double begin3[] = {-1., -d13, d13}, end3[] = {-d13, d13, 1.};
  const double begin2[] = {-1., 0.}, end2[] = {0., 1.};
  int point = 0;
  for (int k = 0; k < nn_; ++k) {
    const double s0 = nn_ == 3 ? begin3[k] : begin2[k], s1 = nn_ == 3 ? end3[k] : end2[k];
    const double mid = (s0 + s1) / 2., half = (s1 - s0) / 2.;
    for (int i = 0; i < p_.points; ++i, ++point) {
      Point P;
      P.s = mid + half * xi_[i];
      std::array<double, 3> dN;
      beam_shape_functions(nn_, P.s, P.N, dN);
      Vec3 dx_ds = Vec3::Zero();
      for (int j = 0; j < nn_; ++j) {
        P.Xr += P.N[j] * S.X[j];
        P.Vr += P.N[j] * S.V[j];
        P.wr += P.N[j] * S.w[j];
        dx_ds += dN[j] * S.x[j];
      }
      P.Vr += air_relative(P.Xr, t);
      P.g = nn_ == 3 ? Vec3(P.N[0] * S.g1 + P.N[2] * S.g3) : Vec3(S.g1 * ((1. + P.N[1] - P.N[0]) / 2.));
      const Mat3 R_W0 = Mat3(S.R[nn_ == 3 ? 1 : 0] * rot::rotvec_to_R(P.g));
      P.R_WS = section_frame(R_W0, P.s, t);
      P.weight = dx_ds.norm() * half * w_[i];
      fn(k, i, point, P);
    }
  }
}

void AerodynamicBeam::residual(ResidualSink& r, const StepContext& c) {
  const Surface S = surface(c.t);
  for_each_point(S, c.t, [&](int k, int i, int point, const Point& P) {
    if (i == 0) F_W_[k].setZero(), M_W_[k].setZero();
    const Vec6d T = section_loads(point, P.s, xi_[i], section_velocity(P.R_WS, P.Vr, P.wr), S.rho, S.sound, c.t, true);
    const Vec3 F = P.R_WS * Vec3(T[0], T[1], T[2]) * P.weight;
    const Vec3 M = P.R_WS * Vec3(T[3], T[4], T[5]) * P.weight;
    send_section_to_induced_velocity(F, M, P.Xr);
    F_W_[k] += F;
    M_W_[k] += M + (P.Xr - S.x[k]).cross(F);
    if (i + 1 < p_.points) return;
    // The portion's loads, to the induced velocity element and to its node.
    send_to_induced_velocity(F_W_[k], M_W_[k], S.x[k]);
    if (c.initial_assembly) return;
    const StructNode& n = beam_.node(k);
    r.add(n.eq_index(), F_W_[k]);
    r.add(n.eq_index() + 3, M_W_[k]);
  });
}

void AerodynamicBeam::jacobian(JacobianSink& J, const StepContext& c) {
  if (!p_.jacobian || c.initial_assembly) return;
  const Surface S = surface(c.t);
  // Beam3 turns the section frame with each node through Theta_k = R_2 Gamma(g) Gamma(g_k)^-1
  // R_2^T N_k (Theta_2 = I - Theta_1 - Theta_3), beam2 through N_k I (MBDyn's AssJac, which
  // leaves out the dependence of g on the half relative rotation).
  const Mat3 G1inv = nn_ == 3 ? rotvec_gamma_inverse(S.g1) : Mat3::Identity();
  const Mat3 G3inv = nn_ == 3 ? rotvec_gamma_inverse(S.g3) : Mat3::Identity();
  std::array<std::array<Mat3, 6>, 3> dF, dM;  // per portion (its node's rows), per node column
  for (auto& a : dF) a.fill(Mat3::Zero());
  for (auto& a : dM) a.fill(Mat3::Zero());
  for_each_point(S, c.t, [&](int k, int, int point, const Point& P) {
    std::array<JacobianNode, 3> nodes;
    if (nn_ == 3) {
      const Mat3 RG = S.R[1] * rotvec_gamma(P.g);
      const Mat3 Th1 = RG * G1inv * S.R[1].transpose() * P.N[0], Th3 = RG * G3inv * S.R[1].transpose() * P.N[2];
      nodes = {JacobianNode{S.f[0], S.w[0], P.N[0], Th1},
               JacobianNode{S.f[1], S.w[1], P.N[1], Mat3(Mat3::Identity() - Th1 - Th3)},
               JacobianNode{S.f[2], S.w[2], P.N[2], Th3}};
    } else {
      for (int j = 0; j < 2; ++j) nodes[j] = JacobianNode{S.f[j], S.w[j], P.N[j], Mat3(Mat3::Identity() * P.N[j])};
    }
    Vec6d T0;
    Mat6 JT;
    section_loads_jacobian(point, P.s, section_velocity(P.R_WS, P.Vr, P.wr), S.rho, S.sound, c.t, T0, JT);
    add_point_jacobian(P.R_WS, T0, JT, P.weight, P.Vr, P.wr, Vec3(P.Xr - S.x[k]), k, nodes.data(), nn_, c.dCoef,
                       dF[k].data(), dM[k].data());
  });
  for (int k = 0; k < nn_; ++k) {
    const int eq = beam_.node(k).eq_index();
    for (int j = 0; j < nn_; ++j) {
      const int col = beam_.node(j).dof_index();
      J.add(eq, col, Mat3(-dF[k][2 * j]));
      J.add(eq, col + 3, Mat3(-dF[k][2 * j + 1]));
      J.add(eq + 3, col, Mat3(-dM[k][2 * j]));
      J.add(eq + 3, col + 3, Mat3(-dM[k][2 * j + 1]));
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

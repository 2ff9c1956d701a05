#include "elements/aero/aero_surface.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

#include <fmt/format.h>

#include "elements/aero/air_properties.hpp"
#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/core/rotations.hpp"

namespace mbl::elements::aero {

AeroSurface::AeroSurface(unsigned label, AeroSurfaceParams p, int blocks) : Element(label), p_(std::move(p)) {
  gauss_legendre(p_.points, xi_, w_);
  out_.resize(static_cast<std::size_t>(blocks) * p_.points);
  gauss_out_.resize(out_.size());
  history_.resize(out_.size());
  alpha_history_.resize(p_.bielawa ? out_.size() : 0);
}

void AeroSurface::after_convergence(const StepContext& c) {
  for (TheodorsenHistory& h : history_) {
    h.prev_alpha_pivot = h.alpha_pivot;
    h.prev_dot_alpha = h.dot_alpha;
  }
  prev_time_ = c.t;
  for (AlphaHistory& h : alpha_history_) {
    h.alpha = {h.alpha[1], h.alpha[2], h.alpha[2]};
    h.time = {h.time[1], h.time[2], h.time[2]};
  }
  ++converged_steps_;
}

AlphaRates AeroSurface::alpha_rates(int i, double alpha, double t) const {
  if (converged_steps_ < 3) return {};
  const AlphaHistory& h = alpha_history_[i];
  const double t0 = h.time[0], t1 = h.time[1], a0 = h.alpha[0], a1 = h.alpha[1];
  if (!(t0 < t1 && t1 < t)) return {};  // evaluations at a converged time (Jacobian checks)
  // Newton form a0 + f01 (t - t0) + c2 (t - t0)(t - t1), differentiated at t.
  const double f01 = (a1 - a0) / (t1 - t0);
  const double c2 = ((alpha - a0) / (t - t0) - f01) / (t - t1);
  return {f01 + c2 * (2. * t - t0 - t1), 2. * c2};
}

void AeroSurface::setup(Model& m) {
  air_ = dynamic_cast<const AirProperties*>(m.find_element("air properties", 1));
  if (!air_) throw std::invalid_argument("aerodynamic elements need the air properties card");
  if (p_.has_induced_velocity) {
    induced_ = dynamic_cast<InducedVelocity*>(m.find_element("induced velocity", p_.induced_velocity_label));
    if (!induced_)
      throw std::invalid_argument(fmt::format("induced velocity {} is not defined", p_.induced_velocity_label));
  }
}

Mat3 AeroSurface::section_frame(const Mat3& R_W0, double xi, double t) const {
  const double tw = p_.twist.at(xi) + (p_.control ? p_.control->value(t) : 0.);
  // Nose up: axis 1 turns toward axis 2.
  return tw == 0. ? R_W0 : Mat3(R_W0 * rot::R3(tw));
}

Vec6d AeroSurface::section_velocity(const Mat3& R_WS, const Vec3& Vr_W, const Vec3& w_W) const {
  const Vec3 v = R_WS.transpose() * Vr_W, w = R_WS.transpose() * w_W;
  return {v.x(), v.y(), v.z(), w.x(), w.y(), w.z()};
}

Vec3 AeroSurface::air_relative(const Vec3& x_W, double t) const {
  Vec3 v = -air_->velocity(x_W, t);
  if (induced_) v += induced_->velocity(x_W);
  return v;
}

template <class Forces>
Vec6d AeroSurface::airfoil_loads(int i, double xi, double xi_tip, const Vec6d& W, double rho, double c, bool record,
                                 Forces&& forces) {
  const SectionData s{rho, c, p_.chord.at(xi), p_.force_point.at(xi), p_.bc_point.at(xi)};
  SectionOutput scratch;
  Vec6d T = forces(s, record ? out_[i] : scratch);
  if (tip_loss_on_) T[1] *= p_.tip_loss.at(xi_tip);
  if (record) gauss_out_[i] = {std::atan2(-W[1], W[0]) * 180. / std::numbers::pi, Vec3(T[1], T[0], T[5])};
  return T;
}

Vec6d AeroSurface::section_loads(int i, double xi, double xi_tip, const Vec6d& W, double rho, double c, double t,
                                 bool record) {
  AlphaRates rates;
  if (p_.bielawa) {
    // The angle of the velocity at the reference point (MBDyn's AeroMemory::Predict).
    const double alpha = std::atan2(-W[1], W[0]);
    rates = alpha_rates(i, alpha, t);
    if (record) alpha_history_[i].alpha[2] = alpha, alpha_history_[i].time[2] = t;
  }
  return airfoil_loads(i, xi, xi_tip, W, rho, c, record, [&](const SectionData& s, SectionOutput& out) {
    return p_.airfoil.at_point.empty()
               ? builtin_section_forces(p_.airfoil.builtin, s, W, out)
               : c81_section_forces(*p_.airfoil.at_point[i], s, W, out, p_.bielawa ? &rates : nullptr);
  });
}

Vec6d AeroSurface::theodorsen_loads(int i, double xi, double xi_tip, const Vec6d& W, double rho, double c, double t,
                                    const std::array<double, 2>& q, std::array<double, 2>& g, bool record) {
  TheodorsenHistory h = history_[i];
  const double dt = converged_steps_ > 0 ? t - prev_time_ : 0.;
  const Vec6d T = airfoil_loads(i, xi, xi_tip, W, rho, c, record, [&](const SectionData& s, SectionOutput& out) {
    return theodorsen_section_forces(*p_.airfoil.at_point[i], s, W, q, dt, i == 0, h, g, out);
  });
  if (record) history_[i] = h;
  return T;
}

void AeroSurface::section_loads_jacobian(int i, double xi, const Vec6d& W, double rho, double c, double t, Vec6d& T0,
                                         Mat6& JT) {
  tip_loss_on_ = false;
  T0 = section_loads(i, xi, xi, W, rho, c, t, false);
  const double vn = std::sqrt(W[0] * W[0] + W[1] * W[1] + W[2] * W[2]);
  const double wn = std::sqrt(W[3] * W[3] + W[4] * W[4] + W[5] * W[5]);
  for (int k = 0; k < 6; ++k) {
    const double delta = (k < 3 ? vn : wn) * 1e-3 + 1e-9;
    Vec6d Wp = W;
    Wp[k] += delta;
    const Vec6d Tp = section_loads(i, xi, xi, Wp, rho, c, t, false);
    for (int j = 0; j < 6; ++j) JT(j, k) = (Tp[j] - T0[j]) / delta;
  }
  tip_loss_on_ = true;
}

void AeroSurface::add_point_jacobian(const Mat3& R_WS, const Vec6d& T0, const Mat6& JT, double weight, const Vec3& Vr,
                                     const Vec3& wr, const Vec3& d, int own, const JacobianNode* nodes, int count,
                                     double dCoef, Mat3* dF, Mat3* dM) {
  // The sectional Jacobian in the world frame, times the weight; the loads times dCoef (MBDyn
  // leaves the weight out of these, aeroelem.cc).
  const Mat3 Rt = R_WS.transpose();
  const Mat3 J11 = R_WS * JT.topLeftCorner<3, 3>() * Rt * weight, J12 = R_WS * JT.topRightCorner<3, 3>() * Rt * weight;
  const Mat3 J21 = R_WS * JT.bottomLeftCorner<3, 3>() * Rt * weight,
             J22 = R_WS * JT.bottomRightCorner<3, 3>() * Rt * weight;
  const Vec3 f = R_WS * Vec3(T0[0], T0[1], T0[2]) * dCoef;
  const Vec3 m = R_WS * Vec3(T0[3], T0[4], T0[5]) * dCoef + d.cross(f);
  const Mat3 fx = skew(f), mx = skew(m), dx = skew(d);
  for (int k = 0; k < count; ++k) {
    const JacobianNode& n = nodes[k];
    const Mat3 offx = skew(n.f_W);
    // Velocity and angular velocity of the point against the node's rotation (dCoef dg).
    const Mat3 Bv = skew(Vr * dCoef) * n.Theta - skew(n.w_W.cross(n.f_W) * (n.N * dCoef));
    const Mat3 Bw = skew(wr * dCoef) * n.Theta - skew(n.w_W * (n.N * dCoef));
    const Mat3 Fx = J11 * n.N;
    const Mat3 Fg = (J12 - J11 * offx) * n.N + J11 * Bv + J12 * Bw - fx * n.Theta;
    dM[2 * k] += J21 * n.N - fx * (n.N - (k == own ? 1. : 0.)) + dx * Fx;
    dM[2 * k + 1] += (J22 - J21 * offx) * n.N + J21 * Bv + J22 * Bw - mx * n.Theta + fx * skew(n.f_W * n.N) + dx * Fg;
    dF[2 * k] += Fx;
    dF[2 * k + 1] += Fg;
  }
}

void AeroSurface::send_to_induced_velocity(const Vec3& F_W, const Vec3& M_W, const Vec3& x_W) const {
  if (induced_ && !p_.passive && !induced_->sectional_loads()) induced_->add_load(label(), F_W, M_W, x_W);
}

void AeroSurface::send_section_to_induced_velocity(const Vec3& F_W, const Vec3& M_W, const Vec3& x_W) const {
  if (induced_ && !p_.passive && induced_->sectional_loads()) induced_->add_load(label(), F_W, M_W, x_W);
}

void AeroSurface::write_points(OutputSink& out, std::ostream& os) const {
  if (p_.output == AeroSurfaceParams::Output::Gauss) {
    for (const auto& [alpha, f] : gauss_out_) {
      out.write(os, alpha);
      out.write(os, f);
    }
    return;
  }
  for (const SectionOutput& s : out_)
    for (double v : {s.alpha, s.gamma, s.mach, s.cl, s.cd, s.cm, s.alf1, s.alf2}) out.write(os, v);
}

}  // namespace mbl::elements::aero

#include "elements/joints/viscous_body.hpp"

#include "mbdyn-like/core/nc_catalog.hpp"
#include "mbdyn-like/core/private_data_listing.hpp"
#include "mbdyn-like/core/rotations.hpp"

namespace mbl::elements {

using Mat63 = Eigen::Matrix<double, 6, 3>;
using Mat36 = Eigen::Matrix<double, 3, 6>;

ViscousBody::ViscousBody(unsigned label, const Attachment& a, std::unique_ptr<ConstitutiveLaw6D> law)
    : Joint(label), a_(a), law_(std::move(law)) {
  R_WJ_ = a_.R_WH();
}

Vec6 ViscousBody::strain_rate() const {
  const Mat3 Rh = a_.R_WH();
  const Vec3 w = a_.node->w_W();
  Vec6 k;
  k << Rh.transpose() * a_.v_W(), Rh.transpose() * w;
  return k;
}

void ViscousBody::residual(ResidualSink& r, const StepContext& c) {
  const Mat3 Rh = a_.R_WH();
  law_->update(Vec6::Zero(), strain_rate(), c.t);
  const Vec3 F = Rh * law_->force().head<3>(), M = Rh * law_->force().tail<3>();
  r.add(a_.node->eq_index(), Vec3(-F));
  r.add(a_.node->eq_index() + 3, Vec3(-a_.b_W().cross(F) - M));
}

// f = -r = (F, f x F + M) with F = R_h F_h(k'), M = R_h M_h(k'); k' depends on v, on omega
// (d omega = d g' - dCoef w_ref x d g') and on the rotation theta = dCoef g'.
void ViscousBody::jacobian(JacobianSink& J, const StepContext& c) {
  const StructNode& n = *a_.node;
  const Mat3 Rh = a_.R_WH(), RhT = Rh.transpose();
  const Vec3 f = a_.b_W(), w = n.w_W(), vp = a_.v_W();
  law_->update(Vec6::Zero(), strain_rate(), c.t);
  const Vec3 F = Rh * law_->force().head<3>(), M = Rh * law_->force().tail<3>();
  const Mat3 fx = skew(f), wx = skew(w), Z = Mat3::Zero();
  Mat63 A_v, A_w, A_th;  // dk'/dv, dk'/domega, dk'/dtheta
  A_v << RhT, Z;
  A_w << -RhT * fx, RhT;
  A_th << RhT * (skew(vp) - wx * fx), RhT * wx;
  Eigen::Matrix<double, 6, 6> B;  // d(F, f x F + M)/d(F_h, M_h)
  B << Rh, Z, fx * Rh, Rh;
  const Eigen::Matrix<double, 6, 6> BC = B * law_->damping();
  const Mat3 dw_dgp = Mat3::Identity() - c.dCoef * skew(n.w_ref());
  Mat63 E;  // rotation of R_h and f at fixed (F_h, M_h)
  E << -skew(F), skew(F) * fx - fx * skew(F) - skew(M);
  J.add(n.eq_index(), n.dof_index(), Eigen::Matrix<double, 6, 3>(BC * A_v));
  J.add(n.eq_index(), n.dof_index() + 3,
        Eigen::Matrix<double, 6, 3>(BC * (A_w * dw_dgp + c.dCoef * A_th) + c.dCoef * E));
}

void ViscousBody::after_convergence(const StepContext& c) {
  R_WJ_ = a_.R_WH();
  k_prime_ = strain_rate();
  law_->update(Vec6::Zero(), k_prime_, c.t);
  F_W_ = R_WJ_ * law_->force().head<3>();
  M_W_ = R_WJ_ * law_->force().tail<3>();
  law_->after_convergence();
}

parser::PrivateDataOwner::DatumInfo ViscousBody::private_data_info(unsigned i) const {
  static const PrivateDataListing listing = [] {
    PrivateDataListing l;
    add_xyz(l, "r", "rotation vector of R_h^T (the attachment frame's, reversed)");
    add_xyz(l, "v", "velocity of the attached point, node frame");
    add_xyz(l, "w", "angular velocity, attachment frame");
    add_xyz(l, "F", "force of the law, attachment frame");
    return add_xyz(l, "M", "moment of the law, attachment frame");
  }();
  return i > 15 ? law_private_data_info(law_.get(), i - 15) : listed(listing, i);
}

// vb.cc ViscousBody::dGetPrivData: r = VecRot(R_h^T), v = R^T (v + w x f) in the node's frame
// (not the attachment's), w = R_h^T w, then the law's force and moment.
double ViscousBody::private_data(unsigned i) const {
  if (i > 15) return law_private_data(law_.get(), i - 15);
  if (i < 1) return 0.0;
  const unsigned c = (i - 1) % 3;
  switch ((i - 1) / 3) {
    case 0: return rot::R_to_rotvec(a_.R_WH().transpose())[c];
    case 1: return (a_.node->R_WN().transpose() * a_.v_W())[c];
    case 2: return (a_.R_WH().transpose() * a_.node->w_W())[c];
    default: return Joint::private_data(i - 9);
  }
}

void ViscousBody::output_extra(OutputSink& out, std::ostream& os) const {
  out.write(os, Vec3(k_prime_.head<3>()));
  out.write(os, Vec3(k_prime_.tail<3>()));
}

void ViscousBody::output_setup_extra(OutputSink& out, const std::string& base) {
  nc_V_ = output::nc_declare(out, base, output::nc::joint_viscous_V);
  nc_Omega_ = output::nc_declare(out, base, output::nc::joint_viscous_Omega);
}

void ViscousBody::output_netcdf_extra(OutputSink& out) const {
  out.put(nc_V_, Vec3(k_prime_.head<3>()));
  out.put(nc_Omega_, Vec3(k_prime_.tail<3>()));
}

}  // namespace mbl::elements

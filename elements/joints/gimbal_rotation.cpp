#include "elements/joints/gimbal_rotation.hpp"
#include "mbdyn-like/core/private_data_listing.hpp"

#include <fmt/format.h>

namespace mbl::elements {
namespace {

/// The vectors of (9.156) and their derivatives (9.158).
struct GimbalVectors {
  Vec3 w_theta, w_phi, w_theta_theta, w_theta_phi, w_phi_theta;
  GimbalVectors(double th, double ph) {
    const double ct = std::cos(th), st = std::sin(th), cp = std::cos(ph), sp = std::sin(ph);
    w_theta = Vec3(st * sp, 1.0 + cp, -ct * sp);
    w_phi = Vec3(ct, 0.0, st);
    w_theta_theta = Vec3(ct * sp, 0.0, st * sp);
    w_theta_phi = Vec3(st * cp, -sp, -ct * cp);
    w_phi_theta = Vec3(-st, 0.0, ct);
  }
};

}  // namespace

GimbalRotation::GimbalRotation(unsigned label, const Attachment& a, const Attachment& b,
                               OrientationOutput orientation)
    : Joint(label), a_(a), b_(b), orientation_(orientation) {
  R_WJ_ = a_.node->R_WN();
}

Mat3 GimbalRotation::gimbal_R(double theta, double phi) {
  const Mat3 E2 = rot::R2(theta);
  return E2 * rot::R1(phi) * E2;
}

void GimbalRotation::residual(ResidualSink& r, const StepContext& c) {
  const Mat3 Ra = a_.R_WH(), Rab = Ra.transpose() * b_.R_WH();
  const Vec3 lam = lambda3(c, 0);
  const double th = lambda(c, 3), ph = lambda(c, 4);
  const GimbalVectors w(th, ph);
  const Vec3 m_W = Ra * lam;
  r.add(a_.node->eq_index() + 3, Vec3(-m_W));
  r.add(b_.node->eq_index() + 3, m_W);
  r.add(first_index(), rot::R_to_rotvec(Rab * gimbal_R(th, ph).transpose()));
  r.add(first_index() + 3, -(Rab * w.w_theta).dot(lam));
  r.add(first_index() + 4, -(Rab * w.w_phi).dot(lam));
}

// Linearisation (9.157) at Theta = 0 (Gamma(Theta) ~ I); f = -r.
void GimbalRotation::jacobian(JacobianSink& J, const StepContext& c) {
  const Mat3 Ra = a_.R_WH(), Rb = b_.R_WH(), Rab = Ra.transpose() * Rb;
  const Vec3 lam = lambda3(c, 0);
  const double th = lambda(c, 3), ph = lambda(c, 4);
  const GimbalVectors w(th, ph);
  const Vec3 m_W = Ra * lam;
  const int ta = a_.node->dof_index() + 3, tb = b_.node->dof_index() + 3;
  const int ma = a_.node->eq_index() + 3, mb = b_.node->eq_index() + 3;
  const int row_l = first_index(), row_th = row_l + 3, row_ph = row_l + 4;
  // Moments: f_a = R_a lambda, f_b = -R_a lambda; d(R_a lambda)/d theta_a = -(R_a lambda) x.
  J.add(ma, row_l, Ra);
  J.add(mb, row_l, Mat3(-Ra));
  J.add(ma, ta, Mat3(-c.dCoef * skew(m_W)));
  J.add(mb, ta, Mat3(c.dCoef * skew(m_W)));
  // Theta rows: f = -Theta, d Theta = R_a^T (th_b - th_a) - R_ab (w_theta d theta + w_phi d phi).
  J.add(row_l, ta, Mat3(c.dCoef * Ra.transpose()));
  J.add(row_l, tb, Mat3(-c.dCoef * Ra.transpose()));
  J.add(row_l, row_th, Vec3(Rab * w.w_theta));
  J.add(row_l, row_ph, Vec3(Rab * w.w_phi));
  // Stationarity rows: f = (R_b w) . (R_a lambda).
  const Vec3 vt = Rb * w.w_theta, vp = Rb * w.w_phi;
  J.add(row_th, row_l, Eigen::RowVector3d((Rab * w.w_theta).transpose()));
  J.add(row_ph, row_l, Eigen::RowVector3d((Rab * w.w_phi).transpose()));
  const Vec3 gt = c.dCoef * vt.cross(m_W), gp = c.dCoef * vp.cross(m_W);
  J.add(row_th, ta, Eigen::RowVector3d(-gt.transpose()));
  J.add(row_th, tb, Eigen::RowVector3d(gt.transpose()));
  J.add(row_ph, ta, Eigen::RowVector3d(-gp.transpose()));
  J.add(row_ph, tb, Eigen::RowVector3d(gp.transpose()));
  J.add(row_th, row_th, (Rb * w.w_theta_theta).dot(m_W));
  J.add(row_th, row_ph, (Rb * w.w_theta_phi).dot(m_W));
  J.add(row_ph, row_th, (Rb * w.w_phi_theta).dot(m_W));
}

void GimbalRotation::after_convergence(const StepContext& c) {
  lambda_ = lambda3(c, 0);
  theta_ = lambda(c, 3);
  phi_ = lambda(c, 4);
  R_WJ_ = a_.node->R_WN();
  M_W_ = R_WJ_ * lambda_;  // as MBDyn: rotated by node 1's orientation, without the hinge
}

void GimbalRotation::output_setup_extra(OutputSink& out, const std::string& base) {
  nc_theta_ = out.declare(base + ".Theta", NcShape::Scalar, "rad", "relative angle Theta");
  nc_phi_ = out.declare(base + ".Phi", NcShape::Scalar, "rad", "relative angle Phi");
}

void GimbalRotation::output_netcdf_extra(OutputSink& out) const {
  out.put(nc_theta_, theta_);
  out.put(nc_phi_, phi_);
}

void GimbalRotation::output_extra(OutputSink& out, std::ostream& os) const {
  out.write(os, theta_);
  out.write(os, phi_);
  write_orientation(out, os, R_nodes(), orientation_);
}

// gimbal.cc GimbalRotationJoint: lambda[1..3], theta, phi.
parser::PrivateDataOwner::DatumInfo GimbalRotation::private_data_info(unsigned i) const {
  static const PrivateDataListing listing = [] {
    PrivateDataListing l;
    add_indexed(l, "lambda", "reaction multiplier");
    add_datum(l, "theta", "gimbal angle theta");
    return add_datum(l, "phi", "gimbal angle phi");
  }();
  return listed(listing, i);
}

double GimbalRotation::private_data(unsigned i) const {
  if (i >= 1 && i <= 3) return lambda_[i - 1];
  if (i == 4) return theta_;
  if (i == 5) return phi_;
  return 0.0;
}

}  // namespace mbl::elements

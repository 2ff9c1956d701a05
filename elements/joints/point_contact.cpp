#include "elements/joints/point_contact.hpp"

#include "elements/joints/deformable_kinematics.hpp"

namespace mbl::elements {

PointContact::PointContact(unsigned label, StructNode& point, StructNode& surface, const Vec3& normal_S,
                           double stiffness)
    : Joint(label), point_(point), surface_(surface), normal_S_(normal_S), stiffness_(stiffness) {}

double PointContact::distance() const {
  return (point_.x_W() - surface_.x_W()).dot(surface_.R_WN() * normal_S_);
}

// point_contact.cc AssVec: contact only while delta < 0 (strictly).
void PointContact::residual(ResidualSink& r, const StepContext&) {
  const Vec3 n = surface_.R_WN() * normal_S_;
  const Vec3 x = point_.x_W() - surface_.x_W();
  const double delta = x.dot(n);
  if (!(delta < 0.0)) return;
  const Vec3 F1 = -stiffness_ * delta * n;
  const Vec3 arm = x - delta * n;
  r.add(point_.eq_index(), F1);
  r.add(surface_.eq_index(), Vec3(-F1));
  r.add(surface_.eq_index() + 3, Vec3(arm.cross(-F1)));
}

// The derivative of the residual above (MBDyn's AssMat is not: it adds the normal stiffness twice,
// once without dCoef, and leaves out the turning of the normal); the converged states are the
// residual's. Perturbations: dx = dx1 - dxs, dn = dths x n.
void PointContact::jacobian(JacobianSink& J, const StepContext& c) {
  const Vec3 n = surface_.R_WN() * normal_S_;
  const Vec3 x = point_.x_W() - surface_.x_W();
  const double delta = x.dot(n);
  if (!(delta < 0.0)) return;
  const Mat3 I = Mat3::Identity();
  auto put = [](Lin3& L, int node, int what, const Mat3& m) { L.block<3, 3>(0, lin_col(node, what)) += m; };
  Lin3 dx = Lin3::Zero(), dn = Lin3::Zero();
  put(dx, 0, kX, I);
  put(dx, 1, kX, -I);
  put(dn, 1, kTh, Mat3(-skew(n)));
  const Lin1 d_delta = n.transpose() * dx + x.transpose() * dn;
  const Vec3 Fs = stiffness_ * delta * n;
  const Vec3 arm = x - delta * n;
  const Lin3 dF1 = -stiffness_ * (n * d_delta + delta * dn);
  const Lin3 d_arm = dx - n * d_delta - delta * dn;
  const StructNode* nodes[2] = {&point_, &surface_};
  add_lin_jacobian(J, point_.eq_index(), nodes, c, dF1);
  add_lin_jacobian(J, surface_.eq_index(), nodes, c, Lin3(-dF1));
  add_lin_jacobian(J, surface_.eq_index() + 3, nodes, c, Lin3(-skew(Fs) * d_arm - skew(arm) * dF1));
}

}  // namespace mbl::elements

#include "elements/joints/in_line.hpp"

namespace mbl::elements {

PointOnSubspace::PointOnSubspace(unsigned label, Kind kind, const Attachment& a, const Attachment& b,
                                 const Vec3& normal_N)
    : Joint(label), kind_(kind), a_(a), b_(b) {
  if (kind == Kind::InLine) {
    directions_N_ = {a.R_NH.col(0), a.R_NH.col(1)};
  } else {
    directions_N_ = {normal_N.normalized()};
  }
}

std::string_view PointOnSubspace::type_name() const {
  if (kind_ == Kind::InLine) return "inline";
  return b_.offset_N.isZero() ? "In plane" : "In plane with offset";
}

void PointOnSubspace::residual(ResidualSink& r, const StepContext& c) {
  const Mat3& Ra = a_.node->R_WN();
  const Vec3 q = b_.b_W();
  const Vec3 d = b_.x_W() - a_.x_W();
  const Vec3 arm_a = b_.x_W() - a_.node->x_W();  // x_b + q - x_a
  Vec3 F = Vec3::Zero();
  for (std::size_t i = 0; i < directions_N_.size(); ++i) {
    const Vec3 e = Ra * directions_N_[i];
    r.add(first_index() + int(i), e.dot(d) / c.dCoef);
    F += e * lambda(c, int(i));
  }
  r.add(a_.node->eq_index(), F);
  r.add(a_.node->eq_index() + 3, Vec3(arm_a.cross(F)));
  r.add(b_.node->eq_index(), Vec3(-F));
  r.add(b_.node->eq_index() + 3, Vec3(-q.cross(F)));
}

// f = -r: f_xa = -e l, f_tha = (e x D) l, f_xb = e l, f_thb = (q x e) l with D = x_b + q - x_a;
// the constraint rows are -dPhi: (e, -(e x D), -e, -(q x e)) on (x_a, th_a, x_b, th_b).
void PointOnSubspace::jacobian(JacobianSink& J, const StepContext& c) {
  const Mat3& Ra = a_.node->R_WN();
  const Vec3 q = b_.b_W();
  const Vec3 D = b_.x_W() - a_.node->x_W();
  const int xa = a_.node->dof_index(), ta = xa + 3, xb = b_.node->dof_index(), tb = xb + 3;
  const int fa = a_.node->eq_index(), ma = fa + 3, fb = b_.node->eq_index(), mb = fb + 3;
  const Mat3 qx = skew(q), Dx = skew(D);
  for (std::size_t i = 0; i < directions_N_.size(); ++i) {
    const int row = first_index() + int(i);
    const Vec3 e = Ra * directions_N_[i];
    const double l = lambda(c, int(i)), h = c.dCoef * l;
    const Mat3 ex = skew(e);
    J.add(fa, row, Vec3(-e));
    J.add(ma, row, Vec3(e.cross(D)));
    J.add(fb, row, e);
    J.add(mb, row, Vec3(q.cross(e)));
    J.add(row, xa, Eigen::RowVector3d(e.transpose()));
    J.add(row, ta, Eigen::RowVector3d(-e.cross(D).transpose()));
    J.add(row, xb, Eigen::RowVector3d(-e.transpose()));
    J.add(row, tb, Eigen::RowVector3d(-q.cross(e).transpose()));
    // Geometric stiffness: e, D and q rotate with their nodes (d e = th_a x e, d q = th_b x q).
    J.add(fa, ta, Mat3(h * ex));
    J.add(fb, ta, Mat3(-h * ex));
    J.add(ma, ta, Mat3(h * Dx * ex));
    J.add(ma, xb, Mat3(h * ex));
    J.add(ma, xa, Mat3(-h * ex));
    J.add(ma, tb, Mat3(-h * ex * qx));
    J.add(mb, tb, Mat3(h * ex * qx));
    J.add(mb, ta, Mat3(-h * qx * ex));
  }
}

void PointOnSubspace::after_convergence(const StepContext& c) {
  const Mat3& Ra = a_.node->R_WN();
  F_W_.setZero();
  f_local_.setZero();
  for (std::size_t i = 0; i < directions_N_.size(); ++i) {
    F_W_ += Ra * directions_N_[i] * lambda(c, int(i));
    f_local_[int(i)] = lambda(c, int(i));
  }
  R_WJ_ = a_.R_WH();
}

}  // namespace mbl::elements

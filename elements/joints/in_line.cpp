#include "elements/joints/in_line.hpp"

#include <cmath>

#include "elements/joints/friction_output.hpp"
#include "mbdyn-like/core/rotations.hpp"

namespace mbl::elements {

PointOnSubspace::PointOnSubspace(unsigned label, Kind kind, const Attachment& a, const Attachment& b,
                                 const Vec3& normal_N, std::unique_ptr<JointFriction> friction)
    : Joint(label), kind_(kind), a_(a), b_(b), normal_input_N_(normal_N), friction_(std::move(friction)) {
  if (kind == Kind::InLine) {
    directions_N_ = {a.R_NH.col(0), a.R_NH.col(1)};
  } else {
    directions_N_ = {normal_N.normalized()};
  }
}

DofOrder PointOnSubspace::dof_order(int i) const {
  return i < int(directions_N_.size()) ? DofOrder::Algebraic : friction_->dof_order();
}

double PointOnSubspace::sliding_rate() const {
  return (a_.node->v_W() - b_.node->v_W()).dot(a_.R_WH().col(2));
}

double PointOnSubspace::normal_force(const StepContext& c) const {
  return std::hypot(lambda(c, 0), lambda(c, 1));
}

std::string_view PointOnSubspace::type_name() const {
  if (kind_ == Kind::InLine) return "Inline";  // MBDyn's NetCDF type (inline.cc)
  return b_.offset_N.isZero() ? "In plane" : "In plane with offset";
}

namespace {
/// The plane frame MBDyn's .log gives an in plane joint with normal n (node frame): the rotation
/// about z x n that takes axis 3 onto n, by the angle between them divided by |n| (observed:
/// n = (-1, 0, 1) in t.eig.joints.inplane gives a rotation by (pi/4)/sqrt(2); a unit normal gives
/// the plain minimal rotation, as in t.mechanisms.theojansen.main_assy).
Mat3 plane_log_frame(const Vec3& n) {
  const Vec3 c = Vec3::UnitZ().cross(n);
  const double s = c.norm(), len = n.norm();
  if (len == 0.0) return Mat3::Identity();
  if (s == 0.0) return n.z() > 0.0 ? Mat3::Identity() : rot::rotvec_to_R(Vec3(M_PI / len, 0.0, 0.0));
  return rot::rotvec_to_R(Vec3(c / s * (std::atan2(s, n.z()) / len)));
}
}  // namespace

std::string PointOnSubspace::log_line() const {
  // Appendix E.2.17-18: node a, its point and the line (axis 3) or plane (axis 3 = normal)
  // frame in its frame; node b, its offset, the identity.
  const Mat3 R_a = kind_ == Kind::InLine ? a_.R_NH : plane_log_frame(normal_input_N_);
  return fmt::format("{}: {} {} {} {} {} {} 1 0 0 0 1 0 0 0 1", kind_ == Kind::InLine ? "inline" : "inplane", label(),
                     a_.node->label(), log_text(a_.offset_N), log_text(R_a), b_.node->label(),
                     log_text(b_.offset_N));
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
  if (friction_) {
    const double F3 = friction_->residual(r, c, friction_row(), sliding_rate(), normal_force(c));
    if (!c.initial_assembly) add_friction_load(r, a_.node->eq_index(), b_.node->eq_index(), a_.R_WH().col(2), F3);
  }
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
    // The in line joint takes MBDyn's (inline.cc InLineJoint::AssJac, InLineWithOffsetJoint::
    // AssJac): the turning of e in node b's force goes to node b's rotation columns, and the
    // (F x)(q x) block of node b's moment has the opposite sign; Newton converges either way, and
    // an eigenanalysis sees MBDyn's matrices.
    const bool mbdyn_in_line = kind_ == Kind::InLine;
    J.add(fa, ta, Mat3(h * ex));
    J.add(fb, mbdyn_in_line ? tb : ta, Mat3(-h * ex));
    J.add(ma, ta, Mat3(h * Dx * ex));
    J.add(ma, xb, Mat3(h * ex));
    J.add(ma, xa, Mat3(-h * ex));
    J.add(ma, tb, Mat3(-h * ex * qx));
    J.add(mb, tb, Mat3((mbdyn_in_line ? -h : h) * ex * qx));
    J.add(mb, ta, Mat3(-h * qx * ex));
  }
  if (friction_) {
    // d rate: node velocities along e3, and e3 turning with node a (d e3 = dCoef dg_a x e3).
    const Vec3 e3 = a_.R_WH().col(2);
    LinearForm drate, dF;
    drate.add(xa, e3);
    drate.add(xb, Vec3(-e3));
    drate.add(ta, Vec3(c.dCoef * e3.cross(a_.node->v_W() - b_.node->v_W())));
    const double Fn = normal_force(c);
    if (Fn > 0.0)
      for (int i = 0; i < 2; ++i) dF.add(first_index() + i, lambda(c, i) / Fn);
    double F3 = 0.0;
    const LinearForm dF3 = friction_->jacobian(J, c, friction_row(), sliding_rate(), drate, Fn, dF, F3);
    add_friction_load_jacobian(J, fa, fb, e3, F3, dF3, ta, c.dCoef);
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
  if (friction_) friction_->after_convergence(c, friction_row(), sliding_rate());
}

void PointOnSubspace::output_extra(OutputSink& out, std::ostream& os) const {
  if (!friction_) return;
  out.write(os, friction_->Q());
  out.write(os, friction_->coefficient());
}

void PointOnSubspace::output_setup_extra(OutputSink& out, const std::string& base) {
  if (!friction_) return;
  nc_FF_ = output::nc_declare(out, base, nc_friction_force);
  nc_fc_ = output::nc_declare(out, base, nc_friction_coefficient);
}

void PointOnSubspace::output_netcdf_extra(OutputSink& out) const {
  if (!friction_) return;
  out.put(nc_FF_, friction_->Q());
  out.put(nc_fc_, friction_->coefficient());
}

}  // namespace mbl::elements

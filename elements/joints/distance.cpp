#include "elements/joints/distance.hpp"

#include "mbdyn-like/core/nc_catalog.hpp"

namespace mbl::elements {

Distance::Distance(unsigned label, const Attachment& a, const Attachment& b, DriveCallerPtr length)
    : Joint(label), a_(a), b_(b), length_(std::move(length)),
      offsets_(!a.offset_N.isZero() || !b.offset_N.isZero()) {}

namespace {

/// Position of an attachment point in the initial configuration (after the initial assembly).
Vec3 initial_x_W(const Attachment& att) {
  if (att.grounded()) return att.offset_N;
  const StructNode::InitialConditions& ic = att.node->initial();
  return ic.x_W + ic.R_WN * att.offset_N;
}

}  // namespace

void Distance::initial_state(Vector& y, Vector&) const {
  const Vec3 d0 = initial_x_W(b_) - initial_x_W(a_);
  y.segment<3>(first_index() + kDirection) = d0.normalized();
}

void Distance::add_forces(ResidualSink& r, double alpha, const Vec3& v) const {
  for (const Side& side : sides()) {
    if (side.att->grounded()) continue;
    const Vec3 F = side.s * alpha * v;
    r.add(side.att->node->eq_index(), F);
    if (!side.att->node->is_displacement()) r.add(side.att->node->eq_index() + 3, Vec3(side.att->b_W().cross(F)));
  }
}

void Distance::residual(ResidualSink& r, const StepContext& c) {
  l_ = length_->value(c.t);
  if (c.initial_assembly) return assembly_residual(r, c);
  const Vec3 d = b_.x_W() - a_.x_W();
  const double alpha = lambda(c, kAlpha);
  const Vec3 v = lambda3(c, kDirection);
  add_forces(r, alpha, v);
  r.add(first_index() + kAlpha, 0.5 * (1.0 - v.squaredNorm()));
  r.add(first_index() + kDirection, Vec3(v - d / l_));
}

// J = -dr/dq; node position and rotation columns carry dCoef (dx = dCoef dx').
// Moments: with db = th x b, d(b x F) = (th x b) x F = [F x][b x] th.
void Distance::jacobian(JacobianSink& J, const StepContext& c) {
  if (c.initial_assembly) return assembly_jacobian(J, c);
  const double alpha = lambda(c, kAlpha);
  const Vec3 v = lambda3(c, kDirection);
  const double l = length_->value(c.t);
  const int i_alpha = first_index() + kAlpha, i_v = first_index() + kDirection;
  for (const Side& side : sides()) {
    if (side.att->grounded()) continue;
    const StructNode& n = *side.att->node;
    const double s = side.s;
    const Mat3 b_x = skew(side.att->b_W());
    J.add(n.eq_index(), i_alpha, Vec3(-s * v));
    J.add(n.eq_index(), i_v, Mat3(-s * alpha * Mat3::Identity()));
    // Direction rows v - d/l: d grows with side b's position (sign -s), dd = dx - b x th.
    const double k = -s * c.dCoef / l;
    J.add(i_v, n.dof_index(), Mat3(k * Mat3::Identity()));
    if (n.is_displacement()) continue;  // no offset, no rotation (the reader checks)
    J.add(n.eq_index() + 3, i_alpha, Vec3(-s * b_x * v));
    J.add(n.eq_index() + 3, i_v, Mat3(-s * alpha * b_x));
    J.add(n.eq_index() + 3, n.dof_index() + 3, Mat3(-c.dCoef * s * alpha * skew(v) * b_x));
    J.add(i_v, n.dof_index() + 3, Mat3(-k * b_x));
  }
  J.add(i_v, i_v, Mat3(-Mat3::Identity()));
  J.add(i_alpha, i_v, Eigen::RowVector3d(v.transpose()));
}

// Initial assembly (technical manual §6.1): the scalar constraint (|d| - l)/dCoef = 0 with
// multiplier alpha along u = d/|d|; the direction rows are left as identities.
void Distance::assembly_residual(ResidualSink& r, const StepContext& c) const {
  const Vec3 d = b_.x_W() - a_.x_W();
  const double dn = d.norm();
  r.add(first_index() + kAlpha, -(dn - l_) / c.dCoef);
  add_forces(r, lambda(c, kAlpha), d / dn);
}

// J = -dr/dq of the scalar form: r_c = -(|d| - l)/dCoef, forces s alpha u; du = P dd with
// P = (I - u u^T)/|d|, dd = dx - b x th on side b minus the same on side a (sign -s).
void Distance::assembly_jacobian(JacobianSink& J, const StepContext& c) const {
  const Vec3 d = b_.x_W() - a_.x_W();
  const double dn = d.norm();
  const Vec3 u = d / dn;
  const double alpha = lambda(c, kAlpha);
  const Mat3 P = (Mat3::Identity() - u * u.transpose()) / dn;
  const int row_c = first_index() + kAlpha;
  for (const Side& eq_side : sides()) {
    if (eq_side.att->grounded()) continue;
    const StructNode& ne = *eq_side.att->node;
    const Mat3 bex = skew(eq_side.att->b_W());
    const double s = eq_side.s;
    const bool e_rot = !ne.is_displacement();  // displacement nodes: no offset, no rotation
    J.add(ne.eq_index(), row_c, Vec3(-s * u));
    if (e_rot) {
      J.add(ne.eq_index() + 3, row_c, Vec3(-s * bex * u));
      J.add(ne.eq_index() + 3, ne.dof_index() + 3, Mat3(-c.dCoef * s * alpha * skew(u) * bex));
    }
    for (const Side& col_side : sides()) {
      if (col_side.att->grounded()) continue;
      const StructNode& nc = *col_side.att->node;
      const bool c_rot = !nc.is_displacement();
      const Mat3 bcx = skew(col_side.att->b_W());
      // dF_eq/dq_col = s alpha P dd/dq_col, with dd/dx = -t I, dd/dth = t [b x] on column side t.
      const double k = c.dCoef * s * col_side.s * alpha;
      J.add(ne.eq_index(), nc.dof_index(), Mat3(k * P));
      if (c_rot) J.add(ne.eq_index(), nc.dof_index() + 3, Mat3(-k * P * bcx));
      if (e_rot) J.add(ne.eq_index() + 3, nc.dof_index(), Mat3(k * bex * P));
      if (e_rot && c_rot) J.add(ne.eq_index() + 3, nc.dof_index() + 3, Mat3(-k * bex * P * bcx));
    }
    J.add(row_c, ne.dof_index(), Eigen::RowVector3d(-s * u.transpose()));
    if (e_rot) J.add(row_c, ne.dof_index() + 3, Eigen::RowVector3d(s * u.transpose() * bex));
  }
  J.add(first_index() + kDirection, first_index() + kDirection, Mat3(Mat3::Identity()));
}

void Distance::after_convergence(const StepContext& c) {
  alpha_ = lambda(c, kAlpha);
  v_W_ = lambda3(c, kDirection);
  F_W_ = alpha_ * v_W_;
  R_WJ_ = frame_along(v_W_.normalized());
}

// MBDyn writes the direction scaled by 1/l (.jnt columns 14-16, NetCDF "V").
Vec3 Distance::direction_output() const { return v_W_ / l_; }

void Distance::output_extra(OutputSink& out, std::ostream& os) const {
  out.write(os, direction_output());
  out.write(os, l_);
}

void Distance::output_setup_extra(OutputSink& out, const std::string& base) {
  nc_V_ = output::nc_declare(out, base, output::nc::joint_distance_V);
  nc_d_ = output::nc_declare(out, base, output::nc::joint_distance_d);
}

void Distance::output_netcdf_extra(OutputSink& out) const {
  out.put(nc_V_, direction_output());
  out.put(nc_d_, l_);
}

std::string Distance::log_line() const {
  // Appendix E.2.13 (with or without offsets): "distance: <label> <node 1> <f1> <node 2> <f2>".
  return fmt::format("distance: {} {} {} {} {}", label(), a_.node->label(), log_text(a_.offset_N),
                     b_.node->label(), log_text(b_.offset_N));
}

parser::PrivateDataOwner::DatumInfo Distance::private_data_info(unsigned i) const {
  if (i == 1) return {"d", "imposed distance (the drive's value)"};
  return i <= 7 ? Joint::private_data_info(i - 1) : DatumInfo{};
}

}  // namespace mbl::elements

#include "elements/joints/distance.hpp"

#include "mbdyn-like/core/nc_catalog.hpp"

namespace mbl::elements {

Distance::Distance(unsigned label, const Attachment& a, const Attachment& b, DriveCallerPtr length)
    : Joint(label), a_(a), b_(b), length_(std::move(length)),
      offsets_(!a.offset_N.isZero() || !b.offset_N.isZero()) {}

void Distance::residual(ResidualSink& r, const StepContext& c) {
  const Vec3 d = b_.x_W() - a_.x_W();
  const double dn = d.norm();
  const Vec3 u = d / dn;
  const double alpha = lambda(c, 0);
  l_ = length_->value(c.t);
  r.add(first_index(), -(dn - l_) / c.dCoef);
  const Vec3 F1 = alpha * u;
  if (!a_.grounded()) {
    r.add(a_.node->eq_index(), F1);
    r.add(a_.node->eq_index() + 3, Vec3(a_.b_W().cross(F1)));
  }
  if (!b_.grounded()) {
    r.add(b_.node->eq_index(), Vec3(-F1));
    r.add(b_.node->eq_index() + 3, Vec3(-b_.b_W().cross(F1)));
  }
}

// f = -r: f_x1 = -alpha u, f_th1 = -alpha b1 x u, f_x2 = alpha u, f_th2 = alpha b2 x u,
// f_c = (|d| - l)/dCoef; du = P dd with P = (I - u u^T)/|d|, dd = dx2 - b2 x th2 - dx1 + b1 x th1.
void Distance::jacobian(JacobianSink& J, const StepContext& c) {
  const Vec3 d = b_.x_W() - a_.x_W();
  const double dn = d.norm();
  const Vec3 u = d / dn;
  const double alpha = lambda(c, 0);
  const Mat3 P = (Mat3::Identity() - u * u.transpose()) / dn;
  const int row_c = first_index();
  struct Side {
    const Attachment* att;
    double sign;  // d depends on side b with +, on side a with -
  };
  const Side sides[2] = {{&a_, -1.0}, {&b_, 1.0}};
  for (const Side& eq_side : sides) {
    if (eq_side.att->grounded()) continue;
    const StructNode& ne = *eq_side.att->node;
    const Mat3 bex = skew(eq_side.att->b_W());
    // Force on this side: f_x = s alpha u, f_th = s alpha b x u, with s = sign of the side.
    const double s = eq_side.sign;
    J.add(ne.eq_index(), row_c, Vec3(s * u));
    J.add(ne.eq_index() + 3, row_c, Vec3(s * bex * u));
    // Rotation of b in f_th: d(b x u)/dth = u x b x  (db = th x b).
    J.add(ne.eq_index() + 3, ne.dof_index() + 3, Mat3(c.dCoef * s * alpha * skew(u) * bex));
    for (const Side& col_side : sides) {
      if (col_side.att->grounded()) continue;
      const StructNode& nc = *col_side.att->node;
      const double t = col_side.sign;
      const Mat3 bcx = skew(col_side.att->b_W());
      const Mat3 dd_dx = t * Mat3::Identity(), dd_dth = -t * bcx;
      J.add(ne.eq_index(), nc.dof_index(), Mat3(c.dCoef * s * alpha * P * dd_dx));
      J.add(ne.eq_index(), nc.dof_index() + 3, Mat3(c.dCoef * s * alpha * P * dd_dth));
      J.add(ne.eq_index() + 3, nc.dof_index(), Mat3(c.dCoef * s * alpha * bex * P * dd_dx));
      J.add(ne.eq_index() + 3, nc.dof_index() + 3, Mat3(c.dCoef * s * alpha * bex * P * dd_dth));
    }
    // Constraint row: d|d| = u . dd.
    J.add(row_c, ne.dof_index(), Eigen::RowVector3d(s * u.transpose()));
    J.add(row_c, ne.dof_index() + 3, Eigen::RowVector3d(-s * u.transpose() * bex));
  }
}

void Distance::after_convergence(const StepContext& c) {
  const Vec3 d = b_.x_W() - a_.x_W();
  const Vec3 u = d.normalized();
  F_W_ = lambda(c, 0) * u;
  R_WJ_ = frame_along(u);  // local force (alpha, 0, 0)
}

// MBDyn writes the direction scaled by 1/l (.jnt columns 14-16, NetCDF "V").
Vec3 Distance::direction_output() const { return (b_.x_W() - a_.x_W()) / (l_ * l_); }

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

}  // namespace mbl::elements

#include "elements/joints/spherical_hinge.hpp"

#include <fmt/format.h>

#include <cmath>

#include "mbdyn-like/core/nc_catalog.hpp"
#include "mbdyn-like/core/orientation_output.hpp"
#include "mbdyn-like/core/rotations.hpp"

namespace mbl::elements {

void add_coincidence_residual(ResidualSink& r, const StepContext& c, const Attachment& a,
                              const Attachment& b, int row_c, const Vec3& F) {
  // Gap x_a + d_a - x_b - d_b summed left to right, as MBDyn does: the derivatives phase divides
  // its round-off by dCoef^2 (a 1e-16 gap moves the initial reactions by 1e-16/dCoef^2).
  Vec3 gap = a.x_W();
  if (b.grounded()) {
    gap -= b.x_W();
  } else {
    gap -= b.node->x_W();
    gap -= b.b_W();
  }
  r.add(row_c, Vec3(gap / c.dCoef));
  if (!a.grounded()) {
    r.add(a.node->eq_index(), Vec3(-F));
    r.add(a.node->eq_index() + 3, Vec3(-a.b_W().cross(F)));
  }
  if (!b.grounded()) {
    r.add(b.node->eq_index(), F);
    r.add(b.node->eq_index() + 3, Vec3(b.b_W().cross(F)));
  }
}

void add_coincidence_jacobian(JacobianSink& J, const StepContext& c, const Attachment& a,
                              const Attachment& b, int row_c, const Vec3& F) {
  const Mat3 I = Mat3::Identity();
  if (!a.grounded()) {
    const StructNode& n = *a.node;
    const Mat3 bx = skew(a.jac_b_W(c));
    J.add(n.eq_index(), row_c, I);
    J.add(n.eq_index() + 3, row_c, bx);
    J.add(n.eq_index() + 3, n.dof_index() + 3, Mat3(c.dCoef * skew(F) * bx));
    J.add(row_c, n.dof_index(), Mat3(-I));
    J.add(row_c, n.dof_index() + 3, bx);
  }
  if (!b.grounded()) {
    const StructNode& n = *b.node;
    const Mat3 bx = skew(b.jac_b_W(c));
    J.add(n.eq_index(), row_c, Mat3(-I));
    J.add(n.eq_index() + 3, row_c, Mat3(-bx));
    J.add(n.eq_index() + 3, n.dof_index() + 3, Mat3(-c.dCoef * skew(F) * bx));
    J.add(row_c, n.dof_index(), I);
    J.add(row_c, n.dof_index() + 3, Mat3(-bx));
  }
}

std::string SphericalHinge::log_line() const {
  // Appendix E.2.25: the pin repeats "<node> <position> <orientation>" twice, the orientation
  // being the identity (no reference file: position taken as the node-side offset, as the
  // revolute pin's line has it).
  if (pin_) {
    const std::string side = fmt::format("{} {} 1 0 0 0 1 0 0 0 1", a_.node->label(), log_text(a_.offset_N));
    return fmt::format("sphericalpin: {} {} {}", label(), side, side);
  }
  return fmt::format("sphericalhinge: {} {} {}", label(), log_text(a_), log_text(b_));
}

SphericalHinge::SphericalHinge(unsigned label, bool pin, const Attachment& a, const Attachment& b,
                               StructNode::OrientationOutput orientation)
    : Joint(label), orientation_(orientation), pin_(pin), a_(a), b_(b) {
  R_WJ_ = a_.R_WH();
}

void SphericalHinge::residual(ResidualSink& r, const StepContext& c) {
  add_coincidence_residual(r, c, a_, b_, first_index(), lambda3(c, 0));
}

void SphericalHinge::jacobian(JacobianSink& J, const StepContext& c) {
  add_coincidence_jacobian(J, c, a_, b_, first_index(), lambda3(c, 0));
}

void SphericalHinge::after_convergence(const StepContext& c) {
  F_W_ = lambda3(c, 0);
  R_WJ_ = a_.R_WH();
}

Mat3 SphericalHinge::R_reported() const {
  return pin_ ? a_.node->R_WN() : Mat3(a_.R_WH().transpose() * b_.R_WH());
}

void SphericalHinge::output_extra(OutputSink& out, std::ostream& os) const {
  write_orientation(out, os, R_reported(), orientation_);
}

void SphericalHinge::output_setup_extra(OutputSink& out, const std::string& base) {
  nc_E_ = declare_orientation(out, base, orientation_, "relative orientation, in joint reference frame");
}

void SphericalHinge::output_netcdf_extra(OutputSink& out) const {
  put_orientation(out, nc_E_, R_reported(), orientation_);
}

}  // namespace mbl::elements

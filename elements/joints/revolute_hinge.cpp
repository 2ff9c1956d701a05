#include "elements/joints/revolute_hinge.hpp"
#include "mbdyn-like/core/private_data_listing.hpp"

#include <fmt/format.h>

#include "elements/joints/axis_constraints.hpp"
#include "elements/joints/spherical_hinge.hpp"
#include "mbdyn-like/core/dof_description.hpp"
#include "mbdyn-like/core/nc_catalog.hpp"
#include "mbdyn-like/core/orientation_output.hpp"
#include "mbdyn-like/core/rotations.hpp"

namespace mbl::elements {
namespace {
// Axis 3 of a stays orthogonal to axes 2 and 1 of b: c1 = e3_a . e2_b, c2 = e3_a . e1_b.
const std::vector<AxisPair> kRevoluteAxes{{2, 1, 1.0}, {2, 0, 1.0}};
// The pin (a: its node, b: the ground) as MBDyn's PlanePinJoint (planej.cc): the ground's axis 3
// against the node's axes 2 and 1, c1 = e2_a . e3_b, c2 = e1_a . e3_b (the same constraint, but
// the Jacobian rows follow the node's turning axes, as MBDyn's do).
const std::vector<AxisPair> kPinAxes{{1, 2, 1.0}, {0, 2, 1.0}};
}  // namespace

RevoluteHinge::RevoluteHinge(unsigned label, Variant v, const Attachment& a, const Attachment& b,
                             std::unique_ptr<JointFriction> friction,
                             StructNode::OrientationOutput orientation)
    : Joint(label), orientation_(v == Variant::Pin ? StructNode::OrientationOutput::Euler123 : orientation),
      variant_(v), a_(a), b_(b), position_(v != Variant::Rotation), friction_(std::move(friction)) {
  R_WJ_ = reaction_frame();
}

const std::vector<AxisPair>& RevoluteHinge::axes() const {
  return variant_ == Variant::Pin ? kPinAxes : kRevoluteAxes;
}

// PlaneHingeJoint::SetValue starts the force and the two moment multipliers from `initial state`;
// PlanePinJoint::SetValue reads it but leaves its multipliers alone.
void RevoluteHinge::initial_state(Vector& y, Vector&) const {
  if (variant_ != Variant::Hinge) return;
  y.segment<3>(first_index()) = initial_F_;
  y[first_index() + 3] = initial_M_[0];
  y[first_index() + 4] = initial_M_[1];
}

DofOrder RevoluteHinge::dof_order(int i) const {
  return friction_ && first_index() + i == friction_row() ? friction_->dof_order() : DofOrder::Algebraic;
}

// MBDyn writes the local reactions of the hinge and the rotation in node 2's hinge frame (the
// real .jnt files of web.pendulum, web.planemech, t.joints.drvhinge.drv, ...: the local force
// turns with node 2); the pin's only node is its side a.
Mat3 RevoluteHinge::reaction_frame() const { return variant_ == Variant::Pin ? a_.R_WH() : b_.R_WH(); }

std::string_view RevoluteHinge::type_name() const {
  switch (variant_) {
    // MBDyn's NetCDF types (planej.cc OutputPrepare_int)
    case Variant::Pin: return "Plane Pin";
    case Variant::Rotation: return "revolute rotation";
    default: return "revolute hinge";
  }
}

// MBDyn's PlaneHingeJoint, PlanePinJoint, PlaneRotationJoint DescribeDof/DescribeEq
// (struct/planej.cc).
void RevoluteHinge::describe_dofs(std::ostream& os, std::string_view prefix, int first, bool initial) const {
  if (!position_) {
    describe_range(os, prefix, first, 2, "reaction couples [mx,my]");
    if (initial) describe_range(os, prefix, first + 2, 2, "reaction couple derivatives [mPx,mPy]");
    return;
  }
  describe_range(os, prefix, first, 3, "reaction forces [Fx,Fy,Fz]");
  describe_range(os, prefix, first + 3, 2, "reaction couples [mx,my]");
  if (initial) {
    describe_range(os, prefix, first + 5, 3, "reaction force derivatives [FPx,FPy,FPz]");
    describe_range(os, prefix, first + 8, 2, "reaction couple derivatives [mPx,mPy]");
  }
  // The friction state after the joint's 5 (10 initially) unknowns, as MBDyn numbers it.
  if (friction_) friction_->describe(os, prefix, first + (initial ? 10 : 5), false);
}

void RevoluteHinge::describe_equations(std::ostream& os, std::string_view prefix, int first, bool initial) const {
  if (!position_) {
    describe_range(os, prefix, first, 2, "orientation constraints [gx1=gx2,gy1=gy2]");
    if (initial) describe_range(os, prefix, first + 2, 2, "angular velocity constraints [wx1=wx2,wy1=wy2]");
    return;
  }
  const bool pin = variant_ == Variant::Pin;
  describe_range(os, prefix, first, 3, pin ? "position constraints [Px=Px0,Py=Py0,Pz=Pz0]" : "position constraints [Px1=Px2,Py1=Py2,Pz1=Pz2]");
  describe_range(os, prefix, first + 3, 2, pin ? "orientation constraints [gx=gx0,gy=gy0]" : "orientation constraints [gx1=gx2,gy1=gy2]");
  if (initial) {
    describe_range(os, prefix, first + 5, 3, pin ? "velocity constraints [vx=0,vy=0,vz=0]" : "velocity constraints [vx1=vx2,vy1=vy2,vz1=vz2]");
    describe_range(os, prefix, first + 8, 2, pin ? "angular velocity constraints [wx=0,wy=0]" : "angular velocity constraints [wx1=wx2,wy1=wy2]");
  }
  if (friction_) friction_->describe(os, prefix, first + (initial ? 10 : 5), true);
}

std::string RevoluteHinge::log_line() const {
  // Appendix E.2.21-22: "revolutehinge: <label> <node 1> <f1> <R1h> <node 2> <f2> <R2h>", the same
  // for "revoluterotation". The pin (no appendix entry) writes its node side twice in MBDyn's
  // files (t.forces.force.pendulum-drag, web.rigidpendulum), not the ground side.
  switch (variant_) {
    case Variant::Pin: return fmt::format("revolutepin: {} {} {}", label(), log_text(a_), log_text(a_));
    case Variant::Rotation: return fmt::format("revoluterotation: {} {} {}", label(), log_text(a_), log_text(b_));
    default: return fmt::format("revolutehinge: {} {} {}", label(), log_text(a_), log_text(b_));
  }
}

void RevoluteHinge::residual(ResidualSink& r, const StepContext& c) {
  const int k = position_ ? 3 : 0;  // index of the first moment multiplier
  if (position_) add_coincidence_residual(r, c, a_, b_, first_index(), lambda3(c, 0));
  add_axis_pairs_residual(r, c, a_, b_, axes(), first_index() + k, lambdas(c, k));
  if (friction_) {
    const double M3 = friction_->residual(r, c, friction_row(), sliding_rate(), lambda3(c, 0).norm());
    if (!c.initial_assembly)
      add_friction_load(r, a_.node->eq_index() + 3, b_.node->eq_index() + 3, a_.R_WH().col(2), M3);
  }
}

void RevoluteHinge::jacobian(JacobianSink& J, const StepContext& c) {
  const int k = position_ ? 3 : 0;
  if (position_) add_coincidence_jacobian(J, c, a_, b_, first_index(), lambda3(c, 0));
  add_axis_pairs_jacobian(J, c, a_, b_, axes(), first_index() + k, lambdas(c, k));
  if (friction_) {
    const StructNode& na = *a_.node;
    const StructNode& nb = *b_.node;
    const Vec3 e3 = a_.R_WH().col(2);
    const LinearForm drate = spin_rate_form(na, nb, e3, c.dCoef);
    LinearForm dF;
    const Vec3 F = lambda3(c, 0);
    const double Fn = F.norm();
    if (Fn > 0.0) dF.add(first_index(), Vec3(F / Fn));
    double M3 = 0.0;
    const LinearForm dM3 = friction_->jacobian(J, c, friction_row(), sliding_rate(), drate, Fn, dF, M3);
    add_friction_load_jacobian(J, na.eq_index() + 3, nb.eq_index() + 3, e3, M3, dM3, na.dof_index() + 3, c.dCoef);
  }
}

void RevoluteHinge::after_convergence(const StepContext& c) {
  const int k = position_ ? 3 : 0;
  F_W_ = position_ ? lambda3(c, 0) : Vec3::Zero();
  M_W_ = axis_pairs_moment(a_, b_, axes(), lambdas(c, k));
  R_WJ_ = reaction_frame();
  rz_converged_ = rz();
  if (friction_) friction_->after_convergence(c, friction_row(), sliding_rate());
}

// The relative rotation about axis 3 keeps counting turns (energy balances integrate it), so
// it is the angle of R_rel closest to the last converged one.
double RevoluteHinge::rz() const {
  const Mat3 R = R_rel();
  const double a = std::atan2(R(1, 0), R(0, 0));
  return rot::unwrap_angle(a, rz_converged_);
}

// MBDyn reports node 2 relative to node 1; the pin's node plays node 2 against the ground.
Mat3 RevoluteHinge::R_rel() const {
  return variant_ == Variant::Pin ? Mat3(b_.R_WH().transpose() * a_.R_WH()) : Mat3(a_.R_WH().transpose() * b_.R_WH());
}

Vec3 RevoluteHinge::w_rel_J() const {
  const Vec3 w = variant_ == Variant::Pin ? Vec3(a_.w_W() - b_.w_W()) : Vec3(b_.w_W() - a_.w_W());
  return a_.R_WH().transpose() * w;
}

void RevoluteHinge::output_extra(OutputSink& out, std::ostream& os) const {
  // §8.12.38: relative rotation (in the `orientation description`, MBDyn's planej.cc) and
  // relative angular velocity, joint frame.
  write_orientation(out, os, R_rel(), orientation_);
  out.write(os, w_rel_J());
  if (friction_) {
    out.write(os, friction_->Q());
    out.write(os, friction_->coefficient());
  }
}

// Appendix C "Revolute hinge" / "Revolute rotation": E and Omega, as the .jnt extra columns.
void RevoluteHinge::output_setup_extra(OutputSink& out, const std::string& base) {
  if (variant_ == Variant::Pin) return;  // MBDyn's PlanePinJoint declares the reactions only
  // planej.cc: "global" for the hinge, "relative orientation" for the rotation
  nc_E_ = declare_orientation(out, base, orientation_, variant_ == Variant::Rotation ? "relative orientation" : "global");
  nc_Omega_ = output::nc_declare(out, base, output::nc::joint_Omega);
}

void RevoluteHinge::output_netcdf_extra(OutputSink& out) const {
  if (nc_E_ < 0) return;
  put_orientation(out, nc_E_, R_rel(), orientation_);
  out.put(nc_Omega_, w_rel_J());
}

// MBDyn's numbering (planej.cc iGetPrivDataIdx), which the `index, n` form of drives uses:
// rz 1, wz 2, then Fx..Fz 3-5 and Mx..Mz 6-8 (hinge, pin), Mx..Mz 3-5 (rotation: no force).
parser::PrivateDataOwner::DatumInfo RevoluteHinge::private_data_info(unsigned i) const {
  static const PrivateDataListing hinge = [] {
    PrivateDataListing l;
    add_datum(l, "rz", "relative rotation about the hinge axis");
    add_datum(l, "wz", "relative angular velocity about the hinge axis");
    add_xyz(l, "F", "reaction force, global frame");
    return add_xyz(l, "M", "reaction moment, joint frame");
  }();
  static const PrivateDataListing rotation = [] {
    PrivateDataListing l;
    add_datum(l, "rz", "relative rotation about the hinge axis");
    add_datum(l, "wz", "relative angular velocity about the hinge axis");
    return add_xyz(l, "M", "reaction moment, joint frame");
  }();
  return listed(variant_ == Variant::Rotation ? rotation : hinge, i);
}

unsigned RevoluteHinge::private_data_count() const { return variant_ == Variant::Rotation ? 5 : 8; }

double RevoluteHinge::private_data(unsigned i) const {
  if (i == 1) return rz();
  if (i == 2) return w_rel_J()[2];
  if (i < 1 || i > private_data_count()) return 0.0;
  // planej.cc PlaneHingeJoint/PlanePinJoint::dGetPrivData: F is the multiplier in the global
  // frame (the .jnt's global columns), M in the joint frame (its local ones).
  if (variant_ != Variant::Rotation && i <= 5) return F_W_[i - 3];
  return Joint::private_data(variant_ == Variant::Rotation ? i + 1 : i - 2);
}

}  // namespace mbl::elements

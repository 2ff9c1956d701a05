#include "elements/joints/acceleration_joints.hpp"

#include "mbdyn-like/core/nc_catalog.hpp"

namespace mbl::elements {

void AccelerationJoint::initial_state(Vector& y, Vector& yp) const {
  // The velocity along e starts at the node's (MBDyn's SetValue).
  y[first_index()] = speed();
  (void)yp;
}

void AccelerationJoint::residual(ResidualSink& r, const StepContext& c) {
  if (c.initial_assembly) return;  // MBDyn's joint takes no part in the initial assembly
  const double q = (*c.y)[first_index()], qp = (*c.yp)[first_index()];
  add_reaction(r, reaction_rows(), lambda(c, 1));
  r.add(first_index(), q - speed());
  r.add(first_index() + 1, drive_->value(c.t) - qp);
}

void AccelerationJoint::jacobian(JacobianSink& J, const StepContext& c) {
  const int iq = first_index(), il = first_index() + 1;
  if (c.initial_assembly) {
    J.add(iq, iq, 1.0);
    J.add(il, il, 1.0);
    return;
  }
  add_reaction_jacobian(J, c, reaction_rows(), il, lambda(c, 1));
  J.add(iq, iq, -c.dCoef);
  J.add(il, iq, 1.0);
  add_speed_jacobian(J, c, iq, 1.0);
}

void AccelerationJoint::after_convergence(const StepContext& c) {
  if (c.initial_assembly) return;
  reaction_ = lambda(c, 1);
  imposed_ = drive_->value(c.t);
  // MBDyn reports the global reaction along the direction as given (not rotated with the node).
  (linear() ? F_W_ : M_W_) = reaction_ * e_;
}

void AccelerationJoint::output_extra(OutputSink& out, std::ostream& os) const { out.write(os, imposed_); }

namespace {
// Appendix C: "a" (linear acceleration), "wP" (angular acceleration).
constexpr output::NcVarSpec kLinearA{"a", output::nc::S::Scalar, "Acceleration", "imposed acceleration"};
constexpr output::NcVarSpec kAngularWP{"wP", output::nc::S::Scalar, "Angular acceleration",
                                       "imposed angular acceleration"};
}  // namespace

void AccelerationJoint::output_setup_extra(OutputSink& out, const std::string& base) {
  nc_value_ = output::nc_declare(out, base, linear() ? kLinearA : kAngularWP);
}

void AccelerationJoint::output_netcdf_extra(OutputSink& out) const { out.put(nc_value_, imposed_); }

}  // namespace mbl::elements

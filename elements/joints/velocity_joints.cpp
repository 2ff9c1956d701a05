#include "elements/joints/velocity_joints.hpp"

#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/core/nc_catalog.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {

std::string VelocityJoint::log_line() const {
  // Appendix E.2.1 (no reference file): "<kind>: <label> <node> <direction, not normalised>".
  return fmt::format("{}velocity: {} {} {}", linear() ? "linear" : "angular", label(), node_.label(),
                     log_text(direction_input_));
}

// The force (or couple) -lambda e on the node's equilibrium; Psi = e . xdot - v(t) (or
// e . omega - w(t)), not scaled by 1/dCoef.
void VelocityJoint::residual(ResidualSink& r, const StepContext& c) {
  add_reaction(r, node_.eq_index(), lambda(c, 0));
  r.add(first_index(), speed() - drive_->value(c.t));
}

void VelocityJoint::jacobian(JacobianSink& J, const StepContext& c) {
  add_reaction_jacobian(J, c, node_.eq_index(), first_index(), lambda(c, 0));
  add_speed_jacobian(J, c, first_index(), -1.0);
}

void VelocityJoint::after_convergence(const StepContext& c) {
  imposed_ = drive_->value(c.t);
  e_W_converged_ = e_W();
  (linear() ? F_W_ : M_W_) = lambda(c, 0) * e_W_converged_;
  // Local axis 1 along e: f (or m) = (lambda, 0, 0).
  R_WJ_ = frame_along(e_W_converged_);
}

void VelocityJoint::output_extra(OutputSink& out, std::ostream& os) const {
  out.write(os, e_W_converged_);
  out.write(os, imposed_);
}

// Appendix C "Angular velocity" (w, dOmega) / "Linear velocity" (v; MBDyn adds dv, the direction).
void VelocityJoint::output_setup_extra(OutputSink& out, const std::string& base) {
  namespace nc = output::nc;
  nc_value_ = output::nc_declare(out, base, linear() ? nc::joint_velocity_v : nc::joint_dOmega);
  nc_dir_ = output::nc_declare(out, base, linear() ? nc::joint_dv : nc::joint_w);
}

void VelocityJoint::output_netcdf_extra(OutputSink& out) const {
  out.put(nc_dir_, e_W_converged_);
  out.put(nc_value_, imposed_);
}

}  // namespace mbl::elements

#include "elements/joints/velocity_joints.hpp"

#include "elements/input/drive_input.hpp"
#include "elements/joints/joint_input.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/core/nc_catalog.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {

VelocityJoint::VelocityJoint(unsigned label, Kind kind, StructNode& node, const Vec3& direction,
                             DriveCallerPtr drive)
    : Joint(label), kind_(kind), node_(node), e_(direction.normalized()), direction_input_(direction),
      drive_(std::move(drive)) {}

std::string VelocityJoint::log_line() const {
  // Appendix E.2.1 (no reference file): "<kind>: <label> <node> <direction, not normalised>".
  return fmt::format("{}velocity: {} {} {}", kind_ == Kind::Linear ? "linear" : "angular", label(), node_.label(),
                     log_text(direction_input_));
}

void VelocityJoint::residual(ResidualSink& r, const StepContext& c) {
  const double l = lambda(c, 0);
  const Vec3 e = e_W();
  const int row = node_.eq_index() + (kind_ == Kind::Linear ? 0 : 3);
  r.add(row, Vec3(-l * e));
  const double speed = kind_ == Kind::Linear ? e.dot(node_.v_W()) : e.dot(node_.w_W());
  r.add(first_index(), speed - drive_->value(c.t));
}

void VelocityJoint::jacobian(JacobianSink& J, const StepContext& c) {
  const Vec3 e = e_W();
  if (kind_ == Kind::Linear) {
    J.add(node_.eq_index(), first_index(), e);
    J.add(first_index(), node_.dof_index(), Eigen::RowVector3d(-e.transpose()));
    return;
  }
  // e_W turns with the node: d e_W = -e_W x d theta, d theta = dCoef d, d omega = (I - dCoef w_ref x) d.
  const int eq = node_.eq_index() + 3, col = node_.dof_index() + 3;
  J.add(eq, first_index(), e);
  J.add(eq, col, Mat3(-c.dCoef * lambda(c, 0) * skew(e)));
  const Eigen::RowVector3d d_psi =
      c.dCoef * e.cross(node_.w_W()).transpose() +
      e.transpose() * (Mat3::Identity() - c.dCoef * skew(node_.w_ref()));
  J.add(first_index(), col, Eigen::RowVector3d(-d_psi));
}

void VelocityJoint::after_convergence(const StepContext& c) {
  imposed_ = drive_->value(c.t);
  e_W_converged_ = e_W();
  (kind_ == Kind::Linear ? F_W_ : M_W_) = lambda(c, 0) * e_W_converged_;
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
  const bool linear = kind_ == Kind::Linear;
  nc_value_ = output::nc_declare(out, base, linear ? nc::joint_velocity_v : nc::joint_dOmega);
  nc_dir_ = output::nc_declare(out, base, linear ? nc::joint_dv : nc::joint_w);
}

void VelocityJoint::output_netcdf_extra(OutputSink& out) const {
  out.put(nc_dir_, e_W_converged_);
  out.put(nc_value_, imposed_);
}

unsigned VelocityJoint::private_data_index(std::string_view name) const {
  return name == (kind_ == Kind::Linear ? "v" : "w") ? 1 : 0;
}

namespace {

void read_velocity_joint(parser::CardReader& in, BuildContext& ctx, unsigned label, VelocityJoint::Kind kind) {
  StructNode& n = ctx.struct_node(in);
  const Vec3 e = read_axis(in, kind == VelocityJoint::Kind::Linear ? nullptr : &n);
  add_joint(in, ctx, std::make_unique<VelocityJoint>(label, kind, n, e, read_drive(in, ctx)));
}

const bool registered =
    CardRegistry::family("joint").add("linear velocity",
                                      [](parser::CardReader& in, BuildContext& c, unsigned l) {
                                        read_velocity_joint(in, c, l, VelocityJoint::Kind::Linear);
                                      }) &&
    CardRegistry::family("joint").add("angular velocity", [](parser::CardReader& in, BuildContext& c, unsigned l) {
      read_velocity_joint(in, c, l, VelocityJoint::Kind::Angular);
    });

}  // namespace
}  // namespace mbl::elements

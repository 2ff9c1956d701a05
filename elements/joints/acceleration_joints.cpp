#include "elements/joints/acceleration_joints.hpp"

#include "elements/input/drive_input.hpp"
#include "elements/joints/joint_input.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/nc_catalog.hpp"

namespace mbl::elements {

AccelerationJoint::AccelerationJoint(unsigned label, Kind kind, StructNode& node, const Vec3& direction,
                                     DriveCallerPtr drive)
    : Joint(label), kind_(kind), node_(node), e_(direction.normalized()), drive_(std::move(drive)) {}

int AccelerationJoint::reaction_row() const {
  const int row = node_.has_inertia_block() ? node_.momentum_eq_index() : node_.eq_index();
  return row + (kind_ == Kind::Linear ? 0 : 3);
}

void AccelerationJoint::initial_state(Vector& y, Vector& yp) const {
  // The velocity along e starts at the node's (MBDyn's SetValue).
  y[first_index()] = e_W().dot(kind_ == Kind::Linear ? node_.v_W() : node_.w_W());
  (void)yp;
}

void AccelerationJoint::residual(ResidualSink& r, const StepContext& c) {
  if (c.initial_assembly) return;  // MBDyn's joint takes no part in the initial assembly
  const double q = (*c.y)[first_index()], qp = (*c.yp)[first_index()];
  const Vec3 e = e_W();
  r.add(reaction_row(), Vec3(-lambda(c, 1) * e));
  r.add(first_index(), q - e.dot(kind_ == Kind::Linear ? node_.v_W() : node_.w_W()));
  r.add(first_index() + 1, drive_->value(c.t) - qp);
}

void AccelerationJoint::jacobian(JacobianSink& J, const StepContext& c) {
  const int iq = first_index(), il = first_index() + 1;
  if (c.initial_assembly) {
    J.add(iq, iq, 1.0);
    J.add(il, il, 1.0);
    return;
  }
  const Vec3 e = e_W();
  J.add(reaction_row(), il, e);
  J.add(iq, iq, -c.dCoef);
  J.add(il, iq, 1.0);
  if (kind_ == Kind::Linear) {
    J.add(iq, node_.dof_index(), Eigen::RowVector3d(e.transpose()));
    return;
  }
  // e turns with the node: d e = -e x d theta, d theta = dCoef d, d omega = (I - dCoef w_ref x) d.
  const int col = node_.dof_index() + 3;
  J.add(reaction_row(), col, Mat3(-c.dCoef * lambda(c, 1) * skew(e)));
  const Eigen::RowVector3d d_speed =
      c.dCoef * e.cross(node_.w_W()).transpose() + e.transpose() * (Mat3::Identity() - c.dCoef * skew(node_.w_ref()));
  J.add(iq, col, d_speed);
}

void AccelerationJoint::after_convergence(const StepContext& c) {
  if (c.initial_assembly) return;
  reaction_ = lambda(c, 1);
  imposed_ = drive_->value(c.t);
  // MBDyn reports the global reaction along the direction as given (not rotated with the node).
  (kind_ == Kind::Linear ? F_W_ : M_W_) = reaction_ * e_;
}

void AccelerationJoint::output_extra(OutputSink& out, std::ostream& os) const { out.write(os, imposed_); }

namespace {
// Appendix C: "a" (linear acceleration), "wP" (angular acceleration).
constexpr output::NcVarSpec kLinearA{"a", output::nc::S::Scalar, "Acceleration", "imposed acceleration"};
constexpr output::NcVarSpec kAngularWP{"wP", output::nc::S::Scalar, "Angular acceleration",
                                       "imposed angular acceleration"};
}  // namespace

void AccelerationJoint::output_setup_extra(OutputSink& out, const std::string& base) {
  nc_value_ = output::nc_declare(out, base, kind_ == Kind::Linear ? kLinearA : kAngularWP);
}

void AccelerationJoint::output_netcdf_extra(OutputSink& out) const { out.put(nc_value_, imposed_); }

unsigned AccelerationJoint::private_data_index(std::string_view name) const {
  const bool linear = kind_ == Kind::Linear;
  if (name == (linear ? "F" : "M")) return 1;
  if (name == (linear ? "a" : "wp")) return 2;
  return 0;
}

namespace {

void read_acceleration_joint(parser::CardReader& in, BuildContext& ctx, unsigned label, AccelerationJoint::Kind kind) {
  StructNode& n = ctx.struct_node(in);
  const Vec3 e = read_axis(in, kind == AccelerationJoint::Kind::Linear ? nullptr : &n);
  add_joint(in, ctx, std::make_unique<AccelerationJoint>(label, kind, n, e, read_drive(in, ctx)));
}

const bool registered =
    CardRegistry::family("joint").add("linear acceleration",
                                      [](parser::CardReader& in, BuildContext& c, unsigned l) {
                                        read_acceleration_joint(in, c, l, AccelerationJoint::Kind::Linear);
                                      }) &&
    CardRegistry::family("joint").add("angular acceleration", [](parser::CardReader& in, BuildContext& c, unsigned l) {
      read_acceleration_joint(in, c, l, AccelerationJoint::Kind::Angular);
    });

}  // namespace
}  // namespace mbl::elements

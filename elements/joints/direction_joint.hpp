#pragma once
// Joints along a direction on one node (input manual §8.12.1-2, §8.12.29-30): a fixed global
// direction e acting on the node's velocity and force rows (linear), or a direction e_N that
// turns with the node, e = R_N e_N, acting on its angular velocity and moment rows (angular).
// The velocity and acceleration joints share the direction, the speed along it and their
// Jacobians; their unknowns and the rows that take the reaction differ (as MBDyn's).
#include <memory>

#include "elements/input/drive_input.hpp"
#include "elements/joints/joint_input.hpp"
#include "mbdyn-like/core/drive_caller.hpp"

namespace mbl::elements {

class DirectionJoint : public Joint {
 public:
  enum class Kind { Linear, Angular };

 protected:
  /// `direction` is normalised; global for Linear, in the node frame for Angular.
  DirectionJoint(unsigned label, Kind kind, StructNode& node, const Vec3& direction, DriveCallerPtr drive)
      : Joint(label), kind_(kind), node_(node), e_(direction.normalized()), drive_(std::move(drive)) {}

  bool linear() const { return kind_ == Kind::Linear; }
  Vec3 e_W() const { return linear() ? e_ : Vec3(node_.R_WN() * e_); }
  /// The node's velocity (linear) or angular velocity (angular) along e_W.
  double speed() const { return e_W().dot(linear() ? node_.v_W() : node_.w_W()); }
  /// The reaction -lambda e_W on the force (linear) or moment (angular) rows of the node's
  /// six rows from `rows`.
  void add_reaction(ResidualSink& r, int rows, double lambda) const {
    r.add(rows + (linear() ? 0 : 3), Vec3(-lambda * e_W()));
  }
  /// Its Jacobian: e_W on the multiplier's column, and for the angular joint the turning of e_W
  /// with the node (d e_W = -e_W x d theta, d theta = dCoef d).
  void add_reaction_jacobian(JacobianSink& J, const StepContext& c, int rows, int lambda_col, double lambda) const;
  /// sign * d(speed) on row `row`: e_W^T on the positions (linear); on the rotation unknowns
  /// dCoef (e_W x omega)^T + e_W^T (I - dCoef w_ref x) (angular: d omega = (I - dCoef w_ref x) d).
  void add_speed_jacobian(JacobianSink& J, const StepContext& c, int row, double sign) const;

  Kind kind_;
  StructNode& node_;
  Vec3 e_;
  DriveCallerPtr drive_;
};

/// Registers the linear and angular cards of a direction joint, `node, direction, drive`
/// (the direction global, or in the node frame for the angular card).
template <class DirectionJointType>
bool register_direction_joints(const char* linear_card, const char* angular_card) {
  using Kind = DirectionJoint::Kind;
  auto reader = [](Kind kind) {
    return [kind](parser::CardReader& in, BuildContext& ctx, unsigned label) {
      StructNode& n = ctx.struct_node(in);
      const Vec3 e = read_axis(in, kind == Kind::Linear ? nullptr : &n);
      add_joint(in, ctx, std::make_unique<DirectionJointType>(label, kind, n, e, read_drive(in, ctx)));
    };
  };
  return CardRegistry::family("joint").add(linear_card, reader(Kind::Linear)) &&
         CardRegistry::family("joint").add(angular_card, reader(Kind::Angular));
}

}  // namespace mbl::elements

#pragma once
// Joints along a direction on one node (input manual §8.12.1-2, §8.12.29-30): a fixed global
// direction e acting on the node's velocity and force rows (linear), or a direction e_N that
// turns with the node, e = R_N e_N, acting on its angular velocity and moment rows (angular).
// The velocity and acceleration joints share the direction, the speed along it and their
// Jacobians; their unknowns and the rows that take the reaction differ (as MBDyn's). Their
// cards are read in direction_joint_readers.cpp.
#include <memory>

#include "elements/joints/joint.hpp"
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

}  // namespace mbl::elements

#pragma once
// Rigid body kinematics (input manual §5.3.17; technical manual "Dynamics in a Relative
// Reference Frame"; MBDyn's body.cc and autostr.cc settle the terms): the whole model is
// described in a frame moving with acceleration a0, angular velocity W and angular acceleration
// dW (absolute, given constant or by drives). Every dynamic node's equilibrium gets the Coriolis
// and transport terms of its momenta, -2 W x beta and -W x gamma; every rigid body (m, static
// moment s = m R b and inertia J about its node, both in the global frame) the apparent loads
//   f = m a0 + dW x s0 + W x (W x s0),          s0 = m x + s,
//   c = s x a + W x J W + J dW + w x J W - J (w x W) + v x (W x s),
//       a = a0 + dW x x + W x (W x x) + W x v,
// subtracted from its node's force and moment equilibrium. The frame's velocity enters the air
// velocity the aerodynamic elements see (air properties). With an orientation drive the other
// drives are absolute and expressed in the moving frame (MBDyn's DriveRigidBodyKinematics), and
// so is the airstream; the position is read and taken as the global one.
#include <functional>
#include <vector>

#include "elements/bodies/body.hpp"
#include "mbdyn-like/core/element.hpp"

namespace mbl::elements {

class RigidBodyKinematics final : public Element {
 public:
  using VecOfTime = std::function<Vec3(double)>;
  struct Params {
    VecOfTime W, dW, a0;  ///< angular velocity, angular acceleration, acceleration of the frame
    VecOfTime V;          ///< velocity of the frame's origin (zero when not given)
    /// Orientation of the frame (an orientation drive); none: the global one.
    std::function<Mat3(double)> R;
  };
  explicit RigidBodyKinematics(Params p) : Element(0), p_(std::move(p)) {}

  std::string_view kind() const override { return "rigid body kinematics"; }
  std::string_view type_name() const override { return "RigidBodyKinematics"; }
  bool netcdf_listed() const override { return false; }
  void setup(Model& m) override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  /// Velocity of the moving frame at the point x (model frame): V + W x x. The frame's position
  /// and orientation are taken as the global ones (they enter no load of ours).
  Vec3 transport_velocity(const Vec3& x, double t) const { return p_.V(t) + p_.W(t).cross(x); }
  /// An absolute vector (e.g. the airstream) in the moving frame: R(t)^T v.
  Vec3 in_frame(const Vec3& v, double t) const { return p_.R ? Vec3(p_.R(t).transpose() * v) : v; }

 private:
  Params p_;
  std::vector<const StructNode*> dynamic_nodes_;
  std::vector<const Body*> bodies_;
};

}  // namespace mbl::elements

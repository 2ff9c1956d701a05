#pragma once
// Linear velocity and angular velocity joints (input manual §8.12.30, §8.12.2): impose the
// absolute velocity of a node along a fixed global direction e, or its angular velocity about a
// direction e_N that rotates with the node. One multiplier lambda, non-holonomic constraint
//   Psi = e . xdot - v(t)   or   Psi = (R_N e_N) . omega - w(t)   (not scaled by 1/dCoef);
// the node receives the force (or couple) -lambda e, reported as F = lambda e (M = lambda e_W),
// locally f = (lambda, 0, 0) (m = (lambda, 0, 0)) as MBDyn's .jnt. Extra output: the direction
// in W and the imposed value (.jnt columns 14-17; NetCDF dv, v or w, dOmega).
#include "elements/joints/direction_joint.hpp"

namespace mbl::elements {

class VelocityJoint final : public DirectionJoint {
 public:
  /// `direction` is normalised; global for Linear, in the node frame for Angular.
  VelocityJoint(unsigned label, Kind kind, StructNode& node, const Vec3& direction, DriveCallerPtr drive)
      : DirectionJoint(label, kind, node, direction, std::move(drive)), direction_input_(direction) {}

  std::string_view type_name() const override { return linear() ? "Linear velocity" : "Angular velocity"; }
  std::string log_line() const override;
  int dof_count() const override { return 1; }
  int initial_dof_count() const override { return 1; }  // drvj.h
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;

  // Private data: "v" (linear) or "w" (angular), the imposed value.
  // drvj.cc LinearVelocityJoint "v" / AngularVelocityJoint "w".
  unsigned private_data_count() const override { return 1; }
  DatumInfo private_data_info(unsigned i) const override {
    if (i != 1) return {};
    return linear() ? DatumInfo{"v", "imposed velocity"} : DatumInfo{"w", "imposed angular velocity"};
  }
  double private_data(unsigned i) const override { return i == 1 ? imposed_ : 0.0; }

 protected:
  void output_extra(OutputSink& out, std::ostream& os) const override;
  void output_setup_extra(OutputSink& out, const std::string& base) override;
  void output_netcdf_extra(OutputSink& out) const override;

 private:
  Vec3 direction_input_;  ///< as given (not normalised), for the .log
  double imposed_ = 0.0;
  Vec3 e_W_converged_ = Vec3::UnitX();
  OutputSink::VarId nc_dir_ = -1, nc_value_ = -1;
};

}  // namespace mbl::elements

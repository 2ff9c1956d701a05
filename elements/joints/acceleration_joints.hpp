#pragma once
// Linear and angular acceleration joints (input manual §8.12.29, §8.12.1): impose the absolute
// acceleration of a node along a fixed global direction e (linear), or its angular acceleration
// about a direction e_N that rotates with the node (angular, e = R_N e_N). As MBDyn's accj.cc,
// two own unknowns: the velocity q along e (differential) and the reaction lambda (algebraic):
//     q - e . xdot = 0   (or q - e . omega = 0),     q' = a(t)
// and the node receives -lambda e in its first equations: the momentum definition of a dynamic
// node (lambda then has the dimension of a momentum), the equilibrium of a static one. q starts
// at the node's velocity along e. .jnt: f = (lambda, 0, 0) (linear) or m = (lambda, 0, 0)
// (angular), F (or M) = lambda e_input, then the imposed acceleration; no initial assembly.
#include "elements/joints/direction_joint.hpp"

namespace mbl::elements {

class AccelerationJoint final : public DirectionJoint {
 public:
  /// `direction` is normalised; global for Linear, in the node frame for Angular.
  AccelerationJoint(unsigned label, Kind kind, StructNode& node, const Vec3& direction, DriveCallerPtr drive)
      : DirectionJoint(label, kind, node, direction, std::move(drive)) {}

  std::string_view type_name() const override { return linear() ? "Linear acceleration" : "Angular acceleration"; }  // accj.cc
  int dof_count() const override { return 2; }
  int initial_dof_count() const override { return 0; }  // accj.cc
  DofOrder dof_order(int i) const override { return i == 0 ? DofOrder::Differential : DofOrder::Algebraic; }
  void initial_state(Vector& y, Vector& yp) const override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;

  // Private data: "F" and "a" (linear) or "M" and "wp" (angular): the reaction and the imposed
  // acceleration.
  // accj.cc LinearAccelerationJoint "F", "a" / AngularAccelerationJoint "M", "wp".
  unsigned private_data_count() const override { return 2; }
  DatumInfo private_data_info(unsigned i) const override {
    if (i == 1)
      return linear() ? DatumInfo{"F", "reaction multiplier (a momentum on a dynamic node, a force on a static one)"}
                      : DatumInfo{"M", "reaction multiplier (an angular momentum on a dynamic node, a moment on a "
                                       "static one)"};
    if (i != 2) return {};
    return linear() ? DatumInfo{"a", "imposed acceleration"} : DatumInfo{"wp", "imposed angular acceleration"};
  }
  double private_data(unsigned i) const override { return i == 1 ? reaction_ : i == 2 ? imposed_ : 0.0; }

 protected:
  Vec3 f_local() const override { return linear() ? Vec3(reaction_, 0.0, 0.0) : Vec3::Zero(); }
  Vec3 m_local() const override { return linear() ? Vec3::Zero() : Vec3(reaction_, 0.0, 0.0); }
  void output_extra(OutputSink& out, std::ostream& os) const override;
  void output_setup_extra(OutputSink& out, const std::string& base) override;
  void output_netcdf_extra(OutputSink& out) const override;

 private:
  /// The first of the node's six rows that take the reaction (the momentum definition of a
  /// dynamic node, else equilibrium); add_reaction adds 3 for the angular joint.
  int reaction_rows() const { return node_.has_inertia_block() ? node_.momentum_eq_index() : node_.eq_index(); }
  double reaction_ = 0.0, imposed_ = 0.0;
  OutputSink::VarId nc_value_ = -1;
};

}  // namespace mbl::elements

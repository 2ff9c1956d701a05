#pragma once
// Screw joint (input manual §8.12.44, technical manual §9.1.16): one scalar constraint between
// the rotation of node 2 relative to node 1 about the screw axis and the advance along it,
//   Phi = p / (2 pi) (theta - theta_0) - (e . d - s_0) = 0,
// e = R_1 R_1h e_3 the screw axis, d = x_2 + f_2 - x_1 - f_1, theta the relative rotation about
// the axis, theta = e_h . ax(log(R_1^T R_2)) with e_h = R_1h e_3, unwrapped across +-pi; theta_0 and
// s_0 = e . d at the initial configuration. The other relative motions are left to other joints
// (MBDyn's joint writes this equation only). The multiplier lambda is the axial force: node 1
// gets -e lambda, node 2 +e lambda.
// Friction (§2.8, `screw joint` shape only): as MBDyn's, the thread slides at
// v = sign(lambda) e . (w_2 - w_1) r / cos(pitch angle) under the load |lambda|, and the friction
// moment M = sign(lambda) Q about e acts -M e on node 1, +M e on node 2; one more unknown, the
// friction state; .jnt columns vrel (without the sign), fc and the moment vector M e.
#include <memory>

#include "elements/joints/friction.hpp"
#include "elements/joints/joint.hpp"

namespace mbl::elements {

class ScrewJoint final : public Joint {
 public:
  /// `a`: node 1, the offset f_1 and the orientation R_1h whose axis 3 is the screw axis;
  /// `b`: node 2 and its offset f_2. `pitch`: advance per revolution.
  ScrewJoint(unsigned label, const Attachment& a, const Attachment& b, double pitch,
             std::unique_ptr<JointFriction> friction = nullptr);

  std::string_view type_name() const override { return "Screw Joint"; }  // MBDyn's NetCDF type (screwjoint.cc)
  std::string log_line() const override;
  int dof_count() const override { return friction_ ? 2 : 1; }
  int initial_dof_count() const override { return 2; }  // screwjoint.h
  void describe_dofs(std::ostream& os, std::string_view prefix, int first, bool initial) const override;
  void describe_equations(std::ostream& os, std::string_view prefix, int first, bool initial) const override;
  DofOrder dof_order(int i) const override {
    return friction_ && i == 1 ? friction_->dof_order() : DofOrder::Algebraic;
  }
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;
  void save_step_state() override {
    if (friction_) friction_->save_step_state();
  }
  void restore_step_state() override {
    if (friction_) friction_->restore_step_state();
  }

  DatumInfo private_data_info(unsigned i) const override;
  unsigned private_data_count() const override { return 8; }
  double private_data(unsigned i) const override;

  /// Unwrapped relative rotation about the axis and the advance e . d at the last convergence.
  double theta() const { return theta_; }
  double advance() const { return s_; }

 protected:
  void output_extra(OutputSink& out, std::ostream& os) const override;

 private:
  struct State {
    Vec3 e, D, f1, f2, Theta, a;  ///< a = R_1 Gamma^-T(Theta) e_h: d theta = a . (th_2 - th_1)
    Mat3 Gamma_inv;               ///< of Theta
    double theta = 0.0, s = 0.0;
  };
  State state() const;
  double phi(const State& s) const;
  /// dPhi / d th_1 and dPhi / d th_2 (gradients over the nodes' rotation perturbations).
  Vec3 dphi_dth1(const State& s) const;
  Vec3 dphi_dth2(const State& s) const;
  /// e . (w_2 - w_1), the relative spin about the screw axis.
  double spin(const State& s) const;
  /// sign(lambda) as MBDyn (+1 at zero).
  static double load_sign(double lambda) { return lambda < 0.0 ? -1.0 : 1.0; }

  Attachment a_, b_;
  double pitch_;
  double theta0_ = 0.0, s0_ = 0.0;
  double theta_ = 0.0, s_ = 0.0;  ///< converged (theta_ also the unwrapping reference)
  Vec3 Theta_ = Vec3::Zero(), D_ = Vec3::Zero();
  std::unique_ptr<JointFriction> friction_;
  double friction_moment_ = 0.0, vrel_ = 0.0;  ///< converged M and vrel (output)
};

}  // namespace mbl::elements

#pragma once
// In line and in plane joints (input manual §8.12.25-26, technical manual §9.1.7): a point q of
// node b slides along a line (in line) or on a plane (in plane) through the point p of node a.
// With the constrained directions e_i rigidly attached to node a (in line: axes 1, 2 of the
// line frame R_a R_v; in plane: the plane normal) and d = x_b + q - x_a - p:
//   Phi_i = e_i . d = 0,   multipliers lambda_i,   F = sum e_i lambda_i;
// node a gets +F and (x_b + q - x_a) x F, node b -F and -q x F (MBDyn's sign of the
// multipliers). Output: f = (lambda_1, lambda_2, 0) or (lambda, 0, 0), F, no moment.
// In line friction (§2.8, MBDyn's InLineJoint): sliding velocity v = (v_a - v_b) . e3 of the
// node velocities, normal force |(lambda_1, lambda_2)|, friction force -F3 e3 on node a and
// +F3 e3 on node b; .jnt columns F3 and the friction coefficient after the standard ones.
#include <memory>
#include <vector>

#include "elements/joints/friction.hpp"
#include "elements/joints/joint.hpp"

namespace mbl::elements {

class PointOnSubspace final : public Joint {
 public:
  enum class Kind { InLine, InPlane };
  /// `a`: node a, point p (offset) and, for in line, the line frame (axis 3 along the line).
  /// `b`: node b and the offset q. `normal_N`: plane normal in node a's frame (in plane).
  PointOnSubspace(unsigned label, Kind kind, const Attachment& a, const Attachment& b,
                  const Vec3& normal_N = Vec3::UnitZ(), std::unique_ptr<JointFriction> friction = nullptr);

  std::string_view type_name() const override;
  std::string log_line() const override;
  int dof_count() const override { return int(directions_N_.size()) + (friction_ ? 1 : 0); }
  int initial_dof_count() const override { return 2 * int(directions_N_.size()); }  // inline.h, inplanej.h
  DofOrder dof_order(int i) const override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;
  void save_step_state() override {
    if (friction_) friction_->save_step_state();
  }
  void restore_step_state() override {
    if (friction_) friction_->restore_step_state();
  }

 protected:
  Vec3 f_local() const override { return f_local_; }
  void output_extra(OutputSink& out, std::ostream& os) const override;
  void output_setup_extra(OutputSink& out, const std::string& base) override;
  void output_netcdf_extra(OutputSink& out) const override;

 private:
  OutputSink::VarId nc_FF_ = -1, nc_fc_ = -1;
  double sliding_rate() const;  ///< (v_a - v_b) . e3 (friction)
  double normal_force(const StepContext& c) const;
  int friction_row() const { return first_index() + int(directions_N_.size()); }
  Kind kind_;
  Attachment a_, b_;
  std::vector<Vec3> directions_N_;  ///< constrained directions in node a's frame
  Vec3 normal_input_N_;              ///< in plane: the normal as given (not normalised), for the .log
  Vec3 f_local_ = Vec3::Zero();
  std::unique_ptr<JointFriction> friction_;
};

}  // namespace mbl::elements

#pragma once
// Distance joint, with or without offsets (technical manual §9.1.3-9.1.4): keeps the distance
// between two attached points equal to l(t) (a drive caller).
//
// Formulation of MBDyn 2024, read off its outputs (the manual's §9.1.3 keeps one multiplier):
// besides the multiplier alpha, the direction v_W is an unknown of the joint, so that
//   unknowns  alpha, v_W (4 algebraic dofs),  d = (x2 + b2) - (x1 + b1),
//   equations v_W - d / l = 0 (3 rows),  (1 - v_W . v_W) / 2 = 0 (1 row), neither divided by dCoef,
//   forces    F1 = alpha v_W, M1 = b1 x F1, F2 = -F1, M2 = -b2 x F1.
// At convergence v_W = d/|d| and |d| = l, as with the one-multiplier form, but the Newton path
// differs: the first iteration of a step uses the predicted (previous) direction, which is what
// gives MBDyn's start-up reactions and residuals (web.rigidpendulum, exactly to 7 digits).
// During the initial assembly only the scalar constraint |d| - l = 0 acts on the nodes.
#include <array>

#include "elements/joints/joint.hpp"
#include "mbdyn-like/core/drive_caller.hpp"

namespace mbl::elements {

class Distance final : public Joint {
 public:
  Distance(unsigned label, const Attachment& a, const Attachment& b, DriveCallerPtr length);
  std::string_view type_name() const override { return offsets_ ? "Distance with offset" : "Distance"; }
  int dof_count() const override { return 4; }
  int initial_dof_count() const override { return 2; }  // distance.h
  void initial_state(Vector& y, Vector& yp) const override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;
  std::string log_line() const override;
  // genj.cc DistanceJoint: "d" (1), the imposed length; then Fx..Mz as other joints (ours).
  unsigned private_data_count() const override { return 7; }
  double private_data(unsigned i) const override { return i == 1 ? l_ : Joint::private_data(i - 1); }
  DatumInfo private_data_info(unsigned i) const override;

 protected:
  /// MBDyn writes the multiplier itself as the local force: (alpha, 0, 0).
  Vec3 f_local() const override { return Vec3(alpha_, 0.0, 0.0); }
  void output_extra(OutputSink& out, std::ostream& os) const override;
  void output_setup_extra(OutputSink& out, const std::string& base) override;
  void output_netcdf_extra(OutputSink& out) const override;

 private:
  // Unknowns of the joint in the state y: alpha at first_index(), v_W after it.
  static constexpr int kAlpha = 0, kDirection = 1;
  /// The two sides: the force on a side is s alpha v (s = 1 for a, -1 for b), and d = x_b - x_a
  /// depends on the side's position with sign -s.
  struct Side {
    const Attachment* att;
    double s;
  };
  std::array<Side, 2> sides() const { return {Side{&a_, 1.0}, Side{&b_, -1.0}}; }
  void assembly_residual(ResidualSink& r, const StepContext& c) const;
  void assembly_jacobian(JacobianSink& J, const StepContext& c) const;
  /// Forces alpha v on side a and -alpha v on side b, with their moments about the nodes.
  void add_forces(ResidualSink& r, double alpha, const Vec3& v) const;

  Attachment a_, b_;
  DriveCallerPtr length_;
  bool offsets_;
  double l_ = 0.0;
  double alpha_ = 0.0;
  Vec3 v_W_ = Vec3::Zero();
  Vec3 direction_output() const;
  OutputSink::VarId nc_V_ = -1, nc_d_ = -1;
};

}  // namespace mbl::elements

#pragma once
// Gimbal rotation (input manual §8.12.22, technical manual §9.1.15): a homokinetic joint made of
// two Cardano joints, each taking half of the relative rotation. Own unknowns: the moment
// multipliers lambda (3, in the frame of attachment a) and the angles theta, phi, with
//   R_ab = R_a^T R_b = exp(theta e2) exp(phi e1) exp(theta e2) =: R(theta, phi)
// imposed through  Theta = ax(exp^-1(R_ab R(theta, phi)^T)) = 0  (3 rows, not scaled by dCoef
// as in MBDyn) and the stationarity rows  -(R_ab w_theta) . lambda = 0,  -(R_ab w_phi) . lambda = 0.
// Node a gets -R_a lambda, node b +R_a lambda.
// Output: m = lambda, M = R_node1 lambda, then theta, phi (radians) and the relative orientation
// R_node1^T R_node2 in the `orientation description` format.
#include "elements/joints/joint.hpp"
#include "mbdyn-like/core/orientation_output.hpp"

namespace mbl::elements {

class GimbalRotation final : public Joint {
 public:
  GimbalRotation(unsigned label, const Attachment& a, const Attachment& b,
                 OrientationOutput orientation = OrientationOutput::Euler123);

  std::string_view type_name() const override { return "Gimbal rotation"; }  // MBDyn's NetCDF type (gimbal.cc)
  /// Appendix E.2.16 (no reference file): "gimbalrotation: <label> <node 1> <f1> <R1> <node 2> <f2> <R2>".
  std::string log_line() const override {
    return fmt::format("gimbalrotation: {} {} {}", label(), log_text(a_), log_text(b_));
  }
  int dof_count() const override { return 5; }
  int initial_dof_count() const override { return 5; }  // gimbal.h
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;

  // Private data: "lambda[1..3]", "theta", "phi" (input manual §8.12.22).
  DatumInfo private_data_info(unsigned i) const override;
  unsigned private_data_count() const override { return 5; }
  double private_data(unsigned i) const override;

  /// R(theta, phi) = exp(theta e2) exp(phi e1) exp(theta e2).
  static Mat3 gimbal_R(double theta, double phi);

 protected:
  void output_extra(OutputSink& out, std::ostream& os) const override;
  void output_setup_extra(OutputSink& out, const std::string& base) override;
  void output_netcdf_extra(OutputSink& out) const override;

 private:
  Mat3 R_nodes() const { return a_.node->R_WN().transpose() * b_.node->R_WN(); }
  Attachment a_, b_;
  OrientationOutput orientation_;
  Vec3 lambda_ = Vec3::Zero();
  double theta_ = 0.0, phi_ = 0.0;
  OutputSink::VarId nc_theta_ = -1, nc_phi_ = -1;
};

}  // namespace mbl::elements

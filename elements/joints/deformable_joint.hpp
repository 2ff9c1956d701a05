#pragma once
// Deformable joints (technical manual §9.2.2-9.2.5; input manual §8.12.11, 8.12.13-8.12.15,
// 8.12.28): internal force and/or moment between two nodes from a constitutive law of the relative
// motion of two frames attached to them (node k, offset f_k, orientation R_kh):
//   d = x2 + f2 - x1 - f1,   d~ = Rm^T d,   d~' = Rm^T (d' - w1 x d)      (relative position)
//   theta = axial(log(R1h^T R2h)) (rotation vector),  w = Rm^T (w2 - w1)  (relative rotation)
// Rm, the frame of the law, is R1h ("attached") or, for the invariant deformable hinge, the
// halfway orientation R1h exp(theta/2 x); the invariant displacement joint and the invariant
// deformable joint (§8.12.15, MBDyn's ElasticJointInv: elastic laws only) take it, and the
// latter also theta, from the nodes' reference orientations of the step. The law gives F~, M~; the nodes receive
// (as applied forces) x1: F, theta1: d1 x F + M, x2: -F, theta2: -f2 x F - M, with F = Rm F~,
// M = Rm M~, d1 = d + f1 (virtual work of d~ and of the relative rotation R1h^T (theta2 - theta1)).
// One implementation serves the four cards: the hinge uses (theta, w) with a 3D law, the
// displacement joint (d~, d~') with a 3D law, the deformable joint all six with a 6D law, the axial
// joint theta_3, w_3 with a 1D law.
#include <memory>

#include "elements/joints/joint.hpp"
#include "mbdyn-like/core/constitutive_law.hpp"

namespace mbl::elements {

class DeformableJoint final : public Joint {
 public:
  enum class Kind { Hinge, Displacement, Full, Axial };

  /// The law of `kind`: law3 for Hinge/Displacement, law6 for Full, law1 for Axial.
  struct Law {
    std::unique_ptr<ConstitutiveLaw1D> law1 = nullptr;
    std::unique_ptr<ConstitutiveLaw3D> law3 = nullptr;
    std::unique_ptr<ConstitutiveLaw6D> law6 = nullptr;
  };

  DeformableJoint(unsigned label, Kind kind, bool invariant, const Attachment& a, const Attachment& b, Law law);

  std::string_view type_name() const override;
  std::string log_line() const override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;
  void save_step_state() override;
  void restore_step_state() override;

  /// Orientation format of the relative rotation in the .jnt (orientation description).
  StructNode::OrientationOutput orientation_output = StructNode::OrientationOutput::Euler123;

  DatumInfo private_data_info(unsigned i) const override;
  unsigned private_data_count() const override;
  double private_data(unsigned i) const override;

  /// Strain (d~, theta) and strain rate (d~', w) at the last evaluation.
  const Vec6& strain() const { return e_; }
  const Vec6& strain_rate() const { return e_dot_; }

 protected:
  void output_extra(OutputSink& out, std::ostream& os) const override;
  /// NetCDF variables of the kind (appendix C): d, d', D, D' (displacement), E/Phi/R, Omega
  /// (rotation), Theta, Omega (axial).
  void output_setup_extra(OutputSink& out, const std::string& base) override;
  void output_netcdf_extra(OutputSink& out) const override;

 private:
  OutputSink::VarId nc_d_ = -1, nc_dP_ = -1, nc_D_ = -1, nc_DP_ = -1, nc_E_ = -1, nc_W_ = -1;
  struct Kinematics;
  Kinematics kinematics();
  /// The invariant displacement joint's law frame Rm and I_hat, fixed in the step: halfway
  /// between the sides' frames at the nodes' reference orientations, recomputed only when these
  /// change (once per step in the time integration: the prediction; the phases that re-place the
  /// nodes change them too).
  struct StepFrame {
    Mat3 R1h_ref = Mat3::Zero(), R2h_ref = Mat3::Zero();  ///< what Rm and I_hat were computed from
    Mat3 Rm, I_hat;
    Vec3 theta_ref;  ///< relative rotation of the reference orientations
  };
  const StepFrame& step_frame();
  /// Evaluates the law at (e, e') and fills F6 = (F~, M~), K6, C6 in the law frame.
  void evaluate_law(const Vec6& e, const Vec6& e_dot, double t, Vec6& F6, Mat6& K6, Mat6& C6);
  bool viscous() const;

  Kind kind_;
  bool invariant_;
  Attachment a_, b_;
  Law law_;
  StepFrame step_frame_;
  Vec6 e_ = Vec6::Zero(), e_dot_ = Vec6::Zero(), F6_ = Vec6::Zero();
  Vec3 theta_ = Vec3::Zero();  ///< current relative rotation at the last convergence (output)
  Vec3 d_R1h_ = Vec3::Zero();  ///< d in R1h at the last convergence (private data)
};

}  // namespace mbl::elements

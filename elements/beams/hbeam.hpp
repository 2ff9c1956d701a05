#pragma once
// MBDyn's experimental two-node helicoidal beam `hbeam` (input manual §8.3, "Locking Correction
// for Two-Node Beam"): the finite-volume two-node beam whose reference line is interpolated along
// the screw (helicoidal) motion that carries beam point 1 onto beam point 2.
//
// Beam point i: y_i = x_i + R_i f_i, frame Q_i = R_i R_NP_i. With the relative motion
// Q_12 = Q_2 Q_1^T, phi = rotation vector of Q_12, and its translation d = y_2 - Q_12 y_1, the
// screw parameters are (phi, rho) with rho = Gamma(phi)^-1 d, Gamma(phi) = I + (1 - cos t)/t^2 phi x
// + (t - sin t)/t^3 phi x phi x (the SE(3) logarithm). At the evaluation point xi = 1/2:
//     Q = exp(phi/2) Q_1,   p = exp(phi/2) y_1 + Gamma(phi/2) rho/2,
//     l = dp/ds = (rho + phi x p) / l_s,   k = phi / l_s   (the twist is constant along the screw)
// with l_s the length of l in the input configuration. Strains in the section frame:
// eps = Q^T l - L0, kappa = Q^T k - K0 (zero in the input configuration); the 6D elastic law
// gives (F, M) in the section frame and node 1 receives +(F, M + (p - x_1) x F), node 2 the
// opposite about x_2 (technical manual §10.1, finite volumes).
//
// The residual is exact. The Jacobian is MBDyn's (hbeam.cc, AssStiffnessMat): the material part
// only, d(F, M) = R D R^T (strain variations) with the moment arms p - x_j held, because the
// reference forces that would carry the geometric terms (AzRef) keep their initial, unstressed
// value in MBDyn. It is exact at unstressed states; under load the missing terms grow with the
// forces (what makes MBDyn's Newton stop early on large rotations, t.beam.hcurl). The strain
// variations themselves are central differences of the exact strains.
#include <array>
#include <memory>

#include "mbdyn-like/core/constitutive_law.hpp"
#include "mbdyn-like/core/element.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements {

struct HBeamPoint {
  StructNode* node = nullptr;
  Vec3 offset_N = Vec3::Zero();
  Mat3 R_NP = Mat3::Identity();  ///< orientation of the beam point relative to the node
};

class HBeam final : public Element {
 public:
  using Vec12 = Eigen::Matrix<double, 12, 1>;

  HBeam(unsigned label, std::array<HBeamPoint, 2> points, std::unique_ptr<ConstitutiveLaw6D> law);

  std::string_view kind() const override { return "beam"; }
  std::string_view type_name() const override { return "hbeam"; }

  void setup(Model&) override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;
  void save_step_state() override { law_->save_step_state(); }
  void restore_step_state() override { law_->restore_step_state(); }
  void output_setup(OutputSink& out) override;
  void output(OutputSink& out) const override;

  // Private data as MBDyn's hbeam: ex, kx, ky, kz (1, 4, 5, 6) and Fx, Mx, My, Mz (7, 10, 11, 12).
  DatumInfo private_data_info(unsigned i) const override;
  unsigned private_data_count() const override { return 12; }
  double private_data(unsigned index) const override;

  /// (F, M) in the section frame and the strains (eps, kappa) after the last evaluation.
  const Vec6& section_force() const { return az_S_; }
  const Vec6& section_strain() const { return def_; }
  /// Position of the evaluation point after the last evaluation.
  const Vec3& point() const { return kin_.p; }

 private:
  struct Kinematics {
    Vec3 p;   ///< evaluation point
    Mat3 Q;   ///< section frame
    Vec3 l;   ///< dp/ds
    Vec3 k;   ///< curvature, global
  };
  Kinematics interpolate(const std::array<Vec3, 2>& x, const std::array<Mat3, 2>& R, double ds_dxi) const;
  Vec6 strains(const Kinematics& k) const;
  /// Kinematics, strains and law at the nodes' current states and time t (kin_, def_, az_S_);
  /// nothing when these are bit for bit those of the last evaluation (the Jacobian and the
  /// converged state follow a residual at the same iterate).
  void evaluate(double t);
  /// Nodal forces and moments (node 1, node 2) of the last evaluation.
  Vec12 nodal_forces() const;

  std::array<HBeamPoint, 2> pt_;
  std::unique_ptr<ConstitutiveLaw6D> law_;
  double ds_dxi_ = 1.0;
  Vec3 L0_ = Vec3::Zero(), K0_ = Vec3::Zero();
  Kinematics kin_{Vec3::Zero(), Mat3::Identity(), Vec3::Zero(), Vec3::Zero()};
  Vec6 def_ = Vec6::Zero(), az_S_ = Vec6::Zero();
  /// What the last evaluation read; invalid after a change of the law's memory.
  struct EvaluationInputs {
    std::array<Vec3, 2> x;
    std::array<Mat3, 2> R;
    double t;
  };
  EvaluationInputs evaluated_{};
  bool evaluated_valid_ = false;
  OutputSink::VarId nc_F_ = -1, nc_M_ = -1;
};

}  // namespace mbl::elements

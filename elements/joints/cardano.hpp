#pragma once
// Cardano (universal, Hooke) joints (input manual §8.12.6-8.12.8; the `universal hinge|pin|
// rotation` cards are their deprecated names, §8.12.51-53). Attachment a provides axis 3, b axis
// 2; the constraint keeps them orthogonal, so torque is transmitted about axes 1:
//   Phi_x = (x_a + b_a) - (x_b + b_b) = 0          (hinge and pin: 3 equations, multiplier F)
//   Phi_m = -(e3_a . e2_b) = 0                     (1 equation, multiplier dM)
// Node a gets -F and -(e2_b x e3_a) dM, node b the opposite. The pin's attachment a is the ground
// (its axis 3 and point are fixed), the node is side b (as MBDyn's CardanoPin).
// Output: f in the frame of the node's hinge, m = (dM, 0, 0), F, M = (e2_b x e3_a) dM, then
// the relative orientation (hinge: Euler 123 of R_b^T R_a; pin: of R_a^T R_b; rotation: R_b^T R_a
// in the `orientation description` format).
#include "elements/joints/joint.hpp"
#include "mbdyn-like/core/orientation_output.hpp"

namespace mbl::elements {

class Cardano final : public Joint {
 public:
  enum class Variant { Hinge, Pin, Rotation };
  Cardano(unsigned label, Variant v, const Attachment& a, const Attachment& b,
          OrientationOutput orientation = OrientationOutput::Euler123);

  std::string_view type_name() const override;
  std::string log_line() const override;
  int dof_count() const override { return position_ ? 4 : 1; }
  int initial_dof_count() const override { return position_ ? 8 : 2; }  // univj.h
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;

 protected:
  void output_extra(OutputSink& out, std::ostream& os) const override;
  void output_setup_extra(OutputSink& out, const std::string& base) override;
  void output_netcdf_extra(OutputSink& out) const override;
  Vec3 m_local() const override { return Vec3(dM_, 0.0, 0.0); }

 private:
  Mat3 R_relative() const;
  Variant variant_;
  Attachment a_, b_;
  bool position_;
  OrientationOutput orientation_;
  OrientationOutput netcdf_orientation() const;
  double dM_ = 0.0;
  OutputSink::VarId nc_E_ = -1;
};

}  // namespace mbl::elements

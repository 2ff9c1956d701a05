#pragma once
// Aerodynamic body (input manual §8.1.1): a rigid lifting surface attached to one structural
// node, integrated along its span with Gauss points. The surface frame R_NA (axis 1 forward
// along the chord, 2 up, 3 along the span) and the offset f_N of the mid-span point are in the
// node frame; the point at span coordinate xi is X_b = R_WN (f_N + R_NA e3 span/2 xi), moving
// with v_N + w_N x X_b (aero_surface.hpp for the section loads). The node receives
// sum w_i span/2 (F_i, M_i + X_b,i x F_i); density and sound celerity are taken at the node.
//
// Jacobian: as in MBDyn, none unless `jacobian, yes` (the loads then act as explicit forcing of
// each Newton iteration). With `jacobian, yes` it is MBDyn's (aeroelem.cc AerodynamicBody::AssJac:
// forward differences of the airfoil, aero_surface.hpp); with Theodorsen states the sectional
// derivatives are central differences carried through the kinematics above (velocity, angular
// velocity and orientation of the node; the air velocity's dependence on position is neglected).
#include "elements/aero/aero_surface.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements::aero {

class AerodynamicBody final : public AeroSurface {
 public:
  AerodynamicBody(unsigned label, StructNode& node, const Vec3& f_N, const Mat3& R_NA, double span,
                  AeroSurfaceParams p);

  std::string_view type_name() const override { return "AerodynamicBody"; }
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  std::string log_line() const override;
  /// .aer line: label, then per point (std) alpha, gamma, Mach, cl, cd, cm and two private
  /// numbers; or (node) the node label, force and moment; or (Gauss) per point the wind angle and
  /// the lift, drag and moment per unit span.
  void output(OutputSink& out) const override;

  /// Force and moment on the node after the last residual (W).
  const Vec3& force_W() const { return F_W_; }
  const Vec3& moment_W() const { return M_W_; }

 private:
  /// Section velocity W (airfoil frame), frame R and arm X_b at point i.
  void kinematics(int i, double t, Vec6d& W, Mat3& R_WS, Vec3& Xb_W, Vec3& Vr_W) const;

  StructNode& node_;
  Vec3 f_N_;
  Mat3 R_NA_;
  double half_span_;
  Vec3 F_W_ = Vec3::Zero(), M_W_ = Vec3::Zero();
};

}  // namespace mbl::elements::aero

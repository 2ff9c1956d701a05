#pragma once
// Aerodynamic body (input manual §8.1.1): a rigid lifting surface attached to one structural
// node, integrated along its span with Gauss points. The surface frame R_NA (axis 1 forward
// along the chord, 2 up, 3 along the span) and the offset f_N of the mid-span point are in the
// node frame; the point at span coordinate xi is X_b = R_WN (f_N + R_NA e3 span/2 xi). At each
// point the section velocity relative to the air,
//     V_r = v_N + w_N x X_b - v_air(x) + v_induced(x),
// is expressed in the section frame R = R_WN R_NA R_twist(twist(xi) + control) and the airfoil
// (airfoil.hpp) gives the force and moment per unit span; the tip-loss shape scales the normal
// force. The node receives sum w_i span/2 (F_i, M_i + X_b,i x F_i).
//
// Jacobian: as in MBDyn, none unless `jacobian, yes` (the loads then act as explicit forcing of
// each Newton iteration). With `jacobian, yes` the sectional derivative dF/dW is taken by central
// differences and carried through the kinematics above (velocity, angular velocity and
// orientation of the node; the air velocity's dependence on position is neglected).
#include <memory>
#include <vector>

#include "elements/aero/airfoil.hpp"
#include "elements/aero/induced_velocity.hpp"
#include "mbdyn-like/core/drive_caller.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements::aero {

class AirProperties;

/// What every aerodynamic element shares (the arguments after the connectivity).
struct AeroSurfaceParams {
  Shape1D chord, force_point, bc_point, twist, tip_loss;
  int points = 1;
  DriveCallerPtr control;  ///< added to the twist; null when absent
  AirfoilData airfoil;     ///< tables at each integration point
  bool jacobian = false;
  enum class Output { Std, Gauss, Node } output = Output::Std;
  bool has_induced_velocity = false;
  unsigned induced_velocity_label = 0;
  bool passive = false;  ///< reads the induced velocity but does not send loads to it
};

class AerodynamicBody final : public Element {
 public:
  AerodynamicBody(unsigned label, StructNode& node, const Vec3& f_N, const Mat3& R_NA, double span,
                  AeroSurfaceParams p);

  std::string_view kind() const override { return "aerodynamic"; }
  std::string_view type_name() const override { return "AerodynamicBody"; }
  void setup(Model& m) override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  std::string log_line() const override;

  /// Force and moment on the node after the last residual (W).
  const Vec3& force_W() const { return F_W_; }
  const Vec3& moment_W() const { return M_W_; }
  const SectionOutput& section(int i) const { return out_[i]; }

 private:
  struct PointLoad {
    Vec3 F_W, M_W;  ///< weighted load at the point (moment about the point)
  };
  /// Section velocity W (airfoil frame), frame R and arm X_b at point i.
  void kinematics(int i, double t, Vec6d& W, Mat3& R_WS, Vec3& Xb_W, Vec3& Vr_W) const;
  Vec6d section_forces(int i, const Vec6d& W, double rho, double c, SectionOutput& out) const;

  StructNode& node_;
  Vec3 f_N_;
  Mat3 R_NA_;
  double half_span_;
  AeroSurfaceParams p_;
  std::vector<double> xi_, w_;
  const AirProperties* air_ = nullptr;
  InducedVelocity* induced_ = nullptr;
  Vec3 F_W_ = Vec3::Zero(), M_W_ = Vec3::Zero();
  std::vector<SectionOutput> out_;
};

}  // namespace mbl::elements::aero

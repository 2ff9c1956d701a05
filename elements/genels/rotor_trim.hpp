#pragma once
// The rotor trim genel (input manual §8.9.2, MBDyn's RotorTrim / RotorTrimGeneric): three
// differential abstract nodes x0 (collective), x1, x2 (cyclic) follow
//     tau0 x0' + x0 = kappa0 v0,   tau1 x1,2' + x1,2 = kappa1 v1,2,   A v = c* - c,
// where c = (T, Mx, My) / (rho pi R^4 Omega^2 (1, R, R)) are the rotor's thrust and moment
// coefficients, c* their desired values (drives), and A the 3x3 matrix of the coefficients'
// sensitivity to the controls of a rotor of Lock number gamma and flap frequency ratio p at
// advance ratio mu (blade-element theory with uniform inflow). While the trigger drive is zero the
// nodes' equations receive -x only (a unit spring). The Jacobian is MBDyn's: the diagonal
// tau + dCoef (the coefficients' dependence on the motion is left out).
// The loads come from the rotor (private data Tz, Mx, My: the loads its elements summed so far in
// the assembly, global frame, moments about the hub) or, `generic`, from three drives.
#include <array>
#include <optional>

#include "mbdyn-like/core/drive_caller.hpp"
#include "mbdyn-like/core/element.hpp"
#include "mbdyn-like/core/node.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements {

namespace aero {
class Rotor;
class AirProperties;
}  // namespace aero

class RotorTrim final : public Element {
 public:
  /// The `generic` source of the loads and flight condition.
  struct Generic {
    StructNode* reference = nullptr;  ///< air density at this node (the origin if none)
    DriveCallerPtr thrust, roll_moment, pitch_moment, omega, advance_ratio;
    double radius = 0.0;
  };
  struct Params {
    aero::Rotor* rotor = nullptr;     ///< `rotor` form
    std::optional<Generic> generic;   ///< `generic` form
    std::array<Node*, 3> controls{};  ///< collective, then the two cyclic controls
    std::array<DriveCallerPtr, 3> desired;  ///< desired thrust, longitudinal and lateral moment coefficients
    double lock_number = 0.0, flap_frequency = 0.0;
    double tau_thrust = 0.0, tau_moments = 0.0, gain_thrust = 0.0, gain_moments = 0.0;
    DriveCallerPtr trigger;  ///< null: always on
  };
  RotorTrim(unsigned label, Params p);

  std::string_view kind() const override { return "genel"; }
  std::string_view type_name() const override { return "rotor trim"; }
  void setup(Model& m) override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;

  /// The control increments v solving A v = c* - c at time t (exposed for tests).
  Vec3 control_increments(double t) const;

 private:
  bool active(double t) const { return !p_.trigger || p_.trigger->value(t) != 0.0; }
  Params p_;
  const aero::AirProperties* air_ = nullptr;
};

}  // namespace mbl::elements

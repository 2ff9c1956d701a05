#pragma once
// Rotor induced velocity (input manual §8.1.6, `induced velocity: <label>, rotor, ...`): the
// aerodynamic elements linked to it send their loads; from the thrust T along the rotor axis
// (axis 3 of R_craft R_rot) it computes the mean inflow by momentum theory,
//     lambda_i - Ct / (2 sqrt(mu^2 + lambda^2)) = 0,  lambda = lambda_0 + lambda_i,
// solved by at most `max iterations` relaxed Newton steps (factor eta, `tolerance` on the
// residual), Ct = T / (rho A (Omega R)^2), mu and lambda_0 from the airstream relative to the
// rotor hub. The mean induced velocity is then
//     U = (1 - d) V_tip Ct / (2 sqrt((mu/kf)^2 + (lambda/kh^2)^2)) + d U_prev
// with the `delay` d (taken at the end of each step, hence 0 in the first one) and the hover
// and forward-flight corrections kh, kf. As in MBDyn, the rotor evaluates this at each residual
// assembly from the loads summed during the previous one, and the elements see the value of
// the last converged step: `uniform` gives U along the rotor axis everywhere, `glauert` adds a
// linear fore-aft variation U (1 + r (k1 cos psi + k2 sin psi)), `mangler` Mangler and
// Squire's distribution over the disc (MBDyn's ManglerRotor: a series in r and psi, the
// harmonics 1, 3 and 2..10 even), `no` none. `uniform sectional` is `uniform` with the loads
// summed point by point (sectional_loads()).
//
// `dynamic inflow` (Pitt and Peters, MBDyn's DynamicInflowRotor): three differential states
// (v0, vs, vc), the inflow Omega R (v0 + r (vc cos psi + vs sin psi)) seen at once by the
// elements evaluated after the rotor, governed by
//   M11 v0' + L11 v0 + L13 vc = CT,   M22 vs' + L22 vs = CL,   M33 vc' + L31 v0 + L33 vc = CM,
// M11 = 128 / (75 pi), M22 = M33 = -16 / (45 pi); CT = T / (rho A Omega R^2), CL = -Mx / (rho A
// Omega R^3), CM = My / (rho A Omega R^3) (moments in the wind frame, the disc frame turned by
// psi0 so that axis 1 points toward the airstream: M = R3(-psi0) M_disc; the equations are
// multiplied by Omega); L = Omega inv([1/(2 VT), 0, d/Vm; 0, l22, 0; d/VT, 0, l33])
// with d = 15 pi / 64 tan(chi / 2), VT = sqrt(lambda'^2 + mu'^2), Vm = (mu'^2 + lambda' (lambda'
// + v0)) / VT (corrected mu', lambda'), l22 = -4 / (2 cos^2(chi/2) Vm), l33 = -4 (2 cos^2(chi/2)
// - 1) / (2 cos^2(chi/2) Vm); mu, lambda and chi from the momentum-theory iteration above.
//
// The loads' moment and the disc coordinates (r, psi) of a point are taken about the craft node,
// as MBDyn's (indvel.cc ResetForce makes the craft node the pole of its summed loads).
//
// Output (.rot, input manual §8.1.6): label, force and moment in the disc frame, U, the speed of
// the airstream at the hub, the disc angle, mu, lambda, chi, psi0, the convergence flag and the
// iterations of the inflow iteration, and (dynamic inflow) v0, vs, vc; then a line per resultant
// set (resultant_set.hpp).
#include <string>
#include <tuple>

#include <vector>

#include "elements/aero/induced_velocity.hpp"
#include "elements/aero/resultant_set.hpp"
#include "mbdyn-like/core/drive_caller.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements::aero {

class AirProperties;

struct RotorParams {
  enum class Model { None, Uniform, Glauert, Mangler, DynamicInflow } model = Model::None;
  /// `uniform sectional` (MBDyn's UniformRotor2): uniform, summing the loads of each integration
  /// point at the point instead of each element's resultant.
  bool sectional_loads = false;
  enum class GlauertType { Glauert, Coleman, Drees, Payne, WhiteAndBlake, PittAndPeters, Howlett };
  GlauertType glauert = GlauertType::Glauert;
  StructNode* craft = nullptr;
  Mat3 R_craft_rotor = Mat3::Identity();  ///< rotor orientation relative to the craft node
  StructNode* rotor = nullptr;
  StructNode* ground = nullptr;           ///< ground effect (optional)
  double omega_ref = 0., radius = 0.;
  DriveCallerPtr delay;                   ///< weight of the previous step's value
  int max_iterations = 1;
  double tolerance = 0., eta = 1., hover_correction = 1., forward_flight_correction = 1.;
  double v_const = 0., v_sine = 0., v_cosine = 0.;  ///< dynamic inflow: initial states
  std::vector<ResultantSet> sets;                   ///< `set, ...` (resultant_set.hpp)
};

class Rotor final : public InducedVelocity {
 public:
  Rotor(unsigned label, RotorParams p);

  std::string_view type_name() const override { return "Rotor"; }
  void setup(Model& m) override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;
  /// The mean induced velocity's memory (the converged value, the delay's weight) as the step
  /// began (core/element.hpp).
  void save_step_state() override { saved_ = {u_mean_, u_mean_ref_, u_mean_prev_, weight_}; }
  void restore_step_state() override { std::tie(u_mean_, u_mean_ref_, u_mean_prev_, weight_) = saved_; }
  int dof_count() const override { return p_.model == RotorParams::Model::DynamicInflow ? 3 : 0; }
  DofOrder dof_order(int) const override { return DofOrder::Differential; }
  void initial_state(Vector& y, Vector& yp) const override;
  void output(OutputSink& out) const override;

  Vec3 velocity(const Vec3& x_W) const override;
  double omega() const override { return omega_; }
  void add_load(unsigned element_label, const Vec3& F_W, const Vec3& M_W, const Vec3& x_W) override;
  bool sectional_loads() const override { return p_.sectional_loads; }

  /// Mean induced velocity of the last evaluation and of the last converged step.
  double mean_velocity() const { return u_mean_; }
  double mean_velocity_converged() const { return u_mean_prev_; }
  const Vec3& thrust_force_W() const { return F_W_; }
  /// The resultant sets, with the loads summed since the last evaluation.
  const std::vector<ResultantSet>& resultant_sets() const { return p_.sets; }
  /// Moment about the craft node of the loads summed since the last evaluation (with thrust_force_W(),
  /// MBDyn's private data Tx ... Mz of an induced velocity element, global frame).
  const Vec3& summed_moment_W() const { return M_W_; }
  double radius() const { return p_.radius; }
  /// Advance ratio of the last evaluation.
  double advance_ratio() const { return mu_; }
  /// Air density at the hub.
  double air_density_at_hub(double t) const;

  // indvel.cc InducedVelocity: Tx..Tz, Mx..Mz, the loads summed on the rotor.
  unsigned private_data_count() const override { return 6; }
  double private_data(unsigned i) const override {
    return i >= 1 && i <= 3 ? F_W_[i - 1] : i >= 4 && i <= 6 ? M_W_[i - 4] : 0.0;
  }
  DatumInfo private_data_info(unsigned i) const override;


 private:
  void update(double t, bool mean_velocity);
  /// Dynamic inflow: the state equations' residual, and their coefficients L.
  void dynamic_inflow_residual(ResidualSink& r, const StepContext& c);
  /// Mangler: the induced velocity at x_W over the mean (0 while the mean is 0).
  double mangler_factor(const Vec3& x_W) const;
  /// Radius ratio and azimuth of a point in the rotor disc.
  void polar(const Vec3& x_W, double& r, double& psi) const;

  RotorParams p_;
  const AirProperties* air_ = nullptr;
  double v_tip_ref_ = 0., area_ = 0.;
  Vec3 F_W_ = Vec3::Zero(), M_W_ = Vec3::Zero();  ///< loads summed since the last evaluation
  Vec3 F_used_W_ = Vec3::Zero(), M_used_W_ = Vec3::Zero();  ///< the loads of the last evaluation
  Mat3 R_W_disc_ = Mat3::Identity();
  Vec3 pole_W_ = Vec3::Zero();
  double omega_ = 0., psi0_ = 0., sin_alpha_d_ = 1., cos_alpha_d_ = 0., speed_ = 0.;
  double mu_ = 0., lambda_ = 1., chi_ = 0.;
  double u_mean_ = 0., u_mean_ref_ = 0., u_mean_prev_ = 0., weight_ = 0.;
  std::tuple<double, double, double, double> saved_{};
  double t_ = 0.;
  bool converged_ = false;
  int iterations_ = 0;
  double v0_ = 0., vs_ = 0., vc_ = 0.;           ///< dynamic inflow states (last residual)
  double L11_ = 0., L13_ = 0., L22_ = 0., L31_ = 0., L33_ = 0.;
};

}  // namespace mbl::elements::aero

#pragma once
// Pipes (input manual §8.11.11 `pipe`, §8.11.5 `dynamic pipe`): viscous pressure loss between two
// hydraulic nodes, laminar (Hagen-Poiseuille), turbulent (Blasius, f = 0.3164 Re^-1/4) and, between
// Re 2000 and 4000, MBDyn's cubic interpolation of the friction factor, ascending or descending
// with the regime of the last converged step (MBDyn 2024, hydr/pipe.cc).
#include "elements/hydraulics/hydraulic_element.hpp"

namespace mbl::elements::hydraulics {

struct PipeParams {
  const PressureNode* node1 = nullptr;
  const PressureNode* node2 = nullptr;
  double diameter = 0.0;  ///< hydraulic diameter
  double area = 0.0;
  double length = 0.0;
  bool turbulent = false;  ///< start in the turbulent branch of the transition
  double q0 = 0.0;         ///< initial mass flow
  HydraulicFluidPtr fluid;
};

/// Friction-factor interpolation in the transition region, as a polynomial in the mass flow
/// (coefficients of MBDyn's fit, scaled by d/(mu A)).
struct TransitionFit {
  double a, b, c, d;
  static TransitionFit make(bool descending, double diameter, double viscosity, double area);
};

/// Quasi-static pipe: one algebraic unknown, the mass flow q from node 1 to node 2.
class Pipe final : public HydraulicElement {
 public:
  Pipe(unsigned label, PipeParams p);
  std::string_view type_name() const override { return "Pipe"; }
  int dof_count() const override { return 1; }
  void initial_state(Vector& y, Vector& yp) const override;
  void after_convergence(const StepContext&) override;
  /// The laminar/turbulent switch (its hysteresis) as the step began (core/element.hpp).
  void save_step_state() override { saved_turbulent_ = turbulent_; }
  void restore_step_state() override { turbulent_ = saved_turbulent_; }
  void output(OutputSink& out) const override { write_hyd(out, {vel_, flow_, Re_}); }

 protected:
  void assemble(LocalAssembly& a, const StepContext& c, bool record) override;

 private:
  PipeParams p_;
  double viscosity_;
  double klam_, ktra_, ktrb_;  ///< loss coefficients, with the density at the initial pressures
  bool turbulent_, saved_turbulent_ = false;
  double flow_ = 0.0, vel_ = 0.0, Re_ = 0.0;
};

/// Dynamic pipe: fluid inertia and compressibility; unknowns the pressures at the pipe's ends
/// and the mass flows entering it there (all differential), two-point momentum balances.
class DynamicPipe final : public HydraulicElement {
 public:
  DynamicPipe(unsigned label, PipeParams p);
  std::string_view type_name() const override { return "DynamicPipe"; }
  int dof_count() const override { return 4; }
  DofOrder dof_order(int) const override { return DofOrder::Differential; }
  void initial_state(Vector& y, Vector& yp) const override;
  void after_convergence(const StepContext&) override;
  void save_step_state() override { saved_turbulent_ = turbulent_; }
  void restore_step_state() override { turbulent_ = saved_turbulent_; }
  void output(OutputSink& out) const override;

 protected:
  void assemble(LocalAssembly& a, const StepContext& c, bool record) override;

 private:
  PipeParams p_;
  double klam_, ktra_, ktrb_;
  bool turbulent_, saved_turbulent_ = false;
  double Re_ = 0.0;
  // Output (last residual).
  double p1_ = 0, p2_ = 0, p1p_ = 0, p2p_ = 0, q1_ = 0, q2_ = 0, q1p_ = 0, q2p_ = 0;
  double density1_ = 0, density0_ = 0, density2_ = 0, density_dp1_ = 0, density_dp2_ = 0;
};

}  // namespace mbl::elements::hydraulics

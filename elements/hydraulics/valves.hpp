#pragma once
// Valves (input manual §8.11.3 `control valve`, §8.11.6 `flow valve`), turbulent orifice flows
// q = Cd A sqrt(2 rho |dp|) sign(dp) with the reference density; coefficients as MBDyn 2024
// (hydr/valve.cc) where the manual is silent.
#include "elements/hydraulics/hydraulic_element.hpp"
#include "mbdyn-like/core/drive_caller.hpp"

namespace mbl::elements::hydraulics {

/// Four-way valve: state s in [-1, 1] (a drive) opens 1-2 and 3-4 (s > 0) or 1-3 and 2-4 (s < 0)
/// with area |s| A_max; `loss` leaks a fraction of A_max (twice that on 1-2 and 3-4) when closed.
/// Output: state, then the flow entering each node.
class FourWayValve : public HydraulicElement {
 public:
  FourWayValve(unsigned label, std::array<const PressureNode*, 4> nodes, double area_max, double loss, DriveCallerPtr state,
               HydraulicFluidPtr fluid)
      : HydraulicElement(label), nodes_(nodes), area_max_(area_max), loss_(loss), state_(std::move(state)),
        fluid_(std::move(fluid)) {}
  void output(OutputSink& out) const override { write_hyd(out, {state_value_, flow_[0], flow_[1], flow_[2], flow_[3]}); }

 protected:
  /// Areas of the ways 1-2, 3-4, 1-3, 2-4 at state s (clamped to [-1, 1]).
  std::array<double, 4> areas(double s) const;

  std::array<const PressureNode*, 4> nodes_;
  double area_max_, loss_;
  DriveCallerPtr state_;
  HydraulicFluidPtr fluid_;
  double state_value_ = 0.0;
  std::array<double, 4> flow_{};  ///< entering each node
};

class ControlValve final : public FourWayValve {
 public:
  using FourWayValve::FourWayValve;
  std::string_view type_name() const override { return "ControlValve"; }

  /// Cd = pi / (pi + 2) (Merritt, Hydraulic Control Systems, §3.4).
  static constexpr double kCd = 3.14159265358979323846 / (3.14159265358979323846 + 2.);

 protected:
  void assemble(LocalAssembly& a, const StepContext& c, bool record) override;
};

/// `control valve 2`: the control valve with the four way flows as algebraic unknowns,
/// A^2 dp = q |q| / (2 Cd^2 rho), Cd = 0.611, rho at the mean of the four pressures.
class ControlValve2 final : public FourWayValve {
 public:
  using FourWayValve::FourWayValve;
  std::string_view type_name() const override { return "ControlValve2"; }
  int dof_count() const override { return 4; }
  /// The flows of the orifice law at the initial pressures (with the state at t = 0): q = 0 would
  /// make the law's Jacobian singular.
  void initial_state(Vector& y, Vector& yp) const override;

  static constexpr double kCd = 0.611;

 protected:
  void assemble(LocalAssembly& a, const StepContext& c, bool record) override;
};

/// Flow valve: a spring-loaded spool (displacement s, velocity v: two differential unknowns)
/// opens the way 1-2 with area width * s under the pressure difference p1 - p3 on its diaphragm;
/// way 1-3 is always open through the diaphragm area. Stroke ends are penalties.
struct FlowValveParams {
  std::array<const PressureNode*, 3> nodes{};
  double area_diaphragm = 0, mass = 0, area_pipe = 0, area_max = 0, stiffness = 0, preload = 0, width = 0,
         stroke_max = 0, c_displacement = 0, c_velocity = 0, c_acceleration = 0;
  HydraulicFluidPtr fluid;
};

class FlowValve final : public HydraulicElement {
 public:
  FlowValve(unsigned label, FlowValveParams p) : HydraulicElement(label), p_(std::move(p)) {}
  std::string_view type_name() const override { return "FlowValve"; }
  int dof_count() const override { return 2; }
  DofOrder dof_order(int) const override { return DofOrder::Differential; }
  void initial_state(Vector& y, Vector& yp) const override;
  void output(OutputSink& out) const override { write_hyd(out, {s_, v_, vp_, flow_[0], flow_[1], flow_[2]}); }

  static constexpr double kCd = 0.6;
  static constexpr double kDamping = 0.02;  ///< concentrated loss between nodes 1 and 2 (damps the spool)

 protected:
  void assemble(LocalAssembly& a, const StepContext& c, bool record) override;

 private:
  FlowValveParams p_;
  double s_ = 0, v_ = 0, vp_ = 0;
  std::array<double, 3> flow_{};
};

/// Pressure valve (§8.11.13): a spring-loaded poppet (s, v: differential unknowns) that p1 pushes
/// open against the spring; it opens 1-2 with area width * s. MBDyn reads the maximum stroke
/// after the maximum area (the manual leaves it out).
struct PressureValveParams {
  std::array<const PressureNode*, 2> nodes{};
  double area_diaphragm = 0, mass = 0, area_max = 0, stroke_max = 0, stiffness = 0, preload = 0, width = 0;
  double c_displacement = 0, c_velocity = 0, c_acceleration = 0;
  HydraulicFluidPtr fluid;
};

class PressureValve final : public HydraulicElement {
 public:
  PressureValve(unsigned label, PressureValveParams p) : HydraulicElement(label), p_(std::move(p)) {}
  std::string_view type_name() const override { return "PressureValve"; }
  int dof_count() const override { return 2; }
  DofOrder dof_order(int) const override { return DofOrder::Differential; }
  void initial_state(Vector& y, Vector& yp) const override;
  void output(OutputSink& out) const override { write_hyd(out, {s_, v_, vp_, flow_[0], flow_[1]}); }

  static constexpr double kCd = 0.6;

 protected:
  void assemble(LocalAssembly& a, const StepContext& c, bool record) override;

 private:
  PressureValveParams p_;
  double s_ = 0, v_ = 0, vp_ = 0;
  std::array<double, 2> flow_{};
};

/// Dynamic control valve (§8.11.4): the spool (displacement s, velocity v: differential unknowns)
/// driven by a force opens the ways of the control valve with area width * |s|; its mass is
/// 1.175 pi d^3 rho_valve, flow-force damping 0.4 d Cd w sqrt(rho p1) and stiffness 0.43 w p1
/// (MBDyn 2024's coefficients); penalties at s = -s_max and s = s_max.
/// The pressure flow control valve (§8.11.12) is the same valve with two more nodes at the ends of
/// the valve body: as MBDyn 2024 writes it (the manual says their pressures act on the spool; the
/// code leaves them out of the force balance), the spool of area pi d^2 / 4 moving at s' takes the
/// flow A s' from node 5 and gives it to node 6. (MBDyn's never sets its end-of-stroke penalties;
/// here they act as in the dynamic control valve.)
struct DynamicControlValveParams {
  std::array<const PressureNode*, 4> nodes{};
  std::array<const PressureNode*, 2> body_nodes{};  ///< the pressure flow control valve's nodes 5, 6
  DriveCallerPtr force;
  double start = 0, stroke_max = 0, width = 0, loss = 0, valve_diameter = 0, valve_density = 0;
  double c_displacement = 0, c_velocity = 0, c_acceleration = 0;
  HydraulicFluidPtr fluid;
};

class DynamicControlValve final : public HydraulicElement {
 public:
  DynamicControlValve(unsigned label, DynamicControlValveParams p);
  std::string_view type_name() const override {
    return pressure_flow_control() ? "PressureFlowControlValve" : "DynamicControlValve";
  }
  int dof_count() const override { return 2; }
  DofOrder dof_order(int) const override { return DofOrder::Differential; }
  void initial_state(Vector& y, Vector& yp) const override;
  /// s, s', v', the flows entering nodes 1-4 (5-6), the areas of the ways 1-2, 1-3, 3-4, 2-4.
  void output(OutputSink& out) const override {
    if (pressure_flow_control())
      write_hyd(out, {s_, sp_, vp_, flow_[0], flow_[1], flow_[2], flow_[3], body_flow_, -body_flow_, area_[0],
                      area_[1], area_[2], area_[3]});
    else
      write_hyd(out, {s_, sp_, vp_, flow_[0], flow_[1], flow_[2], flow_[3], area_[0], area_[1], area_[2], area_[3]});
  }

  static constexpr double kCd = 0.611;

 protected:
  void assemble(LocalAssembly& a, const StepContext& c, bool record) override;

 private:
  bool pressure_flow_control() const { return p_.body_nodes[0] != nullptr; }
  DynamicControlValveParams p_;
  double mass_;
  double s_ = 0, sp_ = 0, vp_ = 0, body_flow_ = 0;
  std::array<double, 4> flow_{}, area_{};  ///< areas of the ways 1-2, 1-3, 3-4, 2-4
};

}  // namespace mbl::elements::hydraulics

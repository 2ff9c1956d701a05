#pragma once
// Accumulator (input manual §8.11.1): a piston of area A (displacement s, velocity v: two
// differential unknowns) between the node's fluid and a gas (polytropic p0 (l / (l - s))^k), a
// weight and/or a spring; the inflow rho v A, an entry/exit loss, penalties at the stroke ends
// (MBDyn 2024's Accumulator where the manual is silent).
#include "elements/hydraulics/hydraulic_element.hpp"

namespace mbl::elements::hydraulics {

struct AccumulatorParams {
  const PressureNode* node = nullptr;
  double stroke = 0, start = 0, area = 0, area_pipe = 0, mass = 0, loss_in = 1.0, loss_out = 0.5;
  double gas_p0 = 0, gas_p_max = 0, gas_exponent = 0, weight = 0, spring = 0, preload = 0;
  double c_displacement = 0, c_velocity = 0, c_acceleration = 0;
  HydraulicFluidPtr fluid;
};

class Accumulator final : public HydraulicElement {
 public:
  explicit Accumulator(unsigned label, AccumulatorParams p);
  std::string_view type_name() const override { return "Accumulator"; }
  int dof_count() const override { return 2; }
  DofOrder dof_order(int) const override { return DofOrder::Differential; }
  void initial_state(Vector& y, Vector& yp) const override;
  void output(OutputSink& out) const override {
    write_hyd(out, {s_, v_, vp_, p_gas_, flow_, p_.fluid->density()});
  }

 protected:
  void assemble(LocalAssembly& a, const StepContext& c, bool record) override;

 private:
  AccumulatorParams p_;
  double s_max_;  ///< end of the stroke the gas leaves (0.999 l less the gas's minimum length)
  double s_ = 0, v_ = 0, vp_ = 0, p_gas_ = 0, flow_ = 0;
};

}  // namespace mbl::elements::hydraulics

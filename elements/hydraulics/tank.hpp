#pragma once
// Tank (input manual §8.11.14, "not documented yet"; MBDyn 2024's hydr/hutils.cc settles it): a
// reservoir at pressure p_t with the fluid level s (a differential unknown, starting at
// `startlevel`, default s_max / 2) between an inlet from node 1 and an outlet to node 2, both
// turbulent losses through the pipe area:
//   q_1 = rho A_p sqrt(2 / (k_1 rho) |p_1 - p_t|) sign,  k_1 = 1 (entering the tank),
//   q_2 = rho A_p sqrt(2 / (k_2 rho) |p_t - p_2|) sign,  k_2 = 1/2 (leaving it),
//   s' = (q_1 - q_2) / (rho A_t);
// a full tank (s > s_max) takes in no more than it gives (q_1 = q_2, and s is pulled back to
// s_max); a negative level stops the run. rho at p_1 + p_2 / 2 (as MBDyn's residual).
// .hyd: s, s', the flows entering nodes 1 and 2.
#include "elements/hydraulics/hydraulic_element.hpp"

namespace mbl::elements::hydraulics {

struct TankParams {
  std::array<const PressureNode*, 2> nodes{};
  double pressure = 0, area_pipe = 0, area_tank = 0, level_max = 0, level_start = 0;
  HydraulicFluidPtr fluid;
};

class Tank final : public HydraulicElement {
 public:
  Tank(unsigned label, TankParams p) : HydraulicElement(label), p_(std::move(p)) {}
  std::string_view type_name() const override { return "Tank"; }
  int dof_count() const override { return 1; }
  DofOrder dof_order(int) const override { return DofOrder::Differential; }
  void initial_state(Vector& y, Vector& yp) const override;
  void output(OutputSink& out) const override { write_hyd(out, {s_, sp_, flow_[0], flow_[1]}); }

  static constexpr double kInletLoss = 1.0, kOutletLoss = 0.5;

 protected:
  void assemble(LocalAssembly& a, const StepContext& c, bool record) override;

 private:
  TankParams p_;
  double s_ = 0, sp_ = 0;
  std::array<double, 2> flow_{};
};

}  // namespace mbl::elements::hydraulics

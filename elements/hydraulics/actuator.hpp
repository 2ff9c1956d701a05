#pragma once
// Hydraulic actuator (input manual §8.11.2): two chambers (hydraulic nodes 1, 2) between a
// cylinder (structural node 1) and a piston (structural node 2) sliding along `direction` of
// node 1. The force (A1 p1 - A2 p2) along the axis pushes the piston away from chamber 1; each
// chamber's mass balance is q = d(rho V)/dt = drho/dp p' V + rho V', V1 = A1 d, V2 = A2 (l - d),
// d the distance of the two points along the axis. The pressure derivatives are two internal
// differential states that follow the node pressures (MBDyn 2024, hydr/actuator.cc).
#include "elements/hydraulics/hydraulic_element.hpp"

namespace mbl::elements::hydraulics {

struct ActuatorParams {
  const PressureNode* hyd1 = nullptr;
  const PressureNode* hyd2 = nullptr;
  const StructNode* node1 = nullptr;  ///< cylinder
  const StructNode* node2 = nullptr;  ///< piston
  Vec3 offset1_N = Vec3::Zero();      ///< chamber 1's face on the cylinder, node 1 frame
  Vec3 offset2_N = Vec3::Zero();      ///< chamber 1's face on the piston, node 2 frame
  Vec3 axis_N1 = Vec3::UnitZ();       ///< stroke direction, node 1 frame (unit)
  double area1 = 0.0, area2 = 0.0;
  double length = 0.0;  ///< cylinder length less the piston thickness
  HydraulicFluidPtr fluid1, fluid2;
};

class Actuator final : public HydraulicElement {
 public:
  Actuator(unsigned label, ActuatorParams p) : HydraulicElement(label), p_(std::move(p)) {}
  std::string_view type_name() const override { return "Actuator"; }
  int dof_count() const override { return 2; }
  DofOrder dof_order(int) const override { return DofOrder::Differential; }
  void initial_state(Vector& y, Vector& yp) const override;
  void output(OutputSink& out) const override;

 protected:
  void assemble(LocalAssembly& a, const StepContext& c, bool record) override;

 private:
  ActuatorParams p_;
  double flow1_ = 0, flow2_ = 0, p1_ = 0, p2_ = 0, p1p_ = 0, p2p_ = 0, volume1_ = 0, volume2_ = 0, density1_ = 0,
         density2_ = 0;
};

}  // namespace mbl::elements::hydraulics

#pragma once
// Concentrated pressure losses between hydraulic nodes, no unknowns of their own: `minor loss`
// (§8.11.9), `three way minor loss` (§8.11.15) and `orifice` (§8.11.10). The mass flow leaves the
// first node and enters the second; turbulent flow q = rho A sqrt(2 |dp| / (k rho)) sign(dp).
#include "elements/hydraulics/hydraulic_element.hpp"

namespace mbl::elements::hydraulics {

class MinorLoss final : public HydraulicElement {
 public:
  MinorLoss(unsigned label, const PressureNode* n1, const PressureNode* n2, double k12, double k21, double area,
            HydraulicFluidPtr fluid)
      : HydraulicElement(label), n1_(n1), n2_(n2), k12_(k12), k21_(k21), area_(area), fluid_(std::move(fluid)) {}
  std::string_view type_name() const override { return "MinorLoss"; }
  void output(OutputSink& out) const override { write_hyd(out, {vel_, flow_}); }

 protected:
  void assemble(LocalAssembly& a, const StepContext& c, bool record) override;

 private:
  const PressureNode *n1_, *n2_;
  double k12_, k21_, area_;
  HydraulicFluidPtr fluid_;
  double flow_ = 0.0, vel_ = 0.0;
};

/// Node 0 connects to whichever of nodes 1 and 2 has the higher pressure, with that way's area.
class ThreeWayMinorLoss final : public HydraulicElement {
 public:
  ThreeWayMinorLoss(unsigned label, const PressureNode* n0, const PressureNode* n1, const PressureNode* n2, double k12,
                    double k21, double area1, double area2, HydraulicFluidPtr fluid)
      : HydraulicElement(label), n0_(n0), n1_(n1), n2_(n2), k12_(k12), k21_(k21), area1_(area1), area2_(area2),
        fluid_(std::move(fluid)) {}
  std::string_view type_name() const override { return "ThreeWayMinorLoss"; }
  void output(OutputSink& out) const override { write_hyd(out, {vel_, flow_}); }

 protected:
  void assemble(LocalAssembly& a, const StepContext& c, bool record) override;

 private:
  const PressureNode *n0_, *n1_, *n2_;
  double k12_, k21_, area1_, area2_;
  HydraulicFluidPtr fluid_;
  double flow_ = 0.0, vel_ = 0.0;
};

/// Orifice: laminar below MBDyn's critical pressure jump (Merritt's delta = 0.2 of a sharp-edged
/// round orifice), turbulent above it with the discharge coefficient of the area ratio.
class Orifice final : public HydraulicElement {
 public:
  Orifice(unsigned label, const PressureNode* n1, const PressureNode* n2, double diameter, double area_orifice,
          double area_pipe, double Re_critical, HydraulicFluidPtr fluid);
  std::string_view type_name() const override { return "Orifice"; }
  void output(OutputSink& out) const override;
  double discharge_coefficient() const { return Cd_; }
  double critical_jump() const { return critical_jump_; }

 protected:
  void assemble(LocalAssembly& a, const StepContext& c, bool record) override;

 private:
  static constexpr double kDelta = 0.2;
  const PressureNode *n1_, *n2_;
  double diameter_, area_orifice_, area_pipe_;
  HydraulicFluidPtr fluid_;
  double viscosity_, critical_jump_, Cd_;
  double flow_ = 0.0, vel_ = 0.0, Re_ = 0.0;
  bool turbulent_ = false;
};

}  // namespace mbl::elements::hydraulics

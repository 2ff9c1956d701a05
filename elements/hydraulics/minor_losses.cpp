#include "elements/hydraulics/minor_losses.hpp"

#include <cmath>

#include "parser/errors.hpp"

namespace mbl::elements::hydraulics {
namespace {

/// Turbulent flow through `area` with loss coefficient k under the jump dp = p_from - p_to.
AD loss_flow(const HydraulicFluid& fluid, const AD& p_from, const AD& p_to, double k, double area) {
  const AD density = fluid.density(AD(.5 * (p_from + p_to)));
  return AD(density * area * sqrt(2. / (k * density)) * signed_sqrt(AD(p_from - p_to)));
}

}  // namespace

void MinorLoss::assemble(LocalAssembly& a, const StepContext&, bool record) {
  a.reserve(2);
  const AD p1 = a.pressure(*n1_), p2 = a.pressure(*n2_);
  const double k = p1.value() > p2.value() ? k12_ : k21_;
  const AD flow = loss_flow(*fluid_, p1, p2, k, area_);
  if (record) {
    flow_ = flow.value();
    vel_ = flow_ / (fluid_->density(.5 * (p1.value() + p2.value())) * area_);
  }
  a.add(n1_->first_index(), flow);
  a.add(n2_->first_index(), AD(-flow));
}

void ThreeWayMinorLoss::assemble(LocalAssembly& a, const StepContext&, bool record) {
  a.reserve(3);
  const AD p0 = a.pressure(*n0_), p1 = a.pressure(*n1_), p2 = a.pressure(*n2_);
  const bool way1 = p1.value() > p2.value();
  const PressureNode* n = way1 ? n1_ : n2_;
  const AD& p = way1 ? p1 : p2;
  const double area = way1 ? area1_ : area2_;
  const double k = p0.value() > p.value() ? k12_ : k21_;
  const AD flow = loss_flow(*fluid_, p0, p, k, area);
  if (record) {
    flow_ = flow.value();
    vel_ = flow_ / (fluid_->density(.5 * (p0.value() + p.value())) * area);
  }
  a.add(n0_->first_index(), flow);
  a.add(n->first_index(), AD(-flow));
}

Orifice::Orifice(unsigned label, const PressureNode* n1, const PressureNode* n2, double diameter, double area_orifice,
                 double area_pipe, double Re_critical, HydraulicFluidPtr fluid)
    : HydraulicElement(label), n1_(n1), n2_(n2), diameter_(diameter), area_orifice_(area_orifice), area_pipe_(area_pipe),
      fluid_(std::move(fluid)) {
  viscosity_ = fluid_->viscosity0;
  const double density = fluid_->density(.5 * (n1->initial_pressure() + n2->initial_pressure()));
  critical_jump_ = area_pipe_ * Re_critical * std::pow(viscosity_ / (diameter_ * kDelta), 2.) / (2. * density * area_orifice_);
  // Contraction coefficient as a function of the area ratio, velocity coefficient 0.98.
  const double ratio = area_orifice_ / area_pipe_;
  const double Cc = (((.4855 * ratio - .4971) * ratio + .158) * ratio + .1707) * ratio + .6005;
  const double base = Cc * ratio;
  const double rad = 1. - base * base;
  if (rad < 1.e3 * std::numeric_limits<double>::epsilon())
    throw std::invalid_argument("orifice: the orifice area leaves no contraction (discharge coefficient undefined)");
  Cd_ = .98 * Cc / std::sqrt(rad);
}

void Orifice::assemble(LocalAssembly& a, const StepContext&, bool record) {
  a.reserve(2);
  const AD p1 = a.pressure(*n1_), p2 = a.pressure(*n2_);
  const AD density = fluid_->density(AD(.5 * (p1 + p2)));
  const bool turbulent = std::abs(p1.value() - p2.value()) >= critical_jump_;
  const AD flow = turbulent ? AD(Cd_ * area_orifice_ * sqrt(2. * density) * signed_sqrt(AD(p1 - p2)))
                            : AD(density * 2. * (kDelta * kDelta) * diameter_ * area_orifice_ * (p1 - p2) / viscosity_);
  if (record) {
    flow_ = flow.value();
    vel_ = flow_ / (density.value() * area_pipe_);
    Re_ = std::abs(density.value() * vel_ * diameter_ / viscosity_);
    turbulent_ = turbulent;
  }
  a.add(n1_->first_index(), flow);
  a.add(n2_->first_index(), AD(-flow));
}

void Orifice::output(OutputSink& out) const { write_hyd(out, {vel_, flow_, Re_}, turbulent_ ? 1 : 0); }

}  // namespace mbl::elements::hydraulics

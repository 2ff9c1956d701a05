#include "elements/hydraulics/accumulator.hpp"

#include <cmath>

namespace mbl::elements::hydraulics {

Accumulator::Accumulator(unsigned label, AccumulatorParams p) : HydraulicElement(label), p_(std::move(p)) {
  double s_min_gas = 0.0;
  if (p_.gas_exponent > 0. && p_.gas_p_max > 0.) s_min_gas = p_.stroke * std::pow(p_.gas_p0 / p_.gas_p_max, 1. / p_.gas_exponent);
  s_max_ = .999 * p_.stroke - s_min_gas;
}

void Accumulator::initial_state(Vector& y, Vector& yp) const {
  y[first_index()] = p_.start;
  y[first_index() + 1] = 0.0;
  yp[first_index()] = yp[first_index() + 1] = 0.0;
}

void Accumulator::assemble(LocalAssembly& a, const StepContext&, bool record) {
  a.reserve(3);
  const AD p1 = a.pressure(*p_.node);
  const auto [s, sp] = a.scalar(first_index(), true);
  const auto [v, vp] = a.scalar(first_index() + 1, true);
  const double rho = p_.fluid->density();
  const double A = p_.area;

  const auto [c1, c2, c3, cf1, cf2, cf3] = stroke_end_penalties(s.value(), sp.value(), vp.value(), 0., s_max_, p_.c_displacement,
                                                                 p_.c_velocity, p_.c_acceleration, false);
  const double h = sp.value() > 0. ? p_.loss_in : p_.loss_out;
  AD p_gas;
  if (s.value() > s_max_) p_gas = AD(p_.gas_p_max) + 0. * s;
  else if (s.value() < 0.) p_gas = AD(p_.gas_p0) + 0. * s;
  else p_gas = p_.gas_p0 * pow(AD(p_.stroke / (p_.stroke - s)), p_.gas_exponent);
  const double ratio2 = A * A / (p_.area_pipe * p_.area_pipe);

  const AD inflow = rho * v * A;
  const AD force = (p_.mass + p_.weight) * vp - p1 * A + p_gas * A + p_.preload + p_.spring * s +
                   h * .5 * rho * A * ratio2 * v * abs(v) + c1 * s + c2 * sp + c3 * vp + cf1 * (s - s_max_) + cf2 * sp +
                   cf3 * vp;
  a.add(p_.node->first_index(), inflow);
  a.add(first_index(), force);
  a.add(first_index() + 1, AD(sp - v));
  if (record) s_ = s.value(), v_ = v.value(), vp_ = vp.value(), p_gas_ = p_gas.value(), flow_ = -inflow.value();
}

}  // namespace mbl::elements::hydraulics

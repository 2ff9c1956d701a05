#include "elements/hydraulics/pipes.hpp"

#include <cmath>

namespace mbl::elements::hydraulics {

TransitionFit TransitionFit::make(bool descending, double diameter, double viscosity, double area) {
  const double dva = diameter / (viscosity * area);
  if (descending) return {9.e-13 * dva * dva * dva, 2.e-9 * dva * dva, -1.8e-5 * dva, .0528};
  return {7.e-13 * dva * dva * dva, 8.e-10 * dva * dva, -1.8e-5 * dva, .0542};
}

// ---- pipe ----------------------------------------------------------------------------------------

Pipe::Pipe(unsigned label, PipeParams p) : HydraulicElement(label), p_(std::move(p)), turbulent_(p_.turbulent) {
  viscosity_ = p_.fluid->viscosity0;
  const double density = p_.fluid->density(0.5 * (p_.node1->initial_pressure() + p_.node2->initial_pressure()));
  const double D = p_.diameter, A = p_.area, L = p_.length;
  klam_ = 32. * L * viscosity_ / (D * D * A * density);
  ktra_ = .5 * L / (D * density * A * A);
  ktrb_ = .1582 * std::pow(viscosity_, .25) * L / (std::pow(D, 1.25) * std::pow(A, 1.75) * density);
}

void Pipe::initial_state(Vector& y, Vector&) const { y[first_index()] = p_.q0; }

void Pipe::assemble(LocalAssembly& a, const StepContext&, bool record) {
  a.reserve(3);
  const AD p1 = a.pressure(*p_.node1);
  const AD p2 = a.pressure(*p_.node2);
  const AD q = a.scalar(first_index(), false).x;
  const double density = p_.fluid->density(0.5 * (p1.value() + p2.value()));
  const double vel = q.value() / (density * p_.area);
  const double Re = density * std::abs(vel) * p_.diameter / viscosity_;
  if (record) flow_ = q.value(), vel_ = vel, Re_ = Re;

  const double lower = HydraulicFluid::kReLower, upper = HydraulicFluid::kReUpper;
  AD loss;  // pressure drop p1 - p2 the flow q needs
  const auto laminar = [&] { return AD(klam_ * q); };
  const auto turbulent = [&] { return AD(ktrb_ * copysign_ad(pow_abs(q, 7. / 4.), q)); };
  const auto transition = [&](bool descending) {
    const TransitionFit f = TransitionFit::make(descending, p_.diameter, viscosity_, p_.area);
    const AD aq = abs(q);
    return AD(q * (ktra_ * ((((f.a * aq + f.b) * aq + f.c) * aq + f.d) * aq)));
  };
  if (Re < lower) loss = laminar();
  else if (Re > upper) loss = turbulent();
  else if (!turbulent_) loss = Re < lower * 1.25 ? laminar() : transition(false);
  else loss = Re > upper * .775 ? turbulent() : transition(true);

  a.add(p_.node1->first_index(), q);
  a.add(p_.node2->first_index(), -q);
  a.add(first_index(), loss - p1 + p2);
}

void Pipe::after_convergence(const StepContext&) {
  if (Re_ < HydraulicFluid::kReLower) turbulent_ = false;
  else if (Re_ > HydraulicFluid::kReUpper) turbulent_ = true;
}

// ---- dynamic pipe --------------------------------------------------------------------------------

DynamicPipe::DynamicPipe(unsigned label, PipeParams p) : HydraulicElement(label), p_(std::move(p)), turbulent_(p_.turbulent) {
  const double D = p_.diameter, A = p_.area, L = p_.length;
  klam_ = 16. * L / (D * D);
  ktra_ = .25 * L / (D * A);
  ktrb_ = .5 * L * .1582 / (std::pow(D, 1.25) * std::pow(A, .75));
}

void DynamicPipe::initial_state(Vector& y, Vector& yp) const {
  const int i = first_index();
  y[i] = y[p_.node1->first_index()];
  y[i + 1] = y[p_.node2->first_index()];
  y[i + 2] = p_.q0;
  y[i + 3] = -p_.q0;
  for (int k = 0; k < 4; ++k) yp[i + k] = 0.0;
}

void DynamicPipe::assemble(LocalAssembly& a, const StepContext&, bool record) {
  a.reserve(6);
  const HydraulicFluid& fl = *p_.fluid;
  const AD pn1 = a.pressure(*p_.node1);
  const AD pn2 = a.pressure(*p_.node2);
  const int i = first_index();
  const auto [p1, p1p] = a.scalar(i, true);
  const auto [p2, p2p] = a.scalar(i + 1, true);
  const auto [q1, q1p] = a.scalar(i + 2, true);
  const auto [q2, q2p] = a.scalar(i + 3, true);

  const AD p0 = 0.5 * (p1 + p2);
  const AD density1 = fl.density(p1), density2 = fl.density(p2), density0 = fl.density(p0);
  const AD density_dp1 = fl.density_dp(AD(.75 * p1 + .25 * p2));
  const AD density_dp2 = fl.density_dp(AD(.25 * p1 + .75 * p2));
  const double viscosity = fl.viscosity(p0.value());

  const AD qq1 = .75 * q1 + .25 * q2, qq2 = .25 * q1 + .75 * q2;
  const AD dd1 = .5 * (density1 + density0), dd2 = .5 * (density0 + density2);
  const AD q12 = .5 * (q1 + q2);
  const double Re = std::abs(q12.value()) / p_.area * p_.diameter / viscosity;

  const double lower = HydraulicFluid::kReLower, upper = HydraulicFluid::kReUpper;
  AD loss1, loss2;
  if (Re < lower || (!turbulent_ && Re < 1.25 * lower)) {
    // laminar, or the ascending transition still on its laminar part
    const double k = klam_ * viscosity;
    loss1 = k * qq1 / dd1;
    loss2 = k * qq2 / dd2;
  } else if (Re > upper || (turbulent_ && Re > .775 * upper)) {
    // turbulent, or the descending transition still on its turbulent part
    const double k = ktrb_ * std::pow(viscosity, .25);
    loss1 = k * qq1 * pow_abs(qq1, .75) / dd1;
    loss2 = k * qq2 * pow_abs(qq2, .75) / dd2;
  } else {
    const TransitionFit f = TransitionFit::make(turbulent_, p_.diameter, viscosity, p_.area);
    const auto fa = [&](const AD& qq) {
      const AD aq = abs(qq);
      return AD(qq * ((((f.a * aq + f.b) * aq + f.c) * aq + f.d) * aq));
    };
    loss1 = ktra_ * fa(qq1) / dd1;
    loss2 = ktra_ * fa(qq2) / dd2;
  }

  const double A = p_.area, L = p_.length;
  // mass conservation at the nodes
  a.add(p_.node1->first_index(), AD(q12 + A * L / 8. * density_dp1 * (3. * p1p + p2p)));
  a.add(p_.node2->first_index(), AD(-q12 + A * L / 8. * density_dp2 * (p1p + 3. * p2p)));
  // momentum balance of the two halves
  const AD dp = .5 * A * (p2 - p1);
  const AD dq12 = q12 * q12 / (density0 * A);
  a.add(i, AD(-L / 8. * (3. * q1p + q2p) - dq12 + q1 * q1 / (density1 * A) - dp - loss1));
  a.add(i + 1, AD(-L / 8. * (q1p + 3. * q2p) - q2 * q2 / (density2 * A) + dq12 - dp - loss2));
  // the end pressures are the nodes'
  a.add(i + 2, AD(pn1 - p1));
  a.add(i + 3, AD(pn2 - p2));

  if (record) {
    Re_ = Re;
    p1_ = p1.value(), p2_ = p2.value(), p1p_ = p1p.value(), p2p_ = p2p.value();
    q1_ = q1.value(), q2_ = q2.value(), q1p_ = q1p.value(), q2p_ = q2p.value();
    density1_ = density1.value(), density0_ = density0.value(), density2_ = density2.value();
    density_dp1_ = density_dp1.value(), density_dp2_ = density_dp2.value();
  }
}

void DynamicPipe::after_convergence(const StepContext&) {
  if (Re_ < HydraulicFluid::kReLower) turbulent_ = false;
  else if (Re_ > HydraulicFluid::kReUpper) turbulent_ = true;
}

void DynamicPipe::output(OutputSink& out) const {
  write_hyd(out, {p1_, p2_, p1p_, p2p_, q1_, q2_, q1p_, q2p_, density1_, density0_, density2_, density_dp1_, density_dp2_,
                  Re_},
            turbulent_ ? 1 : 0);
}

}  // namespace mbl::elements::hydraulics

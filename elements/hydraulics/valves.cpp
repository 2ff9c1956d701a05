#include "elements/hydraulics/valves.hpp"

#include <algorithm>
#include <cmath>

namespace mbl::elements::hydraulics {

std::array<double, 4> FourWayValve::areas(double s) const {
  s = std::clamp(s, -1.0, 1.0);
  const double open = std::abs(s) * area_max_, min = area_max_ * loss_;
  if (s > 0.) return {open + 2. * min, open + 2. * min, min, min};
  return {2. * min, 2. * min, open + min, open + min};
}

void ControlValve::assemble(LocalAssembly& a, const StepContext& c, bool record) {
  a.reserve(4);
  std::array<AD, 4> p;
  for (int i = 0; i < 4; ++i) p[i] = a.pressure(*nodes_[i]);
  const double rho = fluid_->density();
  const double s = std::clamp(state_->value(c.t), -1.0, 1.0);
  const auto [A12, A34, A13, A24] = areas(s);
  const auto q = [&](double A, const AD& from, const AD& to) { return AD(kCd * A * sqrt(2. * rho) * signed_sqrt(AD(from - to))); };
  const AD q12 = q(A12, p[0], p[1]), q13 = q(A13, p[0], p[2]), q24 = q(A24, p[1], p[3]), q34 = q(A34, p[2], p[3]);
  const std::array<AD, 4> r{AD(q12 + q13), AD(-q12 + q24), AD(-q13 + q34), AD(-q34 - q24)};
  for (int i = 0; i < 4; ++i) a.add(nodes_[i]->first_index(), r[i]);
  if (record) {
    state_value_ = s;
    for (int i = 0; i < 4; ++i) flow_[i] = -r[i].value();
  }
}

namespace {

/// The way (from, to) node indices of ControlValve2's unknowns, in MBDyn's order.
constexpr std::array<std::pair<int, int>, 4> kWays{{{0, 1}, {2, 3}, {0, 2}, {1, 3}}};

}  // namespace

void ControlValve2::initial_state(Vector& y, Vector&) const {
  const std::array<double, 4> A = areas(state_->value(0.0));
  double pm = 0.0;
  for (const auto* n : nodes_) pm += .25 * y[n->first_index()];
  const double rho = fluid_->density(pm);
  for (int i = 0; i < 4; ++i) {
    const double dp = y[nodes_[kWays[i].first]->first_index()] - y[nodes_[kWays[i].second]->first_index()];
    y[first_index() + i] = kCd * A[i] * std::sqrt(2. * rho * std::abs(dp)) * (dp < 0. ? -1. : 1.);
  }
}

void ControlValve2::assemble(LocalAssembly& a, const StepContext& c, bool record) {
  a.reserve(8);
  std::array<AD, 4> p, q;
  for (int i = 0; i < 4; ++i) p[i] = a.pressure(*nodes_[i]);
  for (int i = 0; i < 4; ++i) q[i] = a.scalar(first_index() + i, false).x;
  const double s = std::clamp(state_->value(c.t), -1.0, 1.0);
  const std::array<double, 4> A = areas(s);
  const AD rho = fluid_->density(AD(.25 * (p[0] + p[1] + p[2] + p[3])));
  const AD kappa = 2. * kCd * kCd * rho;
  // q12, q34, q13, q24 leave their first node and enter the second
  const std::array<AD, 4> f{AD(q[0] + q[2]), AD(-q[0] + q[3]), AD(-q[2] + q[1]), AD(-q[3] - q[1])};
  for (int i = 0; i < 4; ++i) a.add(nodes_[i]->first_index(), f[i]);
  for (int i = 0; i < 4; ++i)
    a.add(first_index() + i, AD(A[i] * A[i] * (p[kWays[i].first] - p[kWays[i].second]) - q[i] * abs(q[i]) / kappa));
  if (record) {
    state_value_ = s;
    for (int i = 0; i < 4; ++i) flow_[i] = -f[i].value();
  }
}

namespace {

/// Spool valves start closed and at rest.
void rest_state(int i, Vector& y, Vector& yp) {
  y[i] = y[i + 1] = 0.0;
  yp[i] = yp[i + 1] = 0.0;
}

}  // namespace

void FlowValve::initial_state(Vector& y, Vector& yp) const { rest_state(first_index(), y, yp); }

void PressureValve::initial_state(Vector& y, Vector& yp) const { rest_state(first_index(), y, yp); }

void PressureValve::assemble(LocalAssembly& a, const StepContext&, bool record) {
  a.reserve(4);
  const AD p1 = a.pressure(*p_.nodes[0]), p2 = a.pressure(*p_.nodes[1]);
  const auto [s, sp] = a.scalar(first_index(), true);
  const auto [v, vp] = a.scalar(first_index() + 1, true);
  const double rho = p_.fluid->density();
  const auto [c1, c2, c3, cf1, cf2, cf3] = stroke_end_penalties(s.value(), sp.value(), vp.value(), 0., p_.stroke_max,
                                                                 p_.c_displacement, p_.c_velocity, p_.c_acceleration, true);
  const AD q = rho * p_.width * s * kCd * sqrt(2. / rho) * signed_sqrt(AD(p1 - p2));
  const double k = p_.area_max / (p_.area_diaphragm * kCd);
  const AD damping = .5 * rho * p_.area_max * k * k * sp * abs(sp);
  const AD force = p_.mass * vp - p1 * p_.area_max + damping + p_.stiffness * s + p_.preload + c1 * s + c2 * sp + c3 * vp +
                   cf1 * (s - p_.stroke_max) + cf2 * sp + cf3 * vp;
  a.add(p_.nodes[0]->first_index(), q);
  a.add(p_.nodes[1]->first_index(), AD(-q));
  a.add(first_index(), force);
  a.add(first_index() + 1, AD(sp - v));
  if (record) s_ = s.value(), v_ = v.value(), vp_ = vp.value(), flow_ = {-q.value(), q.value()};
}

void FlowValve::assemble(LocalAssembly& a, const StepContext&, bool record) {
  a.reserve(5);
  const AD p1 = a.pressure(*p_.nodes[0]), p2 = a.pressure(*p_.nodes[1]), p3 = a.pressure(*p_.nodes[2]);
  const auto [s, sp] = a.scalar(first_index(), true);
  const auto [v, vp] = a.scalar(first_index() + 1, true);
  const double rho = p_.fluid->density();

  const auto [c1, c2, c3, cf1, cf2, cf3] = stroke_end_penalties(s.value(), sp.value(), vp.value(), 0., p_.stroke_max,
                                                                 p_.c_displacement, p_.c_velocity, p_.c_acceleration, true);
  const AD s12 = sqrt(2. / rho) * signed_sqrt(AD(p1 - p2));
  const AD s13 = sqrt(2. / rho) * signed_sqrt(AD(p1 - p3));
  const AD q12 = rho * p_.width * s * kCd * s12;
  const AD q13 = rho * p_.area_diaphragm * kCd * s13;
  const double ratio = p_.area_max / p_.area_pipe;
  const AD damping = .5 * kDamping * rho * ratio * ratio * sp * abs(sp);
  const AD force = p_.mass * vp - p_.area_max * p1 + p_.preload + p_.stiffness * s + p_.area_max * p3 + c1 * s + c2 * sp +
                   c3 * vp + cf1 * (s - p_.stroke_max) + cf2 * sp + cf3 * vp + damping;

  a.add(p_.nodes[0]->first_index(), AD(q12 + q13));
  a.add(p_.nodes[1]->first_index(), AD(-q12));
  a.add(p_.nodes[2]->first_index(), AD(-q13));
  a.add(first_index(), force);
  a.add(first_index() + 1, AD(sp - v));
  if (record) {
    s_ = s.value(), v_ = v.value(), vp_ = vp.value();
    flow_ = {-(q12 + q13).value(), q12.value(), q13.value()};
  }
}

DynamicControlValve::DynamicControlValve(unsigned label, DynamicControlValveParams p)
    : HydraulicElement(label), p_(std::move(p)) {
  const double d = p_.valve_diameter;
  mass_ = 1.175 * d * d * d * p_.valve_density * 3.14159265358979323846;
}

void DynamicControlValve::initial_state(Vector& y, Vector& yp) const {
  y[first_index()] = p_.start;
  y[first_index() + 1] = 0.0;
  yp[first_index()] = yp[first_index() + 1] = 0.0;
}

void DynamicControlValve::assemble(LocalAssembly& a, const StepContext& c, bool record) {
  a.reserve(6);  // the four pressures and the two unknowns (nodes 5 and 6 only receive flows)
  std::array<AD, 4> p;
  for (int i = 0; i < 4; ++i) p[i] = a.pressure(*p_.nodes[i]);
  const auto [s, sp] = a.scalar(first_index(), true);
  const auto [v, vp] = a.scalar(first_index() + 1, true);
  const double rho = p_.fluid->density();
  const double force = p_.force->value(c.t);

  const double area_min = p_.width * p_.stroke_max * p_.loss;
  // MBDyn's Dynamic_control_valve::AssJac (valve.cc) writes the flows' derivatives with respect
  // to the spool displacement (its Jac15..Jac45) with the opposite sign; its Newton iterates, and
  // so the converged states within the tolerance, follow that matrix: the flows see s through a
  // copy whose derivative is reversed (the values are the same).
  const AD s_flows(s.value(), -s.derivatives());
  const AD open = p_.width * s_flows;  // signed opening
  const bool direct = s.value() > 0.;
  const AD A12 = direct ? AD(area_min + open) : AD(area_min + 0. * s_flows), A34 = A12;
  const AD A13 = direct ? AD(area_min + 0. * s_flows) : AD(area_min - open), A24 = A13;

  const auto [c1, c2, c3, cf1, cf2, cf3] = stroke_end_penalties(s.value(), sp.value(), vp.value(), -p_.stroke_max,
                                                                 p_.stroke_max, p_.c_displacement, p_.c_velocity,
                                                                 p_.c_acceleration, true);
  const auto q = [&](const AD& A, const AD& from, const AD& to) {
    return AD(rho * kCd * A * sqrt(2. / rho) * signed_sqrt(AD(from - to)));
  };
  const AD q12 = q(A12, p[0], p[1]), q13 = q(A13, p[0], p[2]), q24 = q(A24, p[1], p[3]), q34 = q(A34, p[2], p[3]);
  const std::array<AD, 4> r{AD(q12 + q13), AD(-q12 + q24), AD(-q13 + q34), AD(-q34 - q24)};
  for (int i = 0; i < 4; ++i) a.add(p_.nodes[i]->first_index(), r[i]);

  // Flow forces of the supply pressure p1 (10 where it vanishes, as MBDyn).
  const AD dp = p[0].value() == 0. ? AD(10.) + 0. * p[0] : p[0];
  const AD C = .4 * p_.valve_diameter * kCd * p_.width * sqrt(AD(rho * dp));
  const AD K = .43 * p_.width * dp;
  a.add(first_index(), AD(-force + mass_ * vp + C * sp + K * s + c1 * (s + p_.stroke_max) + c2 * sp + c3 * vp +
                          cf1 * (s - p_.stroke_max) + cf2 * sp + cf3 * vp));
  a.add(first_index() + 1, AD(sp - v));
  const AD displaced = .25 * p_.valve_diameter * p_.valve_diameter * 3.14159265358979323846 * sp;
  if (pressure_flow_control()) {
    a.add(p_.body_nodes[0]->first_index(), displaced);
    a.add(p_.body_nodes[1]->first_index(), AD(-displaced));
  }
  if (record) {
    s_ = s.value(), sp_ = sp.value(), vp_ = vp.value();
    body_flow_ = -displaced.value();
    for (int i = 0; i < 4; ++i) flow_[i] = -r[i].value();
    area_ = {A12.value(), A13.value(), A34.value(), A24.value()};
  }
}

}  // namespace mbl::elements::hydraulics

#include "elements/genels/rotor_trim.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "elements/aero/air_properties.hpp"
#include "elements/aero/rotor.hpp"
#include "elements/genels/genels.hpp"
#include "elements/input/drive_input.hpp"
#include "mbdyn-like/core/model.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {

RotorTrim::RotorTrim(unsigned label, Params p) : Element(label), p_(std::move(p)) {}

void RotorTrim::setup(Model& m) {
  if (!p_.generic) return;
  air_ = dynamic_cast<const aero::AirProperties*>(m.find_element("air properties", 1));
  if (!air_) throw std::invalid_argument("the generic rotor trim needs the air properties card");
}

Vec3 RotorTrim::control_increments(double t) const {
  double T = 0.0, Mx = 0.0, My = 0.0, rho = 0.0, omega = 0.0, mu = 0.0, R = 0.0;
  if (p_.generic) {
    const Generic& g = *p_.generic;
    T = g.thrust->value(t), Mx = g.roll_moment->value(t), My = g.pitch_moment->value(t);
    double sound = 0.0;
    air_->properties(g.reference ? g.reference->x_W() : Vec3::Zero(), t, rho, sound);
    omega = g.omega->value(t), mu = g.advance_ratio->value(t), R = g.radius;
  } else {
    const aero::Rotor& rotor = *p_.rotor;
    T = rotor.thrust_force_W()[2], Mx = rotor.summed_moment_W()[0], My = rotor.summed_moment_W()[1];
    rho = rotor.air_density_at_hub(t), omega = rotor.omega(), mu = rotor.advance_ratio(), R = rotor.radius();
  }
  // Thrust and moment coefficients.
  const double d_thrust = std::numbers::pi * std::pow(R, 4) * rho * omega * omega, d_moment = d_thrust * R;
  const Vec3 coef(T / d_thrust, Mx / d_moment, My / d_moment);
  // Sensitivity of the coefficients to the controls (the technical note MBDyn cites, [34]).
  const double gamma = p_.lock_number, P = p_.flap_frequency, P2 = P * P, mu2 = mu * mu;
  const double C = 8.0 * (P2 - 1.0) / gamma, f = C / (1.0 + C * C);
  Mat3 A;
  A.col(0) << (1.0 + 1.5 * mu2) / 6.0, -f * mu / 6.0 * (C - gamma / (16.0 * P2)),
      f * mu / 6.0 * (1.0 + C * gamma / (16.0 * P2));
  A.col(1) << 2.0 / 9.0 * mu, -f / 16.0 * (C * (1.0 + 1.5 * mu2) - 2.0 / 9.0 * mu2 * gamma / P2),
      f / 16.0 * ((1.0 + 2.0 * mu2) + 2.0 / 9.0 * mu2 * C * gamma / P2);
  A.col(2) << 0.0, -f / 16.0, -f * C / 16.0 * (1.0 + 0.5 * mu2);
  const Vec3 target(p_.desired[0]->value(t), p_.desired[1]->value(t), p_.desired[2]->value(t));
  return A.partialPivLu().solve(Vec3(target - coef));
}

void RotorTrim::residual(ResidualSink& r, const StepContext& c) {
  const auto& y = *c.y;
  const auto& yp = *c.yp;
  if (!active(c.t)) {
    for (Node* n : p_.controls) r.add(n->first_index(), -y[n->first_index()]);
    return;
  }
  const Vec3 v = control_increments(c.t);
  const double gain[3] = {p_.gain_thrust, p_.gain_moments, p_.gain_moments};
  const double tau[3] = {p_.tau_thrust, p_.tau_moments, p_.tau_moments};
  for (int i = 0; i < 3; ++i) {
    const int k = p_.controls[i]->first_index();
    r.add(k, v[i] * gain[i] - y[k] - tau[i] * yp[k]);
  }
}

void RotorTrim::jacobian(JacobianSink& J, const StepContext& c) {
  const bool on = active(c.t);
  const double tau[3] = {p_.tau_thrust, p_.tau_moments, p_.tau_moments};
  for (int i = 0; i < 3; ++i) {
    const int k = p_.controls[i]->first_index();
    J.add(k, k, (on ? tau[i] : 0.0) + c.dCoef);
  }
}

namespace {

using parser::CardReader;

// `[rotor,] <rotor label>` or `generic, [reference node, <node>,] <T>, <Mx>, <My>, <R>, <Omega>,
// <mu>`, then `<3 abstract nodes>, <3 desired coefficients>, <gamma>, <p>, <tau0>, <tau1>,
// <kappa0>, <kappa1> [, trigger, <drive>]`.
void read_rotor_trim(CardReader& in, BuildContext& ctx, unsigned label) {
  RotorTrim::Params p;
  if (in.keyword_is("generic")) {
    RotorTrim::Generic g;
    if (in.keyword_is("reference node")) {
      const parser::SourceLocation at = in.location();
      const unsigned node = in.label();
      g.reference = ctx.model().find_struct_node(node);
      if (!g.reference) throw parser::InputError(at, "expected an existing structural node, found no structural node " + std::to_string(node));
    }
    g.thrust = read_drive(in, ctx);
    g.roll_moment = read_drive(in, ctx);
    g.pitch_moment = read_drive(in, ctx);
    if (!ctx.model().find_element("air properties", 1)) in.fail("the generic rotor trim needs the air properties card");
    g.radius = parser::checked_real(in, [](double v) { return v > 0.0; }, "a positive rotor radius");
    g.omega = read_drive(in, ctx);
    g.advance_ratio = read_drive(in, ctx);
    p.generic = std::move(g);
  } else {
    in.keyword_is("rotor");  // optional: MBDyn only warns when it is missing
    const parser::SourceLocation at = in.location();
    const unsigned rotor = in.label();
    ctx.skip_if_depends_on_skipped(in, "induced velocity", rotor);
    p.rotor = dynamic_cast<aero::Rotor*>(ctx.model().find_element("induced velocity", rotor));
    if (!p.rotor) throw parser::InputError(at, "expected an existing rotor (induced velocity element), found none with label " + std::to_string(rotor));
    if (!(p.rotor->radius() > 0.0)) throw parser::InputError(at, "expected a rotor with a positive radius, found radius 0");
  }
  for (Node*& n : p.controls) n = read_differential_abstract_node(in, ctx);
  for (DriveCallerPtr& d : p.desired) d = read_drive(in, ctx);
  p.lock_number = parser::checked_real(in, [](double v) { return v > 0.0; }, "a positive rotor Lock number");
  p.flap_frequency = parser::checked_real(in, [](double v) { return v > 0.0; }, "a positive nondimensional flap frequency");
  p.tau_thrust = in.real();
  p.tau_moments = in.real();
  p.gain_thrust = in.real();
  p.gain_moments = in.real();
  if (in.keyword_is("trigger")) p.trigger = read_drive(in, ctx);
  add_genel(in, ctx, std::make_unique<RotorTrim>(label, std::move(p)));
}

const bool registered = CardRegistry::family("genel").add("rotor trim", read_rotor_trim);

}  // namespace
}  // namespace mbl::elements

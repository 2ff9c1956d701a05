#include "elements/hydraulics/tank.hpp"

#include <fmt/format.h>

#include "mbdyn-like/core/step_observer.hpp"

namespace mbl::elements::hydraulics {

void Tank::initial_state(Vector& y, Vector& yp) const {
  y[first_index()] = p_.level_start;
  yp[first_index()] = 0.0;
}

void Tank::assemble(LocalAssembly& a, const StepContext& c, bool record) {
  a.reserve(3);
  const AD p1 = a.pressure(*p_.nodes[0]), p2 = a.pressure(*p_.nodes[1]);
  const auto [s, sp] = a.scalar(first_index(), true);
  if (s.value() < 0.0)
    throw EvaluationError(fmt::format("hydraulic {} (tank): negative fluid level {} at t = {}", label(), s.value(), c.t));
  const AD rho = p_.fluid->density(AD(p1 + 0.5 * p2));
  const auto loss = [&](double k, const AD& dp) { return AD(rho * p_.area_pipe * sqrt(AD(2. / (k * rho))) * signed_sqrt(dp)); };
  AD r1 = loss(kInletLoss, AD(p1 - p_.pressure));
  const AD r2 = -loss(kOutletLoss, AD(p_.pressure - p2));
  AD level = sp;
  if (s.value() > p_.level_max && r1.value() > -r2.value()) {
    r1 = -r2;  // full: no more in than out
    level += s - p_.level_max;
  }
  level += (-r1 - r2) / (p_.area_tank * rho);
  a.add(p_.nodes[0]->first_index(), r1);
  a.add(p_.nodes[1]->first_index(), r2);
  a.add(first_index(), level);
  if (record) s_ = s.value(), sp_ = sp.value(), flow_ = {-r1.value(), -r2.value()};
}

}  // namespace mbl::elements::hydraulics

#include "elements/laws/shock_absorber_law.hpp"

#include <cmath>
#include <fmt/format.h>

#include "mbdyn-like/core/step_observer.hpp"

namespace mbl::laws {

namespace {

/// Value and slope of a drive used as a function of the strain (or of its rate).
std::pair<double, double> drive_of(const DriveCaller& d, double x) {
  return {d.value(x), d.has_derivative() ? d.derivative(x) : 0.0};
}

}  // namespace

LawOutputItem ShockAbsorberLaw::output_item(int i) const {
  static constexpr std::array<LawOutputItem, 4> items{{{"p", "Pressure", "Gas pressure"},
                                                        {"A", "Area", "Metering area"},
                                                        {"Fe", "Force", "Elastic force"},
                                                        {"Fv", "Force", "Viscous force"}}};
  return items[i];
}

void ShockAbsorberLaw::update(const VecN& eps, const VecN& eps_dot, double) {
  const double e = eps[0], ed = eps_dot[0];
  // Gas spring.
  const double volume_ratio = 1.0 / (1.0 + p_.c_int * e);
  const double p = p_.p0 * std::pow(volume_ratio, p_.gamma);
  const double Fgas = -p_.A0 * p;
  const double dFgas = p_.gamma * p_.c_int * volume_ratio * p_.A0 * p;
  double f = Fgas, K = dFgas, C = 0.0;
  if (p_.friction != 0.0) {
    const double th = std::tanh(ed / p_.eps_dot_ref);
    f = Fgas * (1.0 - p_.friction * th);
    K = dFgas * (1.0 - p_.friction * th);
    C = -Fgas * p_.friction * (1.0 - th * th) / p_.eps_dot_ref;
  }
  double Fe = Fgas;
  // End-of-stroke penalties (the rate term only while moving further out of the bounds).
  const bool above = e > p_.eps_max, below = e < p_.eps_min;
  if (above || below) {
    double fp = p_.penalty * (e - (above ? p_.eps_max : p_.eps_min));
    K += p_.penalty;
    if (above ? ed > 0.0 : ed < 0.0) {
      fp += p_.penalty_rate * ed;
      C += p_.penalty_rate;
    }
    Fe += fp;
    f += fp;
  }
  // Hydraulic damping.
  double A = 0.0, dA_de = 0.0, dA_ded = 0.0;
  if (p_.metering) {
    const auto [a, da] = drive_of(std::signbit(ed) ? *p_.metering_negative : *p_.metering, e);
    A += a, dA_de += da;
  }
  if (p_.orifice) {
    const auto [a, da] = drive_of(*p_.orifice, ed);
    A += a, dA_ded += da;
  }
  if (A <= 0.0) throw EvaluationError(fmt::format("shock absorber: null or negative area {}", A));
  const double r = p_.fluid_area / (A * p_.drag);
  const double d = 0.5 * p_.fluid_density * p_.fluid_area * r * r;
  const double Fv = d * ed * std::abs(ed);
  // d d / d A = -2 d / A.
  K += -2.0 * Fv / A * dA_de;
  C += 2.0 * d * std::abs(ed) - 2.0 * Fv / A * dA_ded;
  F_[0] = f + Fv;
  F_eps_(0, 0) = K;
  F_eps_dot_(0, 0) = C;
  items_ = {p, A, Fe, Fv};
}

}  // namespace mbl::laws

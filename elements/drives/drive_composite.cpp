#include "elements/drives/drive_composite.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "elements/drives/drive_callers.hpp"
#include "elements/drives/scalar_function.hpp"

namespace mbl::drives {

double ArrayDrive::value(double x) const {
  double v = 0.0;
  for (const auto& d : d_) v += d->value(x);
  return v;
}

bool ArrayDrive::has_derivative() const {
  for (const auto& d : d_)
    if (!d->has_derivative()) return false;
  return true;
}

double ArrayDrive::derivative(double x) const {
  double v = 0.0;
  for (const auto& d : d_) v += d->derivative(x);
  return v;
}

std::string ArrayDrive::describe() const {
  std::string s = fmt::format("array, {}", d_.size());
  for (const auto& d : d_) s += ", " + d->describe();
  return s;
}

double MultDrive::derivative(double x) const {
  return a_->derivative(x) * b_->value(x) + a_->value(x) * b_->derivative(x);
}

std::string MultDrive::describe() const {
  return "mult, " + a_->describe() + ", " + b_->describe();
}

std::string NestedDrive::describe() const {
  return "drive, " + outer_->describe() + ", " + inner_->describe();
}

double PeriodicDrive::wrap(double t) const {
  const double tau = t - t0_;
  return tau - std::floor(tau / period_) * period_;
}

double PeriodicDrive::value(double t) const { return t < t0_ ? 0.0 : f_->value(wrap(t)); }

double PeriodicDrive::derivative(double t) const {
  return t < t0_ ? 0.0 : f_->derivative(wrap(t));
}

std::string PeriodicDrive::describe() const {
  return fmt::format("periodic, {}, {}, {}", t0_, period_, f_->describe());
}

double FrequencySweepDrive::value(double t) const {
  if (t <= t_i_) return f_i_;
  if (t > t_f_) return f_f_;
  return f_i_ + amplitude_->value(t) * std::sin(omega_->value(t) * (t - t_i_));
}

double FrequencySweepDrive::derivative(double t) const {
  if (t < t_i_ || t > t_f_) return 0.0;
  const double tau = t - t_i_;
  const double a = amplitude_->value(t), w = omega_->value(t);
  const double ap = amplitude_->derivative(t), wp = omega_->derivative(t);
  double d = ap * std::sin(w * tau) + a * std::cos(w * tau) * (wp * tau + w);
  if (t == t_i_ || t == t_f_) d /= 2.0;
  return d;
}

std::string FrequencySweepDrive::describe() const {
  return fmt::format("frequency sweep, {}, {}, {}, {}, {}, {}", t_i_, omega_->describe(),
                     amplitude_->describe(), f_i_,
                     format_end_time(t_f_), f_f_);
}

const DriveCaller& PostponedDrive::target() const {
  if (!slot_->target)
    throw std::runtime_error(fmt::format(
        "{}: postponed drive caller {} was used but `drive caller: {}, ...` was never defined",
        slot_->first_use.str(), slot_->label, slot_->label));
  return *slot_->target;
}

std::string PostponedDrive::describe() const {
  return fmt::format("postponed, {}", slot_->label);
}

double StringDrive::eval_at(double x, double time_shift) const {
  math_->set_variable("Var", math::Value(x));
  if (time_shift == 0.0) return expr_->eval(*math_).to_real();
  // Shift Time too (the input is the time in ordinary use), then restore it.
  const math::Value* tv = math_->find_variable("Time");
  const double t = tv ? tv->to_real() : 0.0;
  math_->set_variable("Time", math::Value(t + time_shift));
  double v = 0.0;
  try {
    v = expr_->eval(*math_).to_real();
  } catch (...) {
    math_->set_variable("Time", math::Value(t));
    throw;
  }
  math_->set_variable("Time", math::Value(t));
  return v;
}

double StringDrive::value(double x) const { return eval_at(x, 0.0); }

double StringDrive::derivative(double x) const {
  const math::Value* tv = math_->find_variable("Time");
  const bool input_is_time = tv && tv->is_number() && tv->to_real() == x;
  const double h = 1e-6 * std::max(1.0, std::abs(x));
  const double vp = eval_at(x + h, input_is_time ? h : 0.0);
  const double vm = eval_at(x - h, input_is_time ? -h : 0.0);
  math_->set_variable("Var", math::Value(x));
  return (vp - vm) / (2.0 * h);
}

std::string StringDrive::describe() const { return "string, \"" + text_ + "\""; }

double ScalarFunctionDrive::value(double x) const { return f_->value(x); }
bool ScalarFunctionDrive::has_derivative() const { return f_->has_derivative(); }
double ScalarFunctionDrive::derivative(double x) const { return f_->derivative(x); }

}  // namespace mbl::drives

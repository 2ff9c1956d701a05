#include "elements/electric/discrete_control.hpp"

#include <charconv>

namespace mbl::elements::electric {

DiscreteControl::DiscreteControl(unsigned label, DiscreteControlParams p)
    : Element(label),
      p_(std::move(p)),
      y_history_(Eigen::VectorXd::Zero(p_.order_A * Eigen::Index(p_.outputs.size()))),
      u_history_(Eigen::VectorXd::Zero(p_.order_B * Eigen::Index(p_.inputs.size()))),
      u_next_(Eigen::VectorXd::Zero(Eigen::Index(p_.inputs.size()))),
      u_applied_(p_.inputs.size(), 0.0) {}

void DiscreteControl::residual(ResidualSink& r, const StepContext&) {
  // The first residual after a sample takes the new control values (MBDyn's GetInput).
  if (new_sample_) {
    for (std::size_t i = 0; i < u_applied_.size(); ++i) u_applied_[i] = u_next_[Eigen::Index(i)];
    new_sample_ = false;
  }
  for (std::size_t i = 0; i < p_.inputs.size(); ++i) r.add(p_.inputs[i].equation(), u_applied_[i]);
}

void DiscreteControl::after_convergence(const StepContext& c) {
  if (++steps_since_sample_ < p_.update_every) return;
  steps_since_sample_ = 0;
  new_sample_ = true;
  const Eigen::Index ny = Eigen::Index(p_.outputs.size()), nu = Eigen::Index(p_.inputs.size());
  // Shift the histories by one sample and put the newest first.
  y_history_.tail(y_history_.size() - ny) = y_history_.head(y_history_.size() - ny).eval();
  u_history_.tail(u_history_.size() - nu) = u_history_.head(u_history_.size() - nu).eval();
  for (Eigen::Index k = 0; k < ny; ++k) {
    const ControlMeasure& m = p_.outputs[std::size_t(k)];
    y_history_[k] = m.scale->value(c.t) * m.value.value(c);
  }
  for (Eigen::Index k = 0; k < nu; ++k) u_history_[k] = p_.inputs[std::size_t(k)].value(c);
  u_next_ = p_.A * y_history_ + p_.B * u_history_;
}

unsigned DiscreteControl::private_data_index(std::string_view name) const {
  // "u[<idx>]", idx from 1 to the number of inputs.
  if (name.size() < 4 || name.substr(0, 2) != "u[" || name.back() != ']') return 0;
  unsigned idx = 0;
  const auto digits = name.substr(2, name.size() - 3);
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), idx);
  if (ec != std::errc() || end != digits.data() + digits.size() || idx > p_.inputs.size()) return 0;
  return idx;
}

}  // namespace mbl::elements::electric

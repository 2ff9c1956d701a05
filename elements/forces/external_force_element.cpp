#include "elements/forces/external_force_element.hpp"

#include "mbdyn-like/core/model.hpp"

namespace mbl::elements {

void ExternalForceElement::setup(Model& m) {
  m.add_convergence_vote([this] { return link_.converged(); });
}

void ExternalForceElement::after_predict(const StepContext& c) {
  context_ = &c;
  link_.after_predict(*this);
  context_ = nullptr;
}

void ExternalForceElement::after_convergence(const StepContext& c) {
  context_ = &c;
  link_.after_convergence(*this);
  context_ = nullptr;
}

bool ExternalForceElement::exchange_before_residual(const StepContext& c) {
  if (c.initial_assembly) return false;
  context_ = &c;
  link_.before_residual(*this);
  context_ = nullptr;
  return link_.applies_loads();
}

}  // namespace mbl::elements

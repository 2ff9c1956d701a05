#pragma once
// The 6D section law of the beams. Temporary: until the shared constitutive-law reader
// (elements/laws) lands, the beams read the two laws their decks use themselves.
#include <memory>

#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/constitutive_law.hpp"

namespace mbl::elements {

/// Linear viscoelastic 6D law F = K eps + C eps_dot (C = 0: linear elastic).
class LinearSectionLaw : public ConstitutiveLaw6D {
 public:
  LinearSectionLaw(const MatN& K, const MatN& C, bool viscous) : viscous_(viscous) {
    F_eps_ = K;
    F_eps_dot_ = C;
  }
  void update(const VecN& eps, const VecN& eps_dot, double) override {
    F_ = F_eps_ * eps + F_eps_dot_ * eps_dot;
  }
  bool is_viscous() const override { return viscous_; }
  std::unique_ptr<ConstitutiveLaw6D> clone() const override {
    return std::make_unique<LinearSectionLaw>(*this);
  }

 private:
  bool viscous_;
};

/// Reads a 6D constitutive law; nullptr after reporting an unsupported one as not implemented.
std::unique_ptr<ConstitutiveLaw6D> read_section_law(parser::CardReader& in, BuildContext& ctx);

}  // namespace mbl::elements

#pragma once
// The entity type of a constitutive law of dimension N (input manual §2.10): what prestrains,
// prestresses, ... are (real for 1D, Vec3, Vec6), with the conversion to the Eigen vector of
// ConstitutiveLaw<N>.
#include <memory>

#include "mbdyn-like/core/constitutive_law.hpp"

namespace mbl::laws {

/// 3D and 6D: the entity is the law's own vector type (Vec3, Vec6).
template <int N>
struct LawTraits {
  using VecN = typename ConstitutiveLaw<N>::VecN;
  using Entity = VecN;
  static const VecN& vec(const Entity& v) { return v; }
};

/// 1D: the entity is a real.
template <>
struct LawTraits<1> {
  using VecN = ConstitutiveLaw<1>::VecN;
  using Entity = double;
  static VecN vec(double v) { return VecN::Constant(v); }
};

/// Implements clone() for a law with value semantics (wrappers copy their wrapped laws deeply).
template <class Derived, int N>
class ClonableLaw : public ConstitutiveLaw<N> {
 public:
  std::unique_ptr<ConstitutiveLaw<N>> clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived&>(*this));
  }
};

}  // namespace mbl::laws

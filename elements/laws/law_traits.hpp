#pragma once
// The entity types of a constitutive law of dimension N (input manual §2.10): "Entity" (what
// prestress, cubic coefficients, ... are: real for 1D, Vec3, Vec6) and "DerivativeOfEntity"
// (stiffness and viscosity matrices: real, Mat3, Mat6), with conversions to the Eigen types of
// ConstitutiveLaw<N>.
#include "mbdyn-like/core/constitutive_law.hpp"
#include "mbdyn-like/core/types.hpp"

namespace mbl::laws {

template <int N>
struct LawTraits;

template <>
struct LawTraits<1> {
  using Entity = double;
  using DerivativeOfEntity = double;
  using VecN = ConstitutiveLaw<1>::VecN;
  using MatN = ConstitutiveLaw<1>::MatN;
  static VecN vec(double v) { return VecN::Constant(v); }
  static MatN mat(double v) { return MatN::Constant(v); }
};

template <>
struct LawTraits<3> {
  using Entity = Vec3;
  using DerivativeOfEntity = Mat3;
  using VecN = Vec3;
  using MatN = Mat3;
  static VecN vec(const Vec3& v) { return v; }
  static MatN mat(const Mat3& m) { return m; }
};

template <>
struct LawTraits<6> {
  using Entity = Vec6;
  using DerivativeOfEntity = Mat6;
  using VecN = Vec6;
  using MatN = Mat6;
  static VecN vec(const Vec6& v) { return v; }
  static MatN mat(const Mat6& m) { return m; }
};

}  // namespace mbl::laws

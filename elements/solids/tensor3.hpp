#pragma once
// Small 3x3 tensor helpers of the solid elements and their laws, on any scalar type (doubles or
// Eigen's forward automatic-differentiation scalars).
#include <Eigen/Core>

namespace mbl::elements::solid {

/// C^-1 by the adjugate, with det C.
template <class Scalar>
Eigen::Matrix<Scalar, 3, 3> inverse3(const Eigen::Matrix<Scalar, 3, 3>& C, Scalar& det) {
  Eigen::Matrix<Scalar, 3, 3> adj;
  adj(0, 0) = C(1, 1) * C(2, 2) - C(1, 2) * C(2, 1);
  adj(0, 1) = C(0, 2) * C(2, 1) - C(0, 1) * C(2, 2);
  adj(0, 2) = C(0, 1) * C(1, 2) - C(0, 2) * C(1, 1);
  adj(1, 0) = C(1, 2) * C(2, 0) - C(1, 0) * C(2, 2);
  adj(1, 1) = C(0, 0) * C(2, 2) - C(0, 2) * C(2, 0);
  adj(1, 2) = C(0, 2) * C(1, 0) - C(0, 0) * C(1, 2);
  adj(2, 0) = C(1, 0) * C(2, 1) - C(1, 1) * C(2, 0);
  adj(2, 1) = C(0, 1) * C(2, 0) - C(0, 0) * C(2, 1);
  adj(2, 2) = C(0, 0) * C(1, 1) - C(0, 1) * C(1, 0);
  det = C(0, 0) * adj(0, 0) + C(0, 1) * adj(1, 0) + C(0, 2) * adj(2, 0);
  Eigen::Matrix<Scalar, 3, 3> inv;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) inv(i, j) = adj(i, j) / det;
  return inv;
}

}  // namespace mbl::elements::solid

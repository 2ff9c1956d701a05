#pragma once
// Bilinear four-node quadrilateral shared by the shell and membrane elements (input manual
// figure 8.12: nodes counterclockwise from the upper right, xi = (+1, +1)).
#include "mbdyn-like/core/types.hpp"

namespace mbl::elements::bilinear {

/// Natural coordinates of the nodes.
inline constexpr double kNodeXi[4][2] = {{1.0, 1.0}, {-1.0, 1.0}, {-1.0, -1.0}, {1.0, -1.0}};

/// Shape function L_n at (xi1, xi2).
inline double shape(int n, double xi1, double xi2) {
  return 0.25 * (1.0 + kNodeXi[n][0] * xi1) * (1.0 + kNodeXi[n][1] * xi2);
}
/// dL_n / dxi_j.
inline double shape_d(int n, int j, double xi1, double xi2) {
  return j == 0 ? 0.25 * kNodeXi[n][0] * (1.0 + kNodeXi[n][1] * xi2)
                : 0.25 * kNodeXi[n][1] * (1.0 + kNodeXi[n][0] * xi1);
}

/// Orthonormal surface frame from the tangents a1 = dx/dxi1, a2 = dx/dxi2 (technical manual
/// eq. 11.33): t1 along a1, t3 normal to the surface, t2 = t3 x t1.
inline Mat3 surface_frame(const Vec3& a1, const Vec3& a2) {
  Mat3 t;
  t.col(0) = a1.normalized();
  t.col(2) = a1.cross(a2).normalized();
  t.col(1) = t.col(2).cross(t.col(0));
  return t;
}

}  // namespace mbl::elements::bilinear

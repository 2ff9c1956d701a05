#pragma once
// Shared tools of the deformable elements (rod, deformable hinge/displacement/axial joint): the
// tangent operator of the rotation vector, and linearisations over the perturbations of two
// structural nodes, assembled into the Jacobian with MBDyn's updated-updated rules
// (technical manual §9.2, eq. 9.243-9.244): d theta = dCoef d g', d omega = d g' - dCoef w_ref x d g',
// d x = dCoef d x', d v = d x'.
#include <Eigen/Core>
#include <cmath>

#include "mbdyn-like/core/assembly.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements {

/// Gamma(phi) of the rotation vector phi (R = exp(phi x)): a perturbation d phi rotates R by
/// (Gamma d phi) x R, Gamma = I + (1 - cos a)/a^2 phi x + (a - sin a)/a^3 phi x phi x.
inline Mat3 rotvec_gamma(const Vec3& phi) {
  const double a = phi.norm();
  const Mat3 px = skew(phi);
  double c1, c2;
  if (a < 1e-4) {
    c1 = 0.5 - a * a / 24.0;
    c2 = 1.0 / 6.0 - a * a / 120.0;
  } else {
    c1 = (1.0 - std::cos(a)) / (a * a);
    c2 = (a - std::sin(a)) / (a * a * a);
  }
  return Mat3::Identity() + c1 * px + c2 * px * px;
}

/// Gamma(phi)^-1 = I - 1/2 phi x + (1 - (a/2) cot(a/2))/a^2 phi x phi x.
inline Mat3 rotvec_gamma_inverse(const Vec3& phi) {
  const double a = phi.norm();
  const Mat3 px = skew(phi);
  double c;
  if (a < 1e-4) {
    c = 1.0 / 12.0 + a * a / 720.0;
  } else {
    c = (1.0 - 0.5 * a / std::tan(0.5 * a)) / (a * a);
  }
  return Mat3::Identity() - 0.5 * px + c * px * px;
}

/// Linearisation of a 3-vector over the perturbations of two nodes: columns 12k + {0, 3, 6, 9}
/// multiply d x_k, theta_k, d v_k, d omega_k of node k (0 = node 1, 1 = node 2).
using Lin3 = Eigen::Matrix<double, 3, 24>;
using Lin1 = Eigen::Matrix<double, 1, 24>;
inline constexpr int kX = 0, kTh = 3, kV = 6, kW = 9;
inline int lin_col(int node, int what) { return 12 * node + what; }

/// Adds -(d r / d y' + dCoef d r / d y) of a 3-row residual block `dr` (a Lin3) at `row`.
inline void add_lin_jacobian(JacobianSink& J, int row, const StructNode* const nodes[2],
                             const StepContext& c, const Lin3& dr) {
  for (int k = 0; k < 2; ++k) {
    const StructNode& n = *nodes[k];
    const Mat3 Mx = dr.block<3, 3>(0, lin_col(k, kX)), Mth = dr.block<3, 3>(0, lin_col(k, kTh));
    const Mat3 Mv = dr.block<3, 3>(0, lin_col(k, kV)), Mw = dr.block<3, 3>(0, lin_col(k, kW));
    J.add(row, n.dof_index(), Mat3(-(c.dCoef * Mx + Mv)));
    J.add(row, n.dof_index() + 3, Mat3(-(c.dCoef * Mth + Mw - c.dCoef * Mw * skew(n.w_ref()))));
  }
}

}  // namespace mbl::elements

#pragma once
// Orientation constraints of the form  Phi_k = s_k (u_k . w_k) = 0, where u_k is an axis of the
// attachment a (rotating with node a) and w_k an axis of the attachment b: the building block
// of the Cardano (universal) joints and of the prismatic joint (technical manual ch. 9).
// With multipliers lambda_k: r_a_rot -= sum g_k lambda_k, r_b_rot += sum g_k lambda_k,
// g_k = dPhi_k/dtheta_a = s_k u_k x w_k, and r_c,k = Phi_k / dCoef.
#include <vector>

#include "elements/joints/joint.hpp"

namespace mbl::elements {

struct AxisPair {
  int axis_a;   ///< column of R_WH of attachment a (0, 1, 2)
  int axis_b;   ///< column of R_WH of attachment b
  double sign;  ///< s: chooses the sign of the multiplier as MBDyn reports it
};

/// Moment exerted on attachment b by the multipliers (node a gets the opposite).
Vec3 axis_pairs_moment(const Attachment& a, const Attachment& b, const std::vector<AxisPair>& pairs,
                       const double* lambda);
void add_axis_pairs_residual(ResidualSink& r, const StepContext& c, const Attachment& a,
                             const Attachment& b, const std::vector<AxisPair>& pairs, int row_c,
                             const double* lambda);
void add_axis_pairs_jacobian(JacobianSink& J, const StepContext& c, const Attachment& a,
                             const Attachment& b, const std::vector<AxisPair>& pairs, int row_c,
                             const double* lambda);

}  // namespace mbl::elements

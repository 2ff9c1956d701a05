#pragma once
// Orientation handling as in MBDyn (technical manual ch. 4, seed 000 §3.1): orientation matrices
// per node, updated by incremental Cayley-Gibbs-Rodrigues (CGR) parameters
//     g = 2 tan(phi/2) n,
//     R(g) = I + 4/(4 + g.g) (g x + 1/2 g x g x),
//     G(g) = 4/(4 + g.g) (I + 1/2 g x)          (omega = G(g) g'),
// plus the output parameterisations (orientation vector, Euler 123/313/321).
#include "mbdyn-like/core/types.hpp"

namespace mbl::rot {

Mat3 cgr_to_R(const Vec3& g);
Mat3 cgr_G(const Vec3& g);
Mat3 cgr_G_inverse(const Vec3& g);  ///< I - 1/2 g x + 1/4 g g^T
/// CGR parameters of R (|rotation| < pi).
Vec3 R_to_cgr(const Mat3& R);

/// Orientation (rotation) vector phi = phi n: R = exp(phi x).
Mat3 rotvec_to_R(const Vec3& phi);
Vec3 R_to_rotvec(const Mat3& R);

/// Euler angles in radians; R = R1(a) R2(b) R3(c) for 123, and so on.
Mat3 euler123_to_R(const Vec3& angles);
Vec3 R_to_euler123(const Mat3& R);
Mat3 euler313_to_R(const Vec3& angles);
Vec3 R_to_euler313(const Mat3& R);
Mat3 euler321_to_R(const Vec3& angles);
Vec3 R_to_euler321(const Mat3& R);

}  // namespace mbl::rot

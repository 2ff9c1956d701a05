#include <gtest/gtest.h>

#include "mbdyn-like/core/rotations.hpp"

using namespace mbl;

namespace {
Vec3 sample_vec(int k) { return Vec3(0.3 + 0.1 * k, -0.7 + 0.05 * k, 0.2 - 0.03 * k); }
}  // namespace

// R(g) built from CGR parameters is the rotation by 2 atan(|g|/2) about g/|g|.
TEST(Rotations, CgrMatchesAxisAngle) {
  for (int k = 0; k < 5; ++k) {
    const Vec3 g = sample_vec(k);
    const double phi = 2.0 * std::atan(0.5 * g.norm());
    const Mat3 R_expected = rot::rotvec_to_R(g.normalized() * phi);
    EXPECT_LT((rot::cgr_to_R(g) - R_expected).norm(), 1e-13);
    EXPECT_LT((rot::R_to_cgr(R_expected) - g).norm(), 1e-12);
  }
}

// omega = G(g) g' : check against finite differences of R(g(t)) R^T(g(t)).
TEST(Rotations, GMatchesFiniteDifferenceOfR) {
  const Vec3 g = sample_vec(1), gp(0.4, -0.2, 0.9);
  const double h = 1e-6;
  const Mat3 Rp = rot::cgr_to_R(g + h * gp), Rm = rot::cgr_to_R(g - h * gp);
  const Mat3 Rdot = (Rp - Rm) / (2 * h);
  const Vec3 w_fd = ax(Rdot * rot::cgr_to_R(g).transpose());
  EXPECT_LT((rot::cgr_G(g) * gp - w_fd).norm(), 1e-8);
  EXPECT_LT((rot::cgr_G_inverse(g) * rot::cgr_G(g) - Mat3::Identity()).norm(), 1e-13);
}

TEST(Rotations, EulerRoundTrips) {
  const Vec3 e(0.3, -0.5, 1.1);
  EXPECT_LT((rot::R_to_euler123(rot::euler123_to_R(e)) - e).norm(), 1e-13);
  // 313 angles are unique only with b in [0, pi]: compare matrices.
  EXPECT_LT((rot::euler313_to_R(rot::R_to_euler313(rot::euler313_to_R(e))) - rot::euler313_to_R(e)).norm(), 1e-13);
  const Vec3 e313(0.3, 0.5, 1.1);
  EXPECT_LT((rot::R_to_euler313(rot::euler313_to_R(e313)) - e313).norm(), 1e-13);
  EXPECT_LT((rot::R_to_euler321(rot::euler321_to_R(e)) - e).norm(), 1e-13);
  const Vec3 phi(0.2, 2.0, -1.0);
  EXPECT_LT((rot::R_to_rotvec(rot::rotvec_to_R(phi)) - phi).norm(), 1e-12);
  // Rotation by pi about z.
  const Vec3 pz(0, 0, M_PI);
  EXPECT_LT((rot::rotvec_to_R(rot::R_to_rotvec(rot::rotvec_to_R(pz))) - rot::rotvec_to_R(pz)).norm(), 1e-12);
}

// A pure rotation about y by theta has Euler-123 angles (0, theta, 0) (.mov convention).
TEST(Rotations, Euler123OfRotationAboutY) {
  const Vec3 e = rot::R_to_euler123(rot::R2(2e-4));
  EXPECT_NEAR(e[1], 2e-4, 1e-16);
  EXPECT_EQ(e[0], 0.0);
  EXPECT_TRUE(std::signbit(e[0]));  // MBDyn prints -0 here too
}

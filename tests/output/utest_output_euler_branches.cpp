// Euler angles as MBDyn 2024 writes them (MatR2EulerAngles123/313/321, libmbmath/matvec3.cc): the
// first angle by atan2 of two entries of R, the other two by atan2 of R premultiplied by the first
// rotation's transpose. At the branch points the sign of a zero entry decides the branch, and the
// values below are those of MBDyn's formulas worked by hand:
//  - R = I, 123: atan2(-(+0), 1) = -0, then (+0, +0): the "-0 0 0" of every MBDyn .mov at rest
//    (e.g. ../shared/decks/t.body.bullet).
//  - R = I, 313: alpha = atan2(+0, -(+0)) = pi; beta = atan2(sin(pi) 0 - cos(pi) 0, 1) = +0;
//    gamma = atan2(-cos(pi) 0 - sin(pi) 1, cos(pi)) = atan2(-1.22e-16, -1) = -pi: (180, 0, -180).
//  - R = I, 321: alpha = atan2(0, 1) = 0, beta = atan2(-0, 1) = -0, gamma = atan2(0 - 0, 1) = +0.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "mbdyn-like/core/rotations.hpp"
#include "support/run_program.hpp"

using mbl::Mat3;
using mbl::Vec3;
namespace rot = mbl::rot;

namespace {
void expect_same_bits(double got, double expected, const char* what) {
  EXPECT_EQ(got, expected) << what;
  EXPECT_EQ(std::signbit(got), std::signbit(expected)) << what << ": sign of " << got;
}
}  // namespace

TEST(EulerBranches, IdentityAsMBDynWritesIt) {
  const Mat3 I = Mat3::Identity();
  const Vec3 e123 = rot::R_to_euler123(I);
  expect_same_bits(e123[0], -0.0, "123 alpha");
  expect_same_bits(e123[1], 0.0, "123 beta");
  expect_same_bits(e123[2], 0.0, "123 gamma");
  const Vec3 e313 = rot::R_to_euler313(I) * (180.0 / M_PI);
  EXPECT_DOUBLE_EQ(e313[0], 180.0);
  expect_same_bits(e313[1], 0.0, "313 beta");
  EXPECT_DOUBLE_EQ(e313[2], -180.0);
  const Vec3 e321 = rot::R_to_euler321(I);
  expect_same_bits(e321[0], 0.0, "321 alpha");
  expect_same_bits(e321[1], -0.0, "321 beta");
  expect_same_bits(e321[2], 0.0, "321 gamma");
}

TEST(EulerBranches, HalfTurnAboutXTakesMBDynsBranch) {
  // R = diag(1, -1, -1) with +0 off the diagonal: 123 alpha = atan2(-0, -1) = -pi, so MBDyn writes
  // (-180, 0, 0) for it, and (+180, 0, 0) when R(2,3) is -0 (exactly what a sign of zero decides).
  Mat3 R = Mat3::Zero();
  R(0, 0) = 1.0, R(1, 1) = -1.0, R(2, 2) = -1.0;
  EXPECT_DOUBLE_EQ(rot::R_to_euler123(R)[0] * (180.0 / M_PI), -180.0);
  R(1, 2) = -0.0;
  EXPECT_DOUBLE_EQ(rot::R_to_euler123(R)[0] * (180.0 / M_PI), 180.0);
  // 313 of the same half turn: alpha = atan2(0, -(-0)) = 0 (R(1,3) = +0), beta = atan2(0 - (-0), -1) = pi.
  const Vec3 e313 = rot::R_to_euler313(R) * (180.0 / M_PI);
  EXPECT_EQ(e313[0], 0.0);
  EXPECT_DOUBLE_EQ(e313[1], 180.0);
}

TEST(EulerBranches, GenericAnglesRoundTripOnMBDynsRanges) {
  // Away from the branch points each decomposition returns the angles it was built from, within
  // MBDyn's ranges: 123 and 321 beta in (-90, 90), 313 beta in (0, 180) when alpha is in (-180, 180].
  const Vec3 e(0.3, -0.7, 2.9);
  EXPECT_LT((rot::R_to_euler123(rot::euler123_to_R(e)) - e).norm(), 1e-13);
  EXPECT_LT((rot::R_to_euler321(rot::euler321_to_R(e)) - e).norm(), 1e-13);
  const Vec3 e313(-2.5, 1.1, -3.0);
  EXPECT_LT((rot::R_to_euler313(rot::euler313_to_R(e313)) - e313).norm(), 1e-13);
  // A negative 313 beta comes back on MBDyn's branch: alpha + pi, -beta, gamma + pi.
  const Vec3 back = rot::R_to_euler313(rot::euler313_to_R(Vec3(0.4, -0.5, 0.6)));
  EXPECT_NEAR(back[0], 0.4 - M_PI, 1e-13);
  EXPECT_NEAR(back[1], 0.5, 1e-13);
  EXPECT_NEAR(back[2], 0.6 - M_PI, 1e-13);
}

TEST(EulerBranches, GimbalLockNeighbourhoodsRebuildTheMatrix) {
  // Near beta = +-90 (123, 321) and beta = 0, 180 (313) the split between alpha and gamma is
  // ill-conditioned, but MBDyn's atan2 forms still give angles that rebuild R to round-off, with
  // beta from atan2 (not asin/acos): no NaN at |entry| slightly above 1.
  for (double eps : {0.0, 1e-9, -1e-9, 1e-4}) {
    const Vec3 a(0.2, M_PI / 2 - eps, -0.4);
    const Mat3 R123 = rot::euler123_to_R(a);
    EXPECT_LT((rot::euler123_to_R(rot::R_to_euler123(R123)) - R123).norm(), 1e-12) << eps;
    const Mat3 R321 = rot::euler321_to_R(a);
    EXPECT_LT((rot::euler321_to_R(rot::R_to_euler321(R321)) - R321).norm(), 1e-12) << eps;
    const Mat3 R313 = rot::euler313_to_R(Vec3(0.2, eps, -0.4));
    EXPECT_LT((rot::euler313_to_R(rot::R_to_euler313(R313)) - R313).norm(), 1e-12) << eps;
  }
  Mat3 R = Mat3::Identity();
  R(2, 2) = 1.0 + 1e-15;  // the 313 beta of an entry just above 1 is 0, not NaN
  EXPECT_FALSE(std::isnan(rot::R_to_euler313(R)[1]));
}

TEST(EulerBranches, MovAndJntWriteTheCardsSequence) {
  // `default orientation: euler313`: the node at rest writes 180 0 -180 in the .mov (MBDyn's
  // StructNode::Output); the revolute hinge writes its relative rotation (identity) in the same
  // sequence (PlaneHingeJoint::Output); `orientation description` on the card overrides it.
  const auto run = mbl::test::run_deck_text("euler_branches", R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 2.e-3; time step: 1.e-3; end: initial value;
begin: control data; structural nodes: 3; rigid bodies: 2; joints: 3;
  default orientation: euler313; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, dynamic, 1., 0., 0., eye, null, null, orientation description, euler321;
  structural: 3, dynamic, 2., 0., 0., eye, null, null;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  body: 2, 2, 1., null, eye;
  body: 3, 3, 1., null, eye;
  joint: 2, revolute hinge, 1, position, .5, 0., 0., 2, position, -.5, 0., 0.;
  joint: 3, spherical hinge, 1, position, 1., 0., 0., 3, position, -1., 0., 0.,
    orientation description, orientation vector;
end: elements;
)");
  ASSERT_EQ(run.rc, 0) << mbl::test::read_file(run.dir / "log");
  const auto n1 = mbl::test::records(run.dir / "run.mov", 1);
  ASSERT_FALSE(n1.empty());
  EXPECT_EQ(n1.back()[3], 180.0);
  EXPECT_EQ(n1.back()[4], 0.0);
  EXPECT_EQ(n1.back()[5], -180.0);
  const auto n2 = mbl::test::records(run.dir / "run.mov", 2);
  ASSERT_FALSE(n2.empty());
  EXPECT_EQ(n2.front()[3], 0.0);  // 321 at rest
  EXPECT_EQ(n2.front()[5], 0.0);
  const auto hinge = mbl::test::records(run.dir / "run.jnt", 2);
  ASSERT_FALSE(hinge.empty());
  ASSERT_EQ(hinge.back().size(), 18u);
  EXPECT_EQ(hinge.back()[12], 180.0);
  EXPECT_EQ(hinge.back()[14], -180.0);
  const auto sph = mbl::test::records(run.dir / "run.jnt", 3);
  ASSERT_FALSE(sph.empty());
  ASSERT_EQ(sph.back().size(), 15u);
  EXPECT_EQ(sph.back()[12], 0.0);  // orientation vector of the identity
  std::filesystem::remove_all(run.dir);
}

// .jnt extra columns as MBDyn writes them (input manual §8.12, appendix C): the spherical hinge's
// Euler angles 123 of the relative orientation R_1h^T R_2h (degrees), and the pin's of its node's
// orientation (MBDyn's PinJoint::Output, spherj.cc).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/run_program.hpp"

TEST(JointColumns, SphericalHingeWritesTheRelativeEulerAngles) {
  namespace fs = std::filesystem;
  const fs::path dir = mbl::test::fresh_temp_dir("joint_columns");
  // Node 2 at rest, held by a spherical hinge to the clamped node 1 and by a spherical pin: the
  // hinge frames differ by euler123(10, 20, 30) degrees.
  std::ofstream(dir / "deck.mbd") << R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 2.e-3; time step: 1.e-3; end: initial value;
begin: control data; structural nodes: 2; rigid bodies: 1; joints: 3; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, dynamic, 1., 0., 0., eye, null, null;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  body: 2, 2, 1., null, eye;
  joint: 2, spherical hinge, 1, position, .5, 0., 0., orientation, eye,
    2, position, -.5, 0., 0., orientation, euler123, pi/18., pi/9., pi/6.;
  joint: 3, spherical pin, 2, position, null, position, 1., 0., 0.;
end: elements;
)";
  ASSERT_EQ(mbl::test::run_deck(dir / "deck.mbd", dir / "run", dir / "log"), 0) << mbl::test::read_file(dir / "log");
  const auto hinge = mbl::test::records(dir / "run.jnt", 2);
  ASSERT_FALSE(hinge.empty());
  ASSERT_EQ(hinge.back().size(), 15u);
  EXPECT_NEAR(hinge.back()[12], 10.0, 1e-4);
  EXPECT_NEAR(hinge.back()[13], 20.0, 1e-4);
  EXPECT_NEAR(hinge.back()[14], 30.0, 1e-4);
  const auto pin = mbl::test::records(dir / "run.jnt", 3);
  ASSERT_FALSE(pin.empty());
  ASSERT_EQ(pin.back().size(), 15u);
  EXPECT_NEAR(pin.back()[12], 0.0, 1e-6);  // node 2 stays at rest
  EXPECT_NEAR(pin.back()[14], 0.0, 1e-6);
  fs::remove_all(dir);
}

// `imposed orientation` (obsolete; MBDyn's joint.cc builds a total joint with the rotations
// imposed and the positions free) and `kinematic` (refused by MBDyn 2024).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "support/clamped_body_deck.hpp"
#include "support/run_program.hpp"

using namespace mbl;

namespace {

std::string deck(const std::string& joint) {
  return test::clamped_body_deck(
      "initial time: 0.; final time: 1.; time step: 0.01; tolerance: 1e-9; max iterations: 20;",
      "joints: 2; output precision: 16;", joint + ";");
}

}  // namespace

TEST(ImposedOrientation, ImposesTheRelativeRotationAndLeavesThePositionFree) {
  // Both hinge frames Rx(90 deg) (axis 1 = x, axis 2 = z): the imposed rotation vector (0, 0, t)
  // about the hinges' axis 3 = -y gives node 2 the rotation t about -y.
  const auto run = test::run_deck_text(
      "imposed_orientation",
      deck("joint: 2, imposed orientation, 1, 1, 1., 0., 0., 2, 0., 0., 1., 2, 1, 1., 0., 0., 2, 0., 0., 1., "
           "single, 0., 0., 1., linear, 0., 1."));
  ASSERT_EQ(run.rc, 0) << run.log();
  EXPECT_NE(run.log().find("using \"total joint\" instead"), std::string::npos) << run.log();
  const auto mov = test::last_record(run.output("mov"), 2);
  ASSERT_GE(mov.size(), 6u);
  EXPECT_NEAR(mov[0], 1.0, 1e-9);  // no force: the position stays
  EXPECT_NEAR(mov[1], 0.0, 1e-9);
  EXPECT_NEAR(mov[2], 0.0, 1e-9);
  EXPECT_NEAR(mov[3], 0.0, 1e-9);  // Euler 123 of a rotation by 1 rad about -y
  EXPECT_NEAR(mov[4], -180.0 / M_PI, 1e-7);
  EXPECT_NEAR(mov[5], 0.0, 1e-9);
}

TEST(ImposedOrientation, KinematicIsRefusedAsInMBDyn) {
  const auto run = test::run_deck_text("kinematic", deck("joint: 2, kinematic, 2, const, 0."));
  EXPECT_EQ(run.rc, 2) << run.log();
  EXPECT_NE(run.log().find("error: expected a total joint or total pin joint"), std::string::npos) << run.log();
}

// `conservative` forces and couples (MBDyn's former name of `absolute`, deck t.beam.bb_legacy):
// a free body under a constant conservative force and couple follows the analytical motion.
#include <gtest/gtest.h>


#include "support/run_program.hpp"

using namespace mbl;

TEST(ConservativeForce, IsAnAbsoluteForceInTheLegacyForm) {
  // Mass 2 under 5 along z (legacy form: direction, arm, amplitude): z = 5/2 t^2/2 at t = 1;
  // couple 3 about x on inertia 1.5: angular velocity 2 at t = 1.
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-2; tolerance: 1e-10; end: initial value;
begin: control data; structural nodes: 1; rigid bodies: 1; forces: 2; end: control data;
begin: nodes; structural: 1, dynamic, null, eye, null, null; end: nodes;
begin: elements;
  body: 1, 1, 2., null, diag, 1.5, 1., 1.;
  force: 1, conservative, 1, 0., 0., 1., null, const, 5.;
  couple: 2, conservative, 1, 1., 0., 0., const, 3.;
end: elements;
)";
  const auto run = test::run_deck_text("conservative", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto mov = test::last_record(run.output("mov"), 1);
  ASSERT_GE(mov.size(), 12u);
  EXPECT_NEAR(mov[2], 1.25, 1e-6);
  EXPECT_NEAR(mov[8], 2.5, 1e-6);  // v_z
  EXPECT_NEAR(mov[9], 2.0, 1e-6);  // omega_x
  EXPECT_NE(test::read_file(run.output("log")).find("structural absolute force: 1 1"), std::string::npos);
}

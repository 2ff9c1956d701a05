// `conservative` forces and couples (MBDyn's former name of `absolute`, deck t.beam.bb_legacy):
// a free body under a constant conservative force and couple follows the analytical motion.
#include <gtest/gtest.h>


#include "elements/forces/total_force.hpp"
#include "support/element_fixture.hpp"
#include "support/run_program.hpp"

using namespace mbl;
using namespace mbl::elements;

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

TEST(TotalForce, JacobianAgainstFiniteDifferences) {
  for (const bool internal : {false, true}) {
    test_support::ElementFixture f;
    TotalForceParams p;
    p.a = f.att(f.n1, 1);
    p.R_NM = rot::euler123_to_R(Vec3(-0.2, 0.4, 0.1));
    if (internal) p.b = f.att(f.n2, 2);
    p.force = [](double t) { return Vec3(1.0 + t, -2.0, 0.5); };
    p.moment = [](double t) { return Vec3(0.3, 0.7 * t, -1.1); };
    f.model.add_element(std::make_unique<TotalForce>(7, std::move(p)));
    const auto r = f.check();
    EXPECT_LT(r.max_error, 1e-6) << (internal ? "internal " : "single ") << r.str();
  }
}

namespace {

/// Node 1 turned 90 deg about z at the origin and node 2 at (2, 0, 0), both clamped; `loads` are
/// the two force cards.
std::string two_clamped_nodes(const std::string& loads) {
  return R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.e-3; time step: 1.e-3; end: initial value;
begin: control data; structural nodes: 2; forces: 2; joints: 2; end: control data;
begin: nodes;
  structural: 1, static, null, 3, 0., 0., 1., 1, 0., 1., 0., null, null;
  structural: 2, static, 2., 0., 0., eye, null, null;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node; joint: 2, clamp, 2, node, node;
  )" + loads + R"(
end: elements;
)";
}

}  // namespace

TEST(TotalForce, FollowsNodeOneAndBalancesInternally) {
  // A node rotated 90 degrees about z: the force (1, 0, 0) given in its frame points along y.
  // Internal: the pair of loads sums to zero force and zero moment about the origin.
  const auto run = test::run_deck_text("total_force", two_clamped_nodes(R"(
  force: 1, total, 1, position, 0., 0., 1., force orientation, eye, force, single, 1., 0., 0., const, 10.,
    moment, single, 0., 0., 1., const, 3.;
  force: 2, total internal, 1, 2, position, 0., 1., 0., force, single, 1., 0., 0., const, 5.;
)"));
  ASSERT_EQ(run.rc, 0) << run.log();
  // The clamps' multipliers (what .jnt writes) equal the loads applied to their nodes: node 1
  // carries 10 along y (force 1) plus 5 along y (force 2) and node 2 carries -5 along y.
  const auto j1 = test::last_record(run.output("jnt"), 1), j2 = test::last_record(run.output("jnt"), 2);
  ASSERT_GE(j1.size(), 9u);
  ASSERT_GE(j2.size(), 9u);
  // .jnt: local reaction force (3), local moment (3), global force (3), global moment (3).
  EXPECT_NEAR(j1[7], 15.0, 1e-9);
  EXPECT_NEAR(j2[7], -5.0, 1e-9);
  // Force 1 at arm (0, 0, 1) from node 1: moment (0,0,1) x (0,10,0) = (-10, 0, 0), plus the couple
  // 3 about z (node 1's z is global z). Force 2 on node 1 at arm x2 + (0,1,0) - x1 = (2, 1, 0):
  // (2,1,0) x (0,5,0) = (0, 0, 10).
  EXPECT_NEAR(j1[9], -10.0, 1e-9);
  EXPECT_NEAR(j1[11], 3.0 + 10.0, 1e-9);
  // Node 2: -(b2 x f) = -((0,1,0) x (0,5,0)) = 0.
  EXPECT_NEAR(j2[11], 0.0, 1e-9);
}

// MBDyn reads `couple: ..., total [internal]` into the same total force element: the same loads.
TEST(TotalForce, TotalCoupleCardsApplyTheSameLoads) {
  const auto deck = [](const std::string& card) {
    return two_clamped_nodes(card + ": 1, total, 1, moment, single, 0., 0., 1., const, 3.;\n" + card +
                             ": 2, total internal, 1, 2, moment, single, 1., 0., 0., const, 2.;\n");
  };
  const auto forces = test::run_deck_text("total_as_forces", deck("force"));
  const auto couples = test::run_deck_text("total_as_couples", deck("couple"));
  ASSERT_EQ(forces.rc, 0) << forces.log();
  ASSERT_EQ(couples.rc, 0) << couples.log();
  EXPECT_EQ(test::read_file(couples.output("jnt")), test::read_file(forces.output("jnt")));
  EXPECT_EQ(test::read_file(couples.output("frc")), test::read_file(forces.output("frc")));
  // Node 1 (turned 90 deg about z) carries 3 about z and the internal 2 about its x = global y.
  const auto j1 = test::last_record(couples.output("jnt"), 1);
  EXPECT_NEAR(j1[11], 3.0, 1e-9);
  EXPECT_NEAR(j1[10], 2.0, 1e-9);
}

// Total equation / total internal reaction (input manual §8.12.47, §8.12.50): the constraint
// equations of a total joint between two nodes, whose multipliers a reaction element applies
// to another pair of nodes. Finite-difference Jacobian and an imposed motion against Newton's law.
#include <gtest/gtest.h>


#include "elements/drives/template_drive.hpp"
#include "elements/joints/total_joint.hpp"
#include "support/element_fixture.hpp"
#include "support/run_program.hpp"

using namespace mbl;
using namespace mbl::elements;

namespace {

using Status = TotalJoint::Status;

TotalSide side(StructNode* n, int k) {
  return {n, Vec3(0.1 * k, -0.2, 0.15 * k), rot::euler123_to_R(Vec3(0.1 * k, -0.2, 0.3 * k)),
          rot::euler123_to_R(Vec3(-0.2, 0.1 * k, 0.25))};
}

}  // namespace

/// Node 2 (mass 2) and node 3 (mass 3) welded by total joint 6 beside node 1, clamped: the
/// `equation_and_reaction` cards (joints 7 and 8) move them.
static std::string welded_pair_deck(const std::string& equation_and_reaction) {
  return R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-2; tolerance: 1e-10; end: initial value;
begin: control data; structural nodes: 3; rigid bodies: 2; joints: 4; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, dynamic, 1., 0., 0., eye, null, null;
  structural: 3, dynamic, 1., 0., 0., eye, null, null;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  joint: 6, total joint, 2, 3, position constraint, active, active, active, null,
    orientation constraint, active, active, active, null;
  body: 2, 2, 2., null, eye;
  body: 3, 3, 3., null, eye;
)" + equation_and_reaction + "end: elements;\n";
}

TEST(TotalEquation, EquationAndReactionJacobiansAgainstFiniteDifferences) {
  test_support::ElementFixture f;
  auto* n3 = static_cast<StructNode*>(&f.model.add_node(
      std::make_unique<StructNode>(3, StructNode::Type::Dynamic, test_support::generic_ic(3))));
  TotalJoint::Params eq;
  eq.flavor = TotalJoint::Flavor::Equation;
  eq.a = side(f.n1, 1);
  eq.b = side(f.n2, 2);
  eq.position = {Status::Position, Status::Inactive, Status::Position};
  eq.rotation = {Status::Position, Status::Position, Status::Inactive};
  eq.x0 = std::make_shared<drives::TplSingleDrive<Vec3>>(Vec3(0.1, 0.2, -0.3), std::make_shared<ConstDrive>(1.0));
  f.model.add_element(std::make_unique<TotalJoint>(7, eq));
  TotalJoint::Params re;
  re.flavor = TotalJoint::Flavor::Reaction;
  re.a = side(f.n1, 3);
  re.b = side(n3, 4);
  re.position = {Status::Position, Status::Inactive, Status::Position};
  re.rotation = {Status::Position, Status::Position, Status::Inactive};
  re.equation_label = 7;
  f.model.add_element(std::make_unique<TotalJoint>(8, re));
  const auto r = f.check();
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

TEST(TotalEquation, ImposedMotionIsDrivenByTheReaction) {
  // Node 2 follows x = 1 + t^2 relative to the clamped node 1 (total equation 7); nodes 2 and 3
  // are welded (total joint 6); the force that does it acts between node 1 and node 3 (total
  // internal reaction 8): with masses 2 and 3, node 3 receives (2 + 3) * 2 along x, and the
  // reaction reports the force on node 1, -10.
  const std::string deck = welded_pair_deck(R"(
  joint: 7, total equation, 1, 2, position constraint, active, active, active,
    component, string, "1. + Time^2", 0., 0.;
  joint: 8, total internal reaction, 1, 3, position constraint, active, active, active, total equation, 7;
)");
  const auto run = test::run_deck_text("total_equation", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto mov = test::last_record(run.output("mov"), 2);
  ASSERT_GE(mov.size(), 3u);
  EXPECT_NEAR(mov[0], 2.0, 1e-9);
  const auto jnt = test::last_record(run.output("jnt"), 8);
  ASSERT_GE(jnt.size(), 12u);
  EXPECT_NEAR(jnt[6], -10.0, 1e-6);
  EXPECT_NEAR(jnt[7], 0.0, 1e-9);
  const auto eq = test::last_record(run.output("jnt"), 7);
  ASSERT_GE(eq.size(), 13u);
  EXPECT_DOUBLE_EQ(eq[6], 0.0);     // the equation applies no force itself
  EXPECT_NEAR(eq[12], 2.0, 1e-9);  // relative position x
}

TEST(TotalEquation, ReactionWithoutEquationIsAnInputError) {
  const auto run = test::run_deck_text("total_reaction_bad", R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-2; end: initial value;
begin: control data; structural nodes: 2; joints: 2; end: control data;
begin: nodes; structural: 1, static, null, eye, null, null; structural: 2, static, null, eye, null, null; end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  joint: 8, total internal reaction, 1, 2, position constraint, active, active, active, total equation, 1;
end: elements;
)");
  EXPECT_NE(run.rc, 0);
  EXPECT_NE(run.log().find("expected a total equation"), std::string::npos) << run.log();
}

TEST(TotalEquation, ReactionTakesTheEquationsMultipliersInOrder) {
  // As MBDyn's TotalReaction: the reaction's first active component (its y axis, turned onto the
  // global x) applies the equation's first multiplier (its x component), whatever the
  // components the equation constrains (deck t.invdyn.aero.oneblade-rf pairs a position
  // equation with an orientation reaction). Same motion and force as above.
  const std::string deck = welded_pair_deck(R"(
  joint: 7, total equation, 1, 2, position constraint, active, inactive, inactive,
    component, string, "1. + Time^2", 0., 0.;
  joint: 8, total internal reaction,
    1, position orientation, 1, 0., -1., 0., 3, 0., 0., 1.,
    3, position orientation, 1, 0., -1., 0., 3, 0., 0., 1.,
    position constraint, inactive, active, inactive, total equation, 7;
)");
  const auto run = test::run_deck_text("total_reaction_order", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto mov = test::last_record(run.output("mov"), 2);
  ASSERT_GE(mov.size(), 3u);
  EXPECT_NEAR(mov[0], 2.0, 1e-9);
  EXPECT_NEAR(mov[1], 0.0, 1e-9);
  const auto jnt = test::last_record(run.output("jnt"), 8);
  ASSERT_GE(jnt.size(), 12u);
  EXPECT_NEAR(jnt[6], -10.0, 1e-6);
  EXPECT_NEAR(jnt[7], 0.0, 1e-9);
}

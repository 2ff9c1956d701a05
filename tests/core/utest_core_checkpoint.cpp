// A step retried after a failure starts again from the state saved at its start
// (Model::save_checkpoint / restore_checkpoint): an ESDIRK step whose first stages converged
// before a later stage failed has pushed those stages into the nodes' rings and moved their
// reference orientations; the retry must not rebase on them. A free asymmetric body spinning
// under gravity: the retried run must give, bit for bit, what a run that took the smaller step
// from the start gives.
#include <gtest/gtest.h>

#include <cmath>

#include "support/retried_step.hpp"

namespace {

using mbl::Vector;
namespace integ = mbl::integrators;

const std::string kDeck = std::string(mbl::test::kRetriedStepHeader) + R"(begin: control data;
	structural nodes: 2;
	rigid bodies: 1;
	gravity;
end: control data;
begin: nodes;
	structural: 1, dynamic, null, euler123, 0.3, -0.2, 0.1, 0.1, 0., 0.2, 3., 1., 5.;
	structural: 2, dummy, 1, offset, 0.5, 0., 0., eye;
end: nodes;
begin: elements;
	body: 1, 1, 2., reference, node, 0.02, 0.01, 0.1, diag, 0.01, 0.02, 0.03;
	gravity: uniform, 0., 0., -1., 9.81;
end: elements;
)";

/// The deck `deck` (kDeck by default) stepped by hand (tests/support/retried_step.hpp).
struct Solve : mbl::test::StepBySteps {
  explicit Solve(const char* method, const std::string& deck = kDeck) : StepBySteps(method, deck) {}
  const mbl::StructNode& node(unsigned label) const { return *model.find_struct_node(label); }
};

void expect_same_state(const Solve& a, const Solve& b, const char* when) {
  EXPECT_EQ(a.integrator->time(), b.integrator->time()) << when;
  EXPECT_EQ(a.integrator->y(), b.integrator->y()) << when;
  EXPECT_EQ(a.integrator->yp(), b.integrator->yp()) << when;
  for (unsigned label : {1u, 2u}) {
    EXPECT_EQ(a.node(label).R_WN(), b.node(label).R_WN()) << when << ", node " << label;
    EXPECT_EQ(a.node(label).w_W(), b.node(label).w_W()) << when << ", node " << label;
    EXPECT_EQ(a.node(label).R_prev_WN(), b.node(label).R_prev_WN()) << when << ", node " << label;
    EXPECT_EQ(a.node(label).x_prev_W(), b.node(label).x_prev_W()) << when << ", node " << label;
  }
  EXPECT_EQ(a.node(1).R_ref(), b.node(1).R_ref()) << when;
}

class RetriedStep : public ::testing::TestWithParam<const char*> {};

TEST_P(RetriedStep, EqualsTheSmallerStepTakenFromTheStart) {
  const double dt = 0.05;
  Solve retried(GetParam()), direct(GetParam());
  for (Solve* r : {&retried, &direct}) ASSERT_TRUE(r->step(dt));
  // The step to 2 dt fails at its last stage, after the earlier stages converged.
  retried.problem.fail_time = 2 * dt;
  retried.problem.armed = true;
  ASSERT_FALSE(retried.step(dt));
  retried.problem.armed = false;
  EXPECT_EQ(retried.integrator->time(), dt);
  // Retried with half the step, then on: the same numbers as the run that never failed.
  for (Solve* r : {&retried, &direct}) {
    r->newton.invalidate_jacobian();
    ASSERT_TRUE(r->step(dt / 2));
  }
  expect_same_state(retried, direct, "after the retried step");
  for (int k = 0; k < 3; ++k)
    for (Solve* r : {&retried, &direct}) ASSERT_TRUE(r->step(dt / 2));
  expect_same_state(retried, direct, "three steps later");
}

TEST_P(RetriedStep, RestoresElementLawAndDriveState) {
  // Fails without Model::restore_checkpoint() giving back the elements' and drives' memory: the
  // stages of the failed step committed the law's viscous strain and the filter's sample.
  mbl::test::expect_retry_equals_direct(GetParam(), mbl::test::kStatefulDeck, 0.05, 2, 6);
}

INSTANTIATE_TEST_SUITE_P(Esdirk, RetriedStep, ::testing::Values("Bathe", "mssth3", "DIRK54", "ms"));

}  // namespace

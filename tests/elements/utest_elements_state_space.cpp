// State space genels (input manual §8.9.1): finite-difference Jacobian and the step response of
// a first-order system against its exponential.
#include <gtest/gtest.h>

#include <cmath>

#include "elements/drives/drive_callers.hpp"
#include "elements/genels/state_space.hpp"
#include "elements/nodes/abstract_node.hpp"
#include "support/element_fixture.hpp"
#include "support/run_program.hpp"

using namespace mbl;
using namespace mbl::elements;

TEST(StateSpaceGenel, JacobianAgainstFiniteDifferences) {
  // Two states, descriptor form, inputs from a structural node velocity, a differential abstract
  // node's value and a drive; outputs to an algebraic and a differential abstract node.
  test_support::ElementFixture f;
  auto& a_in = static_cast<AbstractNode&>(f.model.add_node(std::make_unique<AbstractNode>(3, true, 0.3, 0.1)));
  auto& a_out1 = static_cast<AbstractNode&>(f.model.add_node(std::make_unique<AbstractNode>(4, false, 0.2, 0.0)));
  auto& a_out2 = static_cast<AbstractNode&>(f.model.add_node(std::make_unique<AbstractNode>(5, true, -0.4, 0.2)));
  StateSpaceParams p;
  p.outputs = {NodeDof{&a_out1, 0, false}, NodeDof{&a_out2, 0, false}};
  p.inputs.push_back({NodeDof{f.n1, 1, true}, nullptr});
  p.inputs.push_back({NodeDof{&a_in, 0, false}, nullptr});
  p.inputs.push_back({std::nullopt, std::make_shared<ConstDrive>(0.8)});
  p.E = Matrix{{1.5, 0.2}, {-0.1, 0.9}};
  p.A = Matrix{{-1.0, 2.0}, {-3.0, -0.5}};
  p.B = Matrix{{1.0, 0.3, -0.2}, {0.4, -1.1, 0.6}};
  p.C = Matrix{{0.7, -0.2}, {1.3, 0.5}};
  p.D = Matrix{{0.1, 0.2, 0.3}, {-0.4, 0.5, 0.0}};
  p.x0 = Vector{{0.25, -0.35}};
  p.xp0 = Vector{{0.1, 0.05}};
  f.model.add_element(std::make_unique<StateSpaceGenel>(1, std::move(p), false));
  const auto r = f.check();
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

TEST(StateSpaceGenel, FirstOrderStepResponseIsAnExponential) {
  // x' = -a x + a u, y = x, u = 1 from t = 0: y(t) = 1 - exp(-a t); the second output is the
  // same system with the feedthrough D = 1 and C halved by `gain`: y2 = 0.5 x + 1.
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-3; tolerance: 1e-10; end: initial value;
begin: control data; abstract nodes: 2; genels: 2; default output: all, abstract nodes; end: control data;
set: real A = 2.;
begin: nodes; abstract: 1, algebraic; abstract: 2, algebraic; end: nodes;
begin: elements;
  genel: 1, state space SISO, 1, abstract, algebraic, drive, const, 1., 1,
    matrix A, -A, matrix B, A, matrix C, 1.;
  genel: 2, state space SISO, 2, abstract, algebraic, drive, const, 1., 1,
    matrix A, -A, matrix B, A, matrix C, 1., matrix D, 2., gain, .5, balance, no, value, 0.;
end: elements;
)";
  const auto run = test::run_deck_text("state_space", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto y1 = test::last_record(run.output("abs"), 1);
  const auto y2 = test::last_record(run.output("abs"), 2);
  ASSERT_EQ(y1.size(), 1u);
  ASSERT_EQ(y2.size(), 1u);
  const double x = 1.0 - std::exp(-2.0);
  EXPECT_NEAR(y1[0], x, 1e-5);
  EXPECT_NEAR(y2[0], 0.5 * x + 1.0, 1e-5);
}

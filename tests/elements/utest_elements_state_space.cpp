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
  const Matrix B = p.B, D = p.D;
  auto& genel = static_cast<StateSpaceGenel&>(f.model.add_element(std::make_unique<StateSpaceGenel>(1, std::move(p), "state space MIMO")));
  // MBDyn's GenelStateSpaceMIMO::AssJac (elec/genfilt.cc): the node inputs' columns of the state
  // rows hold +B (times dCoef for a value, 1 for a derivative), the opposite of dr/du, and the
  // feedthrough D is left out; taken back before the check, the rest is the derivative.
  f.known_deviation = [&](Eigen::MatrixXd& J, const Vector&, double dCoef) {
    const int cols[2] = {f.n1->dof_index() + 1, a_in.first_index()};
    const double coef[2] = {1.0, dCoef};
    const int out_rows[2] = {a_out1.first_index(), a_out2.first_index()};
    for (int j = 0; j < 2; ++j) {
      for (int k = 0; k < 2; ++k) J(genel.first_index() + k, cols[j]) -= 2.0 * B(k, j) * coef[j];
      for (int i = 0; i < 2; ++i) J(out_rows[i], cols[j]) -= D(i, j) * coef[j];
    }
  };
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

TEST(ScalarFilterGenel, CanonicalFormsMatchTheStateSpaceRealisation) {
  // Mayo's pilot H(s) = (4.02 s + 555.4) / (s^2 + 13.31 s + 555.4) as a state space SISO genel
  // and as scalar filters in both canonical forms: the three outputs coincide. A proper filter
  // (s^2 + 2 d w s + w^2)/(s^2 + 2 w s + w^2) equals 1 + (2 (d - 1) w s)/(...) (the notch test),
  // and a pure gain (orders 0) is its gain.
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: .5; time step: 1.e-3; tolerance: 1e-10; end: initial value;
begin: control data; abstract nodes: 6; genels: 6; default output: all, abstract nodes; end: control data;
set: real w = 20.; set: real d = .1;
begin: nodes; abstract: 1, algebraic; abstract: 2, algebraic; abstract: 3, algebraic;
  abstract: 4, algebraic; abstract: 5, algebraic; abstract: 6, algebraic; end: nodes;
begin: elements;
  genel: 1, state space SISO, 1, abstract, algebraic, drive, sine, 0., 30., 1., forever, 0., 2,
    matrix A, -13.31, -555.4, 1., 0., matrix B, 1., 0., matrix C, 4.02, 555.4;
  genel: 2, scalar filter, 2, abstract, algebraic, drive, sine, 0., 30., 1., forever, 0.,
    canonical form, controllable, 2, 13.31, 555.4, 1, 4.02, 555.4;
  genel: 3, scalar filter, 3, abstract, algebraic, drive, sine, 0., 30., 1., forever, 0.,
    canonical form, observable, 2, 13.31, 555.4, 1, 2.01, 277.7, gain, 2., balance, yes;
  genel: 4, state space SISO, 4, abstract, algebraic, drive, sine, 0., 30., 1., forever, 0., 2,
    matrix A, -2.*w, -(w^2), 1., 0., matrix B, 1., 0., matrix C, 2.*(d - 1.)*w, 0., matrix D, 1.;
  genel: 5, scalar filter, 5, abstract, algebraic, drive, sine, 0., 30., 1., forever, 0.,
    canonical form, observable, 2, 2.*w, w^2, 2, 1., 2.*d*w, w^2;
  genel: 6, scalar filter, 6, abstract, algebraic, drive, sine, 0., 30., 1., forever, 0., 0, 0, 3.;
end: elements;
)";
  const auto run = test::run_deck_text("scalar_filter", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const std::string abs = run.output("abs");
  const double y1 = test::last_record(abs, 1).at(0), y4 = test::last_record(abs, 4).at(0);
  EXPECT_GT(std::abs(y1), 1e-3);
  EXPECT_LT(std::abs(y4), 0.4);  // the notch attenuates the input at 30 rad/s (|H| = 0.395)
  EXPECT_NEAR(test::last_record(abs, 2).at(0), y1, 1e-9);
  EXPECT_NEAR(test::last_record(abs, 3).at(0), y1, 1e-9);
  EXPECT_NEAR(test::last_record(abs, 5).at(0), y4, 1e-9);
  EXPECT_NEAR(test::last_record(abs, 6).at(0), 3.0 * std::sin(30.0 * 0.5), 1e-6);  // 7 digits in .abs
}

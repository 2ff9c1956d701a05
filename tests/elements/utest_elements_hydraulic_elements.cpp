// Hydraulic elements (input manual §8.11): finite-difference Jacobians of every element in each
// flow regime, and closed forms of their laws between imposed pressures.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "elements/hydraulics/accumulator.hpp"
#include "elements/hydraulics/actuator.hpp"
#include "elements/hydraulics/minor_losses.hpp"
#include "elements/hydraulics/pipes.hpp"
#include "elements/hydraulics/tank.hpp"
#include "elements/hydraulics/valves.hpp"
#include "elements/drives/drive_callers.hpp"
#include "support/element_fixture.hpp"
#include "support/run_program.hpp"

using namespace mbl;
using namespace mbl::elements::hydraulics;

namespace {

HydraulicFluidPtr oil(HydraulicFluid::Type type = HydraulicFluid::Type::LinearCompressible) {
  auto f = std::make_shared<HydraulicFluid>();
  f->type = type;
  f->density0 = 850.0;
  f->beta = 1.5e3;  // soft, so that d(rho)/dp shows in the Jacobian at unit pressures
  f->pressure0 = 0.5;
  f->viscosity0 = 0.05;
  return f;
}

struct HydraulicFixture : test_support::ElementFixture {
  PressureNode& node(unsigned label, double p0) {
    return static_cast<PressureNode&>(model.add_node(std::make_unique<PressureNode>(label, p0)));
  }
  /// Nodes 3, 4, 6, 7 (the four ways of the valves).
  std::array<PressureNode*, 4> four_nodes() { return {&node(3, 1.0), &node(4, 0.8), &node(6, 0.9), &node(7, 0.2)}; }
  /// Jacobian check with the given pressures (in node order) and own unknowns left as set.
  test_support::JacobianCheck check_at(std::vector<std::pair<PressureNode*, double>> pressures,
                                       std::function<void(Vector&)> more = {}) {
    return check(0.37, [&](Vector& y) {
      for (auto& [n, p] : pressures) y[n->first_index()] = p;
      if (more) more(y);
    });
  }
};

PipeParams pipe_params(PressureNode& a, PressureNode& b, double diameter, HydraulicFluidPtr fluid, double length = 2.0) {
  PipeParams p;
  p.node1 = &a;
  p.node2 = &b;
  p.diameter = diameter;
  p.area = diameter * diameter * std::numbers::pi / 4.0;
  p.length = length;
  p.fluid = std::move(fluid);
  return p;
}

/// A dynamic control valve's spool between `nodes` (force 0.3, stroke 0.01).
DynamicControlValveParams spool_valve(std::array<const PressureNode*, 4> nodes) {
  DynamicControlValveParams q;
  q.nodes = nodes;
  q.force = std::make_shared<mbl::ConstDrive>(0.3);
  q.stroke_max = 0.01, q.width = 0.02, q.loss = 0.01, q.valve_diameter = 0.01, q.valve_density = 7900.;
  q.c_displacement = 1e3;
  q.fluid = oil();
  return q;
}

/// MBDyn's Dynamic_control_valve and Pressure_flow_control_valve::AssJac (hydr/valve.cc) write
/// the four flows' derivatives with respect to the spool displacement (Jac15..Jac45, Jac17..Jac47)
/// with the opposite sign, which the element reproduces: taken back before the check.
void flip_flows_spool_column(Eigen::MatrixXd& J, std::array<const PressureNode*, 4> nodes, int spool) {
  for (const PressureNode* n : nodes) J(n->first_index(), spool) = -J(n->first_index(), spool);
}

}  // namespace

TEST(HydraulicJacobians, PipeInEachRegime) {
  // Mass flows chosen for Re = 4 q / (pi D mu) below 2000, in the transition and above 4000; a
  // short wide pipe keeps the loss (and the finite differences' round-off) near unity.
  auto viscous = std::make_shared<HydraulicFluid>(*oil());
  viscous->viscosity0 = 1.0;
  for (double q : {100., 450., 1000.}) {
    HydraulicFixture f;
    auto& a = f.node(3, 1.0);
    auto& b = f.node(4, 0.8);
    auto* pipe = static_cast<Pipe*>(&f.model.add_element(std::make_unique<Pipe>(5, pipe_params(a, b, 0.2, viscous, 0.002))));
    const auto r = f.check_at({{&a, 1.3}, {&b, 0.7}}, [&](Vector& y) { y[pipe->first_index()] = q; });
    EXPECT_LT(r.max_error, 1e-6) << "q " << q << ": " << r.str();
  }
}

TEST(HydraulicJacobians, DynamicPipeInEachRegime) {
  for (double q : {0.01, 0.3, 0.6}) {  // Re = 12700 (q1 + q2) / 2: laminar, transition, turbulent
    for (auto type : {HydraulicFluid::Type::LinearCompressible, HydraulicFluid::Type::Super}) {
      HydraulicFixture f;
      auto& a = f.node(3, 1.0);
      auto& b = f.node(4, 0.8);
      auto* pipe =
          static_cast<DynamicPipe*>(&f.model.add_element(std::make_unique<DynamicPipe>(5, pipe_params(a, b, 0.002, oil(type)))));
      const auto r = f.check_at({{&a, 1.3}, {&b, 0.7}}, [&](Vector& y) {
        const int i = pipe->first_index();
        y[i] = 1.25, y[i + 1] = 0.75, y[i + 2] = q, y[i + 3] = 0.8 * q;
      });
      EXPECT_LT(r.max_error, 1e-6) << "q " << q << ": " << r.str();
    }
  }
}

TEST(HydraulicJacobians, MinorLossesAndOrifice) {
  for (double p2 : {0.7, 1.6}) {
    HydraulicFixture f;
    auto& a = f.node(3, 1.0);
    auto& b = f.node(4, 0.8);
    auto& c = f.node(6, 0.9);
    f.model.add_element(std::make_unique<MinorLoss>(7, &a, &b, 0.8, 1.2, 1e-4, oil()));
    f.model.add_element(std::make_unique<ThreeWayMinorLoss>(8, &a, &b, &c, 0.8, 1.2, 1e-4, 2e-4, oil()));
    // critical jump ~ 0.3: one orifice laminar, one turbulent
    f.model.add_element(std::make_unique<Orifice>(9, &a, &b, 0.01, 2e-5, 7.85e-5, 10.0, oil()));
    f.model.add_element(std::make_unique<Orifice>(10, &b, &c, 0.01, 2e-5, 7.85e-5, 1e4, oil()));
    const auto r = f.check_at({{&a, 1.3}, {&b, p2}, {&c, 1.1}});
    EXPECT_LT(r.max_error, 1e-6) << r.str();
  }
}

TEST(HydraulicJacobians, ActuatorBetweenMovingNodes) {
  HydraulicFixture f;
  auto& a = f.node(3, 1.0);
  auto& b = f.node(4, 0.8);
  ActuatorParams p;
  p.hyd1 = &a;
  p.hyd2 = &b;
  p.node1 = f.n1;
  p.node2 = f.n2;
  p.offset1_N = Vec3(0.1, -0.05, 0.2);
  p.offset2_N = Vec3(-0.02, 0.3, 0.1);
  p.axis_N1 = Vec3(0.2, 0.3, 1.0).normalized();
  p.area1 = 2e-3;
  p.area2 = 1.5e-3;
  p.length = 1.2;
  p.fluid1 = oil();
  p.fluid2 = oil(HydraulicFluid::Type::Super);
  auto* act = static_cast<Actuator*>(&f.model.add_element(std::make_unique<Actuator>(5, std::move(p))));
  const auto r = f.check_at({{&a, 1.3}, {&b, 0.7}}, [&](Vector& y) {
    y[act->first_index()] = 1.2, y[act->first_index() + 1] = 0.6;
  });
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

TEST(HydraulicJacobians, Valves) {
  for (double state : {0.6, -0.4}) {
    HydraulicFixture f;
    auto [a, b, c, d] = f.four_nodes();
    f.model.add_element(std::make_unique<ControlValve>(8, std::array<const PressureNode*, 4>{a, b, c, d}, 1e-4, 0.01,
                                                       std::make_shared<mbl::ConstDrive>(state), oil()));
    FlowValveParams p;
    p.nodes = {a, b, c};
    p.area_diaphragm = 1e-4, p.mass = 0.1, p.area_pipe = 2e-4, p.area_max = 3e-4, p.stiffness = 50., p.preload = 0.1;
    p.width = 0.01, p.stroke_max = 0.01, p.c_displacement = 1e3;
    // (the velocity and acceleration penalties switch on the sign of s' and v', zero here)
    p.fluid = oil();
    auto* fv = static_cast<FlowValve*>(&f.model.add_element(std::make_unique<FlowValve>(9, std::move(p))));
    DynamicControlValveParams q = spool_valve({a, b, c, d});
    PressureValveParams pv;
    pv.nodes = {b, d};
    pv.area_diaphragm = 1e-4, pv.mass = 0.1, pv.area_max = 3e-4, pv.stroke_max = 0.01, pv.stiffness = 50., pv.width = 0.01;
    pv.c_displacement = 1e3;
    pv.fluid = oil();
    auto* pvv = static_cast<PressureValve*>(&f.model.add_element(std::make_unique<PressureValve>(11, std::move(pv))));
    auto* dcv = static_cast<DynamicControlValve*>(&f.model.add_element(std::make_unique<DynamicControlValve>(10, std::move(q))));
    // (the nodes captured as an array: clang before 16 cannot capture structured bindings)
    const std::array<const PressureNode*, 4> valve_nodes{a, b, c, d};
    f.known_deviation = [&, valve_nodes](Eigen::MatrixXd& J, const Vector&, double) {
      flip_flows_spool_column(J, valve_nodes, dcv->first_index());
    };
    const auto r = f.check_at({{a, 1.3}, {b, 0.7}, {c, 1.1}, {d, 0.2}}, [&](Vector& y) {
      y[fv->first_index()] = state > 0 ? 0.004 : -0.001;  // inside the stroke, then past its start
      y[fv->first_index() + 1] = 0.3;
      y[dcv->first_index()] = state > 0 ? 0.004 : -0.012;  // open 1-2/3-4, then 1-3/2-4 past -s_max
      y[dcv->first_index() + 1] = 0.2;
      y[pvv->first_index()] = state > 0 ? 0.012 : 0.005;  // past its end, then inside the stroke
      y[pvv->first_index() + 1] = -0.1;
    });
    EXPECT_LT(r.max_error, 1e-6) << r.str();
  }
}

TEST(HydraulicJacobians, AccumulatorWithGasAndSpring) {
  HydraulicFixture f;
  auto& a = f.node(3, 1.0);
  AccumulatorParams p;
  p.node = &a;
  p.stroke = 0.1, p.start = 0.02, p.area = 1e-3, p.area_pipe = 2e-4, p.mass = 0.5;
  p.loss_in = p.loss_out = 0.8;  // (the loss switches on the sign of s', zero here)
  p.gas_p0 = 0.5, p.gas_p_max = 5.0, p.gas_exponent = 1.4, p.spring = 20., p.preload = 0.1, p.c_displacement = 1e3;
  p.fluid = oil();
  auto* acc = static_cast<Accumulator*>(&f.model.add_element(std::make_unique<Accumulator>(5, std::move(p))));
  for (double s : {0.03, -0.01}) {  // inside the stroke (gas law), past its start (penalty)
    const auto r = f.check_at({{&a, 1.3}}, [&](Vector& y) { y[acc->first_index()] = s, y[acc->first_index() + 1] = 0.2; });
    EXPECT_LT(r.max_error, 1e-6) << r.str();
  }
}

TEST(HydraulicLaws, AccumulatorGasAtRestBalancesTheNodePressure) {
  // Node pressure imposed: the piston is at rest where the gas pressure p0 (l / (l - s))^k equals
  // it, s = l (1 - (p0 / p)^(1/k)); started there, it stays (a wrong gas law would move it).
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-3; tolerance: 1e-9; end: initial value;
begin: control data; hydraulic nodes: 1; hydraulic elements: 1; genels: 1; end: control data;
begin: nodes; hydraulic: 1, 2.e5; end: nodes;
begin: elements;
  genel: 1, clamp, 1, hydraulic, const, 2.e5;
  hydraulic: 1, accumulator, 1, .1, start, .1*(1. - .5^(1./1.4)), 1.e-3, 1.e-4, 1., gas, 1.e5, 1.e6, 1.4, 1.e5, 1.e3, 0.,
    hydraulic fluid, incompressible, density, 850., viscosity, .05;
end: elements;
)";
  const auto run = test::run_deck_text("accumulator", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto hyd = test::last_record(run.output("hyd"), 1);
  ASSERT_EQ(hyd.size(), 6u);
  EXPECT_NEAR(hyd[0], .1 * (1. - std::pow(.5, 1. / 1.4)), 1e-8);
  EXPECT_NEAR(hyd[1], 0., 1e-8);
  EXPECT_NEAR(hyd[3], 2.e5, 2.e5 * 1e-5);  // gas pressure
}

namespace {

/// A deck with two hydraulic nodes clamped at p1, p2 and `element` between them; returns the
/// last .hyd record of element 1.
std::vector<double> between_imposed_pressures(const std::string& name, double p1, double p2, const std::string& element,
                                              double final_time = .01) {
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: )" + test::number_text(final_time) + R"(; time step: 1.e-3; tolerance: 1e-9; end: initial value;
begin: control data; hydraulic nodes: 2; hydraulic elements: 1; genels: 2; end: control data;
begin: nodes; hydraulic: 1, value, )" + test::number_text(p1) + R"(; hydraulic: 2, )" + test::number_text(p2) + R"(; end: nodes;
begin: elements;
  hydraulic fluid: 10, linear compressible, density, 850., 1.5e9, 1.e5, viscosity, 0.05;
  genel: 1, clamp, 1, hydraulic, const, )" + test::number_text(p1) + R"(;
  genel: 2, clamp, 2, hydraulic, const, )" + test::number_text(p2) + R"(;
  )" + element + R"(;
end: elements;
)";
  const auto run = test::run_deck_text(name, deck);
  EXPECT_EQ(run.rc, 0) << run.log();
  EXPECT_TRUE(std::filesystem::exists(run.output("prs")));
  return test::last_record(run.output("hyd"), 1);
}

/// Nodes 1-4 clamped at 2, 1, 1.5 and 0.1 MPa around the valve `card` (after its label), with an
/// incompressible fluid (and nodes 5, 6 at 0.5 MPa when `six_nodes`); returns the valve's .hyd
/// record at `record` (-1: the last).
std::vector<double> four_way_valve(const std::string& name, const std::string& card, bool six_nodes = false,
                                   int record = -1) {
  const std::string extra_nodes = six_nodes ? "hydraulic: 5, 5.e5; hydraulic: 6, 5.e5;" : "";
  const std::string extra_clamps = six_nodes ? "genel: 5, clamp, 5, hydraulic, const, 5.e5; genel: 6, clamp, 6, hydraulic, const, 5.e5;" : "";
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: .01; time step: 1.e-3; tolerance: 1e-9; end: initial value;
begin: control data; hydraulic nodes: )" + std::string(six_nodes ? "6" : "4") + R"(; hydraulic elements: 1; genels: )" +
                           std::string(six_nodes ? "6" : "4") + R"(; end: control data;
begin: nodes; hydraulic: 1, 2.e6; hydraulic: 2, 1.e6; hydraulic: 3, 1.5e6; hydraulic: 4, 1.e5; )" + extra_nodes + R"( end: nodes;
begin: elements;
  genel: 1, clamp, 1, hydraulic, const, 2.e6; genel: 2, clamp, 2, hydraulic, const, 1.e6;
  genel: 3, clamp, 3, hydraulic, const, 1.5e6; genel: 4, clamp, 4, hydraulic, const, 1.e5; )" + extra_clamps + R"(
  hydraulic: 1, )" + card + R"(, hydraulic fluid, incompressible, density, 850., viscosity, .05;
end: elements;
)";
  const auto run = test::run_deck_text(name, deck);
  EXPECT_EQ(run.rc, 0) << run.log();
  if (record < 0) return test::last_record(run.output("hyd"), 1);
  return test::records(run.output("hyd"), 1).at(static_cast<std::size_t>(record));
}

}  // namespace

TEST(HydraulicLaws, OrificeTurbulentFlow) {
  // q = Cd A sqrt(2 rho dp), Cd = 0.98 Cc / sqrt(1 - (Cc a)^2), Cc the contraction of a = A/A_pipe.
  const double p1 = 2.e6, p2 = 1.e6, D = 0.01, A = 2.e-5, A_pipe = D * D * 0.785;
  const auto hyd = between_imposed_pressures("orifice", p1, p2,
                                             "hydraulic: 1, orifice, 1, 2, 0.01, 2.e-5, fluid, reference, 10");
  ASSERT_EQ(hyd.size(), 4u);
  const double a = A / A_pipe;
  const double Cc = (((.4855 * a - .4971) * a + .158) * a + .1707) * a + .6005;
  const double Cd = .98 * Cc / std::sqrt(1. - Cc * a * Cc * a);
  const double rho = 850. + (1.5e6 - 1.e5) * 850. / 1.5e9;
  const double q = Cd * A * std::sqrt(2. * rho * (p1 - p2));
  EXPECT_NEAR(hyd[1], q, 1e-5 * q);  // .hyd has 6 significant digits
  EXPECT_EQ(hyd[3], 1.0);  // turbulent
}

TEST(HydraulicLaws, MinorLossFlowBothWays) {
  // q = rho A sqrt(2 |dp| / (k rho)) sign(dp), k12 forward, k21 backward.
  const double rho = 850. + (1.5e6 - 1.e5) * 850. / 1.5e9;
  for (auto [p1, p2, k] : {std::tuple{2.e6, 1.e6, 0.5}, std::tuple{1.e6, 2.e6, 2.0}}) {
    const auto hyd = between_imposed_pressures("minor_loss", p1, p2,
                                               "hydraulic: 1, minor loss, 1, 2, 0.5, 2.0, 1.e-4, fluid, reference, 10");
    ASSERT_EQ(hyd.size(), 2u);
    const double q = rho * 1.e-4 * std::sqrt(2. * std::abs(p1 - p2) / (k * rho)) * (p1 > p2 ? 1. : -1.);
    EXPECT_NEAR(hyd[1], q, 1e-5 * std::abs(q));
  }
}

TEST(HydraulicLaws, PipesAtSteadyLaminarFlowArePoiseuille) {
  // Hagen-Poiseuille: q = rho A D^2 dp / (32 mu L) (mass flow); both pipes reach it (the dynamic
  // one after its transient, time constant rho D^2 / (32 mu) = 8.5 ms), Re < 2000.
  const double p1 = 1.001e5, p2 = 1.e5, D = 0.004, L = 2.0, mu = 0.05;
  const double A = D * D * std::numbers::pi / 4.0;
  const double rho = 850.;  // at the mean pressure the density is the reference one within 1e-6
  const double q = rho * A * D * D * (p1 - p2) / (32. * mu * L);
  const auto pipe = between_imposed_pressures("pipe", p1, p2, "hydraulic: 1, pipe, 1, 2, 0.004, 2., fluid, reference, 10");
  ASSERT_EQ(pipe.size(), 3u);
  EXPECT_NEAR(pipe[1], q, 1e-5 * q);
  const auto dyn = between_imposed_pressures("dynamic_pipe", p1, p2,
                                             "hydraulic: 1, dynamic pipe, 1, 2, 0.004, 2., fluid, reference, 10", .3);
  ASSERT_EQ(dyn.size(), 15u);
  EXPECT_NEAR(dyn[4], q, 1e-4 * q);  // q1
  EXPECT_NEAR(dyn[5], q, 1e-4 * q);  // q2
  EXPECT_LT(dyn[13], 2000.);         // Re
}

TEST(HydraulicLaws, ControlValveOpenWays) {
  // state 0.5: ways 1-2 and 3-4 open with 0.5 A_max, q = Cd A sqrt(2 rho dp), Cd = pi / (pi + 2).
  const auto hyd = four_way_valve("control_valve", "control valve, 1, 2, 3, 4, 1.e-4, const, .5");
  ASSERT_EQ(hyd.size(), 5u);
  const double Cd = std::numbers::pi / (std::numbers::pi + 2.);
  const double q12 = Cd * .5e-4 * std::sqrt(2. * 850. * 1.e6), q34 = Cd * .5e-4 * std::sqrt(2. * 850. * 1.4e6);
  EXPECT_DOUBLE_EQ(hyd[0], .5);
  EXPECT_NEAR(hyd[1], -q12, 1e-5 * q12);  // flows entering the nodes
  EXPECT_NEAR(hyd[2], q12, 1e-5 * q12);
  EXPECT_NEAR(hyd[3], -q34, 1e-5 * q34);
  EXPECT_NEAR(hyd[4], q34, 1e-5 * q34);
}

TEST(HydraulicJacobians, ControlValve2) {
  for (double state : {0.6, -0.4}) {
    HydraulicFixture f;
    auto& a = f.node(3, 1.0);
    auto& b = f.node(4, 0.8);
    auto& c = f.node(6, 0.9);
    auto& d = f.node(7, 0.2);
    auto* v = static_cast<ControlValve2*>(&f.model.add_element(std::make_unique<ControlValve2>(
        8, std::array<const PressureNode*, 4>{&a, &b, &c, &d}, 1e-4, 0.01, std::make_shared<mbl::ConstDrive>(state),
        oil())));
    const auto r = f.check_at({{&a, 1.3}, {&b, 0.7}, {&c, 1.1}, {&d, 0.2}}, [&](Vector& y) {
      for (int i = 0; i < 4; ++i) y[v->first_index() + i] = 0.01 * (i + 1) * (i % 2 ? -1. : 1.);
    });
    EXPECT_LT(r.max_error, 1e-6) << r.str();
  }
}

TEST(HydraulicLaws, ControlValve2FlowsAreTheOrificeLaw) {
  // The same valve with the flows as unknowns: q = Cd A sqrt(2 rho dp), Cd = 0.611.
  const auto hyd = four_way_valve("control_valve_2", "control valve 2, 1, 2, 3, 4, 1.e-4, loss, 1.e-3, const, .5");
  ASSERT_EQ(hyd.size(), 5u);
  const auto q = [](double A, double dp) { return .611 * A * std::sqrt(2. * 850. * dp); };
  const double open = .5e-4 + 2. * 1.e-7, leak = 1.e-7;
  const double q12 = q(open, 1.e6), q34 = q(open, 1.4e6), q13 = q(leak, .5e6), q24 = q(leak, .9e6);
  EXPECT_NEAR(hyd[1], -(q12 + q13), 1e-5 * q12);  // flows entering the nodes
  EXPECT_NEAR(hyd[2], q12 - q24, 1e-5 * q12);
  EXPECT_NEAR(hyd[3], q13 - q34, 1e-5 * q34);
  EXPECT_NEAR(hyd[4], q34 + q24, 1e-5 * q34);
}

TEST(HydraulicLaws, ActuatorChamberStiffness) {
  // Both structural nodes clamped, chamber 1 of volume A1 d fed with the mass flow q: with a
  // linearly compressible fluid p' = q beta / (rho0 A1 d), a linear rise in time.
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-2; tolerance: 1e-9; end: initial value;
begin: control data; structural nodes: 2; joints: 2; hydraulic nodes: 2; hydraulic elements: 1; genels: 1; forces: 1; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, static, 0., 0., .1, eye, null, null;
  hydraulic: 1, 1.e5; hydraulic: 2, 1.e5;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  joint: 2, clamp, 2, node, node;
  hydraulic: 1, actuator, 1, 2, 1, null, 2, null, 1.e-3, 8.e-4, .5,
    hydraulic fluid, linear compressible, density, 800., 1.e9, 1.e5, viscosity, 1.e-3, same;
  genel: 1, clamp, 2, hydraulic, const, 1.e5;
  force: 1, abstract, 1, hydraulic, const, -1.e-3;
end: elements;
)";
  const auto run = test::run_deck_text("actuator_stiffness", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto p = test::last_record(run.output("prs"), 1);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_NEAR(p[0], 1.e5 + 1.e-3 * 1.e9 / (800. * 1.e-3 * .1) * 1.0, 1e-6 * p[0]);
  const auto hyd = test::last_record(run.output("hyd"), 1);
  ASSERT_EQ(hyd.size(), 10u);
  EXPECT_NEAR(hyd[6], 1.e-3 * .1, 1e-12);  // chamber 1 volume
}

// ---- tank and pressure flow control valve (§8.11.12, 8.11.14) ------------------------------------

TEST(HydraulicJacobians, TankAndPressureFlowControlValve) {
  for (double state : {0.004, -0.012}) {
    HydraulicFixture f;
    auto [a, b, c, d] = f.four_nodes();
    auto& e = f.node(12, 0.5);
    auto& g = f.node(13, 0.4);
    DynamicControlValveParams q = spool_valve({a, b, c, d});
    q.body_nodes = {&e, &g};
    auto* pfcv = static_cast<DynamicControlValve*>(&f.model.add_element(std::make_unique<DynamicControlValve>(10, std::move(q))));
    TankParams t;
    t.nodes = {a, d};
    t.pressure = 0.7, t.area_pipe = 1e-4, t.area_tank = 1e-2, t.level_max = 1.0, t.level_start = 0.5;
    t.fluid = oil();
    auto* tank = static_cast<Tank*>(&f.model.add_element(std::make_unique<Tank>(11, std::move(t))));
    // (the nodes captured as an array: clang before 16 cannot capture structured bindings)
    const std::array<const PressureNode*, 4> valve_nodes{a, b, c, d};
    f.known_deviation = [&, valve_nodes](Eigen::MatrixXd& J, const Vector&, double) {
      flip_flows_spool_column(J, valve_nodes, pfcv->first_index());
    };
    const auto r = f.check_at({{a, 1.3}, {b, 0.7}, {c, 1.1}, {d, 0.2}, {&e, 0.6}, {&g, 0.3}}, [&](Vector& y) {
      y[pfcv->first_index()] = state;  // open 1-2/3-4, then 1-3/2-4 past -s_max
      y[pfcv->first_index() + 1] = 0.2;
      y[tank->first_index()] = state > 0 ? 0.4 : 1.2;  // inside, then full (inflow limited to the outflow)
    });
    EXPECT_LT(r.max_error, 1e-6) << r.str();
  }
}

TEST(HydraulicLaws, TankLevelFollowsInflowLessOutflow) {
  // p1 = 2e5 > p_t = 1.5e5 > p2 = 1e5: q_in = rho A sqrt(2 dp / rho), q_out = rho A sqrt(2 dp /
  // (rho / 2)) = sqrt(2) q_in, s' = (q_in - q_out) / (rho A_t); rho of the fluid at p1 + p2 / 2.
  const auto hyd = between_imposed_pressures(
      "tank", 2.e5, 1.e5, "hydraulic: 1, tank, 1, 2, 1.5e5, 1.e-4, 1.e-2, 1., start level, .5, 0., fluid, reference, 10");
  ASSERT_EQ(hyd.size(), 4u);
  const double rho = 850. + (2.5e5 - 1.e5) * 850. / 1.5e9;
  const double q_in = rho * 1.e-4 * std::sqrt(2. * .5e5 / rho), q_out = std::sqrt(2.) * q_in;
  const double sp = (q_in - q_out) / (rho * 1.e-2);
  EXPECT_NEAR(hyd[1], sp, 1e-6 * std::abs(sp));
  EXPECT_NEAR(hyd[0], .5 + sp * .01, 1e-6);
  EXPECT_NEAR(hyd[2], -q_in, 1e-6 * q_in);  // flows entering the nodes
  EXPECT_NEAR(hyd[3], q_out, 1e-6 * q_out);
}

TEST(HydraulicLaws, PressureFlowControlValveIsTheDynamicOneWithTheBodyFlows) {
  // The same spool and ways as the dynamic control valve; nodes 5 and 6 exchange the volume the
  // spool sweeps, pi d^2 / 4 s', while it moves (record 3 of 10).
  const std::string data = "const, 20., 0., 1.e-3, 2.e-2, loss, .01, 1.e-2, 7900., 1.e9, 0., 0.";
  const auto dcv = four_way_valve("dcv", "dynamic control valve, 1, 2, 3, 4, " + data, false, 3);
  const auto pfcv = four_way_valve("pfcv", "pressure flow control valve, 1, 2, 3, 4, 5, 6, " + data, true, 3);
  ASSERT_EQ(dcv.size(), 11u);
  ASSERT_EQ(pfcv.size(), 13u);
  for (int i = 0; i < 7; ++i) EXPECT_DOUBLE_EQ(pfcv[i], dcv[i]) << i;
  for (int i = 0; i < 4; ++i) EXPECT_DOUBLE_EQ(pfcv[9 + i], dcv[7 + i]) << i;
  const double swept = .25 * std::numbers::pi * 1.e-4 * pfcv[1];
  EXPECT_NE(pfcv[1], 0.0);
  EXPECT_NEAR(pfcv[7], -swept, 1e-6 * std::abs(swept));  // 6 significant digits in the .hyd
  EXPECT_NEAR(pfcv[8], swept, 1e-6 * std::abs(swept));
}

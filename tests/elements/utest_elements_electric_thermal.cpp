// Electric (input manual §8.7) and thermal (§8.18) elements: finite-difference Jacobians, and
// closed forms of small circuits (a thermal RC pair, a DC motor reaching its no-load speed).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "elements/drives/drive_callers.hpp"
#include "elements/electric/accelerometers.hpp"
#include "elements/electric/displacement_measure.hpp"
#include "elements/electric/motor.hpp"
#include "elements/thermal/thermal_elements.hpp"
#include "support/element_fixture.hpp"
#include "support/run_program.hpp"

using namespace mbl;
using namespace mbl::elements;
using namespace mbl::elements::electric;

namespace {

struct ScalarFixture : test_support::ElementFixture {
  AbstractNode& scalar(unsigned label, std::string_view kind, double x0 = 0.3, double xp0 = -0.2) {
    return static_cast<AbstractNode&>(model.add_node(std::make_unique<AbstractNode>(label, true, x0, xp0, kind)));
  }
  /// Generic values of the scalar unknowns and derivatives of the nodes listed.
  test_support::JacobianCheck check_with(std::vector<AbstractNode*> nodes) {
    return check(0.37, [&](Vector& y) {
      for (std::size_t k = 0; k < nodes.size(); ++k) y[nodes[k]->first_index()] = 0.7 - 0.4 * double(k);
    });
  }
};

}  // namespace

TEST(ElectricJacobians, Accelerometers) {
  ScalarFixture f;
  auto& out1 = f.scalar(3, "abstract");
  auto& out2 = f.scalar(4, "abstract");
  auto& out3 = f.scalar(5, "abstract");
  AccelerometerParams p{f.n2, &out1, Vec3(0.2, 0.6, -0.3).normalized(), Vec3(0.4, -0.1, 0.25)};
  f.model.add_element(std::make_unique<Accelerometer>(1, Accelerometer::Kind::Translational, p));
  p.output = &out2;
  f.model.add_element(std::make_unique<Accelerometer>(2, Accelerometer::Kind::Rotational, p));
  FilteredAccelerometerParams fp{{f.n1, &out3, Vec3(0., 0.6, 0.8), Vec3::Zero()}, 30., 0.5, 0.7, 2.};
  f.model.add_element(std::make_unique<FilteredAccelerometer>(3, fp));
  const auto r = f.check_with({&out1, &out2, &out3});
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

TEST(ElectricJacobians, DisplacementMeasure) {
  // MBDyn's DispMeasure::AssJac (elec/displacement.cc) writes only dCoef on the abstract node:
  // the nodes' columns of the distance, -dCoef dd/dq, are absent (d = |x2 + f2 - x1 - f1|,
  // dd/dx2 = e, dd/dtheta2 = f2 x e, and the opposite for node 1); the rest is the derivative.
  ScalarFixture f;
  auto& out = f.scalar(3, "abstract");
  const Vec3 o1(0.1, -0.2, 0.3), o2(-0.3, 0.05, 0.2);
  f.model.add_element(std::make_unique<DisplacementMeasure>(1, DisplacementMeasureParams{f.n1, o1, f.n2, o2, &out}));
  bool nodes_columns_empty = true;
  f.known_deviation = [&](Eigen::MatrixXd& J, const Vector&, double dCoef) {
    const Vec3 f1 = f.n1->R_WN() * o1, f2 = f.n2->R_WN() * o2;
    const Vec3 e = (f.n2->x_W() + f2 - f.n1->x_W() - f1).normalized();
    const int row = out.first_index();
    for (int k = 0; k < 6; ++k)
      nodes_columns_empty = nodes_columns_empty && J(row, f.n1->dof_index() + k) == 0.0 && J(row, f.n2->dof_index() + k) == 0.0;
    J.block<1, 3>(row, f.n1->dof_index()) += dCoef * e.transpose();
    J.block<1, 3>(row, f.n1->dof_index() + 3) += dCoef * f1.cross(e).transpose();
    J.block<1, 3>(row, f.n2->dof_index()) -= dCoef * e.transpose();
    J.block<1, 3>(row, f.n2->dof_index() + 3) -= dCoef * f2.cross(e).transpose();
  };
  const auto r = f.check_with({&out});
  EXPECT_TRUE(nodes_columns_empty);
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

TEST(ElectricJacobians, MotorWithCoggingTorques) {
  ScalarFixture f;
  auto& v1 = f.scalar(3, "electric");
  auto& v2 = f.scalar(4, "electric");
  MotorParams p;
  p.node1 = f.n1;
  p.node2 = f.n2;
  p.Rn_N1 = rot::euler123_to_R(Vec3(0.2, -0.1, 0.4));
  p.elec1 = &v1;
  p.elec2 = &v2;
  p.gain = 1.7, p.inductance = 0.3;
  p.resistance = std::make_shared<mbl::drives::PolynomialDrive>(std::vector<double>{2.0, 0.5});  // R(|i|) = 2 + 0.5 |i|
  p.cogging_M0 = std::make_shared<mbl::drives::HarmonicDrive>(mbl::drives::HarmonicDrive::Kind::Sine, 0.0, 1.0, 0.3, 0, 0.0);
  p.cogging_M1 = std::make_shared<mbl::drives::HarmonicDrive>(mbl::drives::HarmonicDrive::Kind::Cosine, 0.0, 2.0, 0.2, 0, 0.1);
  p.terminal_pairs = 3;
  p.i0 = -0.4;  // away from the kink of R(|i|)
  f.model.add_element(std::make_unique<Motor>(1, std::move(p)));
  const auto r = f.check_with({&v1, &v2});
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

TEST(ThermalJacobians, CapacitanceResistanceSource) {
  ScalarFixture f;
  auto& t1 = f.scalar(3, "thermal");
  auto& t2 = f.scalar(4, "thermal");
  f.model.add_element(std::make_unique<thermal::ThermalCapacitance>(1, t1, 2.5));
  f.model.add_element(std::make_unique<thermal::ThermalResistance>(2, t1, t2, 0.8));
  f.model.add_element(std::make_unique<thermal::ThermalSource>(3, t2, std::make_shared<ConstDrive>(1.5)));
  const auto r = f.check_with({&t1, &t2});
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

namespace {

std::filesystem::path corpus_deck(const std::string& id, const std::string& file) {
  return std::filesystem::path(MBL_SHARED_DIR) / "corpus" / id / "deck" / file;
}

/// Column `col` (after the label) of record `n` of `label` in a text output.
double record_value(const std::filesystem::path& path, unsigned label, std::size_t n, std::size_t col) {
  const auto rows = test::records(path, label);
  EXPECT_GT(rows.size(), n) << path;
  return rows.size() > n ? rows[n].at(col) : std::nan("");
}

}  // namespace

TEST(ThermalCircuits, TwoCapacitancesThroughAResistanceWithASource) {
  // C1 = 2, C2 = 1, R = 1, T1(0) = 1, T2(0) = 2, source q = 1 into node 1 (t.thermo.source):
  // C1 T1 + C2 T2 = 4 + t and D = T2 - T1 obeys D' = -1.5 D - 0.5, so
  // D = -1/3 + 4/3 exp(-1.5 t), T1 = (4 + t)/3 - D/3, T2 = (4 + t)/3 + 2 D/3.
  const auto dir = test::fresh_temp_dir("thermal_source");
  ASSERT_EQ(test::run_deck(corpus_deck("t.thermo.source", "source"), dir / "run", dir / "log"), 0)
      << test::read_file(dir / "log");
  for (std::size_t n : {1u, 500u, 5000u}) {
    const double t = 2e-3 * double(n), D = -1. / 3. + 4. / 3. * std::exp(-1.5 * t);
    EXPECT_NEAR(record_value(dir / "run.thn", 1, n, 0), (4. + t) / 3. - D / 3., 5e-6) << "t " << t;
    EXPECT_NEAR(record_value(dir / "run.thn", 2, n, 0), (4. + t) / 3. + 2. * D / 3., 5e-6) << "t " << t;
    EXPECT_NEAR(record_value(dir / "run.thn", 2, n, 1), -D, 5e-6) << "t " << t;  // T2' = -D / (R C2)
  }
}

TEST(ThermalCircuits, RCDischargeConservesHeat) {
  // t.thermo.conduction: no source; D = exp(-1.5 t), the mean temperature stays 4/3.
  const auto dir = test::fresh_temp_dir("thermal_conduction");
  ASSERT_EQ(test::run_deck(corpus_deck("t.thermo.conduction", "conduction"), dir / "run", dir / "log"), 0)
      << test::read_file(dir / "log");
  for (std::size_t n : {250u, 1000u}) {
    const double t = 2e-3 * double(n), D = std::exp(-1.5 * t);
    EXPECT_NEAR(record_value(dir / "run.thn", 1, n, 0), 4. / 3. - D / 3., 5e-6) << "t " << t;
    EXPECT_NEAR(record_value(dir / "run.thn", 2, n, 0), 4. / 3. + 2. * D / 3., 5e-6) << "t " << t;
  }
}

TEST(ElectricCircuits, MotorReachesItsNoLoadSpeed) {
  // V = 10 across a motor with G = 5, R = 10, L = 1e-3 driving J = 2 about its axis: with the
  // electric time constant negligible, w = V/G (1 - exp(-t G^2 / (J R))) -> 2.
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 10.; time step: 1.e-3; tolerance: 1e-9; max iterations: 20; end: initial value;
begin: control data; structural nodes: 2; electric nodes: 2; abstract nodes: 1; joints: 2; rigid bodies: 1;
  electric elements: 1; genels: 3; default output: abstract nodes; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, dynamic, null, eye, null, null;
  electric: 1;
  electric: 2;
  abstract: 3;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  joint: 2, revolute hinge, 1, null, 2, null;
  body: 2, 2, 1., null, diag, 1., 1., 2.;
  electric: 1, motor, 1, 2, 0.,0.,1., 1, 2, 5., 1.e-3, 10.;
  genel: 1, clamp, 1, electric, algebraic, 0.;
  genel: 2, clamp, 2, electric, algebraic, 10.;
  # the motor's private datum "omega" (an element drive: electric element 1, not electric node 1)
  genel: 3, clamp, 3, abstract, algebraic, element, 1, electric, string, "omega", direct;
end: elements;
)";
  const auto run = test::run_deck_text("motor_no_load", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  for (std::size_t n : {800u, 2000u, 10000u}) {
    const double t = 1e-3 * double(n);
    EXPECT_NEAR(record_value(run.output("mov"), 2, n, 11), 2. * (1. - std::exp(-t / 0.8)), 1e-4) << "t " << t;
    EXPECT_EQ(record_value(run.output("abs"), 3, n, 0), record_value(run.output("mov"), 2, n, 11)) << "t " << t;
  }
  // The electric nodes are written to .abs (voltage, its derivative).
  EXPECT_NEAR(test::last_record(run.output("abs"), 2).at(0), 10., 1e-12);
}

TEST(ElectricCircuits, DiscreteControlIntegratesItsMeasures) {
  // The manual's example (t.elec.discretecontrol): A_1 = 1e-3 I on the scaled measures, B_1 = I,
  // inputs grounded by unit springs, so u(t_n) = 1e-3 sum_{j<n} y(t_j) with y1 = sin(2 pi t) and
  // y2 = sin(2 pi (t - 0.5)) from t = 0.5 on.
  const auto dir = test::fresh_temp_dir("discrete_control");
  std::string deck = test::read_file(corpus_deck("t.elec.discretecontrol.discretecontrol", "discretecontrol"));
  deck.replace(deck.find("final time: 10."), 15, "final time: 1.");
  deck.replace(deck.find("begin: control data;"), 20, "begin: control data; default output: abstract nodes;");
  std::ofstream(dir / "deck") << deck;
  std::filesystem::copy_file(corpus_deck("t.elec.discretecontrol.discretecontrol", "discretecontrol.dat"),
                             dir / "discretecontrol.dat");
  ASSERT_EQ(test::run_deck(dir / "deck", dir / "run", dir / "log"), 0) << test::read_file(dir / "log");
  const double h = 1e-3;
  for (std::size_t n : {2u, 300u, 1000u}) {
    double u1 = 0., u2 = 0.;
    for (std::size_t j = 1; j < n; ++j) {
      const double t = h * double(j);
      u1 += 1e-3 * std::sin(2. * M_PI * t);
      u2 += t > .5 ? 1e-3 * std::sin(2. * M_PI * (t - .5)) : 0.;
    }
    EXPECT_NEAR(record_value(dir / "run.abs", 1, n, 0), u1, 1e-6 * std::abs(u1) + 1e-12) << "step " << n;  // 7 digits
    EXPECT_NEAR(record_value(dir / "run.abs", 2, n, 0), u2, 1e-6 * std::abs(u2) + 1e-12) << "step " << n;
  }
}

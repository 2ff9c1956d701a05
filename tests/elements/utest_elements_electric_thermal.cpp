// Electric (input manual §8.7) and thermal (§8.18) elements: finite-difference Jacobians, and
// closed forms of small circuits (a thermal RC pair, a DC motor reaching its no-load speed).
#include <gtest/gtest.h>

#include <cmath>

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
  f.model.add_element(std::make_unique<TranslationalAccelerometer>(1, p));
  p.output = &out2;
  f.model.add_element(std::make_unique<RotationalAccelerometer>(2, p));
  FilteredAccelerometerParams fp{{f.n1, &out3, Vec3(0., 0.6, 0.8), Vec3::Zero()}, 30., 0.5, 0.7, 2.};
  f.model.add_element(std::make_unique<FilteredAccelerometer>(3, fp));
  const auto r = f.check_with({&out1, &out2, &out3});
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

TEST(ElectricJacobians, DisplacementMeasure) {
  ScalarFixture f;
  auto& out = f.scalar(3, "abstract");
  f.model.add_element(std::make_unique<DisplacementMeasure>(
      1, DisplacementMeasureParams{f.n1, Vec3(0.1, -0.2, 0.3), f.n2, Vec3(-0.3, 0.05, 0.2), &out}));
  const auto r = f.check_with({&out});
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

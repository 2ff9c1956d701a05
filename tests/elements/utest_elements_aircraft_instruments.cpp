// Aircraft instruments (input manual §8.1.3): a rigid body flying with constant velocity and yaw rate
// through a standard atmosphere with a head wind; every .aer record against the closed-form motion
// x = x0 + v t, R = R_z(w t) R0 and the manual's definitions of the measures.
#include <gtest/gtest.h>

#include <cmath>

#include "elements/aero/aircraft_instruments.hpp"
#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/core/rotations.hpp"
#include "mbdyn-like/model/model_builder.hpp"
#include "support/run_program.hpp"

using namespace mbl;
using Instruments = elements::aero::AircraftInstruments;

namespace {

const char* const kDeck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 0.1; tolerance: 1e-10; max iterations: 10; end: initial value;
begin: control data; structural nodes: 1; rigid bodies: 1; air properties; aerodynamic elements: 1; end: control data;
begin: nodes;
  structural: 1, dynamic, 100., 50., 1000., euler123, 0.1, -0.2, 0.3, 60., 10., 5., 0., 0., 0.1;
end: nodes;
begin: elements;
  body: 1, 1, 1000., null, eye;
  air properties: std, SI, single, -5., 0., 0., const, 1.;
  aircraft instruments: 7, 1, initial latitude, 0.5, initial longitude, 0.2, earth radius, 6.4e6;
end: elements;
)";

}  // namespace

TEST(AircraftInstruments, MeasuresOfAFreeFlightAgainstClosedForm) {
  const auto run = test::run_deck_text("aircraft_instruments", kDeck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto aer = test::records(run.output("aer"), 7);
  ASSERT_GE(aer.size(), 11u);
  const Vec3 x0(100., 50., 1000.), v(60., 10., 5.), wind(-5., 0., 0.);
  const Mat3 R0 = rot::euler123_to_R(Vec3(0.1, -0.2, 0.3));
  const double w = 0.1, Re = 6.4e6;
  for (std::size_t k = 0; k < 11; ++k) {
    const double t = 0.1 * static_cast<double>(k);
    const Vec3 x = x0 + v * t;
    const Mat3 R = rot::R3(w * t) * R0;
    const Vec3 va = v - wind, vb = R.transpose() * va;
    const auto& m = aer[k];
    ASSERT_EQ(m.size(), 32u);
    auto at = [&m](int measure) { return m[static_cast<std::size_t>(measure - 1)]; };
    const double tol = 1e-5;
    EXPECT_NEAR(at(Instruments::Airspeed), va.norm(), tol * va.norm()) << t;
    EXPECT_NEAR(at(Instruments::Groundspeed), std::hypot(v.x(), v.y()), tol * 100) << t;
    EXPECT_NEAR(at(Instruments::Altitude), x.z(), tol * x.z()) << t;
    EXPECT_NEAR(at(Instruments::Attitude), std::asin(R(2, 0)), tol) << t;
    EXPECT_NEAR(at(Instruments::Bank), std::asin(-R(2, 1)), tol) << t;
    EXPECT_NEAR(at(Instruments::Turn), 60. * w, tol) << t;
    EXPECT_NEAR(at(Instruments::VerticalSpeed), va.z(), tol) << t;
    EXPECT_NEAR(at(Instruments::AngleOfAttack), -std::atan2(vb.z(), vb.x()), tol) << t;
    EXPECT_NEAR(at(Instruments::Slip), -std::atan2(vb.y(), vb.x()), tol) << t;
    double heading = -std::atan2(R(1, 0), R(0, 0));
    if (heading < 0.) heading += 2. * M_PI;
    EXPECT_NEAR(at(Instruments::Heading), heading, tol) << t;
    EXPECT_NEAR(at(Instruments::Longitude), 0.2 - (x.y() - x0.y()) / Re, 1e-6) << t;
    EXPECT_NEAR(at(Instruments::Latitude), 0.5 + (x.x() - x0.x()) / Re, 1e-6) << t;
    EXPECT_NEAR(at(Instruments::InitX1), x0.x(), tol * 100) << t;
    const Vec3 rates = R.transpose() * Vec3(0., 0., w);
    EXPECT_NEAR(at(Instruments::RollRate), rates.x(), tol) << t;
    EXPECT_NEAR(at(Instruments::YawRate), rates.z(), tol) << t;
    EXPECT_NEAR(at(Instruments::BodyVx), vb.x(), tol * 100) << t;
    // Standard atmosphere at z: T = T0 + a z, p = p0 (T/T0)^(-g0/(a R)), c = sqrt(1.4 R T).
    const double T = 288.16 - 6.5e-3 * x.z(), n = 9.81 / (6.5e-3 * 287.);
    EXPECT_NEAR(at(Instruments::Temperature), T, tol * T) << t;
    EXPECT_NEAR(at(Instruments::StaticPressure), 101325. * std::pow(T / 288.16, n), tol * 1e5) << t;
    EXPECT_NEAR(at(Instruments::Density), 1.225 * std::pow(T / 288.16, n - 1.), tol) << t;
    EXPECT_NEAR(at(Instruments::SoundCelerity), std::sqrt(1.4 * 287. * T), tol * 340.) << t;
  }
}

// Private data names as MBDyn's (any case); the body accelerations need a dynamic node.
TEST(AircraftInstruments, PrivateDataNames) {
  BuildResult b = read_deck_text("aircraft_instruments_names", kDeck);
  ASSERT_EQ(b.not_implemented, 0u);
  const auto* e = dynamic_cast<const Instruments*>(b.model->find_element("aerodynamic", 7));
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->private_data_count(), 32u);
  EXPECT_EQ(e->private_data_index("AirSpeed"), unsigned(Instruments::Airspeed));
  EXPECT_EQ(e->private_data_index("sideslip"), unsigned(Instruments::Slip));
  EXPECT_EQ(e->private_data_index("aoa"), unsigned(Instruments::AngleOfAttack));
  EXPECT_EQ(e->private_data_index("body_axb"), unsigned(Instruments::BodyAccX));
  EXPECT_EQ(e->private_data_index("temperature"), 32u);
  EXPECT_EQ(e->private_data_index("no such"), 0u);
  std::string deck = kDeck;
  deck.replace(deck.find("1, dynamic"), 10, "1, static");
  deck.replace(deck.find("  body: 1, 1, 1000., null, eye;\n"), 32, "");
  deck.replace(deck.find("rigid bodies: 1; "), 17, "");
  BuildResult s = read_deck_text("aircraft_instruments_static", deck);
  const auto* es = dynamic_cast<const Instruments*>(s.model->find_element("aerodynamic", 7));
  ASSERT_NE(es, nullptr);
  EXPECT_EQ(es->private_data_index("body_axb"), 0u);
  EXPECT_EQ(es->private_data_index("airspeed"), unsigned(Instruments::Airspeed));
}

// The rates a total joint imposes, as MBDyn states them rather than as differences in time of
// the imposed value:
// - initial assembly (TotalJoint/TotalPinJoint::InitialAssRes, totalj.cc): the velocity
//   constraint takes the drive's own derivative, and MBDyn's sine drive (drive_.h,
//   SineDriveCaller::dGetP) gives half its slope at its initial time: a static node pinned to a
//   sine that starts at t = 0 starts with half the imposed velocity (its .mov's first record);
// - inverse dynamics (totalj.cc, AssRes for VELOCITY / ACCELERATION): the prescribed motion's
//   velocity and acceleration are its second and third drives, taken as given at the time where
//   they jump (`Time <= T1`), not as differences across the jump.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_program.hpp"

namespace {

using Rows = std::vector<std::vector<double>>;

/// The rows of `label` in a text output file, in order.
Rows rows_of(const std::filesystem::path& path, unsigned label) {
  Rows out;
  std::ifstream f(path);
  for (std::string line; std::getline(f, line);) {
    std::istringstream in(line);
    std::vector<double> v;
    for (double x; in >> x;) v.push_back(x);
    if (!v.empty() && static_cast<unsigned>(v[0]) == label) out.push_back(v);
  }
  return out;
}

/// The opening of the initial-assembly decks: ten steps of 1 ms from t = 0.
constexpr const char* kTenStepsOpening = R"mbd(
begin: data; problem: initial value; end: data;
begin: initial value;
	initial time: 0.; final time: 1.e-2; time step: 1.e-3;
	tolerance: 1.e-9; max iterations: 10;
end: initial value;
)mbd";

}  // namespace

// Node 1: plunge z = 0.1 sin(5 t) and pitch about y 0.02 sin(8 t), both starting at t = 0: the
// first record holds 0.25 and 0.08, half of 0.5 and 0.16. Node 2: the same drives started at
// t = -1: the whole derivatives 0.5 cos(5) and 0.16 cos(8), at the assembled z = 0.1 sin(5).
TEST(ImposedRates, InitialAssemblyTakesTheDrivesOwnRateAtTheirStart) {
  const std::string deck = std::string(kTenStepsOpening) + R"mbd(
begin: control data; structural nodes: 2; joints: 2; end: control data;
begin: nodes;
	structural: 1, static, null, eye, null, null;
	structural: 2, static, null, eye, null, null;
end: nodes;
begin: elements;
	joint: 1, total pin joint, 1,
		position, null, position orientation, eye, rotation orientation, eye,
		position, null, position orientation, eye, rotation orientation, eye,
		position constraint, active, active, active,
			0., 0., 1., sine, 0., 5., 0.1, forever, 0.,
		orientation constraint, active, active, active,
			0., 1., 0., sine, 0., 8., 0.02, forever, 0.;
	joint: 2, total pin joint, 2,
		position, null, position orientation, eye, rotation orientation, eye,
		position, null, position orientation, eye, rotation orientation, eye,
		position constraint, active, active, active,
			0., 0., 1., sine, -1., 5., 0.1, forever, 0.,
		orientation constraint, active, active, active,
			0., 1., 0., sine, -1., 8., 0.02, forever, 0.;
end: elements;
)mbd";
  const mbl::test::TextDeckRun run = mbl::test::run_deck_text("utest_phases_imposed_rates_assembly", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const Rows n1 = rows_of(run.output("mov"), 1), n2 = rows_of(run.output("mov"), 2);
  ASSERT_EQ(n1.size(), 11u);
  ASSERT_EQ(n2.size(), 11u);
  // .mov: label, x, Euler 123 (degrees), v, omega.
  ASSERT_EQ(n1[0].size(), 13u);
  EXPECT_NEAR(n1[0][3], 0.0, 1e-12);
  EXPECT_NEAR(n1[0][9], 0.25, 1e-6);
  EXPECT_NEAR(n1[0][11], 0.08, 1e-7);
  EXPECT_NEAR(n1[0][7], 0.0, 1e-12);
  EXPECT_NEAR(n2[0][3], 0.1 * std::sin(5.0), 1e-6);
  EXPECT_NEAR(n2[0][9], 0.5 * std::cos(5.0), 1e-6);
  EXPECT_NEAR(n2[0][11], 0.16 * std::cos(8.0), 1e-7);
  // Past the start both follow the drives' slopes.
  const double t = 1e-3 * 5;
  EXPECT_NEAR(n1[5][3], 0.1 * std::sin(5.0 * t), 1e-8);
}

// The same plunge and pitch as string drives: MBDyn's string drive is not differentiable (no
// bIsDifferentiable override), so the initial assembly imposes no rate: the first record holds
// zero velocities; past the start the node follows the drives.
TEST(ImposedRates, InitialAssemblyTakesNoRateOfAStringDrive) {
  const std::string deck = std::string(kTenStepsOpening) + R"mbd(
begin: control data; structural nodes: 1; joints: 1; end: control data;
begin: nodes;
	structural: 1, static, null, eye, null, null;
end: nodes;
begin: elements;
	joint: 1, total pin joint, 1,
		position, null, position orientation, eye, rotation orientation, eye,
		position, null, position orientation, eye, rotation orientation, eye,
		position constraint, active, active, active,
			0., 0., 1., string, "0.1*sin(5*Time)",
		orientation constraint, active, active, active,
			0., 1., 0., string, "0.02*sin(8*Time)";
end: elements;
)mbd";
  const mbl::test::TextDeckRun run = mbl::test::run_deck_text("utest_phases_imposed_rates_string", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const Rows n1 = rows_of(run.output("mov"), 1);
  ASSERT_EQ(n1.size(), 11u);
  ASSERT_EQ(n1[0].size(), 13u);
  EXPECT_NEAR(n1[0][9], 0.0, 1e-12);
  EXPECT_NEAR(n1[0][11], 0.0, 1e-12);
  const double t = 1e-3 * 5;
  EXPECT_NEAR(n1[5][3], 0.1 * std::sin(5.0 * t), 1e-8);
}

// A node 1 away from the clamped one along x, moved along x and turned about z by a prescribed
// motion whose rates jump at T1 = 0.5: v = 0.1, omega = 0.2 up to T1, 0.3 and 0.6 after; the
// accelerations drives are 0. Every record,
// the jump's included (T1 falls on a step, h = 1/8), holds the drives as given, and no
// acceleration.
TEST(ImposedRates, InverseDynamicsTakesThePrescribedRatesAsGiven) {
  const std::string deck = R"mbd(
begin: data; problem: inverse dynamics; end: data;
set: const real T1 = .5;
begin: inverse dynamics;
	initial time: 0.; final time: 1.; time step: 0.125;
	tolerance: 1e-10; max iterations: 10;
end: inverse dynamics;
begin: control data;
	structural nodes: 2; joints: 2;
	default orientation: orientation vector; default output: accelerations;
end: control data;
begin: nodes;
	structural: 1, static, null, eye, null, null;
	structural: 2, static, 1., 0., 0., eye, null, null;
end: nodes;
begin: elements;
	joint: 1, clamp, 1, node, node;
	joint: 2, total joint,
		1, position, null, position orientation, eye, rotation orientation, eye,
		2, position, null, position orientation, eye, rotation orientation, eye,
		position constraint, active, active, active,
			1., 0., 0., string, "1. + (Time <= T1)*0.1*Time + (Time > T1)*(0.05 + 0.3*(Time - T1))",
			1., 0., 0., string, "(Time <= T1)*0.1 + (Time > T1)*0.3",
			null,
		orientation constraint, active, active, active,
			0., 0., 1., string, "(Time <= T1)*0.2*Time + (Time > T1)*(0.1 + 0.6*(Time - T1))",
			0., 0., 1., string, "(Time <= T1)*0.2 + (Time > T1)*0.6",
			null;
end: elements;
)mbd";
  const mbl::test::TextDeckRun run = mbl::test::run_deck_text("utest_phases_imposed_rates_inverse", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const Rows n2 = rows_of(run.output("mov"), 2);
  ASSERT_EQ(n2.size(), 9u);
  for (std::size_t k = 0; k < n2.size(); ++k) {
    const double t = 0.125 * static_cast<double>(k);
    const bool before = t <= 0.5;
    const std::vector<double>& m = n2[k];
    // label, x, orientation vector, v, omega, x'', omega''
    ASSERT_EQ(m.size(), 19u);
    EXPECT_NEAR(m[1], 1.0 + (before ? 0.1 * t : 0.05 + 0.3 * (t - 0.5)), 1e-9) << "t = " << t;
    EXPECT_NEAR(m[6], before ? 0.2 * t : 0.1 + 0.6 * (t - 0.5), 1e-9) << "t = " << t;
    EXPECT_NEAR(m[7], before ? 0.1 : 0.3, 1e-9) << "t = " << t;
    EXPECT_NEAR(m[12], before ? 0.2 : 0.6, 1e-9) << "t = " << t;
    for (int i = 13; i < 19; ++i) EXPECT_NEAR(m[i], 0.0, 1e-9) << "t = " << t << ", column " << i;
  }
}

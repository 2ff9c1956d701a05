// The inverse dynamics problem (technical manual §6.3) on a driven pendulum: a point mass m at
// distance l below a hinge, its rotation about z prescribed as theta(t) = A sin(W t). The motion
// is known in closed form (the node turns by theta, omega = theta', omega' = theta''), and the
// torque the hinge must apply is the one of the pendulum's equation,
//   tau = m g l sin(theta) + m l^2 theta''.
// Both problem
// types of the decks are run: fully actuated (one total joint, all six constraints torques) and
// underdetermined fully actuated (a passive hinge, a torque joint and a prescribed rotation).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "mbdyn-like/model/model_builder.hpp"
#include "mbdyn-like/phases/model_output.hpp"
#include "mbdyn-like/phases/simulation.hpp"
#include "support/run_program.hpp"

namespace fs = std::filesystem;
using namespace mbl;

namespace {

constexpr double kM = 2.0, kL = 0.5, kG = 9.81, kA = 0.7, kW = 3.0, kH = 1e-2;

std::string pendulum_deck(const std::string& problem_type, const std::string& joints, int n_joints) {
  return R"mbd(
begin: data;
	problem: inverse dynamics;
end: data;
set: const real M = 2.;
set: const real L = 0.5;
set: const real G = 9.81;
set: const real A = 0.7;
set: const real W = 3.;
begin: inverse dynamics;
	)mbd" + problem_type + R"mbd(
	initial time: 0.;
	final time: 1.;
	time step: 1e-2;
	tolerance: 1e-10;
	max iterations: 10;
end: inverse dynamics;
begin: control data;
	structural nodes: 2;
	rigid bodies: 1;
	joints: )mbd" + std::to_string(n_joints) + R"mbd(;
	gravity;
	default output: accelerations;
	default orientation: orientation vector;
end: control data;
begin: nodes;
	structural: 1, static, null, eye, null, null;
	structural: 2, static, null, eye, null, null;
end: nodes;
begin: elements;
	joint: 1, clamp, 1, node, node;
	body: 2, 2, M, 0., -L, 0., diag, 0., 0., 0.;
	gravity: uniform, 0., -1., 0., const, G;
)mbd" + joints + R"mbd(
end: elements;
)mbd";
}

/// The rotation about z prescribed as value, first and second derivative drives.
const std::string kRotationDrives = R"mbd(
			0., 0., 1., string, "A*sin(W*Time)",
			0., 0., 1., string, "A*W*cos(W*Time)",
			0., 0., 1., string, "-A*W^2*sin(W*Time)")mbd";

const std::string kHinge = R"mbd(
	joint: 2, total joint,
		1, position, null, position orientation, eye, rotation orientation, eye,
		2, position, null, position orientation, eye, rotation orientation, eye,)mbd";

struct Records {
  std::vector<std::vector<double>> mov, jnt;  ///< rows of node 2 and of joint `joint`
};

Records run(const std::string& deck, const std::string& name, unsigned joint, RunReport& report) {
  BuildResult built = read_deck_text(name + ".mbd", deck);
  EXPECT_EQ(built.not_implemented, 0u);
  const fs::path dir = mbl::test::fresh_temp_dir("utest_phases_inverse_dynamics_" + name);
  output::OutputConfig oc;
  oc.prefix = (dir / name).string();
  std::ostringstream log;
  {
    ModelOutput out(oc);
    report = run_simulation(*built.model, built.settings, out, log);
  }
  Records r;
  auto rows = [](const std::string& path, unsigned label, std::vector<std::vector<double>>& to) {
    std::ifstream f(path);
    for (std::string line; std::getline(f, line);) {
      std::istringstream in(line);
      std::vector<double> v;
      for (double x; in >> x;) v.push_back(x);
      if (!v.empty() && static_cast<unsigned>(v[0]) == label) to.push_back(v);
    }
  };
  rows(oc.prefix + ".mov", 2, r.mov);
  rows(oc.prefix + ".jnt", joint, r.jnt);
  return r;
}

/// Node 2's rotation, angular velocity and acceleration about z (.mov: label, x, orientation
/// vector, v, omega, x'', omega'') and the torque of `jnt_row` (.jnt: label, F, M local, ...)
/// against the closed form at every record t = k h.
void expect_pendulum(const Records& r) {
  ASSERT_EQ(r.mov.size(), 101u);
  ASSERT_EQ(r.jnt.size(), 101u);
  for (std::size_t k = 0; k < r.mov.size(); ++k) {
    const double t = kH * static_cast<double>(k);
    const double theta = kA * std::sin(kW * t), theta_d = kA * kW * std::cos(kW * t);
    const double theta_dd = -kA * kW * kW * std::sin(kW * t);
    const std::vector<double>& m = r.mov[k];
    ASSERT_EQ(m.size(), 19u);
    EXPECT_NEAR(m[6], theta, 1e-6) << "t = " << t;
    EXPECT_NEAR(m[12], theta_d, 1e-6) << "t = " << t;
    EXPECT_NEAR(m[18], theta_dd, 1e-5) << "t = " << t;
    // The hinge's reaction on the pendulum is -M: the torque that drives it.
    const double tau = kM * kG * kL * std::sin(theta) + kM * kL * kL * theta_dd;
    EXPECT_NEAR(-r.jnt[k][6], tau, 1e-5 * (1.0 + std::abs(tau))) << "t = " << t;
  }
}

}  // namespace

TEST(InverseDynamics, FullyActuatedPendulumTorqueIsClosedForm) {
  const std::string joints = kHinge + R"mbd(
		position constraint, active, active, active, null, null, null,
		orientation constraint, active, active, active,)mbd" +
                             kRotationDrives + ";";
  RunReport report;
  const Records r = run(pendulum_deck("", joints, 2), "fully_actuated", 2, report);
  ASSERT_EQ(report.status, RunStatus::Completed) << report.message;
  expect_pendulum(r);
  // The hinge force holds the weight and the centripetal force at theta = 0 (t = 0):
  // m (g + l theta'^2) up, as a reaction -F on the pendulum.
  EXPECT_NEAR(-r.jnt[0][2], kM * (kG + kL * kA * kW * kA * kW), 1e-6);
}

TEST(InverseDynamics, UnderdeterminedPendulumTorqueJointBalancesThePrescribedMotion) {
  // A passive hinge (both roles by default), the torque about its axis, and the rotation
  // prescribed by a joint whose multiplier is not a torque.
  const std::string joints = kHinge + R"mbd(
		position constraint, active, active, active, null, null, null,
		orientation constraint, active, active, inactive, null, null, null;
)mbd" + R"mbd(
	joint: 3, total joint,
		1, position, null, position orientation, eye, rotation orientation, eye,
		2, position, null, position orientation, eye, rotation orientation, eye,
		orientation constraint, inactive, inactive, active, null, null, null,
		inverse dynamics, torque, yes;
	joint: 4, total joint,
		1, position, null, position orientation, eye, rotation orientation, eye,
		2, position, null, position orientation, eye, rotation orientation, eye,
		orientation constraint, inactive, inactive, active,)mbd" +
                             kRotationDrives + R"mbd(,
		inverse dynamics, prescribed motion, yes;)mbd";
  RunReport report;
  const Records r = run(pendulum_deck("problem type: underdetermined fully actuated;", joints, 4),
                        "underdetermined", 3, report);
  ASSERT_EQ(report.status, RunStatus::Completed) << report.message;
  expect_pendulum(r);
}

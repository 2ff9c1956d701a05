// NetCDF output of forces, couples and velocity joints (input manual appendix C.1.4 "Force",
// "Joint"): a deck written here runs in process, its .nc is read back, and the variables hold the
// analytically expected vectors; the forces of t.forces.force.force equal MBDyn's .nc.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "mbdyn-like/output/results.hpp"
#include "support/run_in_process.hpp"
#include "support/run_program.hpp"

namespace fs = std::filesystem;
using namespace mbl;

namespace {

// Node 1 at (1, 2, 3) turned 90 deg about z, node 2 at (0, 0, 5), both clamped; node 3 (inertia
// 1) spins about its axis 3 at w(t) = 2 + 3 t; node 4 (mass 2) moves along global y at
// v(t) = 1 + 2 t. No gravity.
constexpr const char* kDeck = R"(
begin: data; problem: initial value; end: data;
begin: initial value;
  initial time: 0.; final time: 0.095; time step: 0.01;  # 10 steps: t = 0.1
  tolerance: 1e-10; max iterations: 20;
end: initial value;
begin: control data;
  structural nodes: 4; rigid bodies: 2; joints: 4; forces: 6;
  output results: netcdf;
end: control data;
begin: nodes;
  structural: 1, static, 1., 2., 3., euler, 0., 0., pi/2, null, null;
  structural: 2, static, 0., 0., 5., eye, null, null;
  structural: 3, dynamic, null, eye, null, 0., 0., 2.;
  structural: 4, dynamic, null, eye, 0., 1., 0., null;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  joint: 2, clamp, 2, node, node;
  joint: 3, angular velocity, 3, 0., 0., 1., linear, 2., 3.;
  joint: 4, linear velocity, 4, 0., 3., 0., linear, 1., 2.;
  body: 3, 3, 1., null, eye;
  body: 4, 4, 2., null, eye;
  force: 1, absolute, 1, position, 1., 0., 0., 0., 0., 1., const, 5.;
  force: 2, follower, 1, position, 1., 0., 0., 0., 1., 0., const, 2.;
  couple: 3, follower, 1, 1., 0., 0., const, 3.;
  force: 4, absolute internal, 1, position, 0., 1., 0., 2, position, 1., 0., 0.,
    0., 0., 1., const, 4.;
  couple: 5, absolute internal, 1, 2, 0., 1., 0., const, 7.;
  force: 6, absolute displacement, 1, 0., 1., 0., const, 6.;
end: elements;
)";

class NetcdfElements : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const fs::path dir = test::fresh_temp_dir("nc_elements");
    std::ofstream(dir / "deck") << kDeck;
    std::string why;
    ASSERT_TRUE(test::run_in_process((dir / "deck").string(), (dir / "run").string(), AbortAfter::none, true, why)) << why;
    results_ = new output::Results(output::read_netcdf((dir / "run.nc").string()));
    fs::remove_all(dir);
  }
  static void TearDownTestSuite() {
    delete results_;
    results_ = nullptr;
  }

  /// Variable `name` at the last record.
  static Vec3 last(const std::string& name) {
    EXPECT_TRUE(results_ && results_->vars.count(name)) << name << " missing";
    if (!results_ || !results_->vars.count(name)) return Vec3::Constant(NAN);
    const output::Series& s = results_->vars.at(name);
    const std::size_t t = s.times() - 1;
    Vec3 v = Vec3::Zero();
    for (int c = 0; c < s.ncomp && c < 3; ++c) v[c] = s.at(t, c);
    return v;
  }
  static double last_time() { return results_->time.back(); }

  static output::Results* results_;
};

output::Results* NetcdfElements::results_ = nullptr;

#define EXPECT_VEC_NEAR(actual, expected, tol)                                      \
  do {                                                                             \
    const Vec3 a_ = (actual), e_ = (expected);                                     \
    EXPECT_LT((a_ - e_).norm(), tol) << "got " << a_.transpose() << ", expected " \
                                     << e_.transpose();                            \
  } while (0)

TEST_F(NetcdfElements, ForcesAndCouplesInTheAbsoluteFrame) {
  ASSERT_NEAR(last_time(), 0.1, 1e-12);
  // Absolute force: F as given; Arm = x + R b = (1, 2, 3) + Rz(90) (1, 0, 0).
  EXPECT_VEC_NEAR(last("elem.force.1.F"), Vec3(0, 0, 5), 1e-12);
  EXPECT_VEC_NEAR(last("elem.force.1.Arm"), Vec3(1, 3, 3), 1e-12);
  // Follower force (0, 2, 0) in the node frame: Rz(90) turns it to (-2, 0, 0).
  EXPECT_VEC_NEAR(last("elem.force.2.F"), Vec3(-2, 0, 0), 1e-12);
  EXPECT_VEC_NEAR(last("elem.force.2.Arm"), Vec3(1, 3, 3), 1e-12);
  // Follower couple (3, 0, 0) in the node frame.
  EXPECT_VEC_NEAR(last("elem.couple.3.M"), Vec3(0, 3, 0), 1e-12);
  // Internal force: the force on node 1, both arms.
  EXPECT_VEC_NEAR(last("elem.force.4.F"), Vec3(0, 0, 4), 1e-12);
  EXPECT_VEC_NEAR(last("elem.force.4.Arm1"), Vec3(0, 2, 3), 1e-12);
  EXPECT_VEC_NEAR(last("elem.force.4.Arm2"), Vec3(1, 0, 5), 1e-12);
  EXPECT_VEC_NEAR(last("elem.couple.5.M"), Vec3(0, 7, 0), 1e-12);
  EXPECT_VEC_NEAR(last("elem.force.6.F"), Vec3(0, 6, 0), 1e-12);
  EXPECT_EQ(results_->vars.count("elem.force.6.Arm"), 0u);
}

TEST_F(NetcdfElements, AngularVelocityJoint) {
  // w = 2 + 3 t about z: the joint applies the couple J dw/dt = 3 to the node; MBDyn reports the
  // multiplier, M = -3 e_z, locally m = (-3, 0, 0).
  EXPECT_VEC_NEAR(last("elem.joint.3.w"), Vec3(0, 0, 1), 1e-9);
  EXPECT_NEAR(last("elem.joint.3.dOmega")[0], 2.0 + 3.0 * 0.1, 1e-12);
  EXPECT_VEC_NEAR(last("elem.joint.3.M"), Vec3(0, 0, -3), 1e-6);
  EXPECT_VEC_NEAR(last("elem.joint.3.m"), Vec3(-3, 0, 0), 1e-6);
  EXPECT_VEC_NEAR(last("elem.joint.3.F"), Vec3::Zero(), 1e-12);
  EXPECT_NEAR(last("node.struct.3.Omega")[2], 2.3, 1e-9);
}

TEST_F(NetcdfElements, LinearVelocityJoint) {
  // v = 1 + 2 t along y, mass 2: force 4 on the node, F = -4 e_y, locally f = (-4, 0, 0).
  EXPECT_VEC_NEAR(last("elem.joint.4.dv"), Vec3(0, 1, 0), 1e-12);
  EXPECT_NEAR(last("elem.joint.4.v")[0], 1.0 + 2.0 * 0.1, 1e-12);
  EXPECT_VEC_NEAR(last("elem.joint.4.F"), Vec3(0, -4, 0), 1e-6);
  EXPECT_VEC_NEAR(last("elem.joint.4.f"), Vec3(-4, 0, 0), 1e-6);
  EXPECT_NEAR(last("node.struct.4.XP")[1], 1.2, 1e-9);
}

// MBDyn's own .nc of the force test deck: every force and couple variable, all records.
TEST(NetcdfElementsReference, ForcesEqualMbdyn) {
  const fs::path deck = fs::path(MBL_SHARED_DIR) / "decks" / "t.forces.force.force";
  if (!fs::exists(deck / "mbdyn" / "force.nc")) GTEST_SKIP() << "no reference file";
  const fs::path dir = test::fresh_temp_dir("nc_elements_ref");
  std::string why;
  ASSERT_TRUE(test::run_in_process((deck / "deck" / "force").string(), (dir / "run").string(), AbortAfter::none, true, why))
      << why;
  const output::Results ours = output::read_netcdf((dir / "run.nc").string());
  const output::Results ref = output::read_netcdf((deck / "mbdyn" / "force.nc").string());
  fs::remove_all(dir);
  ASSERT_EQ(ours.records(), ref.records());
  int compared = 0;
  for (const auto& [name, r] : ref.vars) {
    if (name.rfind("elem.force.", 0) != 0 && name.rfind("elem.couple.", 0) != 0) continue;
    ASSERT_TRUE(ours.vars.count(name)) << name;
    const output::Series& o = ours.vars.at(name);
    ASSERT_EQ(o.values.size(), r.values.size()) << name;
    for (std::size_t i = 0; i < r.values.size(); ++i)
      EXPECT_NEAR(o.values[i], r.values[i], 1e-12 * (1.0 + std::abs(r.values[i]))) << name << "[" << i << "]";
    ++compared;
  }
  EXPECT_EQ(compared, 16);  // 10 entities: F (+ Arm | Arm1, Arm2) or M
}

}  // namespace

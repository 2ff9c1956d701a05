// Viscous body (input manual §8.12.54): finite-difference Jacobian and a falling, spinning body
// damped by it (tests/elements/decks/viscous_body_fall.mbd) against the analytical solution.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "elements/joints/viscous_body.hpp"
#include "elements/laws/elastic_laws.hpp"
#include "support/element_fixture.hpp"
#include "support/run_program.hpp"

using namespace mbl;
using namespace mbl::elements;
using mbl::test_support::ElementFixture;

namespace {

/// A generic (full, non-symmetric) 6x6 damping matrix.
Mat6 generic_damping() {
  Mat6 C;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) C(i, j) = (i == j ? 2.0 + i : 0.1 * std::sin(1.0 + i + 2.0 * j));
  return C;
}

}  // namespace

TEST(ViscousBody, JacobianMatchesFiniteDifferences) {
  for (const Mat6& K : {Mat6::Zero().eval(), Mat6::Identity().eval()}) {
    ElementFixture f;
    auto law = std::make_unique<laws::LinearViscoElasticLaw<6>>(K, generic_damping());
    f.model.add_element(std::make_unique<ViscousBody>(1, f.att(f.n1, 1), std::move(law)));
    const auto r = f.check();
    EXPECT_LT(r.max_error, 1e-6) << r.str();
  }
}

// m v' = -m g - c v, J w' = -cr w: v_z(t) = -(m g / c)(1 - exp(-c t / m)), w_z = w0 exp(-cr t / J).
TEST(ViscousBody, FallingBodyReachesTerminalVelocity) {
  namespace fs = std::filesystem;
  const fs::path deck = fs::path(MBL_SOURCE_DIR) / "tests/elements/decks/viscous_body_fall.mbd";
  const fs::path dir = test::fresh_temp_dir("viscous_body");
  const std::string prefix = (dir / "run").string();
  ASSERT_EQ(test::run_deck(deck, prefix, dir / "log"), 0) << test::read_file(dir / "log");
  const double m = 2.0, g = 9.81, c = 4.0, cr = 0.3, J = 0.1, w0 = 2.0;
  const auto mov = mbl::test::records(prefix + ".mov", 1);
  ASSERT_EQ(mov.size(), 5001u);  // t = 0, 1e-3, ..., 5
  for (int step : {500, 1000, 5000}) {
    const double t = 1e-3 * step;
    const std::vector<double>& row = mov[step];  // x(3) phi(3) v(3) w(3)
    EXPECT_NEAR(row[8], -(m * g / c) * (1.0 - std::exp(-c * t / m)), 2e-5) << "t = " << t;
    EXPECT_NEAR(row[11], w0 * std::exp(-cr * t / J), 2e-5) << "t = " << t;
    EXPECT_NEAR(row[6], 0.0, 1e-12);
  }
  // .jnt: f(3) m(3) local (the law's force and moment), F(3) M(3) global, then k' (v and omega
  // of the attachment frame). At the end: F_z = c v_z = -m g, k'_v = v.
  const auto jnt = mbl::test::records(prefix + ".jnt", 7);
  ASSERT_EQ(jnt.size(), 5001u);
  const std::vector<double>& last = jnt.back();
  ASSERT_EQ(last.size(), 18u);
  EXPECT_NEAR(last[2], -m * g, 1e-3);  // hinge axis 3 = global z
  EXPECT_NEAR(last[8], -m * g, 1e-3);
  EXPECT_NEAR(last[14], -m * g / c, 1e-3);
  EXPECT_NEAR(last[17], w0 * std::exp(-cr * 5.0 / J), 1e-6);
  fs::remove_all(dir);
}

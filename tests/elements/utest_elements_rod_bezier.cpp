// MBDyn's `rod bezier` joint (struct/rodbezj.cc RodBezier): a rod whose length is measured along
// the cubic Bezier curve of four control points.
#include <gtest/gtest.h>

#include <cmath>

#include "elements/joints/rod_bezier.hpp"
#include "elements/laws/elastic_laws.hpp"
#include "support/element_fixture.hpp"
#include "support/run_program.hpp"

using namespace mbl;
using namespace mbl::elements;

TEST(RodBezier, JacobianAgainstFiniteDifferences) {
  // Generic node states, a curved rod, a viscoelastic law (the length rate's terms too).
  for (int order : {1, 3}) {
    test_support::ElementFixture f;
    RodBezier::Geometry g;
    g.node1 = f.n1;
    g.node2 = f.n2;
    g.fO_N1 = Vec3(0.1, 0.2, -0.1);
    g.fA_N1 = Vec3(0.4, -0.1, 0.2);
    g.fB_N2 = Vec3(-0.3, 0.2, 0.1);
    g.fI_N2 = Vec3(0.05, -0.1, 0.2);
    g.order = order;
    g.segments = 2;
    using M = ConstitutiveLaw<1>::MatN;
    f.model.add_element(std::make_unique<RodBezier>(
        1, g, 0.3, std::make_unique<laws::LinearViscoElasticLaw<1>>(M::Constant(50.0), M::Constant(2.0))));
    const auto r = f.check();
    EXPECT_LT(r.max_error, 1e-6) << order << ": " << r.str();
  }
}

namespace {

/// Node 1 clamped at the origin, node 2 (mass 2) at x = 1 pulled along x by 3 N from t = 0; the
/// rod (`rod` text, joint 3) joins them.
std::string pulled_deck(const std::string& rod) {
  return R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 0.2; time step: 1.e-3; tolerance: 1e-10;
  max iterations: 20; derivatives coefficient: 1e-9; end: initial value;
begin: control data; structural nodes: 2; rigid bodies: 1; joints: 2; forces: 1; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, dynamic, 1., 0., 0., eye, null, null;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  joint: 3, )" + rod + R"(;
  body: 2, 2, 2., null, eye;
  force: 1, absolute, 2, position, null, 1., 0., 0., const, 3.;
end: elements;
)";
}

}  // namespace

TEST(RodBezier, StraightCurveIsAPlainRod) {
  // Collinear control points, a third apart at the start, B and I moving with node 2: the curve is
  // the segment, its speed a positive quadratic in u that the 2-point rule integrates exactly, so
  // its length is the nodes' distance and the force along it the rod's: same motion, same force.
  // Unstretched at the start: the rod bezier takes part in the initial assembly (MBDyn's is not
  // deformable), the rod does not.
  const auto rod = test::run_deck_text("rod_bezier_plain", pulled_deck("rod, 1, 2, 1., linear elastic, 40."));
  ASSERT_EQ(rod.rc, 0) << rod.log();
  const auto bezier = test::run_deck_text(
      "rod_bezier_straight",
      pulled_deck("rod bezier, 1, position, null, position, 1./3., 0., 0., 2, position, -1./3., 0., 0., null, 1., "
                  "integration order, 2, integration segments, 1, linear elastic, 40."));
  ASSERT_EQ(bezier.rc, 0) << bezier.log();
  const auto a = test::last_record(rod.output("mov"), 2), b = test::last_record(bezier.output("mov"), 2);
  ASSERT_GE(a.size(), 3u);
  ASSERT_GE(b.size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(a[i], b[i], 2e-6) << i;
  // .jnt (RodBezier::Output): f = (f, 0, 0), m, F = f l1, M, then f l2, l, l1, l2, l'.
  const auto jr = test::last_record(rod.output("jnt"), 3), jb = test::last_record(bezier.output("jnt"), 3);
  ASSERT_EQ(jb.size(), 23u);
  const double x2 = b[0], f = 40.0 * (x2 - 1.0);
  EXPECT_NEAR(jb[0], f, 1e-4);
  EXPECT_NEAR(jb[0], jr[0], 1e-5);
  EXPECT_NEAR(jb[6], f, 1e-4);   // F = f l1, l1 = x
  EXPECT_NEAR(jb[12], -f, 1e-4);  // f l2, l2 = -x
  EXPECT_NEAR(jb[15], x2, 1e-6);  // l
  EXPECT_EQ(jb[16], 1.0);         // l1
  EXPECT_EQ(jb[19], -1.0);        // l2
  // MBDyn's length rate is half the rate of the length (RodBezier::AssVec).
  const auto v = test::last_record(bezier.output("mov"), 2);
  EXPECT_NEAR(jb[22], 0.5 * v[6], 1e-6);
}

TEST(RodBezier, LengthOfACurveFromNodes) {
  // O = node 1, A = O + (0, 1, 0), I = node 2 (at x = 1), B = I + (0, 1, 0): control points
  // (0,0,0), (0,1,0), (1,1,0), (1,0,0). Its length by a fine Simpson rule
  // against the element's 10-point rule on 8 segments; `from nodes` makes the force zero.
  const auto run = test::run_deck_text(
      "rod_bezier_curve",
      pulled_deck("rod bezier, 1, null, 0., 1., 0., 2, 0., 1., 0., null, from nodes, "
                  "integration order, 10, integration segments, 8, linear elastic, 40.") );
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto jnt = test::records(run.output("jnt"), 3);
  ASSERT_FALSE(jnt.empty());
  auto speed = [](double u) {
    // p = sum b_k A_k'(u): A_2' = 9u^2 - 12u + 3, A_3' = -9u^2 + 6u, A_4' = 3u^2.
    const double a2 = 9 * u * u - 12 * u + 3, a3 = -9 * u * u + 6 * u, a4 = 3 * u * u;
    return std::hypot(a3 + a4, a2 + a3);
  };
  const int n = 20000;
  double l = speed(0.0) + speed(1.0);
  for (int i = 1; i < n; ++i) l += (i % 2 ? 4.0 : 2.0) * speed(double(i) / n);
  l /= 3.0 * n;
  EXPECT_NEAR(jnt.front()[15], l, 2e-6);
  EXPECT_NEAR(jnt.front()[0], 0.0, 1e-9);
}

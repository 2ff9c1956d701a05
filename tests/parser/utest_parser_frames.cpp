// `reference:` cards and relative specifications (input manual §2.4.8), against hand-computed
// frames.
#include <Eigen/Geometry>

#include "tests/parser/parser_test_util.hpp"

namespace mbl::parser::test {
namespace {

constexpr double kTol = 1e-14;


Mat3 Rz(double t) { return Mat3(Eigen::AngleAxisd(t, Vec3::UnitZ())); }
Mat3 Rx(double t) { return Mat3(Eigen::AngleAxisd(t, Vec3::UnitX())); }

const char* kChain =
    // 1: translated, turned 90 deg about z, moving and spinning (all given in the global frame)
    "reference: 1,\n"
    "  reference, global, 1., 2., 3.,\n"
    "  reference, global, vector, 0., 0., pi/2,\n"
    "  reference, global, 0.1, 0., 0.,\n"
    "  reference, global, 0., 0., 2.;\n"
    // 2: given in 1 (optional keywords used)
    "reference: 2,\n"
    "  position, reference, 1, 1., 0., 0.,\n"
    "  orientation, reference, 1, eye,\n"
    "  velocity, reference, 1, null,\n"
    "  angular velocity, reference, 1, 1., 0., 0.;\n"
    // 3: given in 2, angular velocity in the global frame
    "reference: 3, name, \"three\",\n"
    "  reference, 2, 0., 0., 1.,\n"
    "  reference, 2, vector, 0., 0., pi/2,\n"
    "  reference, 2, 1., 0., 0.,\n"
    "  reference, global, null;\n"
    // 4: default (global) form, as in the manual
    "reference: 4, null, eye, null, null;\n";

TEST(ReferenceCards, ChainResolvedToGlobal) {
  MemoryDeck d(std::string(kChain) + "end;");
  EXPECT_TRUE(d.card().card_is("end"));
  ASSERT_EQ(d.ctx.references().size(), 4u);
  const RigidFrame& r1 = d.ctx.find_reference(1)->frame;
  EXPECT_MAT_NEAR(r1.x_W, Vec3(1, 2, 3), kTol);
  EXPECT_MAT_NEAR(r1.R_W, Rz(M_PI / 2), kTol);
  EXPECT_MAT_NEAR(r1.v_W, Vec3(0.1, 0, 0), kTol);
  EXPECT_MAT_NEAR(r1.w_W, Vec3(0, 0, 2), kTol);
  // x2 = x1 + R1 (1,0,0) = (1,3,3); v2 = v1 + w1 x (x2 - x1) = (0.1,0,0) + (0,0,2)x(0,1,0)
  // = (-1.9,0,0); w2 = w1 + R1 (1,0,0) = (0,1,2)
  const RigidFrame& r2 = d.ctx.find_reference(2)->frame;
  EXPECT_MAT_NEAR(r2.x_W, Vec3(1, 3, 3), kTol);
  EXPECT_MAT_NEAR(r2.R_W, Rz(M_PI / 2), kTol);
  EXPECT_MAT_NEAR(r2.v_W, Vec3(-1.9, 0, 0), kTol);
  EXPECT_MAT_NEAR(r2.w_W, Vec3(0, 1, 2), kTol);
  // x3 = x2 + (0,0,1); R3 = Rz(pi); v3 = v2 + w2 x (0,0,1) + R2 (1,0,0) = (-1.9,0,0) + (1,0,0)
  // + (0,1,0)
  const RigidFrame& r3 = d.ctx.find_reference(3)->frame;
  EXPECT_MAT_NEAR(r3.x_W, Vec3(1, 3, 4), kTol);
  EXPECT_MAT_NEAR(r3.R_W, Rz(M_PI), kTol);
  EXPECT_MAT_NEAR(r3.v_W, Vec3(-0.9, 1, 0), 1e-14);
  EXPECT_MAT_NEAR(r3.w_W, Vec3::Zero(), kTol);
  const RigidFrame& r4 = d.ctx.find_reference(4)->frame;
  EXPECT_MAT_NEAR(r4.R_W, Mat3::Identity(), kTol);
  EXPECT_EQ(d.ctx.find_reference(3)->where.line, 11);
}

TEST(ReferenceCards, DenavitHartenberg) {
  MemoryDeck d(
      "reference: 1, null, eye, null, 0., 0., 1.;\n"
      "reference: 5, Denavit Hartenberg, reference, 1, 1., pi/2, 2., pi/2;\n"
      "reference: 6, denavit hartenberg, 0.5, 0., 0., 0.;\nend;");
  d.card();
  // eq. (2.6): x = (0,0,1) + Rz(pi/2) (2,0,0); R = Rz(pi/2) Rx(pi/2); v = w x (x - 0) ; w = w_old
  const RigidFrame& r5 = d.ctx.find_reference(5)->frame;
  EXPECT_MAT_NEAR(r5.x_W, Vec3(0, 2, 1), kTol);
  EXPECT_MAT_NEAR(r5.R_W, Rz(M_PI / 2) * Rx(M_PI / 2), kTol);
  EXPECT_MAT_NEAR(r5.v_W, Vec3(-2, 0, 0), kTol);
  EXPECT_MAT_NEAR(r5.w_W, Vec3(0, 0, 1), kTol);
  EXPECT_MAT_NEAR(d.ctx.find_reference(6)->frame.x_W, Vec3(0, 0, 0.5), kTol);
}

/// A node frame F and another node O, both away from the origin and moving.
struct Nodes {
  RigidFrame F;
  mbl::parser::OtherSide O;  // node 1 of a two-node card (no offset, no hinge)
  Nodes() {
    F.x_W = Vec3(1, 0, 0);
    F.R_W = Rz(M_PI / 2);
    F.v_W = Vec3(0, 1, 0);
    F.w_W = Vec3(0, 0, 1);
    O.x_W = Vec3(0, 2, 0);
    O.R_W = Rx(M_PI / 2);
  }
};

TEST(RelativeSpecifications, Position) {
  Nodes n;
  MemoryDeck d(std::string(kChain) +
               "p: 1, 2, 3, reference, node, 1, 2, 3, reference, local, 1, 2, 3,\n"
               "   reference, global, 1, 1, 0, reference, other node, 1, 0, 0,\n"
               "   reference, 1, 1, 0, 0, reference, 1, 1, 0, 0;\n");
  CardReader& c = d.card();
  EXPECT_MAT_NEAR(c.position(n.F), Vec3(1, 2, 3), kTol);
  EXPECT_MAT_NEAR(c.position(n.F), Vec3(1, 2, 3), kTol);
  EXPECT_MAT_NEAR(c.position(n.F), Vec3(1, 2, 3), kTol);
  // R_F^T ((1,1,0) - (1,0,0)) = Rz(-90) (0,1,0) = (1,0,0)
  EXPECT_MAT_NEAR(c.position(n.F), Vec3(1, 0, 0), kTol);
  // x_W = x_O + R_O (1,0,0) = (1,2,0); R_F^T (0,2,0) = (2,0,0)
  EXPECT_MAT_NEAR(c.position(n.F, &n.O), Vec3(2, 0, 0), kTol);
  // reference 1: x_W = (1,2,3) + Rz(90)(1,0,0) = (1,3,3); in F: Rz(-90)(0,3,3) = (3,0,3)
  EXPECT_MAT_NEAR(c.position(n.F), Vec3(3, 0, 3), kTol);
  // a node card: frame = global gives absolute values
  EXPECT_MAT_NEAR(c.position(RigidFrame{}), Vec3(1, 3, 3), kTol);
  c.expect_end();
}

TEST(RelativeSpecifications, DirectionAndOrientation) {
  Nodes n;
  MemoryDeck d(std::string(kChain) +
               "p: reference, global, 0, 1, 0, reference, other node, 0, 1, 0, reference, 1, 1, 0, 0,\n"
               "   0, 0, 1, reference, global, eye, reference, other node, eye, reference, 1, eye,\n"
               "   euler321, 0.2, 0, 0, reference, node, eye;\n");
  CardReader& c = d.card();
  EXPECT_MAT_NEAR(c.direction(n.F), Vec3(1, 0, 0), kTol);
  // R_F^T R_O (0,1,0) = Rz(-90) (0,0,1) = (0,0,1)
  EXPECT_MAT_NEAR(c.direction(n.F, &n.O), Vec3(0, 0, 1), kTol);
  // R_F^T R_1 (1,0,0) = (1,0,0) (same orientation)
  EXPECT_MAT_NEAR(c.direction(n.F), Vec3(1, 0, 0), kTol);
  EXPECT_MAT_NEAR(c.direction(n.F), Vec3(0, 0, 1), kTol);
  EXPECT_MAT_NEAR(c.orientation(n.F), Rz(-M_PI / 2), kTol);
  EXPECT_MAT_NEAR(c.orientation(n.F, &n.O), Rz(-M_PI / 2) * Rx(M_PI / 2), kTol);
  EXPECT_MAT_NEAR(c.orientation(n.F), Mat3::Identity(), kTol);
  EXPECT_MAT_NEAR(c.orientation(RigidFrame{}), Rz(0.2), kTol);
  EXPECT_MAT_NEAR(c.orientation(n.F), Mat3::Identity(), kTol);
}

TEST(RelativeSpecifications, VelocityAndAngularVelocity) {
  Nodes n;
  MemoryDeck d(std::string(kChain) +
               "p: 1, 2, 3, reference, global, 1, 1, 0, reference, 1, null, reference, 1, null,\n"
               "   0, 0, 5, reference, global, 0, 0, 3, reference, 1, 1, 0, 0, reference, 1, null;\n");
  CardReader& c = d.card();
  const Vec3 x_p(1, 1, 0);  // one unit from F's origin along global y
  EXPECT_MAT_NEAR(c.velocity(n.F, x_p), Vec3(1, 2, 3), kTol);
  // absolute (1,1,0); F's point moves with v_F + w_F x (0,1,0) = (0,1,0) + (-1,0,0);
  // relative in W (2,0,0) -> in F Rz(-90)(2,0,0) = (0,-2,0)
  EXPECT_MAT_NEAR(c.velocity(n.F, x_p), Vec3(0, -2, 0), kTol);
  // in reference 1, null: a point fixed in 1 at x_p moves with v1 + w1 x (x_p - x1)
  // = (0.1,0,0) + (0,0,2) x (0,-1,-3) = (0.1,0,0) + (2,0,0)
  EXPECT_MAT_NEAR(c.velocity(RigidFrame{}, x_p), Vec3(2.1, 0, 0), kTol);
  // ... relative to F: (2.1,0,0) - (-1,1,0) = (3.1,-1,0) -> Rz(-90): (-1,-3.1,0)
  EXPECT_MAT_NEAR(c.velocity(n.F, x_p), Vec3(-1, -3.1, 0), 1e-14);
  EXPECT_MAT_NEAR(c.angular_velocity(n.F), Vec3(0, 0, 5), kTol);
  EXPECT_MAT_NEAR(c.angular_velocity(n.F), Vec3(0, 0, 2), kTol);
  // w_W = w1 + R1 (1,0,0) = (0,1,2); relative to F: (0,1,1) -> Rz(-90): (1,0,1)
  EXPECT_MAT_NEAR(c.angular_velocity(n.F), Vec3(1, 0, 1), kTol);
  EXPECT_MAT_NEAR(c.angular_velocity(RigidFrame{}), Vec3(0, 0, 2), kTol);
  c.expect_end();
}

}  // namespace
}  // namespace mbl::parser::test

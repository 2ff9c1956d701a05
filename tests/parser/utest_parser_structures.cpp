// Vectors, matrices and orientation matrices of input manual §2.3, against hand-computed values.
#include <Eigen/Geometry>

#include <cmath>

#include "tests/parser/parser_test_util.hpp"

namespace mbl::parser::test {
namespace {

constexpr double kTol = 1e-14;

Mat3 mat3_of(const std::string& args) {
  MemoryDeck d("m: " + args + ";");
  CardReader& c = d.card();
  Mat3 m = c.mat3();
  c.expect_end();
  return m;
}

Mat3 orientation_of(const std::string& args) {
  MemoryDeck d("m: " + args + ";");
  CardReader& c = d.card();
  Mat3 m = c.orientation_matrix();
  c.expect_end();
  return m;
}

Mat3 rows(double a11, double a12, double a13, double a21, double a22, double a23, double a31,
          double a32, double a33) {
  Mat3 m;
  m << a11, a12, a13, a21, a22, a23, a31, a32, a33;
  return m;
}


TEST(Vec3Forms, RealsNullDefaultEmptyAndScale) {
  MemoryDeck d("v: 1., 2, 3.5, null, default, ,, , cos(pi/3.), 0., sin(pi/3.), scale, 100., 1, 1, 1;");
  CardReader& c = d.card();
  EXPECT_MAT_NEAR(c.vec3(), Vec3(1, 2, 3.5), kTol);
  EXPECT_MAT_NEAR(c.vec3(), Vec3::Zero(), kTol);
  EXPECT_MAT_NEAR(c.vec3(), Vec3::Zero(), kTol);
  EXPECT_MAT_NEAR(c.vec3(), Vec3::Zero(), kTol);
  EXPECT_MAT_NEAR(c.vec3(), Vec3(50., 0., 50. * std::sqrt(3.)), 1e-12);
  EXPECT_MAT_NEAR(c.vec3(), Vec3(1, 1, 1), kTol);
  c.expect_end();
}

TEST(Vec6Forms, RealsNullScale) {
  MemoryDeck d("v: 1, 2, 3, 4, 5, 6, scale, 2, null;");
  CardReader& c = d.card();
  Vec6 expected;
  expected << 2, 4, 6, 8, 10, 12;
  EXPECT_MAT_NEAR(c.vec6(), expected, kTol);
  EXPECT_MAT_NEAR(c.vec6(), Vec6::Zero(), kTol);
}

TEST(Mat3Forms, EveryForm) {
  EXPECT_MAT_NEAR(mat3_of("1, 2, 3, 4, 5, 6, 7, 8, 9"), rows(1, 2, 3, 4, 5, 6, 7, 8, 9), kTol);
  EXPECT_MAT_NEAR(mat3_of("matr, 1, 2, 3, 4, 5, 6, 7, 8, 9"), rows(1, 2, 3, 4, 5, 6, 7, 8, 9), kTol);
  EXPECT_MAT_NEAR(mat3_of("sym, 1, 2, 3, 4, 5, 6"), rows(1, 2, 3, 2, 4, 5, 3, 5, 6), kTol);
  EXPECT_MAT_NEAR(mat3_of("skew, 1, 2, 3"), rows(0, -3, 2, 3, 0, -1, -2, 1, 0), kTol);
  EXPECT_MAT_NEAR(mat3_of("diag, 1, 2, 3"), rows(1, 0, 0, 0, 2, 0, 0, 0, 3), kTol);
  EXPECT_MAT_NEAR(mat3_of("eye"), Mat3::Identity(), kTol);
  EXPECT_MAT_NEAR(mat3_of("null"), Mat3::Zero(), kTol);
  EXPECT_MAT_NEAR(mat3_of("Diag, 1, 2, 3, scale, -2"), rows(-2, 0, 0, 0, -4, 0, 0, 0, -6), kTol);
  EXPECT_MAT_NEAR(mat3_of("eye, scale, 3"), Mat3::Identity() * 3, kTol);
}

TEST(Mat6Forms, EveryForm) {
  std::string reals;
  Mat6 general;
  for (int i = 0; i < 36; ++i) {
    reals += (i ? ", " : "") + std::to_string(i + 1);
    general(i / 6, i % 6) = i + 1;
  }
  {
    MemoryDeck d("m: " + reals + ", matr, " + reals + ", eye, null, diag, 1, 2, 3, 4, 5, 6;");
    CardReader& c = d.card();
    EXPECT_MAT_NEAR(c.mat6(), general, kTol);
    EXPECT_MAT_NEAR(c.mat6(), general, kTol);
    EXPECT_MAT_NEAR(c.mat6(), Mat6::Identity(), kTol);
    EXPECT_MAT_NEAR(c.mat6(), Mat6::Zero(), kTol);
    Vec6 diag;
    diag << 1, 2, 3, 4, 5, 6;
    EXPECT_MAT_NEAR(c.mat6(), Mat6(diag.asDiagonal()), kTol);
  }
  {
    std::string upper;
    Mat6 sym;
    int k = 0;
    for (int i = 0; i < 6; ++i)
      for (int j = i; j < 6; ++j) {
        ++k;
        upper += (k > 1 ? ", " : "") + std::to_string(k);
        sym(i, j) = sym(j, i) = k;
      }
    MemoryDeck d("m: sym, " + upper + ", scale, 2;");
    EXPECT_MAT_NEAR(d.card().mat6(), 2 * sym, kTol);
  }
  {
    // ANBA: section axes x, y and beam axis z are MBDyn axes 2, 3 and 1. A stiffness that is
    // diagonal in ANBA (x, y, z, Mx, My, Mz) = (1..6) becomes diag(3, 1, 2, 6, 4, 5); the ANBA
    // coupling x-Mz (entry (1,6)) becomes the F2-M1 coupling (entry (2,4)).
    std::string anba;
    Mat6 a = Mat6::Zero();
    for (int i = 0; i < 6; ++i) a(i, i) = i + 1;
    a(0, 5) = a(5, 0) = 7;
    for (int i = 0; i < 36; ++i) anba += (i ? ", " : "") + std::to_string(a(i / 6, i % 6));
    MemoryDeck d("m: anba, " + anba + ";");
    Mat6 expected = Mat6::Zero();
    Vec6 diag;
    diag << 3, 1, 2, 6, 4, 5;
    expected.diagonal() = diag;
    expected(1, 3) = expected(3, 1) = 7;
    EXPECT_MAT_NEAR(d.card().mat6(), expected, kTol);
  }
}

TEST(Mat6xNForms, GeneralNullAnbaScale) {
  MemoryDeck d(
      "m: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, null, anba, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, "
      "scale, 2;");
  CardReader& c = d.card();
  Eigen::MatrixXd g(6, 2);
  g << 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12;
  EXPECT_MAT_NEAR(c.mat6xn(2), g, kTol);
  EXPECT_MAT_NEAR(c.mat6xn(2), Eigen::MatrixXd::Zero(6, 2), kTol);
  Eigen::MatrixXd anba(6, 2);  // rows z, x, y, Mz, Mx, My of the ANBA matrix
  anba << 5, 6, 1, 2, 3, 4, 11, 12, 7, 8, 9, 10;
  EXPECT_MAT_NEAR(c.mat6xn(2), 2 * anba, kTol);
}

TEST(OrientationForms, EyeAndMatr) {
  EXPECT_MAT_NEAR(orientation_of("eye"), Mat3::Identity(), kTol);
  EXPECT_MAT_NEAR(orientation_of("matr, 0, -1, 0, 1, 0, 0, 0, 0, 1"), rows(0, -1, 0, 1, 0, 0, 0, 0, 1),
                  kTol);
  MemoryDeck d("m: matr, 1, 0, 0, 0, 1, 0, 0, 0, 1.001, tolerance, 1e-6;");
  EXPECT_MAT_NEAR(d.card().orientation_matrix(), rows(1, 0, 0, 0, 1, 0, 0, 0, 1.001), kTol);
  EXPECT_EQ(d.ctx.count("warning"), 1u);  // not orthogonal: only a warning (§2.3.4)
}

TEST(OrientationForms, TwoVectorsManualExamples) {
  const double c = std::cos(M_PI / 6), s = std::sin(M_PI / 6);
  EXPECT_MAT_NEAR(orientation_of("1, 1., 0., 0., 2, 0., 1., 0."), Mat3::Identity(), kTol);
  // rotation of pi/6 about axis 3
  EXPECT_MAT_NEAR(orientation_of("1, cos(pi/6.), sin(pi/6.), 0., 3, 0., 0., 1."),
                  rows(c, -s, 0, s, c, 0, 0, 0, 1), kTol);
  // rotation of 0.3 about axis 1, given as axis 2 and then axis 1
  const double ca = std::cos(0.3), sa = std::sin(0.3);
  EXPECT_MAT_NEAR(orientation_of("2, 0., cos(0.3), sin(0.3), 1, 1., 0., 0."),
                  rows(1, 0, 0, 0, ca, -sa, 0, sa, ca), kTol);
}

TEST(OrientationForms, TwoVectorsGramSchmidtEveryAxisPair) {
  // First axis exactly along v1, second in the plane of v1 and v2, third completing a right-handed
  // frame -- for the six ordered axis pairs.
  const Vec3 v1(1., 2., 2.), v2(0., 1., 5.);
  const Vec3 e1 = v1 / 3.0;
  const Vec3 u2 = (v2 - v2.dot(e1) * e1).normalized();
  for (int i1 = 1; i1 <= 3; ++i1)
    for (int i2 = 1; i2 <= 3; ++i2) {
      if (i1 == i2) continue;
      const Mat3 R = orientation_of(std::to_string(i1) + ", 1., 2., 2., " + std::to_string(i2) +
                                    ", 0., 1., 5.");
      EXPECT_MAT_NEAR(Vec3(R.col(i1 - 1)), e1, kTol);
      EXPECT_MAT_NEAR(Vec3(R.col(i2 - 1)), u2, kTol);
      EXPECT_NEAR(R.determinant(), 1.0, kTol) << i1 << i2;
      EXPECT_MAT_NEAR(R.transpose() * R, Mat3::Identity(), kTol);
    }
  // Hand-computed: 3 along (0, 0, 2), 1 in the plane of (1, 1, 0) -> 1 = (1, 1, 0)/sqrt 2,
  // 2 = 3 x 1 = (-1, 1, 0)/sqrt 2.
  const double r = std::sqrt(0.5);
  EXPECT_MAT_NEAR(orientation_of("3, 0., 0., 2., 1, 1., 1., 3."), rows(r, -r, 0, r, r, 0, 0, 0, 1),
                  kTol);
}

TEST(OrientationForms, Guess) {
  // v1 = (0, 0, 2): smallest component index 1 -> 1, largest index 3 -> -0/2 = 0: axis 2 = (1,0,0)
  EXPECT_MAT_NEAR(orientation_of("3, 0., 0., 2., 2, guess"), rows(0, 1, 0, -1, 0, 0, 0, 0, 1), kTol);
  const Mat3 R = orientation_of("1, 1., 2., 3., 2, guess");
  EXPECT_MAT_NEAR(Vec3(R.col(0)), Vec3(1, 2, 3).normalized(), kTol);
  EXPECT_MAT_NEAR(Vec3(R.col(1)), Vec3(1, 0, -1. / 3.).normalized(), kTol);
}

TEST(OrientationForms, EulerAnglesAndOrientationVector) {
  const double a = 0.1, b = -0.4, g = 0.7;
  const auto Rx = [](double t) { return Mat3(Eigen::AngleAxisd(t, Vec3::UnitX())); };
  const auto Ry = [](double t) { return Mat3(Eigen::AngleAxisd(t, Vec3::UnitY())); };
  const auto Rz = [](double t) { return Mat3(Eigen::AngleAxisd(t, Vec3::UnitZ())); };
  // Technical manual eq. (4.4): R = R1(a) R2(b) R3(g), written out
  const Mat3 R123 = rows(std::cos(b) * std::cos(g), -std::cos(b) * std::sin(g), std::sin(b),
                         std::sin(a) * std::sin(b) * std::cos(g) + std::cos(a) * std::sin(g),
                         -std::sin(a) * std::sin(b) * std::sin(g) + std::cos(a) * std::cos(g),
                         -std::sin(a) * std::cos(b),
                         -std::cos(a) * std::sin(b) * std::cos(g) + std::sin(a) * std::sin(g),
                         std::cos(a) * std::sin(b) * std::sin(g) + std::sin(a) * std::cos(g),
                         std::cos(a) * std::cos(b));
  EXPECT_MAT_NEAR(orientation_of("euler123, 0.1, -0.4, 0.7"), R123, kTol);
  EXPECT_MAT_NEAR(orientation_of("euler, 0.1, -0.4, 0.7"), R123, kTol);
  EXPECT_MAT_NEAR(orientation_of("euler123, degrees, 0.1*180/pi, -0.4*180/pi, 0.7*180/pi"), R123, 1e-13);
  EXPECT_MAT_NEAR(orientation_of("euler313, 0.1, -0.4, 0.7"), Rz(a) * Rx(b) * Rz(g), kTol);
  EXPECT_MAT_NEAR(orientation_of("euler321, 0.1, -0.4, 0.7"), Rz(a) * Ry(b) * Rx(g), kTol);
  EXPECT_MAT_NEAR(orientation_of("euler321, degrees, 90, 0, 0"), rows(0, -1, 0, 1, 0, 0, 0, 0, 1), kTol);
  // exp(phi x) with phi = pi/2 e3
  EXPECT_MAT_NEAR(orientation_of("vector, 0., 0., pi/2"), rows(0, -1, 0, 1, 0, 0, 0, 0, 1), kTol);
  EXPECT_MAT_NEAR(orientation_of("orientation vector, 0., 0., 0."), Mat3::Identity(), kTol);
  // Rodrigues: phi = (0.3, -0.2, 0.6)
  const Vec3 phi(0.3, -0.2, 0.6);
  const double t = phi.norm();
  Mat3 K;
  K << 0, -phi[2], phi[1], phi[2], 0, -phi[0], -phi[1], phi[0], 0;
  const Mat3 rodrigues = Mat3::Identity() + std::sin(t) / t * K + (1 - std::cos(t)) / (t * t) * K * K;
  EXPECT_MAT_NEAR(orientation_of("vector, 0.3, -0.2, 0.6"), rodrigues, kTol);
}

// MBDyn builds Euler-angle orientations with closed forms (libmbmath/matvec3.cc,
// EulerAngles123/313/321_2MatR): each entry a sum of products of the sines and cosines in its
// order. Ours must equal them bit for bit (a product of elementary rotations rounds otherwise:
// checked below on a grid where the two differ), degrees scaled as mbpar.cc does (angle * pi/180).
TEST(OrientationForms, EulerAnglesAreMBDynsClosedFormsToTheLastBit) {
  const auto Rx = [](double t) { return Mat3(Eigen::AngleAxisd(t, Vec3::UnitX())); };
  const auto Ry = [](double t) { return Mat3(Eigen::AngleAxisd(t, Vec3::UnitY())); };
  const auto Rz = [](double t) { return Mat3(Eigen::AngleAxisd(t, Vec3::UnitZ())); };
  auto exact = [](const std::string& kind, double a, double b, double g) {
    const double ca = std::cos(a), sa = std::sin(a), cb = std::cos(b), sb = std::sin(b), cg = std::cos(g),
                 sg = std::sin(g);
    Mat3 R;  // MBDyn's Mat3x3(m11, m21, m31, m12, ...) arguments, column by column
    if (kind == "euler123")
      R << cb * cg, -cb * sg, sb,  //
          ca * sg + sa * sb * cg, ca * cg - sa * sb * sg, -sa * cb,  //
          sa * sg - ca * sb * cg, sa * cg + ca * sb * sg, ca * cb;
    else if (kind == "euler313")
      R << ca * cg - sa * cb * sg, -ca * sg - sa * cb * cg, sa * sb,  //
          sa * cg + ca * cb * sg, -sa * sg + ca * cb * cg, -ca * sb,  //
          sb * sg, sb * cg, cb;
    else
      R << ca * cb, -sa * cg + ca * sb * sg, sa * sg + ca * sb * cg,  //
          sa * cb, ca * cg + sa * sb * sg, -ca * sg + sa * sb * cg,  //
          -sb, cb * sg, cb * cg;
    return R;
  };
  int products_differ = 0;
  for (const std::string kind : {"euler123", "euler313", "euler321"})
    for (double a : {-2.9, -1.1, 0.3, 0.7, 1.9})
      for (double b : {-0.8, 0.1, 0.45, 1.2})
        for (double g : {-2.2, -0.35, 0.6, 2.7}) {
          const std::string text = kind + ", " + fmt::format("{:.17g}, {:.17g}, {:.17g}", a, b, g);
          const Mat3 R = orientation_of(text);
          const Mat3 expected = exact(kind, a, b, g);
          for (int i = 0; i < 9; ++i)
            ASSERT_EQ(R.data()[i], expected.data()[i]) << text << " entry " << i;
          const Mat3 product = kind == "euler123"   ? Rx(a) * Ry(b) * Rz(g)
                               : kind == "euler313" ? Rz(a) * Rx(b) * Rz(g)
                                                    : Rz(a) * Ry(b) * Rx(g);
          EXPECT_MAT_NEAR(R, product, 1e-15);
          products_differ += (R != product);
          const Mat3 Rd = orientation_of(kind + ", degrees, " + fmt::format("{:.17g}, {:.17g}, {:.17g}", a, b, g));
          const Mat3 expected_d = exact(kind, a * (M_PI / 180), b * (M_PI / 180), g * (M_PI / 180));
          for (int i = 0; i < 9; ++i) ASSERT_EQ(Rd.data()[i], expected_d.data()[i]) << text << " degrees, entry " << i;
        }
  EXPECT_GT(products_differ, 0);  // the grid does tell the closed forms from the products
}

}  // namespace
}  // namespace mbl::parser::test

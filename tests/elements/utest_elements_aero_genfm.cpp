// Generic aerodynamic force (input manual §8.1.3): the data file, bilinear interpolation inside
// the tables, the cosine fading outside them, the angle conventions (eq. 8.9, 8.10) and the
// loads on the node (eq. 8.11), on a node at rest in a given airstream.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <sstream>

#include "elements/aero/air_properties.hpp"
#include "elements/aero/generic_aero_force.hpp"
#include "support/element_fixture.hpp"

using namespace mbl;
using namespace mbl::elements::aero;

namespace {

constexpr double kPi = std::numbers::pi;

/// alpha in {-90, 0, 90} deg, beta in {-180, 0, 180} deg; every coefficient k equals
/// (k + 1) (1 + alpha_deg / 90 + 2 beta_deg / 180), linear in both angles.
GenericAeroData linear_table(double length_scale = 1.) {
  std::ostringstream s;
  s << "# a comment\n% another\n3 3\n# alpha beta fx fy fz mx my mz\n";
  for (double b : {-180., 0., 180.})
    for (double a : {-90., 0., 90.}) {
      s << a << ' ' << b;
      for (int k = 0; k < 6; ++k) s << ' ' << (k + 1) * (1. + a / 90. + 2. * b / 180.);
      s << '\n';
    }
  std::istringstream in(s.str());
  return read_generic_aero_data(in, kPi / 180., length_scale);
}

}  // namespace

TEST(AeroGenericForce, TablesAreBilinearInsideAndFadeOutside) {
  const GenericAeroData d = linear_table(2.);
  ASSERT_EQ(d.alpha.size(), 3u);
  EXPECT_DOUBLE_EQ(d.alpha[2], kPi / 2.);
  const double a = 0.3, b = -1.1;
  const auto c = d.at(a, b, kPi / 2., kPi);
  for (int k = 0; k < 6; ++k) {
    const double scale = k < 3 ? 4. : 8.;  // length scale 2: areas and volumes
    EXPECT_NEAR(c[k], scale * (k + 1) * (1. + a / (kPi / 2.) + 2. * b / kPi), 1e-12) << k;
  }
  // A table narrower than the convention's range: the edge value fades to 0 at the limit.
  const GenericAeroData narrow = linear_table();
  const auto edge = narrow.at(kPi / 2., 0., kPi, kPi);
  const auto half = narrow.at(3. * kPi / 4., 0., kPi, kPi);  // halfway from the edge to pi
  EXPECT_NEAR(half[0], edge[0] * (std::cos(kPi * (kPi / 4.) / (-kPi - kPi / 2.)) + 1.) / 2., 1e-12);
  EXPECT_NEAR(narrow.at(-kPi, 0., kPi, kPi)[0], 0., 1e-12);
}

TEST(AeroGenericForce, BadFilesAreReported) {
  std::istringstream short_file("2 1\n0 0 1 2 3 4 5 6\n");
  EXPECT_THROW(read_generic_aero_data(short_file, 1., 1.), std::runtime_error);
  std::istringstream unordered("2 1\n1 0 1 2 3 4 5 6\n0 0 1 2 3 4 5 6\n");
  EXPECT_THROW(read_generic_aero_data(unordered, 1., 1.), std::runtime_error);
}

TEST(AeroGenericForce, LoadsFromTheAirstreamInTheBodyFrame) {
  test_support::ElementFixture f;
  const double rho = 1.2, V = 30.;
  f.model.add_element(std::make_unique<AirProperties>(std::make_shared<ConstDrive>(rho), 340.,
                                                      [V](double) { return Vec3(-V, 0., -0.2 * V); }));
  GenericAeroForceParams p;
  p.o_N = Vec3(0.5, 0., 0.);
  p.surface = 2.;
  p.length = 0.5;
  p.data = linear_table();
  auto& e = static_cast<GenericAeroForce&>(f.model.add_element(std::make_unique<GenericAeroForce>(4, *f.n1, p)));
  const Vector r = f.residual_at_start(e);
  // The body's velocity relative to the air, in its frame (the node's at rest here).
  const Mat3 R = f.n1->R_WN();
  const Vec3 o_W = R * p.o_N;
  const Vec3 v_W = f.n1->v_W() + o_W.cross(f.n1->w_W()) - Vec3(-V, 0., -0.2 * V);
  const Vec3 v = R.transpose() * v_W;
  const double alpha = std::atan2(v.z(), std::abs(v.x()));
  const double beta = -std::atan2(v.y(), std::copysign(std::hypot(v.x(), v.y()), v.x()));
  EXPECT_NEAR(e.private_data(e.private_data_index("alpha")), alpha, 1e-14);
  EXPECT_NEAR(e.private_data(e.private_data_index("beta")), beta, 1e-14);
  const double q = rho * v_W.squaredNorm() / 2.;
  const double k = 1. + alpha / (kPi / 2.) + 2. * beta / kPi;
  const Vec3 f_a = Vec3(1., 2., 3.) * (k * q * 2.), m_a = Vec3(4., 5., 6.) * (k * q * 2. * 0.5);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(e.private_data(7 + i), f_a[i], 1e-9);
    EXPECT_NEAR(e.private_data(10 + i), m_a[i], 1e-9);
  }
  const Vec3 F = R * f_a, M = R * m_a + o_W.cross(F);
  EXPECT_NEAR((r.segment<3>(f.n1->eq_index()) - F).norm(), 0., 1e-9);
  EXPECT_NEAR((r.segment<3>(f.n1->eq_index() + 3) - M).norm(), 0., 1e-9);
  EXPECT_EQ(e.private_data_index("Mz"), 6u);
  EXPECT_EQ(e.private_data_index("Mw"), 0u);
}

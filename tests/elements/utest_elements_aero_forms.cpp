// Aerodynamic forms of MBDyn 2024 read since session 14 (issue #27), each against a closed form:
// the wind profiles of the air properties (input manual §8.1.4, eq. 8.2-8.7; MBDyn's windprof.cc),
// the Mangler and `uniform sectional` rotors (§8.1.6; rotor.cc ManglerRotor, UniformRotor2) and
// the c81 airfoils interpolated along the span (`c81, interpolated`; aerodata_impl.cc
// C81InterpolatedAeroData, c81data.cc c81_data_merge).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "elements/aero/aerodynamic_beam.hpp"
#include "elements/aero/aerodynamic_body.hpp"
#include "elements/aero/air_properties.hpp"
#include "elements/aero/c81_data.hpp"
#include "elements/aero/rotor.hpp"
#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/model/model_builder.hpp"
#include "support/aero_tables.hpp"
#include "support/element_fixture.hpp"

using namespace mbl;
using namespace mbl::elements::aero;

namespace {

constexpr double kPi = std::numbers::pi;

std::string deck_with(const std::string& nodes, const std::string& elements, const std::string& counts) {
  return "begin: data; problem: initial value; end: data;\n"
         "begin: initial value; initial time: 0.; final time: 0.1; time step: 0.1; end: initial value;\n"
         "begin: control data; " + counts + " end: control data;\n"
         "begin: nodes;\n" + nodes + "end: nodes;\n"
         "begin: elements;\n" + elements + "end: elements;\n";
}

/// The model of `b` numbered, at its initial state, time 0; `e`'s residual there.
void residual_at_start(BuildResult& b, Element& e) {
  Vector y, yp;
  test_support::numbered_initial_state(*b.model, y, yp);
  b.model->update(0., y, yp);
  Vector r = Vector::Zero(b.model->size());
  ResidualSink sink(r, nullptr);
  StepContext c;
  c.y = &y;
  c.yp = &yp;
  e.residual(sink, c);
}

/// Reads `deck` into `b` and evaluates its aerodynamic element 10 at the initial state (null if
/// the deck refers to something not implemented or has no such element).
AeroSurface* aero_element_at_start(BuildResult& b, const std::string& name, const std::string& deck) {
  b = read_deck_text(name, deck);
  if (b.not_implemented > 0) return nullptr;
  auto* e = dynamic_cast<AeroSurface*>(b.model->find_element("aerodynamic", 10));
  if (e) residual_at_start(b, *e);
  return e;
}

const AirProperties& air_of(const BuildResult& b) {
  const auto* air = dynamic_cast<const AirProperties*>(b.model->find_element("air properties", 1));
  if (!air) throw std::runtime_error("no air properties");
  return *air;
}

std::filesystem::path write_plate(const std::string& name, double cl0) {
  const auto path = std::filesystem::temp_directory_path() / ("mbl_aero_forms_" + name + ".c81");
  std::ofstream(path) << test_support::flat_plate_c81(cl0);
  return path;
}

using test_support::rotor_params;

}  // namespace

// Eq. 8.4-8.7 with z = e3.(x - X0): power law v_ref (z / z_ref)^p and logarithmic v_ref log(z /
// z0) / log(z_ref / z0) along e1 where z > 0, nothing at or below; the scalar function at any z.
TEST(AeroWindProfiles, VelocityAlongAxisOneFromTheElevationAlongAxisThree) {
  const std::string elements =
      "air properties: 1.225, 340., 0., 1., 0., const, 1.,\n"
      "  gust, power law, reference position, 0., 0., -2., reference orientation, 1, 0., 1., 0., 3, 0., 0., 1.,\n"
      "    reference elevation, 10., reference velocity, const, 5., exponent, 0.2,\n"
      "  gust, logarithmic, reference elevation, 10., reference velocity, linear, 0., 2., surface roughness length, 0.01,\n"
      "  gust, scalar function, reference position, 0., 0., 1., \"wind\", linear, 0., 0., 10., 3.;\n";
  const BuildResult b = read_deck_text("wind_profiles", deck_with("", elements, "air properties;"));
  ASSERT_EQ(b.not_implemented, 0u);
  const AirProperties& air = air_of(b);
  // x = (1, 2, 10), t = 0.5: power law z = 12 along y (its axis 1), logarithmic z = 10 (v = 2 t
  // = 1, at its reference elevation) along x, scalar function z = 9 (0.3 z) along x.
  const Vec3 v = air.velocity(Vec3(1., 2., 10.), 0.5);
  EXPECT_NEAR(v.x(), 1. + 0.3 * 9., 1e-14);
  EXPECT_NEAR(v.y(), 1. + 5. * std::pow(1.2, 0.2), 1e-14);  // 1: the airstream's own, along y
  EXPECT_NEAR(v.z(), 0., 1e-14);
  // Half the reference elevation, t = 2: the logarithmic profile gives 4 log(500) / log(1000).
  const Vec3 w = air.velocity(Vec3(0., 0., 5.), 2.);
  EXPECT_NEAR(w.x(), 4. * std::log(500.) / std::log(1000.) + 0.3 * 4., 1e-13);
  EXPECT_NEAR(w.y(), 1. + 5. * std::pow(0.7, 0.2), 1e-14);
  // Below X0 along axis 3 the power law and the logarithmic profiles add nothing; the scalar
  // function extrapolates (z = -4).
  const Vec3 u = air.velocity(Vec3(0., 0., -3.), 1.);
  EXPECT_NEAR(u.x(), 0.3 * -4., 1e-14);
  EXPECT_NEAR(u.y(), 1., 1e-14);
  EXPECT_NEAR(u.z(), 0., 1e-14);
}

// `gust: <model>;` appends a gust to the air properties read before (dataman4.cc).
TEST(AeroWindProfiles, GustCardAddsToTheAirProperties) {
  const std::string elements =
      "air properties: 1.225, 340., 1., 0., 0., const, 1.;\n"
      "gust: power law, reference elevation, 10., reference velocity, 5., exponent, 0.5;\n"
      "gust: power law, reference orientation, 1, 0., 1., 0., 3, 0., 0., 1., reference elevation, 10., reference velocity, 1., exponent, 1.;\n";
  const BuildResult b = read_deck_text("gust_card", deck_with("", elements, "air properties;"));
  ASSERT_EQ(b.not_implemented, 0u);
  const Vec3 v = air_of(b).velocity(Vec3(0., 0., 40.), 0.);
  EXPECT_NEAR(v.x(), 1. + 5. * 2., 1e-14);  // 1: the airstream's own
  EXPECT_NEAR(v.y(), 4., 1e-14);
}

// Mangler in hover (sin alpha_d = 1, so every harmonic vanishes): U 15/4 r^2 sqrt(1 - r^2).
namespace {
/// A Mangler rotor (craft at rest at the origin, hub spinning at 40 rad/s about z) in the given
/// airstream.
struct ManglerRotor {
  test_support::ElementFixture f;
  Rotor* rotor;
  explicit ManglerRotor(const Vec3& air_W) : f(StructNode::InitialConditions{}, spinning_hub()) {
    f.model.add_element(
        std::make_unique<AirProperties>(std::make_shared<ConstDrive>(1.225), 340., [air_W](double) { return air_W; }));
    rotor = static_cast<Rotor*>(
        &f.model.add_element(std::make_unique<Rotor>(1, rotor_params(f, RotorParams::Model::Mangler))));
    f.model.setup_elements();
  }
  /// One converged step with thrust T along the axis.
  void step(double T) {
    Vector r = Vector::Zero(1);
    ResidualSink sink(r, nullptr);
    StepContext c;
    rotor->add_load(1, Vec3(0., 0., T), Vec3::Zero(), f.n2->x_W());
    rotor->residual(sink, c);
    rotor->after_convergence(c);
  }
  static StructNode::InitialConditions spinning_hub() {
    StructNode::InitialConditions hub;
    hub.w_W = Vec3(0., 0., 40.);
    return hub;
  }
};
}  // namespace

TEST(AeroMangler, HoverDistributionIsTheAxisymmetricTerm) {
  ManglerRotor m(Vec3::Zero());
  Rotor& rotor = *m.rotor;
  // Before a step has converged the mean is 0: no induced velocity.
  EXPECT_EQ(rotor.velocity(Vec3(2.5, 0., 0.)), Vec3::Zero());
  m.step(2000.);
  const double U = rotor.mean_velocity_converged();
  // Momentum theory in hover: U = sqrt(T / (2 rho A)).
  EXPECT_NEAR(U, std::sqrt(2000. / (2. * 1.225 * kPi * 25.)), 1e-10);
  for (const Vec3& x : {Vec3(2.5, 0., 0.), Vec3(0., -4., 0.3), Vec3(-1., 1., 0.)}) {
    const double rr = std::hypot(x.x(), x.y()) / 5.;
    const Vec3 v = rotor.velocity(x);
    EXPECT_NEAR(v.z(), U * 15. / 4. * rr * rr * std::sqrt(1. - rr * rr), 1e-12) << x.transpose();
    EXPECT_NEAR(v.head<2>().norm(), 0., 1e-15);
  }
  EXPECT_NEAR(rotor.velocity(Vec3(6., 0., 0.)).z(), 0., 1e-15);  // outside the disc
}

// In edgewise flight (alpha_d = 0) the harmonics in psi average out over the azimuth, so the
// distribution's mean over the disc is the mean induced velocity: 2 int 15/4 r^3 sqrt(1 - r^2) dr = 1.
TEST(AeroMangler, DiscMeanIsTheMeanInducedVelocity) {
  ManglerRotor m(Vec3(30., 0., 0.));
  Rotor& rotor = *m.rotor;
  m.step(2000.);
  const double U = rotor.mean_velocity_converged();
  ASSERT_GT(U, 0.);
  // Midpoint rule in r^2 (uniform area) and psi.
  const int nr = 400, np = 64;
  double sum = 0.;
  for (int i = 0; i < nr; ++i)
    for (int j = 0; j < np; ++j) {
      const double rr = std::sqrt((i + 0.5) / nr), psi = 2. * kPi * (j + 0.5) / np;
      sum += rotor.velocity(Vec3(5. * rr * std::cos(psi), 5. * rr * std::sin(psi), 0.)).z();
    }
  EXPECT_NEAR(sum / (nr * np), U, 2e-4 * U);
  // Not uniform: the cos psi harmonic makes the rear (psi = 0, downwind) and the front differ.
  EXPECT_GT(std::abs(rotor.velocity(Vec3(3., 0., 0.)).z() - rotor.velocity(Vec3(-3., 0., 0.)).z()), 0.1 * U);
}

// `uniform sectional` (UniformRotor2): the aerodynamic elements send each integration point's
// load at the point (aeroelem.cc AddSectionalForce_int); plain `uniform` takes their resultant at
// the node. Thrust and moment about the craft node come out the same.
TEST(AeroUniformSectional, ElementsSendTheLoadOfEachPointAtThePoint) {
  const std::string nodes =
      "structural: 1, static, null, eye, null, null;\n"
      "structural: 2, dynamic, 0., 0., 0., eye, null, 0., 0., 40.;\n";
  auto elements = [](const std::string& model) {
    return "air properties: 1.225, 340., 1., 0., 0., const, 0.;\n"
           "c81 data: 1, \"" + write_plate("sectional", 0.3).string() + "\";\n"
           "body: 1, 2, 1., null, eye;\n"
           "induced velocity: 3, rotor, 1, 2, induced velocity, " + model + ", 40., 5.;\n"
           "aerodynamic body: 10, 2, induced velocity, 3, 3., 0.2, 0.1, 1, 0., 1., 0., 3, 1., 0., 0., 2.,\n"
           "  const, 0.3, const, 0., const, 0., const, 0., 3, c81, 1;\n";
  };
  const std::string counts = "structural nodes: 2; rigid bodies: 1; air properties; aerodynamic elements: 1; induced velocity elements: 1;";
  auto loads = [&](const std::string& model, Vec3& F, Vec3& M) {
    BuildResult b = read_deck_text("sectional_" + model, deck_with(nodes, elements(model), counts));
    ASSERT_EQ(b.not_implemented, 0u);
    Model& m = *b.model;
    auto* rotor = dynamic_cast<Rotor*>(m.find_element("induced velocity", 3));
    auto* body = dynamic_cast<AerodynamicBody*>(m.find_element("aerodynamic", 10));
    ASSERT_TRUE(rotor && body);
    EXPECT_EQ(rotor->sectional_loads(), model == "uniform sectional");
    residual_at_start(b, *body);
    F = rotor->thrust_force_W();
    M = rotor->summed_moment_W();
    // The body's own resultant about the node, moved to the craft node (the origin).
    const Vec3 x_node = static_cast<StructNode*>(m.find_node("structural", 2))->x_W();
    EXPECT_GT(body->force_W().norm(), 1.);
    EXPECT_NEAR((F - body->force_W()).norm(), 0., 1e-12 * F.norm());
    EXPECT_NEAR((M - body->moment_W() - x_node.cross(body->force_W())).norm(), 0., 1e-12 * M.norm());
  };
  Vec3 F_sec, M_sec, F_res, M_res;
  loads("uniform sectional", F_sec, M_sec);
  loads("uniform", F_res, M_res);
  EXPECT_NEAR((F_sec - F_res).norm(), 0., 1e-12 * F_res.norm());
  EXPECT_NEAR((M_sec - M_res).norm(), 0., 1e-12 * M_res.norm());
}

namespace {
/// Records the loads the aerodynamic elements send it.
class LoadRecorder final : public InducedVelocity {
 public:
  LoadRecorder(unsigned label, bool sectional) : InducedVelocity(label), sectional_(sectional) {}
  std::string_view type_name() const override { return "LoadRecorder"; }
  void residual(ResidualSink&, const StepContext&) override {}
  void jacobian(JacobianSink&, const StepContext&) override {}
  Vec3 velocity(const Vec3&) const override { return Vec3::Zero(); }
  void add_load(unsigned, const Vec3& F_W, const Vec3&, const Vec3& x_W) override { at.push_back(x_W), F.push_back(F_W); }
  bool sectional_loads() const override { return sectional_; }
  std::vector<Vec3> at, F;

 private:
  bool sectional_;
};
}  // namespace

// Point by point: one load per integration point, at x_node + R_WN (f + R_NA e3 b/2 xi_i).
TEST(AeroUniformSectional, OneLoadPerIntegrationPointAtThePoint) {
  for (const bool sectional : {true, false}) {
    test_support::ElementFixture f;
    f.model.add_element(std::make_unique<AirProperties>(std::make_shared<ConstDrive>(1.225), 340.,
                                                        [](double) { return Vec3(-20., 3., 1.); }));
    auto& rec = static_cast<LoadRecorder&>(f.model.add_element(std::make_unique<LoadRecorder>(3, sectional)));
    AeroSurfaceParams p;
    p.chord.coef = {0.2};
    p.force_point.coef = {0.};
    p.bc_point.coef = {0.};
    p.twist.coef = {0.};
    p.tip_loss.coef = {1.};
    p.points = 3;
    p.has_induced_velocity = true;
    p.induced_velocity_label = 3;
    p.airfoil.at_point.assign(3, std::make_shared<const C81Data>(test_support::flat_plate(0.1)));
    const Vec3 f_N(0.3, -0.1, 0.2);
    const Mat3 R_NA = rot::euler123_to_R(Vec3(0.2, -0.1, 0.4));
    auto& body = static_cast<AerodynamicBody&>(
        f.model.add_element(std::make_unique<AerodynamicBody>(9, *f.n1, f_N, R_NA, 1.5, p)));
    f.residual_at_start(body);
    if (!sectional) {
      ASSERT_EQ(rec.at.size(), 1u);
      EXPECT_NEAR((rec.at[0] - f.n1->x_W()).norm(), 0., 1e-15);
      EXPECT_NEAR((rec.F[0] - body.force_W()).norm(), 0., 1e-12);
      continue;
    }
    std::vector<double> xi, w;
    gauss_legendre(3, xi, w);
    ASSERT_EQ(rec.at.size(), 3u);
    Vec3 sum = Vec3::Zero();
    for (int i = 0; i < 3; ++i) {
      const Vec3 x = f.n1->x_W() + f.n1->R_WN() * (f_N + R_NA.col(2) * (0.75 * xi[i]));
      EXPECT_NEAR((rec.at[i] - x).norm(), 0., 1e-14) << i;
      sum += rec.F[i];
    }
    EXPECT_NEAR((sum - body.force_W()).norm(), 0., 1e-12);
  }
}

// c81_data_merge: the coefficient columns weighted, the angle and Mach points kept.
TEST(AeroC81Interpolated, TablesAreWeightedColumnByColumn) {
  const C81Data from = test_support::flat_plate(0.), to = test_support::flat_plate(0.4);
  const C81Data mid = interpolate_c81(from, to, 0.25, 0.75, 1e-6);
  EXPECT_NEAR(mid.lift.lookup(5., 0.5), 0.3 + 2. * kPi * 5. * kPi / 180., 1e-14);
  EXPECT_NEAR(mid.drag.lookup(5., 0.5), from.drag.lookup(5., 0.5), 1e-15);
  EXPECT_EQ(mid.lift.mach, from.lift.mach);
  EXPECT_DOUBLE_EQ(mid.lift.alpha(1), -10.);
  // Tables on other Mach points cannot be merged (MBDyn refuses them too).
  C81Data other = to;
  other.lift.mach[1] = 0.8;
  EXPECT_THROW(interpolate_c81(from, other, 0.5, 0.5, 1e-6), std::runtime_error);
}

// The reader takes each Gauss point of each portion to its place along the span (beam3: portions
// [-1, -1/sqrt 3], [-1/sqrt 3, 1/sqrt 3], [1/sqrt 3, 1]; the body: [-1, 1]) and interpolates
// between the airfoils about it: at zero angle of attack cl is the interpolated cl0.
TEST(AeroC81Interpolated, EachPointTakesTheAirfoilAtItsSpanPosition) {
  const std::string c81 = "c81 data: 1, \"" + write_plate("root", 0.).string() + "\";\n"
                          "c81 data: 2, \"" + write_plate("mid", 0.2).string() + "\";\n"
                          "c81 data: 3, \"" + write_plate("tip", 0.6).string() + "\";\n";
  const std::string air = "air properties: 1.225, 340., -30., 0., 0., const, 1.;\n";
  // cl0 piecewise linear along xi: 0 at -1, 0.2 at 0, 0.6 at 1.
  auto cl0 = [](double xi) { return xi < 0. ? 0.2 * (xi + 1.) : 0.2 + 0.4 * xi; };
  {
    const std::string elements = air + c81 + "body: 1, 2, 1., null, eye;\n"
        "aerodynamic body: 10, 2, null, eye, 2., const, 0.2, const, 0., const, 0., const, 0., 2,\n"
        "  c81, interpolated, tolerance, 1e-4, 3, 1, -1., 2, 0., 3, 1.;\n";
    const std::string nodes = "structural: 2, dynamic, null, eye, null, null;\n";
    BuildResult b;
    const AeroSurface* body = aero_element_at_start(b, "interpolated_body", deck_with(nodes, elements,
        "structural nodes: 1; rigid bodies: 1; air properties; aerodynamic elements: 1;"));
    ASSERT_NE(body, nullptr);
    const double g = 1. / std::sqrt(3.);
    EXPECT_NEAR(body->section(0).alpha, 0., 1e-12);
    EXPECT_NEAR(body->section(0).cl, cl0(-g), 1e-12);
    EXPECT_NEAR(body->section(1).cl, cl0(g), 1e-12);
  }
  {
    const std::string elements = air + c81 +
        "beam3: 1, 1, null, 2, null, 3, null, eye, linear elastic generic, diag, 1e6, 1e6, 1e6, 1e3, 1e3, 1e3, same, same;\n"
        "aerodynamic beam3: 10, 1, null, eye, null, eye, null, eye, const, 0.2, const, 0., const, 0., const, 0., 1,\n"
        "  c81, interpolated, 3, 1, -1., 2, 0., 3, 1.;\n";
    const std::string nodes = "structural: 1, static, 0., -1., 0., eye, null, null;\n"
                              "structural: 2, static, 0., 0., 0., eye, null, null;\n"
                              "structural: 3, static, 0., 1., 0., eye, null, null;\n";
    BuildResult b;
    const AeroSurface* beam = aero_element_at_start(b, "interpolated_beam", deck_with(nodes, elements,
        "structural nodes: 3; beams: 1; air properties; aerodynamic elements: 1;"));
    ASSERT_NE(beam, nullptr);
    const double g = 1. / std::sqrt(3.);
    const double at[] = {(-1. - g) / 2., 0., (1. + g) / 2.};
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(beam->section(k).cl, cl0(at[k]), 1e-12) << k;
  }
}

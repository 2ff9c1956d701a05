// Solid elements (input manual §8.16) and their laws (§2.10.31-2.10.33): shape functions,
// integration rules, the Total Lagrangian forces of a homogeneous deformation in closed form,
// mass, finite-difference Jacobians of every element kind with hyperelastic and viscoelastic
// laws, and a free fall through the front end.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <string>

#include "elements/solids/solid.hpp"
#include "elements/solids/solid_shapes.hpp"
#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/model/model_builder.hpp"
#include "mbdyn-like/output/results.hpp"
#include "support/element_fixture.hpp"
#include "support/jacobian_check.hpp"
#include "support/run_program.hpp"

using namespace mbl;

namespace {

const char* const kSolids[] = {"hexahedron8", "hexahedron20", "hexahedron20r", "hexahedron27", "pentahedron15",
                               "tetrahedron10"};

/// Reference volume of the natural domain.
double natural_volume(const elements::solid::Shape& s) {
  switch (s.family) {
    case elements::solid::Family::Hexahedron: return 8.0;
    case elements::solid::Family::Pentahedron: return 1.0;
    case elements::solid::Family::Tetrahedron: return 1.0 / 6.0;
  }
  return 0.0;
}

/// The reference map of the test elements: X = A0 xi + c (volume scale det A0 = 0.9 x 1.1 x 0.8 ... ).
Mat3 reference_map() {
  Mat3 A;
  A << 0.9, 0.1, 0.05, -0.05, 1.1, 0.1, 0.02, -0.1, 0.8;
  return A;
}

/// A deck with one solid `kind` on dynamic displacement nodes at X = A0 xi + c, laws `law`.
std::string one_solid_deck(const std::string& kind, const std::string& law, bool gravity = false,
                           const std::string& options = "", double rho0 = 7.8e3) {
  const elements::solid::Shape& s = *elements::solid::find_shape(kind);
  const Mat3 A = reference_map();
  std::string nodes, labels, rho;
  for (int i = 0; i < s.node_count(); ++i) {
    const Vec3 X = A * s.nodes[i] + Vec3(0.3, -0.2, 0.1);
    nodes += fmt::format("  structural: {}, dynamic displacement, {:.17g}, {:.17g}, {:.17g}, null;\n", i + 1, X[0], X[1], X[2]);
    labels += fmt::format("{}, ", i + 1);
    rho += fmt::format("{}, ", rho0 * (1.0 + 0.0125 * i));
  }
  std::string laws = law;
  for (std::size_t k = 1; k < s.stiffness.points.size(); ++k) laws += ", same";
  return fmt::format(R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.e-3; time step: 1.e-3; end: initial value;
begin: control data; structural nodes: {}; solids: 1; {} end: control data;
begin: nodes;
{}end: nodes;
begin: elements;
  {}: 1, {}{}{}{};
{}end: elements;
)",
                     s.node_count(), gravity ? "gravity;" : "", nodes, kind, options, labels, rho, laws,
                     gravity ? "  gravity: uniform, 0., 0.3, -1., const, 9.81;\n" : "");
}

/// The model of `deck` with its unknowns numbered and its initial state in (y, yp).
Model& numbered_model(BuildResult& b, Vector& y, Vector& yp) {
  test_support::numbered_initial_state(*b.model, y, yp);
  return *b.model;
}

}  // namespace

TEST(SolidShapes, PartitionOfUnityKroneckerAtNodesAndRuleVolumes) {
  for (const char* kind : kSolids) {
    const auto* s = elements::solid::find_shape(kind);
    ASSERT_NE(s, nullptr) << kind;
    Eigen::VectorXd N;
    Eigen::MatrixX3d dN;
    for (int j = 0; j < s->node_count(); ++j) {
      s->evaluate(s->nodes[j], N, dN);
      for (int i = 0; i < s->node_count(); ++i) EXPECT_NEAR(N[i], i == j ? 1.0 : 0.0, 1e-14) << kind << " " << i << " at " << j;
    }
    s->evaluate(Vec3(0.11, 0.23, -0.31), N, dN);
    EXPECT_NEAR(N.sum(), 1.0, 1e-14) << kind;
    EXPECT_LT(dN.colwise().sum().norm(), 1e-13) << kind;
    // The shape reproduces the coordinates (isoparametric completeness) and its derivatives.
    Eigen::MatrixX3d Xi(s->node_count(), 3);
    for (int i = 0; i < s->node_count(); ++i) Xi.row(i) = s->nodes[i].transpose();
    EXPECT_LT((Xi.transpose() * N - Vec3(0.11, 0.23, -0.31)).norm(), 1e-14) << kind;
    EXPECT_LT((Xi.transpose() * dN - Mat3::Identity()).norm(), 1e-13) << kind;
    for (const auto* rule : {&s->stiffness, &s->mass}) {
      double v = 0.0;
      for (double w : rule->weights) v += w;
      EXPECT_NEAR(v, natural_volume(*s), 1e-14) << kind;
    }
  }
}

// A homogeneous deformation x = A X of any element with Hooke's law: the nodal forces satisfy
// sum_i f_i X_i^T = V0 P with P = A S(G), G = (A^T A - I)/2 (closed form), and mass = rho V0.
TEST(Solid, HomogeneousDeformationGivesTheClosedFormStressResultant) {
  const double E = 2.1e11, nu = 0.3;
  const double mu = E / (2 * (1 + nu)), lambda = E * nu / ((1 + nu) * (1 - 2 * nu));
  Mat3 A;
  A << 1.01, 0.02, -0.01, 0.005, 0.98, 0.03, -0.02, 0.01, 1.02;
  const Mat3 G = 0.5 * (A.transpose() * A - Mat3::Identity());
  const Mat3 S = 2 * mu * G + lambda * G.trace() * Mat3::Identity();
  for (const char* kind : kSolids) {
    BuildResult b = read_deck_text(std::string("solid_") + kind,
                                   one_solid_deck(kind, "hookean linear elastic isotropic, E, 2.1e11, nu, 0.3", false, "static, "));
    ASSERT_EQ(b.not_implemented, 0u) << kind;
    Vector y, yp;
    Model& m = numbered_model(b, y, yp);
    const auto* s = elements::solid::find_shape(kind);
    std::vector<Vec3> X;
    for (int i = 0; i < s->node_count(); ++i) {
      const StructNode* n = m.find_struct_node(i + 1);
      X.push_back(n->x_W());
      y.segment<3>(n->dof_index()) = A * n->x_W();
    }
    m.update(0.0, y, yp);
    Vector r;
    m.residual(0.0, 1.0, r, nullptr);
    Mat3 resultant = Mat3::Zero();
    for (int i = 0; i < s->node_count(); ++i)
      resultant -= r.segment<3>(m.find_struct_node(i + 1)->eq_index()) * X[i].transpose();
    const double V0 = natural_volume(*s) * reference_map().determinant();
    EXPECT_LT((resultant - V0 * A * S).norm(), 1e-9 * (V0 * A * S).norm()) << kind;
    const auto& solid = dynamic_cast<const elements::Solid&>(*m.elements().front());
    // Density varies linearly over the nodes for the hexahedra's corners only: check the
    // constant-density part through a second deck below; here the total is positive and finite.
    EXPECT_GT(solid.mass(), 0.0);
  }
}

TEST(Solid, JacobiansOfEveryKindMatchFiniteDifferences) {
  // Moduli and density of order one: the finite differences then resolve every entry.
  const char* laws[] = {"neo hookean viscoelastic, E, 10., nu, 0.3, beta, 0.1",
                        "mooney rivlin elastic, C1, 2., C2, 0.5, kappa, 50.",
                        "hookean linear viscoelastic isotropic, E, 10., nu, 0.25, beta, 0.1",
                        "bilinear isotropic hardening, E, 10., nu, 0.3, ET, 1., sigmayv, 0.05",
                        "linear viscoelastic maxwell 1, E0, 10., E1, 5., eta1, 2., C, eye"};
  for (const char* kind : kSolids)
    for (const char* law : laws) {
      BuildResult b = read_deck_text("solid_jac", one_solid_deck(kind, law, true, "", 1.0));
      ASSERT_EQ(b.not_implemented, 0u) << kind;
      Vector y, yp;
      Model& m = numbered_model(b, y, yp);
      for (int i = 0; i < y.size(); ++i) y[i] += 0.02 * std::sin(1.7 * i);
      for (int i = 0; i < yp.size(); ++i) yp[i] += 0.3 * std::cos(0.9 * i);
      const auto chk = test_support::check_jacobian(m, 0.1, 0.37, y, yp, 1e-7);
      EXPECT_LT(chk.max_error, 1e-5) << kind << " / " << law << ": " << chk.str();
    }
}

TEST(Solid, ConsistentAndLumpedMassCarryTheElementsMass) {
  for (const char* kind : kSolids)
    for (const char* option : {"", "lumped mass, "}) {
      // Constant density: rewrite the deck's densities to one value.
      std::string deck = one_solid_deck(kind, "hookean linear elastic isotropic, E, 1.e7, nu, 0.3", false, option);
      for (int i = 1; i < 27; ++i) {
        const std::string d = fmt::format("{}, ", 7.8e3 * (1.0 + 0.0125 * i));
        for (std::size_t at; (at = deck.find(d)) != std::string::npos;) deck.replace(at, d.size(), "7800, ");
      }
      BuildResult b = read_deck_text("solid_mass", deck);
      Model& m = *b.model;
      m.setup_elements();
      const auto& solid = dynamic_cast<const elements::Solid&>(*m.elements().front());
      const auto* s = elements::solid::find_shape(kind);
      const double V0 = natural_volume(*s) * reference_map().determinant();
      EXPECT_NEAR(solid.mass(), 7800.0 * V0, 1e-10 * 7800.0 * V0) << kind;
    }
}

// Through the front end: a free cube of hexahedron8 (lumped and consistent mass) under gravity
// falls as a rigid body, z = -g t^2 / 2, with no strain.
TEST(Solid, FreeCubeFallsAsARigidBody) {
  for (const char* option : {"", "lumped mass, "}) {
    std::string deck = one_solid_deck("hexahedron8", "neo hookean elastic, E, 1.e7, nu, 0.3", true, option);
    deck.replace(deck.find("final time: 1.e-3"), 17, "final time: 0.1");
    const test::TextDeckRun run = test::run_deck_text("solid_fall", deck);
    ASSERT_EQ(run.rc, 0) << run.log();
    const output::Results r = output::read_results((run.dir / "run").string());
    const double t = r.time.back();
    const Vec3 g = 9.81 * Vec3(0.0, 0.3, -1.0);
    for (int i = 1; i <= 8; ++i) {
      const output::Series& X = r.vars.at(fmt::format("node.struct.{}.X", i));
      const Vec3 x0(X.at(0, 0), X.at(0, 1), X.at(0, 2));
      const Vec3 x(X.at(r.records() - 1, 0), X.at(r.records() - 1, 1), X.at(r.records() - 1, 2));
      EXPECT_LT((x - x0 - 0.5 * g * t * t).norm(), 1e-6) << option << " node " << i;
    }
  }
}

// A dynamic solid whose nodes start with one velocity moves as a rigid body at that velocity:
// its nodes' momenta start from M v (the solid's initial_state, as a body's), so the derivatives
// phase converges (it stopped at a residual of M v before) and no strain appears.
TEST(Solid, InitialVelocityTranslatesTheSolidRigidly) {
  const Vec3 v0(0.5, -1.0, 2.0);
  for (const char* kind : {"hexahedron8", "tetrahedron10"})
    for (const char* option : {"", "lumped mass, "}) {
      SCOPED_TRACE(std::string(kind) + " " + option);
      std::string deck = one_solid_deck(kind, "neo hookean elastic, E, 1.e7, nu, 0.3", false, option);
      deck.replace(deck.find("final time: 1.e-3"), 17, "final time: 1.e-2");
      for (std::size_t at; (at = deck.find(", null;\n")) != std::string::npos;)
        deck.replace(at, 8, fmt::format(", {}, {}, {};\n", v0[0], v0[1], v0[2]));
      const test::TextDeckRun run = test::run_deck_text("solid_initial_velocity", deck);
      ASSERT_EQ(run.rc, 0) << run.log();
      EXPECT_EQ(run.log().find("did not converge"), std::string::npos) << run.log();
      const output::Results r = output::read_results((run.dir / "run").string());
      const double t = r.time.back();
      ASSERT_NEAR(t, 1e-2, 1e-12);
      const int n = elements::solid::find_shape(kind)->node_count();
      for (int i = 1; i <= n; ++i) {
        const output::Series& X = r.vars.at(fmt::format("node.struct.{}.X", i));
        const output::Series& V = r.vars.at(fmt::format("node.struct.{}.XP", i));
        const std::size_t last = r.records() - 1;
        const Vec3 x0(X.at(0, 0), X.at(0, 1), X.at(0, 2)), x(X.at(last, 0), X.at(last, 1), X.at(last, 2));
        const Vec3 v(V.at(last, 0), V.at(last, 1), V.at(last, 2));
        EXPECT_LT((x - x0 - v0 * t).norm(), 1e-9) << "node " << i;
        EXPECT_LT((v - v0).norm(), 1e-9) << "node " << i;
      }
    }
}

// Displacement-only structural nodes (input manual §6.5) and the four-node membrane membrane4eas
// (§8.15.2): Jacobians against finite differences and uniform stretch against the closed form.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "elements/bodies/body.hpp"
#include "elements/shells/membrane.hpp"
#include "mbdyn-like/core/model.hpp"
#include "support/element_fixture.hpp"
#include "support/jacobian_check.hpp"
#include "support/run_program.hpp"
#include "mbdyn-like/model/model_builder.hpp"
#include "mbdyn-like/output/results.hpp"
#include "parser/errors.hpp"

using namespace mbl;
using namespace mbl::elements;

namespace {

using T = StructNode::Type;

MembraneLaw isotropic(double E, double nu, double h, const Vec3& prestress = Vec3::Zero()) {
  const double C = E * h / (1.0 - nu * nu), G = E / (2.0 * (1.0 + nu));
  MembraneLaw law;
  law.D << C, C * nu, 0.0, C * nu, C, 0.0, 0.0, 0.0, 2.0 * G * h;
  law.prestress = prestress;
  return law;
}

/// One distorted, warped membrane on four nodes of the given types (figure 8.12 order).
struct MembraneFixture {
  Model model;
  std::vector<StructNode*> nodes;
  explicit MembraneFixture(std::array<T, 4> types, const Vec3& prestress = Vec3(3.0, 2.0, 0.5)) {
    const Vec3 x[4] = {Vec3(1.1, 0.9, 0.02), Vec3(-0.9, 1.0, -0.03), Vec3(-1.0, -1.1, 0.01), Vec3(0.95, -0.85, 0.0)};
    for (int k = 0; k < 4; ++k) {
      StructNode::InitialConditions ic;
      ic.x_W = x[k];
      ic.v_W = Vec3(0.1 * k, -0.2, 0.05);
      nodes.push_back(static_cast<StructNode*>(&model.add_node(std::make_unique<StructNode>(k + 1, types[k], ic))));
    }
    MembraneLaw law = isotropic(1.0e3, 0.3, 0.1, prestress);
    law.D(0, 2) = 0.7;  // a non-symmetric coupling: the residual is virtual work, not energy
    model.add_element(
        std::make_unique<Membrane4>(10, std::array<StructNode*, 4>{nodes[0], nodes[1], nodes[2], nodes[3]}, law));
  }
  test_support::JacobianCheck check(double dCoef = 0.37) {
    model.setup_elements();
    model.number_dofs();
    Vector y, yp;
    model.initial_state(y, yp);
    for (std::size_t k = 0; k < nodes.size(); ++k)
      y.segment<3>(nodes[k]->dof_index()) += Vec3(0.03 * k, -0.02, 0.04 * std::sin(1.0 + k));
    const int b = model.elements().front()->first_index();
    for (int j = 0; j < 7; ++j) y[b + j] = 0.01 * std::sin(1.0 + j);
    for (StructNode* n : nodes)
      if (n->is_dynamic()) yp.segment<3>(n->momentum_dof_index()) << 0.1, -0.2, 0.3;
    return test_support::check_jacobian(model, 0.25, dCoef, y, yp);
  }
};

TEST(DisplacementNode, NumbersThreeOrSixUnknownsAsMBDyn) {
  Model model;
  StructNode::InitialConditions ic;
  auto& s = static_cast<StructNode&>(model.add_node(std::make_unique<StructNode>(1, T::StaticDisplacement, ic)));
  auto& d = static_cast<StructNode&>(model.add_node(std::make_unique<StructNode>(2, T::DynamicDisplacement, ic)));
  model.number_dofs();
  EXPECT_EQ(s.dof_count(), 3);
  EXPECT_EQ(d.dof_count(), 6);
  // MBDyn's .log: "struct displacement node dofs: 0 3", "eqs: 0 6", momentum dofs 6, eqs 3.
  EXPECT_EQ(s.eq_index(), 0);
  EXPECT_EQ(d.dof_index(), 3);
  EXPECT_EQ(d.eq_index(), 6);
  EXPECT_EQ(d.momentum_dof_index(), 6);
  EXPECT_EQ(d.momentum_eq_index(), 3);
  EXPECT_EQ(model.size(), 9);
}

TEST(DisplacementNode, PointMassJacobianMatchesFiniteDifferences) {
  Model model;
  StructNode::InitialConditions ic;
  ic.x_W = Vec3(1.0, 2.0, 3.0);
  ic.v_W = Vec3(0.3, -0.1, 0.2);
  auto& n = static_cast<StructNode&>(model.add_node(std::make_unique<StructNode>(1, T::DynamicDisplacement, ic)));
  BodyParams p;
  p.mass = 2.5;
  model.add_element(std::make_unique<Body>(2, n, p));
  model.setup_elements();
  model.number_dofs();
  Vector y, yp;
  model.initial_state(y, yp);
  // The body sets the momentum m v.
  EXPECT_TRUE(y.segment<3>(n.momentum_dof_index()).isApprox(2.5 * ic.v_W));
  yp.segment<3>(n.momentum_dof_index()) << 0.1, 0.2, -0.3;
  const auto r = test_support::check_jacobian(model, 0.0, 0.4, y, yp);
  EXPECT_LT(r.max_error, 1e-7) << r.str();
}

// A point mass m on a dynamic displacement node under a constant force F from rest at x0 with
// velocity v0: x = x0 + v0 t + F t^2 / (2 m). The .mov fills the orientation fields with zeros.
TEST(DisplacementNode, PointMassUnderConstantForceMovesAsClosedForm) {
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 0.1; tolerance: 1e-9; max iterations: 10; end: initial value;
begin: control data; structural nodes: 1; rigid bodies: 1; forces: 1; end: control data;
begin: nodes;
  structural: 1, dynamic displacement, 0., 0., 0., 1., 0., 0., accelerations, yes;
end: nodes;
begin: elements;
  body: 1, 1, 2.;
  force: 1, absolute displacement, 1, 0., 4., 0., const, 1.;
end: elements;
)";
  const auto run = test::run_deck_text("point_mass", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto mov = test::last_record(run.output("mov"), 1);
  ASSERT_EQ(mov.size(), 18u);
  // 0.1 added ten times falls short of 1, so the last step ends at t = 1.1, as MBDyn's does.
  const double t = 1.1;
  EXPECT_NEAR(mov[0], t, 1e-9);
  EXPECT_NEAR(mov[1], t * t, 1e-9);  // F / (2 m) t^2 = t^2
  EXPECT_NEAR(mov[7], 2.0 * t, 1e-9);  // v_y = F t / m
  EXPECT_NEAR(mov[13], 2.0, 1e-9);  // a_y = F / m
  for (int k : {3, 4, 5, 9, 10, 11, 15, 16, 17}) EXPECT_EQ(mov[k], 0.0) << k;
  const std::string log = test::read_file(run.output("log"));
  EXPECT_NE(log.find("structural node: 1 0 0 0 \n"), std::string::npos);
  EXPECT_NE(log.find("struct displacement node eqs: 3\n"), std::string::npos);
  EXPECT_NE(log.find("struct node dofs:\n"), std::string::npos);
}

// MBDyn's distance joint also joins displacement-only nodes (without offsets): a point-mass
// pendulum on a 1 m distance from a clamped node, released at 0.3 rad, swings with the period of
// the large-amplitude series; the joint's Jacobian matches finite differences; an offset on a
// displacement node is an input error.
TEST(DisplacementNode, DistanceJointMakesAPointMassPendulum) {
  const std::string head = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 3.; time step: 1.e-3; tolerance: 1e-10; max iterations: 10; end: initial value;
begin: control data; structural nodes: 2; rigid bodies: 1; joints: 2; gravity; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, dynamic displacement, sin(0.3), 0., -cos(0.3), null;
end: nodes;
begin: elements;
  body: 1, 2, 1.;
  joint: 1, clamp, 1, node, node;
  gravity: uniform, 0., 0., -1., const, 9.81;
)";
  const auto run = test::run_deck_text("point_pendulum", head + "  joint: 2, distance, 1, 2, from nodes;\nend: elements;\n");
  ASSERT_EQ(run.rc, 0) << run.log();
  const output::Results r = output::read_results((run.dir / "run").string());
  const output::Series& X = r.vars.at("node.struct.2.X");
  std::vector<double> crossings;
  for (std::size_t k = 1; k < r.records(); ++k) {
    const double x0 = X.at(k - 1, 0), x1 = X.at(k, 0);
    if (x0 > 0 && x1 <= 0) crossings.push_back(r.time[k - 1] + (r.time[k] - r.time[k - 1]) * x0 / (x0 - x1));
  }
  ASSERT_GE(crossings.size(), 2u);
  const double th = 0.3, T_exact = 2 * M_PI * std::sqrt(1.0 / 9.81) * (1 + th * th / 16 + 11 * std::pow(th, 4) / 3072);
  EXPECT_NEAR((crossings[1] - crossings[0]) / T_exact, 1.0, 5e-4);
  for (std::size_t k = 0; k < r.records(); ++k)
    EXPECT_NEAR(std::hypot(X.at(k, 0), X.at(k, 2)), 1.0, 1e-6) << "record " << k;  // the .mov has 7 digits

  BuildResult b = read_deck_text("point_pendulum_jac", head + "  joint: 2, distance, 2, 1, from nodes;\nend: elements;\n");
  Model& m = *b.model;
  Vector y, yp;
  test_support::numbered_initial_state(m, y, yp);
  // Move the point mass and the distance's unknowns (node 1's rotation stays at its reference).
  const int x2 = m.find_struct_node(2)->dof_index(), j2 = m.elements().back()->first_index();
  for (int i = 0; i < 3; ++i) y[x2 + i] += 0.01 * std::sin(1.3 * i);
  for (int i = 0; i < 4; ++i) y[j2 + i] += 0.2 + 0.1 * i;
  const auto chk = test_support::check_jacobian(m, 0.2, 0.37, y, yp);
  EXPECT_LT(chk.max_error, 1e-7) << chk.str();

  EXPECT_THROW(read_deck_text("point_pendulum_offset",
                              head + "  joint: 2, distance, 1, 2, position, 0.1, 0., 0., from nodes;\nend: elements;\n"),
               parser::InputError);
}

TEST(Membrane4, JacobianMatchesFiniteDifferencesOnDisplacementNodes) {
  MembraneFixture f({T::StaticDisplacement, T::DynamicDisplacement, T::StaticDisplacement, T::DynamicDisplacement});
  const auto r = f.check();
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

TEST(Membrane4, JacobianMatchesFiniteDifferencesOnSixDofNodes) {
  MembraneFixture f({T::Static, T::Dynamic, T::StaticDisplacement, T::Static});
  const auto r = f.check(1.0);
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

// A rectangle a x b stretched uniformly (x = diag(l1, l2) X): Green-Lagrange strains
// E_11 = (l1^2 - 1)/2, E_22 = (l2^2 - 1)/2, fluxes n = D E + prestress; the EAS parameters see
// no unbalanced force (beta = 0 is the solution) and the corner nodes carry n_11 l1 b/2 along x
// and n_22 l2 a/2 along y.
TEST(Membrane4, UniformStretchGivesTheClosedFormNodalForces) {
  const double a = 2.0, b = 0.5, l1 = 1.02, l2 = 0.99;
  const Vec3 pre(4.0, -1.0, 0.0);
  Model model;
  std::vector<StructNode*> nodes;
  const double X[4][2] = {{a / 2, b / 2}, {-a / 2, b / 2}, {-a / 2, -b / 2}, {a / 2, -b / 2}};
  for (int k = 0; k < 4; ++k) {
    StructNode::InitialConditions ic;
    ic.x_W = Vec3(X[k][0], X[k][1], 0.0);
    nodes.push_back(
        static_cast<StructNode*>(&model.add_node(std::make_unique<StructNode>(k + 1, T::StaticDisplacement, ic))));
  }
  const MembraneLaw law = isotropic(7.0e4, 0.3, 1e-3, pre);
  model.add_element(
      std::make_unique<Membrane4>(10, std::array<StructNode*, 4>{nodes[0], nodes[1], nodes[2], nodes[3]}, law));
  model.setup_elements();
  model.number_dofs();
  Vector y, yp;
  model.initial_state(y, yp);
  for (int k = 0; k < 4; ++k) y.segment<3>(nodes[k]->dof_index()) = Vec3(l1 * X[k][0], l2 * X[k][1], 0.0);
  model.update(0.0, y, yp);
  Vector r;
  model.residual(0.0, 1.0, r, nullptr);
  const Vec3 n = law.D * Vec3(0.5 * (l1 * l1 - 1.0), 0.5 * (l2 * l2 - 1.0), 0.0) + pre;
  for (int k = 0; k < 4; ++k) {
    const Vec3 f(n[0] * l1 * b / 2 * std::copysign(1.0, X[k][0]), n[1] * l2 * a / 2 * std::copysign(1.0, X[k][1]), 0.0);
    EXPECT_LT((r.segment<3>(nodes[k]->eq_index()) + f).norm(), 1e-12 * (1.0 + f.norm()))
        << "node " << k + 1 << ": " << r.segment<3>(nodes[k]->eq_index()).transpose() << " vs " << -f.transpose();
  }
  EXPECT_LT(r.segment<7>(model.elements().front()->first_index()).norm(), 1e-12 * n.norm());
  const auto* m = static_cast<const Membrane4*>(model.elements().front().get());
  for (int g = 0; g < 4; ++g) EXPECT_TRUE(m->gauss_flux(g).isApprox(n, 1e-12));
}

}  // namespace

// Pressure surface loads (input manual §8.17.1): Jacobians against finite differences, resultants
// against the closed form p A n, and a loaded free plate of point masses run through the program.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "mbdyn-like/core/drive_caller.hpp"
#include "elements/nodes/abstract_node.hpp"
#include "elements/shells/pressure_load.hpp"
#include "mbdyn-like/core/model.hpp"
#include "support/jacobian_check.hpp"
#include "support/run_program.hpp"

using namespace mbl;
using namespace mbl::elements;

namespace {

using T = StructNode::Type;

StructNode& add_struct(Model& m, unsigned label, T type, const Vec3& x) {
  StructNode::InitialConditions ic;
  ic.x_W = x;
  return static_cast<StructNode&>(m.add_node(std::make_unique<StructNode>(label, type, ic)));
}

/// Natural coordinates of the nodes of each shape (figure 8.16).
std::vector<std::pair<double, double>> natural_nodes(const SurfaceShape& sh) {
  if (sh.nodes == 4) return {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
  if (&sh == &SurfaceShape::quadrangle8()) return {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}, {0, 1}, {-1, 0}, {0, -1}, {1, 0}};
  if (sh.nodes == 8) return {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}, {0, -1}, {1, 0}, {0, 1}, {-1, 0}};
  if (sh.nodes == 9) return {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}, {0, -1}, {1, 0}, {0, 1}, {-1, 0}, {0, 0}};
  return {{0, 0}, {1, 0}, {0, 1}, {0.5, 0}, {0.5, 0.5}, {0, 0.5}};
}

const SurfaceShape* const kShapes[] = {&SurfaceShape::quadrangle4(), &SurfaceShape::quadrangle8(),
                                       &SurfaceShape::quadrangle8r(), &SurfaceShape::quadrangle9(),
                                       &SurfaceShape::triangle6()};

}  // namespace

// Shape functions interpolate: H_k at node m is delta_km, and they sum to one everywhere.
TEST(PressureLoad, ShapeFunctionsInterpolateTheNodes) {
  for (const SurfaceShape* sh : kShapes) {
    const auto xi = natural_nodes(*sh);
    std::vector<double> H(sh->nodes), H_r(sh->nodes), H_s(sh->nodes);
    for (int m = 0; m < sh->nodes; ++m) {
      sh->eval(xi[m].first, xi[m].second, H.data(), H_r.data(), H_s.data());
      for (int k = 0; k < sh->nodes; ++k) EXPECT_NEAR(H[k], k == m ? 1.0 : 0.0, 1e-14) << sh->log_name << k << m;
    }
    sh->eval(0.3, 0.2, H.data(), H_r.data(), H_s.data());
    double sum = 0.0, sum_r = 0.0, sum_s = 0.0;
    for (int k = 0; k < sh->nodes; ++k) sum += H[k], sum_r += H_r[k], sum_s += H_s[k];
    EXPECT_NEAR(sum, 1.0, 1e-14) << sh->log_name;
    EXPECT_NEAR(sum_r, 0.0, 1e-14) << sh->log_name;
    EXPECT_NEAR(sum_s, 0.0, 1e-14) << sh->log_name;
  }
}

// A uniform pressure p on a flat surface of area A with normal n: resultant -p A n.
TEST(PressureLoad, UniformPressureOnAFlatSurfaceGivesMinusPAn) {
  const double p = 2.5e3;
  for (const SurfaceShape* sh : kShapes) {
    Model model;
    // Map the natural coordinates to a tilted plane: x = r e1 + s e2 (triangle: area 1/2 |e1 x e2|).
    const Vec3 e1(0.6, 0.1, 0.2), e2(-0.1, 0.4, 0.3);
    std::vector<StructNode*> nodes;
    std::vector<DriveCallerPtr> drives;
    unsigned label = 1;
    for (const auto& [r, s] : natural_nodes(*sh)) {
      nodes.push_back(&add_struct(model, label++, T::StaticDisplacement, r * e1 + s * e2));
      drives.push_back(std::make_shared<ConstDrive>(p));
    }
    model.add_element(std::make_unique<PressureLoad>(1, *sh, nodes, drives, std::vector<AbstractNode*>{}));
    model.setup_elements();
    model.number_dofs();
    Vector y, yp;
    model.initial_state(y, yp);
    Vector r = Vector::Zero(model.size());
    model.update(0.0, y, yp);
    model.residual(0.0, 1.0, r, nullptr);
    Vec3 F = Vec3::Zero();
    for (StructNode* n : nodes) F += r.segment<3>(n->eq_index());
    const double area = (sh->nodes == 6 ? 0.5 : 4.0) * e1.cross(e2).norm();
    const Vec3 expected = -p * area * e1.cross(e2).normalized();
    EXPECT_LT((F - expected).norm(), 1e-10 * expected.norm()) << sh->log_name << ": " << F.transpose();
  }
}

// Warped surfaces, 3- and 6-dof nodes, pressures from differential and algebraic abstract nodes.
TEST(PressureLoad, JacobianMatchesFiniteDifferences) {
  for (const SurfaceShape* sh : kShapes) {
    Model model;
    std::vector<StructNode*> nodes;
    std::vector<AbstractNode*> pressures;
    unsigned label = 1;
    const T types[] = {T::StaticDisplacement, T::DynamicDisplacement, T::Static, T::Dynamic};
    int k = 0;
    for (const auto& [r, s] : natural_nodes(*sh)) {
      const Vec3 x(0.5 * r + 0.05 * s * s, 0.4 * s - 0.03 * r, 0.07 * r * s + 0.02 * std::sin(1.0 + k));
      nodes.push_back(&add_struct(model, label++, types[k % 4], x));
      ++k;
    }
    for (int m = 0; m < sh->nodes; ++m)
      pressures.push_back(static_cast<AbstractNode*>(
          &model.add_node(std::make_unique<AbstractNode>(100 + m, m % 2 == 0, 1.0e2 * (1.0 + 0.3 * m), 0.0))));
    model.add_element(std::make_unique<PressureLoad>(1, *sh, nodes, std::vector<DriveCallerPtr>{}, pressures));
    model.setup_elements();
    model.number_dofs();
    Vector y, yp;
    model.initial_state(y, yp);
    for (std::size_t n = 0; n < nodes.size(); ++n)
      y.segment<3>(nodes[n]->dof_index()) += Vec3(0.02 * n, -0.01, 0.03 * std::cos(1.0 + n));
    const auto res = test_support::check_jacobian(model, 0.1, 0.37, y, yp);
    EXPECT_LT(res.max_error, 1e-6) << sh->log_name << ": " << res.str();
  }
}

// Four point masses m on a free square of side L under a constant pressure p: every node carries
// p L^2 / 4 against the normal, so the flat plate translates with z = -p L^2 / (8 m) t^2.
TEST(PressureLoad, FreePlateOfPointMassesAcceleratesAsClosedForm) {
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 0.125; tolerance: 1e-10; max iterations: 10; end: initial value;
begin: control data; structural nodes: 4; rigid bodies: 4; surface loads: 1; use automatic differentiation; end: control data;
begin: nodes;
  structural: 1, dynamic displacement,  1.,  1., 0., null;
  structural: 2, dynamic displacement, -1.,  1., 0., null;
  structural: 3, dynamic displacement, -1., -1., 0., null;
  structural: 4, dynamic displacement,  1., -1., 0., null;
end: nodes;
begin: elements;
  body: 1, 1, 2.; body: 2, 2, 2.; body: 3, 3, 2.; body: 4, 4, 2.;
  drive caller: 1, const, 0.5;
  pressureq4: 10, 1, 2, 3, 4, from drives, reference, 1, reference, 1, reference, 1, const, 0.5;
end: elements;
)";
  const auto run = test::run_deck_text("pressure_plate", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const double t = 1.0, p = 0.5, L = 2.0, m = 2.0;
  for (unsigned node = 1; node <= 4; ++node) {
    const auto mov = test::last_record(run.output("mov"), node);
    ASSERT_GE(mov.size(), 3u);
    EXPECT_NEAR(mov[2], -p * L * L / (8.0 * m) * t * t, 1e-9) << node;
  }
  const std::string log = test::read_file(run.output("log"));
  EXPECT_NE(log.find("quadrangle4: 10 1 2 3 4 0 0 0 0\n"), std::string::npos) << log;
}

// Four-node shells shell4eas / shell4easans (input manual §8.15.1, technical manual ch. 11):
// Jacobians against finite differences, a membrane patch test and a cantilever plate strip
// against beam theory.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "elements/joints/clamp.hpp"
#include "elements/shells/shell.hpp"
#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/core/rotations.hpp"
#include "support/jacobian_check.hpp"

using namespace mbl;
using namespace mbl::elements;

namespace {

/// Isotropic law of input manual eq. 8.84 (E_x = E_y), shear factor 1, torsional factor 0.01.
ShellLaw isotropic(double E, double nu, double h, const Vec12& prestress = Vec12::Zero()) {
  const double C = E * h / (1.0 - nu * nu), D = C * h * h / 12.0;
  const double Gh = E / (2.0 * (1.0 + nu)) * h, F = Gh * h * h / 12.0;
  ShellLaw law;
  law.D(0, 0) = law.D(4, 4) = C;
  law.D(0, 4) = law.D(4, 0) = C * nu;
  law.D(1, 1) = law.D(3, 3) = 2.0 * Gh;
  law.D(2, 2) = law.D(5, 5) = Gh;
  law.D(6, 6) = law.D(10, 10) = 2.0 * F;
  law.D(7, 7) = law.D(9, 9) = D;
  law.D(7, 9) = law.D(9, 7) = -D * nu;
  law.D(8, 8) = law.D(11, 11) = 0.01 * F;
  law.prestress = prestress;
  return law;
}

/// One distorted, warped shell on four nodes with generic orientations; the check runs at a
/// displaced, rotated state with nonzero EAS parameters.
struct ShellFixture {
  Model model;
  std::vector<StructNode*> nodes;
  ShellFixture(bool ans, StructNode::Type type) {
    const Vec3 x[4] = {Vec3(1.1, 0.9, 0.02), Vec3(-0.9, 1.0, -0.03), Vec3(-1.0, -1.1, 0.01), Vec3(0.95, -0.85, 0.0)};
    const Mat3 R_WE = rot::euler123_to_R(Vec3(0.3, -0.2, 0.5));
    for (int k = 0; k < 4; ++k) {
      StructNode::InitialConditions ic;
      ic.x_W = R_WE * x[k];
      ic.R_WN = rot::euler123_to_R(Vec3(0.1 * k, -0.2, 0.3 - 0.1 * k));
      nodes.push_back(static_cast<StructNode*>(&model.add_node(std::make_unique<StructNode>(k + 1, type, ic))));
    }
    Vec12 pre = Vec12::Zero();
    pre[0] = 3.0;
    pre[4] = 2.0;
    ShellLaw law = isotropic(1.0e3, 0.3, 0.1, pre);
    law.D(1, 8) = 0.7;  // a non-symmetric coupling: the residual is virtual work, not energy
    model.add_element(std::make_unique<Shell4>(10, std::array<StructNode*, 4>{nodes[0], nodes[1], nodes[2], nodes[3]},
                                               std::move(law), ans));
  }
  test_support::JacobianCheck check(double dCoef = 0.37) {
    model.setup_elements();
    model.number_dofs();
    Vector y, yp;
    model.initial_state(y, yp);
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      const int i = nodes[k]->dof_index();
      y.segment<3>(i) += Vec3(0.03 * k, -0.02, 0.04 * std::sin(1.0 + k));
      y.segment<3>(i + 3) = Vec3(0.05 * k, -0.04, 0.03 + 0.02 * k);
    }
    model.after_predict(0.25, y, yp);
    const int b = model.elements().front()->first_index();
    for (int j = 0; j < 7; ++j) y[b + j] = 0.01 * std::sin(1.0 + j);
    for (StructNode* n : nodes)
      if (n->is_dynamic()) yp.segment<6>(n->momentum_dof_index()) << 0.1, -0.2, 0.3, 0.05, 0.4, -0.1;
    return test_support::check_jacobian(model, 0.25, dCoef, y, yp);
  }
};

using T = StructNode::Type;

}  // namespace

TEST(ShellJacobian, EasStaticNodes) {
  ShellFixture f(false, T::Static);
  const auto r = f.check();
  EXPECT_LT(r.max_error, 1e-5) << r.str();
}

TEST(ShellJacobian, EasAnsDynamicNodes) {
  ShellFixture f(true, T::Dynamic);
  const auto r = f.check(0.6);
  EXPECT_LT(r.max_error, 1e-5) << r.str();
}

namespace {

/// The check at a predicted state whose nodes carry the incremental rotations g[k] (g != 0).
test_support::JacobianCheck check_rotated(bool ans, const std::array<Vec3, 4>& g) {
  ShellFixture f(ans, T::Static);
  f.model.setup_elements();
  f.model.number_dofs();
  Vector y, yp;
  f.model.initial_state(y, yp);
  f.model.after_predict(0.25, y, yp);
  for (std::size_t k = 0; k < f.nodes.size(); ++k) y.segment<3>(f.nodes[k]->dof_index() + 3) = g[k];
  return test_support::check_jacobian(f.model, 0.25, 0.37, y, yp);
}

}  // namespace

TEST(ShellJacobian, AwayFromTheNewtonReference) {
  // Iterates with g != 0: the spin columns are mapped with G(g), exact there too.
  std::array<Vec3, 4> g;
  for (int k = 0; k < 4; ++k) g[k] = 0.05 * Vec3(0.4 - 0.3 * k, 0.2 * k, -0.5);
  const auto r = check_rotated(false, g);
  EXPECT_LT(r.max_error, 1e-5) << r.str();
}

TEST(ShellJacobian, LargeRotationsWithinTheElement) {
  // Nodal rotations relative to the element's frame near 1 rad and beyond: the geometric tangent's
  // closed-form branches (|phi|^2 >= 1 at the points) as well as the series ones.
  const auto r = check_rotated(true, {Vec3(1.6, 0.4, -0.3), Vec3(-0.5, 1.8, 0.2), Vec3(-1.4, -0.6, 0.9),
                                      Vec3(0.3, -1.5, -1.0)});
  EXPECT_LT(r.max_error, 1e-5) << r.str();
}

namespace {

/// A flat rectangular a x b shell in the xy plane on static nodes (node 1 at the origin,
/// counterclockwise), with the isotropic law of thickness h.
struct FlatShell {
  Model model;
  std::vector<StructNode*> nodes;
  Shell4* shell = nullptr;
  FlatShell(double a, double b, const ShellLaw& law) {
    const Vec3 x[4] = {Vec3(0, 0, 0), Vec3(a, 0, 0), Vec3(a, b, 0), Vec3(0, b, 0)};
    for (int k = 0; k < 4; ++k) {
      StructNode::InitialConditions ic;
      ic.x_W = x[k];
      nodes.push_back(static_cast<StructNode*>(&model.add_node(std::make_unique<StructNode>(k + 1, T::Static, ic))));
    }
    auto e = std::make_unique<Shell4>(10, std::array<StructNode*, 4>{nodes[0], nodes[1], nodes[2], nodes[3]}, law, false);
    shell = e.get();
    model.add_element(std::move(e));
    model.setup_elements();
    model.number_dofs();
  }
  /// Jacobian at dCoef = 1 and the residual, at node displacements u (g = 0).
  void evaluate(const std::vector<Vec3>& u, Eigen::MatrixXd& J, Vector& r) {
    Vector y, yp;
    model.initial_state(y, yp);
    for (int k = 0; k < 4; ++k) y.segment<3>(nodes[k]->dof_index()) += u[k];
    model.after_predict(0.0, y, yp);
    model.update(0.0, y, yp);
    SparseMatrix Js(int(y.size()));
    JacobianSink js(Js);
    StepContext c;
    c.y = &y;
    c.yp = &yp;
    shell->jacobian(js, c);
    J = Js.to_dense();
    r = Vector::Zero(y.size());
    ResidualSink rs(r, nullptr);
    shell->residual(rs, c);
  }
};

}  // namespace

TEST(ShellStiffness, SixRigidModesNoSpuriousOnes) {
  // Condensing the EAS parameters out of the element stiffness leaves exactly the six rigid-body
  // modes with zero energy (no hourglass or locking-related spurious modes).
  FlatShell f(1.0, 1.0, isotropic(6.825e7, 0.3, 0.04));
  Eigen::MatrixXd J;
  Vector r;
  f.evaluate(std::vector<Vec3>(4, Vec3::Zero()), J, r);
  const Eigen::MatrixXd Kqq = J.topLeftCorner(24, 24), Kqb = J.topRightCorner(24, 7);
  const Eigen::MatrixXd Kbq = J.bottomLeftCorner(7, 24), Kbb = J.bottomRightCorner(7, 7);
  const Eigen::MatrixXd K = Kqq - Kqb * Kbb.inverse() * Kbq;
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(0.5 * (K + K.transpose()));
  const auto& ev = es.eigenvalues();
  for (int i = 0; i < 6; ++i) EXPECT_LT(std::abs(ev[i]), 1e-6 * ev[23]);
  EXPECT_GT(ev[6], 1e-5 * ev[23]);
}

TEST(ShellStiffness, UniformStretchGivesUniformMembraneForces) {
  // Membrane patch: nodes moved by a uniform stretch e along x; at equilibrium of the EAS
  // parameters every Gauss point carries n_11 = C e, n_22 = nu C e (C = E h / (1 - nu^2)) and
  // no shear or moments.
  const double E = 2.0e5, nu = 0.25, h = 0.01, e = 1e-3, a = 2.0, b = 1.5;
  FlatShell f(a, b, isotropic(E, nu, h));
  std::vector<Vec3> u = {Vec3::Zero(), Vec3(e * a, 0, 0), Vec3(e * a, 0, 0), Vec3::Zero()};
  Eigen::MatrixXd J;
  Vector r;
  f.evaluate(u, J, r);
  const double C = E * h / (1.0 - nu * nu);
  for (int g = 0; g < 4; ++g) {
    const Vec12& n = f.shell->gauss_force(g);
    EXPECT_NEAR(n[0], C * e, 1e-6 * C * e);
    EXPECT_NEAR(n[4], nu * C * e, 1e-6 * C * e);
    for (int i : {1, 2, 3, 5, 6, 7, 8, 9, 10, 11}) EXPECT_NEAR(n[i], 0.0, 1e-6 * C * e) << "component " << i;
  }
  // Nodal forces: the edge x = a carries n_11 b in total, split equally between nodes 2 and 3.
  const double F = C * e * b;
  EXPECT_NEAR(r[6], -0.5 * F, 1e-6 * F);
  EXPECT_NEAR(r[12], -0.5 * F, 1e-6 * F);
  EXPECT_NEAR(r[0], 0.5 * F, 1e-6 * F);
}

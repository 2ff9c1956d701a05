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

TEST(ShellJacobian, OffReferenceDebug) {
  ShellFixture f(true, T::Static);
  f.model.setup_elements();
  f.model.number_dofs();
  Vector y, yp;
  f.model.initial_state(y, yp);
  f.model.after_predict(0.25, y, yp);
  for (std::size_t k = 0; k < f.nodes.size(); ++k) y.segment<3>(f.nodes[k]->dof_index() + 3) = 0.01 * Vec3(0.4 - 0.3 * k, 0.2 * k, -0.5);
  const auto r = test_support::check_jacobian(f.model, 0.25, 0.37, y, yp);
  EXPECT_LT(r.max_error, 1e-5) << r.str();
}

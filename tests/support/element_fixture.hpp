#pragma once
// A model with two dynamic nodes in generic states, for the finite-difference Jacobian tests of
// elements (same set-up as tests/elements/utest_elements_jacobians.cpp).
#include <cmath>
#include <functional>

#include "elements/joints/in_line.hpp"
#include "elements/joints/joint.hpp"
#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/core/rotations.hpp"
#include "support/jacobian_check.hpp"

namespace mbl::test_support {

/// Sets up the elements of `model`, numbers its unknowns and gives its initial state (y, y').
inline void numbered_initial_state(Model& model, Vector& y, Vector& yp) {
  model.setup_elements();
  model.number_dofs();
  model.initial_state(y, yp);
}

inline StructNode::InitialConditions generic_ic(int k) {
  StructNode::InitialConditions c;
  c.x_W = Vec3(0.1 * k, -0.3 + 0.2 * k, 0.5 - 0.1 * k);
  c.R_WN = rot::euler123_to_R(Vec3(0.3 + 0.1 * k, -0.4, 0.7 * k));
  c.v_W = Vec3(0.2, -0.1 * k, 0.3);
  c.w_W = Vec3(0.5 - k, 0.2, -0.3 + 0.1 * k);
  return c;
}

struct ElementFixture {
  Model model;
  StructNode* n1;
  StructNode* n2;
  explicit ElementFixture(const StructNode::InitialConditions& ic1 = generic_ic(1),
                          const StructNode::InitialConditions& ic2 = generic_ic(2)) {
    n1 = static_cast<StructNode*>(&model.add_node(std::make_unique<StructNode>(1, StructNode::Type::Dynamic, ic1)));
    n2 = static_cast<StructNode*>(&model.add_node(std::make_unique<StructNode>(2, StructNode::Type::Dynamic, ic2)));
  }
  elements::Attachment att(StructNode* n, int k) {
    return {n, Vec3(0.1 * k, 0.2, -0.15 * k), rot::euler123_to_R(Vec3(0.1 * k, 0.2 * k, -0.3))};
  }
  /// Runs the check at a generic state: multipliers and momenta nonzero, g = g' = 0; `tweak`
  /// may then set chosen unknowns (e.g. internal angles).
  JacobianCheck check(double dCoef = 0.37, double t = 0.25, const std::function<void(Vector&)>& tweak = {}) {
    model.setup_elements();
    model.number_dofs();
    Vector y, yp;
    model.initial_state(y, yp);
    for (int i = 0; i < y.size(); ++i) {
      if (model.dof_order(i) == DofOrder::Algebraic) y[i] = 0.5 + 0.3 * std::sin(3.0 * i);
    }
    if (tweak) tweak(y);
    // Newton reference state (see the harness): omega moves into w_ref, g = g' = 0.
    model.after_predict(t, y, yp);
    for (auto* n : {n1, n2}) yp.segment<6>(n->momentum_dof_index()) << 0.1, -0.2, 0.3, 0.05, 0.4, -0.1;
    return check_jacobian(model, t, dCoef, y, yp, 1e-6,
                          known_deviation ? [&](Eigen::MatrixXd& J) { known_deviation(J, y, dCoef); }
                                          : std::function<void(Eigen::MatrixXd&)>{});
  }
  /// What an element's Jacobian holds on purpose besides the derivative (given the state and
  /// dCoef): taken out before the finite-difference check.
  std::function<void(Eigen::MatrixXd&, const Vector&, double)> known_deviation;
  /// The residual of element `e` alone at the model's initial state (time 0).
  Vector residual_at_start(Element& e) {
    Vector y, yp;
    numbered_initial_state(model, y, yp);
    model.update(0., y, yp);
    Vector r = Vector::Zero(model.size());
    ResidualSink sink(r, nullptr);
    e.residual(sink, StepContext{});
    return r;
  }
  JacobianCheck check(double dCoef, const std::function<void(Vector&)>& tweak) {
    return check(dCoef, 0.25, tweak);
  }
};

/// The in line joint's Jacobian is MBDyn's (inline.cc): the turning of the line's directions in
/// node b's force goes to node b's rotation columns, and node b's (F x)(q x) block has the other
/// sign. This puts the exact terms back, for a finite-difference check of the rest.
inline std::function<void(Eigen::MatrixXd&, const Vector&, double)> in_line_mbdyn_terms(
    const elements::PointOnSubspace& j, const elements::Attachment& a, const elements::Attachment& b) {
  return [&j, a, b](Eigen::MatrixXd& J, const Vector& y, double dCoef) {
    const int ta = a.node->dof_index() + 3, tb = b.node->dof_index() + 3, fb = b.node->eq_index();
    const Mat3 qx = skew(b.b_W());
    for (int i = 0; i < 2; ++i) {
      const Mat3 hex = dCoef * y[j.first_index() + i] * skew(Vec3(a.R_WH().col(i)));
      J.block<3, 3>(fb, tb) += hex;
      J.block<3, 3>(fb, ta) -= hex;
      J.block<3, 3>(fb + 3, tb) += 2.0 * hex * qx;
    }
  };
}

}  // namespace mbl::test_support

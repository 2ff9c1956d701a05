#pragma once
// A model with two dynamic nodes in generic states, for the finite-difference Jacobian tests of
// elements (same set-up as tests/elements/utest_elements_jacobians.cpp).
#include <cmath>
#include <functional>

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
    return check_jacobian(model, t, dCoef, y, yp);
  }
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

}  // namespace mbl::test_support

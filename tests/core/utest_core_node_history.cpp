// The structural nodes' rings of converged orientations (rebase_history, seed 000 §3.1): kept in
// the model's contiguous store as deep as the integrator rebases (Model::reserve_history), they
// give the points a ring of the node's own gives, the newest ones kept when the store is given.
#include <gtest/gtest.h>

#include <memory>

#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/core/rotations.hpp"

namespace {

using mbl::StructNode;
using mbl::Vector;

/// Converges the node at the orientation rot::cgr_to_R(g_k) and angular velocity w_k, k-th point.
void converge(StructNode& n, int k) {
  const mbl::Vec3 g(0.1 * k, -0.05 * k * k, 0.3), w(1.0 + k, 0.5, -0.25 * k);
  n.set_kinematics(mbl::Vec3::Zero(), mbl::rot::cgr_to_R(g), mbl::Vec3::Zero(), w);
  Vector y = Vector::Zero(12), yp = Vector::Zero(12);
  n.after_convergence(y, yp);
}

/// y and y' of the rebased point j (rotation parameters and their rates), from zeros.
Vector rebased(const StructNode& n, int j) {
  Vector y = Vector::Zero(12), yp = Vector::Zero(12);
  n.rebase_history(j, y, yp);
  Vector both(24);
  both << y, yp;
  return both;
}

TEST(NodeHistory, ModelStoreGivesTheOwnRingsPoints) {
  mbl::Model model;
  auto& stored = static_cast<StructNode&>(
      model.add_node(std::make_unique<StructNode>(1, StructNode::Type::Dynamic, StructNode::InitialConditions{})));
  StructNode own(2, StructNode::Type::Dynamic, StructNode::InitialConditions{});
  stored.set_first_index(0);
  own.set_first_index(0);
  for (int k = 0; k < 5; ++k) {
    converge(stored, k);
    converge(own, k);
  }
  // A store three points deep, given after five points: the newest three move there.
  model.reserve_history(3);
  for (int j = 1; j < 3; ++j) {
    EXPECT_EQ(rebased(stored, j), rebased(own, j)) << "point " << j;
    EXPECT_NE(rebased(stored, j), Vector::Zero(24)) << "point " << j;
  }
  EXPECT_EQ(rebased(stored, 3), Vector::Zero(24));  // beyond the depth: nothing kept
  for (int k = 5; k < 9; ++k) {
    converge(stored, k);
    converge(own, k);
    for (int j = 1; j < 3; ++j) EXPECT_EQ(rebased(stored, j), rebased(own, j)) << "point " << j << " after " << k;
  }
}

}  // namespace

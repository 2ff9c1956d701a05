// The residual test as MBDyn applies it (technical manual §3.6, input manual §4.1.1):
// `enforce constraint equations` rescales the constraint equations (MBDyn's algebraic equation
// type, GetEqType), not the rows of every algebraic unknown.
#include <gtest/gtest.h>

#include <string>

#include "mbdyn-like/model/model_builder.hpp"

using namespace mbl;
using integrators::DofOrder;

TEST(SolverTests, ConstraintEquationsAreThoseOfElementsWithAlgebraicUnknowns) {
  // A pressure node (algebraic unknown, flow balance), a static node held by a clamp (six
  // multipliers), a genel clamp on the pressure (one multiplier).
  const std::string deck =
      "begin: data; problem: initial value; end: data;\n"
      "begin: initial value; initial time: 0.; final time: 1.; time step: 1.;\n"
      "  enforce constraint equations: constraint violations; end: initial value;\n"
      "begin: control data; structural nodes: 1; hydraulic nodes: 1; joints: 1; genels: 1;\n"
      "end: control data;\n"
      "begin: nodes; structural: 1, static, null, eye, null, null; hydraulic: 2, 1.e5; end: nodes;\n"
      "begin: elements; joint: 3, clamp, 1, node, node; genel: 4, clamp, 2, hydraulic, const, 1.e5;\n"
      "end: elements;\n";
  BuildResult b = read_deck_text("eq.mbd", deck);
  Model& model = *b.model;
  model.number_dofs();
  ASSERT_EQ(model.size(), 6 + 1 + 6 + 1);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(model.equation_order(i), DofOrder::Differential) << i;
  EXPECT_EQ(model.dof_order(6), DofOrder::Algebraic);  // the pressure
  EXPECT_EQ(model.equation_order(6), DofOrder::Differential);
  for (int i = 7; i < 14; ++i) {
    EXPECT_EQ(model.dof_order(i), DofOrder::Algebraic) << i;
    EXPECT_EQ(model.equation_order(i), DofOrder::Algebraic) << i;
  }
}

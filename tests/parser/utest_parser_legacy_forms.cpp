// Alternative and legacy card forms that MBDyn reads (issue 12): each test reads a small deck
// with the form and checks the value it gives, or that a kind MBDyn has and we do not is
// reported as not implemented (never as an input error).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "elements/bodies/body.hpp"
#include "elements/forces/structural_force.hpp"
#include "mbdyn-like/model/model_builder.hpp"
#include "parser/errors.hpp"

namespace mbl {
namespace {

/// A deck with two dynamic nodes (node 2 rotated by +90 deg about z) and `elements` after them;
/// `counts`: the control data element counts (`forces: 2;`).
std::string deck(const std::string& counts, const std::string& elements, const std::string& before_elements = "",
                 const std::string& problem = "initial value") {
  // The problem's block is the one `problem:` names (MBDyn's Solver or InverseSolver reads it).
  const std::string block = problem == "inverse dynamics" ? problem : "initial value";
  return "begin: data; problem: " + problem + "; end: data;\nbegin: " + block +
         "; initial time: 0.; final time: 1.; time step: 1e-3; end: " + block + R"(;
begin: control data; structural nodes: 2; )" + counts + R"( end: control data;
reference: 7, null, euler123, pi/2, 0., 0., null, null;
begin: nodes;
  structural: 1, dynamic, null, eye, null, null;
  structural: 2, dynamic, 1., 0., 0., euler123, 0., 0., pi/2, null, null;
end: nodes;
)" + before_elements + "\nbegin: elements;\n" + elements + "\nend: elements;\n";
}

const elements::StructuralForce& force(const BuildResult& b, unsigned label) {
  const auto* f = dynamic_cast<const elements::StructuralForce*>(b.model->find_element("force", label));
  if (!f) throw std::runtime_error("no force " + std::to_string(label));
  return *f;
}

#define EXPECT_VEC_NEAR(a, ex, ey, ez)                 \
  do {                                                 \
    const Vec3 v_ = (a);                               \
    EXPECT_NEAR(v_[0], ex, 1e-12) << v_.transpose(); \
    EXPECT_NEAR(v_[1], ey, 1e-12) << v_.transpose(); \
    EXPECT_NEAR(v_[2], ez, 1e-12) << v_.transpose(); \
  } while (0)

TEST(ParserLegacyForms, TemplateDriveVectorWithReference) {
  // MBDyn reads the vector of an absolute force as GetVecAbs in the node's frame, of a follower
  // force as GetVecRel: `reference, node` / `reference, global` / `reference, <label>` prefixes.
  const BuildResult b = read_deck_text("tpl", deck("forces: 4;", R"(
    force: 1, absolute, 2, position, null, single, reference, node, 1., 0., 0., const, 2.;
    force: 2, absolute, 2, position, null, single, 0., 0., 1., const, 1.;
    force: 3, follower, 2, position, null, single, reference, global, 1., 0., 0., const, 1.;
    force: 4, absolute, 1, position, null, single, reference, 7, 0., 1., 0., const, 1.;)"));
  EXPECT_EQ(b.not_implemented, 0u);
  EXPECT_VEC_NEAR(force(b, 1).load_W(0.), 0., 2., 0.);  // node x axis is global y
  EXPECT_VEC_NEAR(force(b, 2).load_W(0.), 0., 0., 1.);  // absolute: global by default
  EXPECT_VEC_NEAR(force(b, 3).load_W(0.), 1., 0., 0.);  // follower given in global
  EXPECT_VEC_NEAR(force(b, 4).load_W(0.), 0., 0., 1.);  // reference 7: 90 deg about x
}

TEST(ParserLegacyForms, ForceWithoutPositionIsTheLegacyForm) {
  // `node, direction, arm, drive`: the direction is made a unit vector (MBDyn GetUnitVecAbs/Rel).
  const BuildResult b = read_deck_text("legacy", deck("forces: 2;", R"(
    force: 1, absolute, 2, reference, node, 0., 3., 0., null, const, 2.;
    force: 2, follower, 2, 0., 0., 4., 1., 0., 0., const, 1.;)"));
  EXPECT_EQ(b.not_implemented, 0u);
  EXPECT_VEC_NEAR(force(b, 1).load_W(0.), -2., 0., 0.);  // node y axis is global -x
  EXPECT_VEC_NEAR(force(b, 2).load_W(0.), 0., 0., 1.);
  EXPECT_THROW(read_deck_text("null", deck("forces: 1;", "force: 1, absolute, 2, null, null, const, 1.;")), parser::InputError);
}

TEST(ParserLegacyForms, BodyInertiaInAReferenceFrame) {
  // GetMatRel: `reference, 7, diag, 1, 2, 3` is re-expressed in the node frame (R J R^T).
  const BuildResult b = read_deck_text("body", deck("rigid bodies: 1;", R"(
    body: 1, 1, 1., reference, 7, null, reference, 7, diag, 1., 2., 3.;)"));
  const auto* body = dynamic_cast<const elements::Body*>(b.model->find_element("body", 1));
  ASSERT_NE(body, nullptr);
  const Mat3 J = body->params().J_cm_N;
  EXPECT_NEAR(J(0, 0), 1., 1e-12);
  EXPECT_NEAR(J(1, 1), 3., 1e-12);  // rotated 90 deg about x: y and z swap
  EXPECT_NEAR(J(2, 2), 2., 1e-12);
}

TEST(ParserLegacyForms, C81DataBetweenBlocksIsRead) {
  // A definition card: MBDyn reads it in any block and between blocks.
  const std::string table = std::string(MBL_SHARED_DIR) + "/corpus/t.c81.c81/deck/naca0012.c81";
  const BuildResult b = read_deck_text("c81", deck("", "", "c81 data: 1, \"" + table + "\";"));
  EXPECT_EQ(b.not_implemented, 0u);
}

TEST(ParserLegacyForms, CardsUsingASkippedNodeOrElementAreSkipped) {
  // A joint of a kind we do not have and a bind to that joint: both reported as not implemented,
  // none an input error. (No node kind is left unimplemented: the sample-and-hold parameter node
  // that served here is read since session 14.)
  const std::string text = deck("joints: 1;", R"(
    joint: 3, total reaction, 1, 2;
    bind: 3, joint, 9, string, "x";)");
  const BuildResult b = read_deck_text("skipped", text);
  EXPECT_GE(b.not_implemented, 2u);
}

TEST(ParserLegacyForms, RodLawSeesItsLengths) {
  // MBDyn publishes model::current("L0") and ("L") while the rod reads its law.
  const BuildResult b = read_deck_text("rod", deck("joints: 2;", R"(
    joint: 1, rod, 1, 2, from nodes, linear elastic, 3.*model::current("L0");
    joint: 2, rod, 1, 2, 2., linear elastic, model::current("L0") + model::current("L");)"));
  EXPECT_EQ(b.not_implemented, 0u);
  EXPECT_THROW(read_deck_text("current", deck("forces: 1;", "force: 1, absolute, 1, position, null, single, 1., 0., 0., "
                                              "const, model::current(\"L0\");")),
               parser::InputError);
}

TEST(ParserLegacyForms, InverseDynamicsFormsRead) {
  // Under `problem: inverse dynamics` a total joint reads three drives per constraint and
  // elements take a trailing `inverse dynamics, ...`: the element's role in that problem.
  const BuildResult b = read_deck_text("invdyn", deck("joints: 1;", R"(
    joint: 1, total joint, 1, 2,
      position constraint, active, active, active, null, null, null,
      orientation constraint, 1, 1, 1, null, null, null,
      inverse dynamics, torque, yes, prescribed motion, no, right hand side, no, ergonomy, no;)",
                                                    "", "inverse dynamics"));
  EXPECT_EQ(b.not_implemented, 0u);
  const Element* joint = b.model->find_element("joint", 1);
  ASSERT_NE(joint, nullptr);
  const InverseDynamicsSettings::Flags f = b.settings.inverse_dynamics.flags_of(*joint, true);
  EXPECT_TRUE(f.torque);
  EXPECT_FALSE(f.prescribed_motion || f.right_hand_side || f.ergonomy);
}

TEST(ParserLegacyForms, DeprecatedMethodNamesAndPostponedStepDrive) {
  // MBDyn 2024 still reads `crank nicholson` (deprecated spelling) and `nostro` (ms), and a
  // `strategy: change` drive may be `postponed`: defined by a `drive caller:` card read later.
  std::string text = deck("", "", "drive caller: 5, linear, 1e-3, 2e-3;");
  const std::string step = "time step: 1e-3;";
  text.replace(text.find(step), step.size(), step + " method: crank nicholson; strategy: change, postponed, 5;");
  const BuildResult b = read_deck_text("legacy_settings", text);
  EXPECT_EQ(b.not_implemented, 0u);
  EXPECT_EQ(b.settings.method.name, "cranknicolson");
  ASSERT_EQ(b.settings.strategy.kind, integrators::StepStrategy::Kind::Change);
  EXPECT_DOUBLE_EQ(b.settings.strategy.time_step(0.5), 2e-3);
  std::string nostro = deck("", "");
  nostro.replace(nostro.find(step), step.size(), step + " method: nostro, .6;");
  const BuildResult n = read_deck_text("legacy_nostro", nostro);
  EXPECT_EQ(n.settings.method.name, "ms");
  EXPECT_DOUBLE_EQ(n.settings.method.rho(0.0), 0.6);
  // A postponed drive that is never defined is an input error.
  std::string undefined = deck("", "");
  undefined.replace(undefined.find(step), step.size(), step + " strategy: change, postponed, 6;");
  EXPECT_THROW(read_deck_text("legacy_settings_undefined", undefined), parser::InputError);
}

TEST(ParserLegacyForms, SecondNodeOfAJointInTheOtherNodesFrame) {
  // MBDyn reads node 2 of the two-node joints with GetPosRel(RF2, RF1, d1): `reference, other
  // node` gives its offset and orientation in node 1's frame. Node 2 sits at x = 1, turned by
  // 90 deg about z: the point x = 0.5 of node 1 is written the same way on both sides.
  auto residual_norm = [](const std::string& second_side) {
    const BuildResult b = read_deck_text("other_node", deck("joints: 1;", "joint: 1, revolute hinge, "
                                                                          "1, position, 0.5, 0., 0., orientation, eye, "
                                                                          "2, " + second_side + ";"));
    EXPECT_EQ(b.not_implemented, 0u);
    Model& m = *b.model;
    m.number_dofs();
    Vector y, yp, r;
    m.initial_state(y, yp);
    m.update(0.0, y, yp);
    m.residual(0.0, 1.0, r, nullptr);
    return r.norm();
  };
  EXPECT_LT(residual_norm("position, reference, other node, 0.5, 0., 0., orientation, reference, other node, eye"), 1e-12);
  // The same numbers in node 2's own frame are another point and another hinge axis.
  EXPECT_GT(residual_norm("position, 0.5, 0., 0., orientation, eye"), 0.1);
}

TEST(ParserLegacyForms, KindsAfterAnUnimplementedModuleAreNotImplemented) {
  // A run-time module registers kinds of its own: after `module load` of one we do not have, a
  // kind nobody knows is reported as not implemented (the run refused), not as an input error.
  const std::string rod = "joint: 1, rod, 1, 2, 1., module law, 1., 2.;";
  EXPECT_THROW(read_deck_text("module_kind_plain", deck("joints: 1;", rod)), parser::InputError);
  const BuildResult b = read_deck_text("module_kind", "module load: \"libmodule-example\";\n" + deck("joints: 1;", rod));
  EXPECT_EQ(b.not_implemented, 2u);  // the module and the law
}

TEST(ParserLegacyForms, ControlDataCardsMbdynReadsAndIgnores) {
  // dataman3.cc reads `automatic structural elements: <n>` and ignores it; `loadable path` only
  // says where run-time modules are looked for; `default aerodynamic output` selects NetCDF
  // variables (read, not applied, as the elements' custom output). MBDyn 2024 stops on
  // `output file name`.
  std::string text = deck("", "");
  const std::string end = "end: control data;";
  text.replace(text.find(end), end.size(),
               "automatic structural elements: 2; loadable path: add, \"/usr/lib\"; loadable path: \".\"; "
               "default aerodynamic output: position, velocity, orientation description, euler 123; " + end);
  EXPECT_EQ(read_deck_text("ignored_control_cards", text).not_implemented, 0u);
  std::string bad = deck("", "");
  bad.replace(bad.find(end), end.size(), "loadable path: 3; " + end);
  EXPECT_THROW(read_deck_text("ignored_control_cards_bad", bad), parser::InputError);
  std::string removed = deck("", "");
  removed.replace(removed.find(end), end.size(), "output file name: \"x\"; " + end);
  EXPECT_THROW(read_deck_text("output_file_name", removed), parser::InputError);
}

}  // namespace
}  // namespace mbl

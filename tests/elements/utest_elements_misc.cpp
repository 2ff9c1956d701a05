// Miscellaneous elements (input manual §8.20, §8.9, §8.8, §8.4 variable mass, §6.1/§6.4 nodes):
// finite-difference Jacobians, hand-computed values and small decks run end to end.
#include <gtest/gtest.h>

#include "support/run_program.hpp"

#include <filesystem>
#include <fstream>

#include "elements/bodies/body.hpp"
#include "elements/bodies/variable_mass_body.hpp"
#include "elements/drives/drive_callers.hpp"
#include "elements/forces/displacement_force.hpp"
#include "elements/genels/genels.hpp"
#include "elements/genels/spring_mass.hpp"
#include "elements/genels/swashplate.hpp"
#include "elements/joints/total_joint.hpp"
#include "elements/laws/elastic_laws.hpp"
#include "elements/misc/driven.hpp"
#include "elements/misc/inertia.hpp"
#include "elements/nodes/abstract_node.hpp"
#include "elements/nodes/parameter_node.hpp"
#include "mbdyn-like/model/model_builder.hpp"
#include "parser/errors.hpp"
#include "support/element_fixture.hpp"

using namespace mbl;
using namespace mbl::elements;
using mbl::test_support::ElementFixture;

namespace {

template <class T>
drives::TplDriveCallerPtr<T> single(const T& v, DriveCallerPtr d) {
  return std::make_shared<drives::TplSingleDrive<T>>(v, std::move(d));
}
DriveCallerPtr constant(double v) { return std::make_shared<ConstDrive>(v); }
DriveCallerPtr linear(double c0, double c1) { return std::make_shared<drives::PolynomialDrive>(std::vector<double>{c0, c1}); }

std::unique_ptr<TotalJoint> total_joint(ElementFixture& f) {
  using S = TotalJoint::Status;
  TotalJoint::Params p;
  p.a = {f.n1, Vec3(0.1, 0.2, -0.15), rot::euler123_to_R(Vec3(0.1, 0.2, -0.3)), Mat3::Identity()};
  p.b = {f.n2, Vec3(0.2, 0.2, -0.3), Mat3::Identity(), rot::euler123_to_R(Vec3(-0.2, 0.2, 0.6))};
  p.position = {S::Position, S::Inactive, S::Velocity};
  p.rotation = {S::Position, S::Position, S::Inactive};
  p.x0 = single(Vec3(0.3, -0.1, 0.2), constant(1.5));
  p.theta0 = single(Vec3(0.2, 0.4, -0.1), constant(1.2));
  return std::make_unique<TotalJoint>(1, std::move(p));
}

/// The residual of `model` (dofs numbered) at its initial state `y`, `yp`, updated to time t.
Vector residual_at_initial_state(Model& model, double t, Vector& y, Vector& yp) {
  Vector r;
  model.initial_state(y, yp);
  model.update(t, y, yp);
  model.residual(t, 1.0, r, nullptr);
  return r;
}

/// Runs `deck` (text) with the program; returns the exit code, output prefix in `prefix`.
int run_deck_text(const std::string& name, const std::string& deck, std::string& prefix) {
  const test::TextDeckRun run = test::run_deck_text("misc_" + name, deck);
  prefix = (run.dir / "run").string();
  return run.rc;
}

/// Finite-difference check of the whole model's Jacobian at its initial state (algebraic unknowns
/// moved off zero), at t = 0.25 and two values of dCoef.
void expect_model_jacobian(Model& model) {
  model.setup_elements();
  model.number_dofs();
  Vector y, yp;
  model.initial_state(y, yp);
  for (int i = 0; i < y.size(); ++i)
    if (model.dof_order(i) == DofOrder::Algebraic) y[i] = 0.5 + 0.3 * std::sin(3.0 * i);
  model.after_predict(0.25, y, yp);
  for (double dCoef : {0.37, 1.3}) {
    const auto chk = test_support::check_jacobian(model, 0.25, dCoef, y, yp);
    EXPECT_LT(chk.max_error, 1e-6) << chk.str();
  }
}

}  // namespace

// ---- driven -------------------------------------------------------------------------------------

TEST(DrivenElement, ActiveWrapsTheElementExactly) {
  ElementFixture f;
  f.model.add_element(std::make_unique<Driven>(1, total_joint(f), constant(1.0), std::vector<Driven::Hint>{},
                                               Driven::InitialState::FromDrive));
  const auto r = f.check();
  EXPECT_LT(r.max_error, 1e-6) << r.str();
  // Same residual as the bare element (fresh fixtures: the check moved f's node references).
  ElementFixture driven, plain;
  driven.model.add_element(std::make_unique<Driven>(1, total_joint(driven), constant(1.0),
                                                    std::vector<Driven::Hint>{}, Driven::InitialState::FromDrive));
  driven.model.setup_elements();
  driven.model.number_dofs();
  plain.model.add_element(total_joint(plain));
  plain.model.setup_elements();
  plain.model.number_dofs();
  ASSERT_EQ(driven.model.size(), plain.model.size());
  Vector y = Vector::Constant(plain.model.size(), 0.25), yp = Vector::Constant(plain.model.size(), 0.1), r1, r2;
  for (auto* m : {&driven.model, &plain.model}) m->update(0.1, y, yp);
  driven.model.residual(0.1, 0.5, r1, nullptr);
  plain.model.residual(0.1, 0.5, r2, nullptr);
  EXPECT_LT((r1 - r2).norm(), 1e-14);
}

TEST(DrivenElement, InactiveDrivesItsUnknownsToZero) {
  ElementFixture f;
  auto& d = static_cast<Driven&>(f.model.add_element(std::make_unique<Driven>(
      1, total_joint(f), constant(0.0), std::vector<Driven::Hint>{}, Driven::InitialState::FromDrive)));
  const auto r = f.check();
  EXPECT_LT(r.max_error, 1e-6) << r.str();
  EXPECT_FALSE(d.active());
  // r = -y on the element's own rows, nothing on the nodes' rows.
  Vector y = Vector::Constant(f.model.size(), 0.25), yp = Vector::Zero(f.model.size()), res;
  f.model.update(0.1, y, yp);
  f.model.residual(0.1, 0.5, res, nullptr);
  for (int k = 0; k < d.dof_count(); ++k) EXPECT_DOUBLE_EQ(res[d.first_index() + k], -0.25);
  EXPECT_EQ(d.kind(), "joint");
  EXPECT_EQ(d.type_name(), "Total joint");
}

TEST(DrivenElement, SwitchesAtTheFirstResidualOfAStepAndAppliesHints) {
  ElementFixture f;
  int hints_applied = 0;
  // Active for t >= 0.5 (a step drive), hint counted on each activation.
  auto drive = std::make_shared<drives::PolynomialDrive>(std::vector<double>{-0.5, 1.0});
  struct Positive final : DriveCaller {
    DriveCallerPtr d;
    double value(double t) const override { return d->value(t) >= 0.0 ? 1.0 : 0.0; }
    std::string describe() const override { return "positive"; }
  };
  auto gate = std::make_shared<Positive>();
  gate->d = drive;
  auto& d = static_cast<Driven&>(f.model.add_element(std::make_unique<Driven>(
      1, total_joint(f), gate, std::vector<Driven::Hint>{[&](Element&) { ++hints_applied; }},
      Driven::InitialState::FromDrive)));
  f.model.setup_elements();
  f.model.number_dofs();
  Vector y, yp;
  Vector r = residual_at_initial_state(f.model, 0.0, y, yp);
  EXPECT_FALSE(d.active());
  // As MBDyn's DrivenElem the drive is asked at every assembly; the hints wait for a step.
  f.model.residual(0.7, 1.0, r, nullptr);
  EXPECT_TRUE(d.active());
  EXPECT_EQ(hints_applied, 0);
  f.model.residual(0.0, 1.0, r, nullptr);
  EXPECT_FALSE(d.active());
  // An inactive element's private data read zero (a drive reading them sees no reaction).
  ASSERT_GT(d.private_data_count(), 0u);
  for (unsigned i = 1; i <= d.private_data_count(); ++i) EXPECT_EQ(d.private_data(i), 0.0) << i;
  f.model.after_predict(0.7, y, yp);
  f.model.update(0.7, y, yp);
  f.model.residual(0.7, 1.0, r, nullptr);
  EXPECT_TRUE(d.active());
  EXPECT_EQ(hints_applied, 1);
  double sum = 0.0;
  for (unsigned i = 1; i <= d.private_data_count(); ++i) sum += std::abs(d.private_data(i));
  EXPECT_GT(sum, 0.0);
}

/// A deck with two static nodes (1 at the origin, 2 at x = 1) and the given element cards.
std::string two_node_deck(int joints, const std::string& elements) {
  return R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-3; end: initial value;
begin: control data; structural nodes: 2; joints: )" +
         std::to_string(joints) + R"(; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, static, 1., 0., 0., eye, null, null;
end: nodes;
begin: elements;
)" + elements + "\nend: elements;\n";
}

TEST(DrivenElement, DeckCountsAsTheWrappedKindAndReadsHints) {
  BuildResult b = read_deck_text("driven", two_node_deck(2, R"(
  joint: 1, clamp, 1, node, node;
  driven: 2, string, "Time > .5", hint, "position-drive3{model::xposition(2), 0., 0., const, 1.}",
  joint: 2, total pin joint, 2, position, null, position, null, position constraint, 1, 1, 1, null;)"));
  EXPECT_EQ(b.not_implemented, 0u);
  auto* d = dynamic_cast<Driven*>(b.model->find_element("joint", 2));
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->type_name(), "Total pin joint");
}

TEST(DrivenElement, WrapsAnExistingElementInPlace) {
  // `existing: joint, 2` wraps joint 2 where it was read (its unknowns keep their place) and
  // adds no element: the control data count is that of the elements read.
  BuildResult b = read_deck_text("driven_existing", two_node_deck(3, R"(
  joint: 1, clamp, 1, node, node;
  joint: 2, spherical hinge, 1, null, 2, null;
  joint: 3, spherical hinge, 1, null, 2, null;
  driven: 2, string, "Time < .5", existing: joint, 2, output, no;)"));
  EXPECT_EQ(b.not_implemented, 0u);
  const auto& elements = b.model->elements();
  ASSERT_EQ(elements.size(), 3u);
  auto* d = dynamic_cast<Driven*>(elements[1].get());
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->label(), 2u);
  EXPECT_EQ(b.model->find_element("joint", 2), d);
  EXPECT_FALSE(d->output_enabled());
  EXPECT_EQ(elements[2]->label(), 3u);
  EXPECT_EQ(dynamic_cast<Driven*>(elements[2].get()), nullptr);
  // The label must be the driven card's, and the element must exist.
  EXPECT_THROW(read_deck_text("driven_existing_label", two_node_deck(1, R"(
  joint: 1, clamp, 1, node, node;
  driven: 2, const, 1., existing: joint, 1;)")),
               parser::InputError);
  EXPECT_THROW(read_deck_text("driven_existing_none", two_node_deck(1, R"(
  joint: 1, clamp, 1, node, node;
  driven: 2, const, 1., existing: joint, 2;)")),
               parser::InputError);
}

TEST(DrivenElement, UnknownHintIsReportedNotImplemented) {
  BuildResult b = read_deck_text("driven_hint", two_node_deck(1, R"(
  driven: 1, const, 1., hint, "offset{1}", joint: 1, spherical hinge, 1, null, 2, null;)"));
  EXPECT_EQ(b.not_implemented, 1u);
}

// ---- forces -------------------------------------------------------------------------------------

TEST(DisplacementForce, AppliesTheForceToBothNodesWithoutMoment) {
  ElementFixture f;
  f.model.add_element(std::make_unique<DisplacementForce>(
      1, *f.n1, f.n2, [](double t) { return Vec3(1.0, -2.0 * t, 3.0); }));
  const auto chk = f.check();
  EXPECT_LT(chk.max_error, 1e-9) << chk.str();
  Vector y, yp;
  const Vector r = residual_at_initial_state(f.model, 0.5, y, yp);
  EXPECT_TRUE(r.segment<3>(f.n1->eq_index()).isApprox(Vec3(1.0, -1.0, 3.0)));
  EXPECT_TRUE(r.segment<3>(f.n2->eq_index()).isApprox(Vec3(-1.0, 1.0, -3.0)));
  EXPECT_TRUE(r.segment<3>(f.n1->eq_index() + 3).isZero());
}

// ---- variable mass body -------------------------------------------------------------------------

VariableMassBody::Params vm_params(DriveCallerPtr m, const Vec3& b, const Mat3& J) {
  return {std::move(m), single(b, constant(1.0)), single(J, constant(1.0)),
          std::make_shared<drives::TplNullDrive<Mat3>>()};
}

TEST(VariableMassBody, WithConstantPropertiesEqualsTheRigidBody) {
  const Vec3 b(0.1, -0.2, 0.3);
  Mat3 J;
  J << 2.0, 0.1, 0.0, 0.1, 3.0, -0.2, 0.0, -0.2, 4.0;
  ElementFixture fv, fr;
  fv.model.add_element(std::make_unique<VariableMassBody>(1, *fv.n1, vm_params(constant(2.5), b, J)));
  fr.model.add_element(std::make_unique<Body>(1, *fr.n1, BodyParams{2.5, b, J}));
  for (auto* f : {&fv, &fr}) {
    f->model.setup_elements();
    f->model.number_dofs();
  }
  Vector y, yp, y2, yp2, rv, rr;
  fv.model.initial_state(y, yp);
  fr.model.initial_state(y2, yp2);
  EXPECT_TRUE(y.isApprox(y2));
  yp.setConstant(0.3);
  fv.model.update(0.2, y, yp);
  fr.model.update(0.2, y, yp);
  fv.model.residual(0.2, 0.4, rv, nullptr);
  fr.model.residual(0.2, 0.4, rr, nullptr);
  EXPECT_LT((rv - rr).norm(), 1e-12);
  const auto chk = fv.check();
  EXPECT_LT(chk.max_error, 1e-6) << chk.str();
}

TEST(VariableMassBody, MassLossTermAndItsJacobian) {
  // b = 0: beta = m v; the force rows get m' v (technical manual eq. 8.19).
  ElementFixture f;
  f.model.add_element(std::make_unique<VariableMassBody>(1, *f.n1, vm_params(linear(2.0, -0.5), Vec3::Zero(), Mat3::Identity())));
  const auto chk = f.check();
  EXPECT_LT(chk.max_error, 1e-6) << chk.str();
  Vector y, yp;
  const Vector r = residual_at_initial_state(f.model, 0.4, y, yp);
  // The node's own residual contributes -beta_dot = 0 here (yp of the momenta is zero).
  EXPECT_TRUE(r.segment<3>(f.n1->eq_index()).isApprox(-0.5 * f.n1->v_W())) << r.segment<3>(f.n1->eq_index()).transpose();
  EXPECT_TRUE(r.segment<3>(f.n1->momentum_eq_index()).isApprox(Vec3(1.8 * f.n1->v_W() - y.segment<3>(f.n1->momentum_dof_index()))));
}

// ---- inertia ------------------------------------------------------------------------------------

TEST(Inertia, CombinesMassesAboutTheReferencePointAndTheCentreOfMass) {
  // Two point masses 1 and 3 at x = -1.5 and x = +0.5 on the x axis, moving along y with the
  // rigid rotation w = (0, 0, 2): centre of mass at 0.
  MassProperties a{1.0, Vec3(-1.5, 0, 0), Vec3(0, -3.0, 0), Vec3(0, 0, 2), Mat3::Zero()};
  MassProperties b{3.0, Vec3(0.5, 0, 0), Vec3(0, 1.0, 0), Vec3(0, 0, 2), Mat3::Identity()};
  const InertiaSummary s = combine({a, b}, Vec3(1.0, 0, 0));
  EXPECT_DOUBLE_EQ(s.m, 4.0);
  EXPECT_TRUE(s.x_cg.isZero(1e-15));
  EXPECT_TRUE(s.beta.isZero(1e-15));
  // Jcg: 1*1.5^2 + 3*0.5^2 = 3 about y and z, plus b's unit inertia.
  EXPECT_NEAR(s.J_cg(2, 2), 3.0 + 1.0, 1e-14);
  EXPECT_NEAR(s.J_cg(0, 0), 1.0, 1e-14);
  // About x = 1: 1*2.5^2 + 3*0.5^2 + 1 = 8.
  EXPECT_NEAR(s.J_X(1, 1), 8.0, 1e-14);
  // gamma = sum J w + r x m v = 2 + (1.5*3 + 0.5*3) = 8 about z; w_cg = gamma / Jzz = 2.
  EXPECT_NEAR(s.gamma[2], 8.0, 1e-14);
  EXPECT_NEAR(s.w_cg[2], 2.0, 1e-14);
  EXPECT_NEAR(s.J_p[0], 1.0, 1e-12);
}

// ---- nodes, bind, genels, plugins (end to end) ---------------------------------------------------

TEST(ScalarNodes, BindReadsTheElementDatumAndPluginsReadNodes) {
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-3; end: initial value;
begin: control data; structural nodes: 1; parameter nodes: 1; rigid bodies: 1; end: control data;
begin: nodes;
  structural: 1, dynamic, 1., 2., 3., eye, null, null;
  parameter: 5, element;
end: nodes;
begin: elements;
  body: 1, 1, 2.5, null, eye;
  bind: 1, body, 5, string, "m";
  set: [dof, XX, 1, structural, 2, algebraic];
  set: [node, P, 5, parameter, string="x"];
  set: [element, M, 1, body, index=3];
end: elements;
)";
  BuildResult b = read_deck_text("bind", deck);
  ASSERT_EQ(b.not_implemented, 0u);
  auto* p = dynamic_cast<ParameterNode*>(b.model->find_node("parameter", 5));
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(p->bound());
  EXPECT_DOUBLE_EQ(p->value(), 2.5);
  auto& math = b.model->math();
  EXPECT_DOUBLE_EQ(math.evaluate("XX", {}).to_real(), 2.0);
  EXPECT_DOUBLE_EQ(math.evaluate("P", {}).to_real(), 2.5);
  EXPECT_DOUBLE_EQ(math.evaluate("M", {}).to_real(), 2.5);
}

TEST(ScalarNodes, BadBindAndPluginArgumentsAreInputErrors) {
  const std::string head = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-3; end: initial value;
begin: control data; structural nodes: 1; parameter nodes: 1; rigid bodies: 1; end: control data;
begin: nodes; structural: 1, dynamic, null, eye, null, null; parameter: 5, element; end: nodes;
begin: elements; body: 1, 1, 2.5, null, eye;
)";
  for (const char* bad : {"bind: 1, body, 5, string, \"nope\";", "bind: 1, body, 6, index, 1;",
                          "bind: 1, body, 5, index, 4;", "set: [dof, Q, 7, structural, 1, algebraic];",
                          "set: [element, Q, 1, body, string=\"W\"];"}) {
    EXPECT_THROW(read_deck_text("bad", head + bad + "\nend: elements;\n"), parser::InputError) << bad;
  }
}

TEST(Genels, SpringSupportClampAndAbstractForceOnAbstractNodes) {
  // Node 1: spring support k = 4 loaded by an abstract force 2 and an internal one 1 -> x = 0.75.
  // Node 2: clamped by a genel to the value 3 (algebraic abstract node).
  // Node 3: spring support k = 1 receiving the opposite internal force -> x = -1.
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: .01; time step: 1.e-3; tolerance: 1e-10; end: initial value;
begin: control data; abstract nodes: 3; genels: 3; forces: 2; default output: abstract nodes; end: control data;
begin: nodes;
  abstract: 1;
  abstract: 2, algebraic;
  abstract: 3, algebraic;
end: nodes;
begin: elements;
  genel: 1, spring support, 1, abstract, algebraic, linear elastic, 4.;
  force: 1, abstract, 1, abstract, const, 2.;
  genel: 2, clamp, 2, abstract, algebraic, const, 3.;
  genel: 3, spring support, 3, abstract, linear elastic, 1.;
  force: 2, abstract internal, 1, abstract, 3, abstract, const, 1.;
end: elements;
)";
  std::string prefix;
  ASSERT_EQ(run_deck_text("genels", deck, prefix), 0);
  const auto n1 = test::last_record(prefix + ".abs", 1);
  const auto n2 = test::last_record(prefix + ".abs", 2);
  ASSERT_GE(n1.size(), 1u);
  ASSERT_GE(n2.size(), 1u);
  EXPECT_NEAR(n1[0], 0.75, 1e-9);
  EXPECT_NEAR(n2[0], 3.0, 1e-9);
  const auto n3 = test::last_record(prefix + ".abs", 3);
  ASSERT_GE(n3.size(), 1u);
  EXPECT_NEAR(n3[0], -1.0, 1e-9);
  const auto f = test::last_record(prefix + ".frc", 1);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_DOUBLE_EQ(f[1], 2.0);
  const auto f2 = test::last_record(prefix + ".frc", 2);
  ASSERT_EQ(f2.size(), 4u);  // node 1, +1, node 3, -1
  EXPECT_DOUBLE_EQ(f2[3], -1.0);
}

// MBDyn writes no .abs unless asked (its runs of web.pid and web.cantilever1piezo have none).
TEST(Genels, AbstractNodesAreNotOutputByDefault) {
  const std::string head = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: .002; time step: 1.e-3; end: initial value;
begin: control data; abstract nodes: 1; genels: 1; )";
  const std::string rest = R"( end: control data;
begin: nodes; abstract: 1; end: nodes;
begin: elements; genel: 1, spring support, 1, abstract, algebraic, linear elastic, 4.; end: elements;
)";
  for (const std::string& defaults : {std::string(""), std::string("default output: all;")}) {
    std::string prefix;
    ASSERT_EQ(run_deck_text("abs_default", head + defaults + rest, prefix), 0);
    EXPECT_EQ(std::filesystem::exists(prefix + ".abs"), !defaults.empty()) << defaults;
  }
}

TEST(Genels, JacobiansAgainstFiniteDifferences) {
  Model model;
  auto& a = static_cast<AbstractNode&>(model.add_node(std::make_unique<AbstractNode>(1, true, 0.3, 0.1)));
  auto& s = static_cast<StructNode&>(model.add_node(
      std::make_unique<StructNode>(2, StructNode::Type::Dynamic, test_support::generic_ic(1))));
  using Law = laws::LinearViscoElasticLaw<1>;
  const auto law = [](double k, double c) { return std::make_unique<Law>(Law::MatN::Constant(k), Law::MatN::Constant(c)); };
  const NodeDof a0{&a, 0, false}, s1{&s, 1, false}, s2{&s, 2, false};
  model.add_element(std::make_unique<SpringSupport>(1, a0, a0, law(4.0, 0.7)));
  model.add_element(std::make_unique<SpringSupport>(2, s1, s1, law(2.0, 0.3)));
  model.add_element(std::make_unique<GenelClamp>(3, s2, linear(0.1, 0.2)));
  model.add_element(std::make_unique<GenelClamp>(4, NodeDof{&a, 0, true}, constant(0.4)));
  // Cross spring support (a's value on s's equation) and distances: both values (holonomic),
  // a value and a derivative.
  model.add_element(std::make_unique<SpringSupport>(5, s1, a0, law(1.5, 0.2)));
  model.add_element(std::make_unique<GenelDistance>(6, a0, NodeDof{&s, 0, false}, linear(0.2, 0.1)));
  model.add_element(std::make_unique<GenelDistance>(7, NodeDof{&s, 1, true}, NodeDof{&a, 0, true}, constant(0.3)));
  expect_model_jacobian(model);
}

TEST(Genels, DistanceAndCrossSpringSupportClosedForm) {
  // q1 = 2 (clamp), q2 - q1 = 3 (distance): q2 = 5; node 3's equation -q3 - 2 q2 = 0 (spring
  // support on itself, cross spring support from node 2): q3 = -10.
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 2.e-3; time step: 1.e-3; end: initial value;
begin: control data; abstract nodes: 3; genels: 4; default output: all; end: control data;
begin: nodes; abstract: 1, algebraic; abstract: 2, algebraic; abstract: 3, algebraic; end: nodes;
begin: elements;
  genel: 1, clamp, 1, abstract, algebraic, const, 2.;
  genel: 2, distance, 1, abstract, algebraic, 2, abstract, algebraic, const, 3.;
  genel: 3, spring support, 3, abstract, algebraic, linear elastic, 1.;
  genel: 4, cross spring support, 3, abstract, algebraic, 2, abstract, algebraic, linear elastic, 2.;
end: elements;
)";
  const auto run = test::run_deck_text("genel_distance", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  EXPECT_NEAR(test::last_record(run.output("abs"), 2).at(0), 5.0, 1e-9);
  EXPECT_NEAR(test::last_record(run.output("abs"), 3).at(0), -10.0, 1e-9);
}

// The rotating shaft benchmark (driven elements) against MBDyn's run: positions to 1e-8 and the
// driven elements' outputs in tests/decks/utest_decks_paper.cpp (kExtraComparisons).

TEST(JointRegularization, TikhonovAddsTheComplianceToTheConstraintRows) {
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-3; end: initial value;
begin: control data; structural nodes: 2; joints: 1; joint regularizations: 1; end: control data;
begin: nodes;
  structural: 1, dynamic, null, eye, null, null;
  structural: 2, dynamic, 1., 0., 0., eye, null, 0., 0., 1.;
end: nodes;
begin: elements;
  joint: 1, spherical hinge, 1, null, 2, -1., 0., 0.;
  joint regularization: 1, tikhonov, 1e-3;
end: elements;
)";
  BuildResult b = read_deck_text("tikhonov", deck);
  ASSERT_EQ(b.not_implemented, 0u);
  Model& m = *b.model;
  m.setup_elements();
  m.number_dofs();
  Vector y, yp, r;
  m.initial_state(y, yp);
  const Element* joint = m.find_element("joint", 1);
  ASSERT_NE(joint, nullptr);
  for (int k = 0; k < 3; ++k) y[joint->first_index() + k] = 2.0 + k;
  m.after_predict(0.1, y, yp);
  m.update(0.1, y, yp);
  m.residual(0.1, 0.5, r, nullptr);
  // The constraint is satisfied: the rows hold -c lambda only.
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(r[joint->first_index() + k], -1e-3 * (2.0 + k), 1e-12);
  const auto chk = test_support::check_jacobian(m, 0.1, 0.5, y, yp);
  EXPECT_LT(chk.max_error, 1e-6) << chk.str();
}

// The decks with driven elements and bound parameters (t.driven.velocitypulse,
// t.driven.initialassembly, web.privdataoutput, t.joints.total.totalhint) are compared with
// MBDyn's runs in tests/decks/utest_decks_agreement.cpp.

// ---- spring, mass, swashplate genels (§8.9.1-8.9.2) ---------------------------------------------

TEST(Genels, SpringMassAndSwashplateJacobians) {
  Model model;
  std::vector<AbstractNode*> a;
  for (unsigned i = 1; i <= 8; ++i)
    a.push_back(&static_cast<AbstractNode&>(
        model.add_node(std::make_unique<AbstractNode>(i, true, 0.1 * i - 0.35, 0.05 * i))));
  auto& s = static_cast<StructNode&>(model.add_node(
      std::make_unique<StructNode>(9, StructNode::Type::Dynamic, test_support::generic_ic(1))));
  using Law = laws::CubicViscoElasticLaw<1>;
  const auto cubic = [] { return std::make_unique<Law>(Law::VecN(3.0), Law::VecN(1.0), Law::VecN(2.0), Law::MatN::Zero()); };
  // A value against a value, and a value against a derivative.
  model.add_element(std::make_unique<GenelSpring>(1, NodeDof{a[0], 0, false}, NodeDof{&s, 1, false}, cubic()));
  model.add_element(std::make_unique<GenelSpring>(2, NodeDof{a[1], 0, true}, NodeDof{a[0], 0, false}, cubic()));
  model.add_element(std::make_unique<GenelMass>(3, NodeDof{&s, 2, false}, linear(2.0, 0.5)));
  model.add_element(std::make_unique<GenelMass>(4, NodeDof{a[1], 0, false}, constant(0.7)));
  // Swashplate: the fore/aft input is beyond its limits (clamped: no Jacobian column).
  SwashPlate::Params p;
  p.inputs = {{{a[2], true, -1.0, 1.0}, {a[3], true, 0.4, 0.6}, {a[4], false, 0.0, 0.0}}};
  p.actuators = {a[5], a[6], a[7]};
  p.dynamic_coef = 0.2, p.cyclic_factor = 1.5, p.collective_factor = 0.8;
  model.add_element(std::make_unique<SwashPlate>(5, p));
  expect_model_jacobian(model);
}

TEST(Genels, MassOscillatorAndStaticSwashplate) {
  // Genel mass 2 with a spring support 8 on a differential abstract node: x = cos(2 t).
  // Swashplate: abstract forces set the inputs (each balances the unit spring: theta = force);
  // with no dynamic coefficient the strokes follow at once (the .abs has 6 significant digits).
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-3; tolerance: 1e-10;
  method: ms, .6; end: initial value;
begin: control data; abstract nodes: 7; genels: 3; forces: 3; default output: all; end: control data;
begin: nodes;
  abstract: 1, value, 1.;
  abstract: 2; abstract: 3; abstract: 4; abstract: 5; abstract: 6; abstract: 7;
end: nodes;
begin: elements;
  genel: 1, mass, 1, abstract, algebraic, const, 2.;
  genel: 2, spring support, 1, abstract, algebraic, linear elastic, 8.;
  force: 1, abstract, 2, abstract, const, 0.1;
  force: 2, abstract, 3, abstract, const, 0.02;
  force: 3, abstract, 4, abstract, const, -0.03;
  genel: 3, swash plate, 2, limits, -1., 1., 3, 4, 5, 6, 7, 0., 2., 10.;
end: elements;
)";
  const auto run = test::run_deck_text("genel_mass_swashplate", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  EXPECT_NEAR(test::last_record(run.output("abs"), 1).at(0), std::cos(2.0), 2e-3);
  const double coll = 0.1, fa = 0.02, lat = -0.03, kc = 10.0, ky = 20.0, s = std::sqrt(3.0) / 2.0;
  EXPECT_NEAR(test::last_record(run.output("abs"), 5).at(0), kc * coll - ky * fa, 1e-6);
  EXPECT_NEAR(test::last_record(run.output("abs"), 6).at(0), kc * coll + ky * (0.5 * fa - s * lat), 1e-6);
  EXPECT_NEAR(test::last_record(run.output("abs"), 7).at(0), kc * coll + ky * (0.5 * fa + s * lat), 1e-6);
}

// ---- rotor trim genel (§8.9.2) -------------------------------------------------------------------

// `generic` rotor trim at hover (mu = 0) with gamma = 8, p^2 = 2, hence C = 8 (p^2 - 1) / gamma = 1
// and f = C / (1 + C^2) = 1/2: A = [1/6, 0, 0; 0, -1/32, -1/32; 0, 1/32, -1/32]. Thrust coefficient
// 0.005 (T / (rho pi R^4 Omega^2)), no moments, desired (0.01, 0.001, 0.002): v0 = 6 (0.01 - 0.005),
// -v1 - v2 = 0.032, v1 - v2 = 0.064, so v = (0.03, 0.016, -0.048); with kappa0 = 2, kappa1 = 3 and
// tau = 0.01 s the controls settle at kappa v = (0.06, 0.048, -0.144). Before the trigger (t < 0.1)
// the nodes stay at zero.
TEST(Genels, RotorTrimGenericSettlesAtTheTrimControls) {
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 0.6; time step: 1.e-3; tolerance: 1e-10;
  method: ms, .6; end: initial value;
begin: control data; abstract nodes: 3; genels: 1; air properties; default output: all; end: control data;
set: real RHO = 1.225; set: real R = 2.; set: real OMEGA = 10.;
begin: nodes; abstract: 1; abstract: 2; abstract: 3; end: nodes;
begin: elements;
  air properties: RHO, 340., 1., 0., 0., const, 0.;
  genel: 1, rotor trim, generic,
    const, 0.005*RHO*pi*R^4*OMEGA^2, const, 0., const, 0.,
    R, const, OMEGA, const, 0.,
    1, 2, 3,
    const, 0.01, const, 0.001, const, 0.002,
    8., sqrt(2.), 0.01, 0.01, 2., 3.,
    trigger, step, 0.1, 1., 0.;
end: elements;
)";
  const auto run = test::run_deck_text("genel_rotor_trim", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const std::vector<double> expected = {0.06, 0.048, -0.144};
  for (unsigned i = 1; i <= 3; ++i)
    EXPECT_NEAR(test::last_record(run.output("abs"), i).at(0), expected[i - 1], 1e-6) << "node " << i;
  // Before the trigger the unit spring holds the controls at zero.
  const auto all = test::records(run.output("abs"), 1);
  ASSERT_GT(all.size(), 50u);
  EXPECT_NEAR(all[50].at(0), 0.0, 1e-12);
}

// The `rotor` form reads the loads its rotor's blades summed: MBDyn's rigid rotor with dynamic
// inflow (../shared corpus deck t.aero.rigidrotor-di, copied to a temporary folder) with a trim of
// its collective and cyclic controls added; the controls leave zero once the blades load the rotor.
TEST(Genels, RotorTrimOnARotorRuns) {
  namespace fs = std::filesystem;
  const fs::path src = fs::path(MBL_SHARED_DIR) / "corpus" / "t.aero.rigidrotor-di" / "deck";
  std::ifstream in(src / "rigidrotor-di");
  ASSERT_TRUE(in) << src;
  std::string deck((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto replace_once = [&](const std::string& from, const std::string& to) {
    const auto at = deck.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    deck.replace(at, from.size(), to);
  };
  replace_once("\tair properties;\n", "\tair properties;\n\tabstract nodes: 3;\n\tgenels: 1;\n");
  replace_once("end: nodes;", "abstract: 901, output, yes; abstract: 902, output, yes; abstract: 903, output, yes;\nend: nodes;");
  replace_once("end: elements;",
               "genel: 1, rotor trim, rotor, 1, 901, 902, 903, const, 0.01, const, 0., const, 0.,"
               " 6., 1.05, 0.05, 0.05, 1., 1.;\nend: elements;");
  replace_once("final time: 1.;", "final time: 0.05;");
  const fs::path dir = test::fresh_temp_dir("genel_rotor_trim_rotor");
  fs::copy_file(src / "naca0012.c81", dir / "naca0012.c81");
  std::ofstream(dir / "deck") << deck;
  ASSERT_EQ(test::run_deck(dir / "deck", dir / "run", dir / "log"), 0) << test::read_file(dir / "log");
  const auto collective = test::last_record(dir / "run.abs", 901);
  ASSERT_FALSE(collective.empty());
  EXPECT_TRUE(std::isfinite(collective.at(0)));
  EXPECT_GT(std::abs(collective.at(0)), 1e-6);
}

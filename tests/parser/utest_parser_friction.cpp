// The `friction` sub-card (input manual §2.8) of the joints that accept one (§8.12.25 in line,
// §8.12.38 revolute hinge and its old name plane hinge, §8.12.3 axial rotation): read completely;
// the joint gets one more unknown (the friction state), with every shape function (the `screw
// joint` shape too, MBDyn's ScrewJointSh_c without a pitch outside the screw joint). Syntax errors
// inside the sub-card are input errors, and so is a screw joint's friction with another shape
// (MBDyn accepts only its own).
#include <gtest/gtest.h>

#include "mbdyn-like/model/model_builder.hpp"
#include "parser/errors.hpp"
#include "support/run_program.hpp"

using namespace mbl;

namespace {

/// Two static nodes and one joint card, `joint` written on line 9 of the deck.
std::string deck_with(const std::string& joint) {
  return "begin: data; problem: initial value; end: data;\n"
         "begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-2; end: initial value;\n"
         "begin: control data; structural nodes: 2; joints: 1; end: control data;\n"
         "begin: nodes;\n"
         "  structural: 1, static, null, eye, null, null;\n"
         "  structural: 2, static, 1., 0., 0., eye, null, null;\n"
         "end: nodes;\n"
         "begin: elements;\n"
         "  joint: 1, " + joint + ";\n"
         "end: elements;\n";
}

struct Case {
  std::string joint_head;  ///< the card up to the friction sub-card
  std::string friction;    ///< the sub-card, starting with `friction`
  std::string kind;        ///< the joint kind
};

const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {"revolute hinge, 1, position, null, 2, position, -1., 0., 0.",
       "friction, 0.05, preload, 10., modlugre, 1.e3, 10., 0.1, 2., \"mu\", const, 0.3, simple plane hinge",
       "revolute hinge"},
      {"plane hinge, 1, null, 2, -1., 0., 0., initial theta, 0.",
       "friction, 0.05, discrete coulomb, \"mu2\", const, 0.2, sigma2, 0.1, velocity ratio, 0.7, simple",
       "revolute hinge"},
      {"in line, 1, null, eye, 2",
       "friction, preload, 5., discrete coulomb, \"mu3\", const, 0.1, simple", "in line"},
      {"in line, 1, null, eye, 2",
       "friction, modlugre, 1.e3, 10., 0.1, 2., \"mu5\", const, 0.3, screw joint, radius, 0.01, half thread angle, 0.5",
       "in line"},
      {"axial rotation, 1, null, 2, -1., 0., 0., const, 1.",
       "friction, 0.02, preload, 3., modlugre, 1.e3, 10., 0.1, 2., \"mu6\", const, 0.3, simple plane hinge",
       "axial rotation"},
      {"axial rotation, 1, null, 2, -1., 0., 0., const, 1.",
       "friction, 0.02, modlugre, 1.e3, 10., 0.1, 2., \"mu4\", const, 0.3, screw joint, radius, 0.01, "
       "half thread angle, 0.5",
       "axial rotation"},
  };
  return c;
}

}  // namespace

TEST(JointFriction, ImplementedFormsAddTheFrictionState) {
  for (const Case& c : cases()) {
    BuildResult plain = read_deck_text("nofriction.mbd", deck_with(c.joint_head));
    BuildResult b = read_deck_text("friction.mbd", deck_with(c.joint_head + ", " + c.friction));
    EXPECT_EQ(b.not_implemented, 0u) << c.friction;
    const Element* with = b.model->find_element("joint", 1);
    ASSERT_NE(with, nullptr) << c.friction;
    EXPECT_EQ(with->dof_count(), plain.model->find_element("joint", 1)->dof_count() + 1) << c.friction;
  }
}

TEST(JointFriction, TheSameJointsWithoutFrictionAreBuilt) {
  for (const Case& c : cases()) {
    BuildResult b = read_deck_text("nofriction.mbd", deck_with(c.joint_head));
    EXPECT_EQ(b.not_implemented, 0u) << c.joint_head;
    EXPECT_NE(b.model->find_element("joint", 1), nullptr) << c.joint_head;
  }
}

TEST(JointFriction, SyntaxErrorsInTheSubCardAreInputErrors) {
  const std::string head = "revolute hinge, 1, position, null, 2, position, -1., 0., 0., friction, 0.05, ";
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"coulomb, \"mu\", const, 0.3, simple", "expected a friction model"},
      {"modlugre, 1.e3, 10., 0.1, \"mu\", const, 0.3, simple", "expected a real"},
      {"discrete coulomb, \"mu\", const, 0.3, round", "expected a friction shape function"},
      {"discrete coulomb, \"mu\", const, 0.3, screw joint, 0.01", "expected ';'"},
  };
  for (const auto& [tail, message] : bad) {
    try {
      read_deck_text("bad.mbd", deck_with(head + tail));
      ADD_FAILURE() << "no error for " << tail;
    } catch (const parser::InputError& e) {
      EXPECT_NE(e.message().find(message), std::string::npos) << tail << ": " << e.message();
      EXPECT_EQ(e.where().line, 9);
    }
  }
}

TEST(JointFriction, TheScrewJointTakesItsThreadShapeOnly) {
  const std::string head = "screw, 1, null, eye, 2, pitch, 0.01, friction, modlugre, 1.e3, 10., 0.1, 2., \"mu\", const, 0.3, ";
  BuildResult b = read_deck_text("screw.mbd", deck_with(head + "screw joint, radius, 0.05, half thread angle, 0.5"));
  EXPECT_EQ(b.not_implemented, 0u);
  ASSERT_NE(b.model->find_element("joint", 1), nullptr);
  EXPECT_EQ(b.model->find_element("joint", 1)->dof_count(), 2);  // the multiplier and the friction state
  try {
    read_deck_text("bad.mbd", deck_with(head + "simple"));
    ADD_FAILURE() << "no error for a simple shape";
  } catch (const parser::InputError& e) {
    EXPECT_NE(e.message().find("expected the \"screw joint\" shape function"), std::string::npos) << e.message();
  }
}

// The `friction` sub-card (input manual §2.8) of the joints that accept one (§8.12.25 in line,
// §8.12.38 revolute hinge and its old name plane hinge, §8.12.3 axial rotation): read completely;
// the joint gets one more unknown (the friction state); the form not implemented (the
// `screw joint` shape outside the screw joint) is reported
// "not implemented: friction in <joint>" at the `friction` keyword, and the deck does not run
// (exit code 2). Syntax errors inside the sub-card are input errors, and so is a screw joint's
// friction with another shape (MBDyn accepts only its own).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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
  std::string kind;        ///< as in the message
  bool implemented;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {"revolute hinge, 1, position, null, 2, position, -1., 0., 0.",
       "friction, 0.05, preload, 10., modlugre, 1.e3, 10., 0.1, 2., \"mu\", const, 0.3, simple plane hinge",
       "revolute hinge", true},
      {"plane hinge, 1, null, 2, -1., 0., 0., initial theta, 0.",
       "friction, 0.05, discrete coulomb, \"mu2\", const, 0.2, sigma2, 0.1, velocity ratio, 0.7, simple",
       "revolute hinge", true},
      {"in line, 1, null, eye, 2",
       "friction, preload, 5., discrete coulomb, \"mu3\", const, 0.1, simple", "in line", true},
      {"in line, 1, null, eye, 2",
       "friction, modlugre, 1.e3, 10., 0.1, 2., \"mu5\", const, 0.3, screw joint, radius, 0.01, half thread angle, 0.5",
       "in line", false},
      {"axial rotation, 1, null, 2, -1., 0., 0., const, 1.",
       "friction, 0.02, preload, 3., modlugre, 1.e3, 10., 0.1, 2., \"mu6\", const, 0.3, simple plane hinge",
       "axial rotation", true},
      {"axial rotation, 1, null, 2, -1., 0., 0., const, 1.",
       "friction, 0.02, modlugre, 1.e3, 10., 0.1, 2., \"mu4\", const, 0.3, screw joint, radius, 0.01, "
       "half thread angle, 0.5",
       "axial rotation", false},
  };
  return c;
}

}  // namespace

TEST(JointFriction, ImplementedFormsAddTheFrictionState) {
  for (const Case& c : cases()) {
    if (!c.implemented) continue;
    BuildResult plain = read_deck_text("nofriction.mbd", deck_with(c.joint_head));
    BuildResult b = read_deck_text("friction.mbd", deck_with(c.joint_head + ", " + c.friction));
    EXPECT_EQ(b.not_implemented, 0u) << c.friction;
    const Element* with = b.model->find_element("joint", 1);
    ASSERT_NE(with, nullptr) << c.friction;
    EXPECT_EQ(with->dof_count(), plain.model->find_element("joint", 1)->dof_count() + 1) << c.friction;
  }
}

TEST(JointFriction, ParsedThenReportedAtTheFrictionKeyword) {
  for (const Case& c : cases()) {
    if (c.implemented) continue;
    const std::string joint = c.joint_head + ", " + c.friction;
    BuildResult b = read_deck_text("friction.mbd", deck_with(joint));
    EXPECT_EQ(b.not_implemented, 1u) << joint;
    ASSERT_EQ(b.read_context->count("not implemented"), 1u) << joint;
    for (const auto& d : b.read_context->diagnostics()) {
      if (d.severity != "not implemented") continue;
      EXPECT_EQ(d.message, "friction in " + c.kind);
      EXPECT_EQ(d.where.line, 9);
      EXPECT_EQ(d.where.column, static_cast<int>(std::string("  joint: 1, ").size() + c.joint_head.size() + 3))
          << joint;
    }
    EXPECT_EQ(b.model->find_element("joint", 1), nullptr) << joint;
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
      {"discrete coulomb, \"mu\", const, 0.3, screw joint, 0.01", "expected \"radius\""},
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

TEST(JointFriction, ProgramStopsWithExitCode2AndTheLocation) {
  namespace fs = std::filesystem;
  const fs::path dir = test::fresh_temp_dir("friction");
  const Case& c = cases().back();
  std::ofstream(dir / "deck.mbd") << deck_with(c.joint_head + ", " + c.friction);
  const int rc = test::run("'" + std::string(MBL_BINARY) + "' -f '" + (dir / "deck.mbd").string() + "' -o '" +
                               (dir / "run").string() + "'",
                           dir / "log");
  EXPECT_EQ(rc, 2);
  const std::string log = test::read_file(dir / "log");
  const std::string expected = "deck.mbd:9:" + std::to_string(12 + c.joint_head.size() + 3) +
                               ": not implemented: friction in axial rotation";
  EXPECT_NE(log.find(expected), std::string::npos) << log;
  fs::remove_all(dir);
}

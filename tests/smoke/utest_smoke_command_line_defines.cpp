// `mbdyn-like -D name[:type]=value` (issue: parameter studies): a deck variable declared before
// the deck is read, typed like the math language; `set: ifndef` keeps it, a plain `set:` of the
// same name is an error naming both places.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "mbdyn-like/model/model_builder.hpp"
#include "parser/errors.hpp"
#include "parser/math/math_parser.hpp"
#include "support/run_program.hpp"

using namespace mbl;

TEST(CommandLineDefines, TypesFollowTheMathLanguage) {
  math::MathParser m;
  m.define("K", "", "1e3", "on the command line (-D K=1e3)");
  m.define("n", "integer", "3", "on the command line (-D n:integer=3)");
  m.define("m", "", "2*3", "on the command line");
  m.define("tag", "string", "a\"b", "on the command line");
  m.define("word", "", "left", "on the command line");  // not an expression: a string
  ASSERT_NE(m.find_variable("K"), nullptr);
  EXPECT_EQ(m.find_variable("K")->type(), math::Type::Real);
  EXPECT_EQ(m.find_variable("K")->to_real(), 1000.0);
  EXPECT_EQ(m.find_variable("n")->type(), math::Type::Integer);
  EXPECT_EQ(m.find_variable("m")->type(), math::Type::Integer);
  EXPECT_EQ(m.find_variable("m")->to_integer(), 6);
  EXPECT_EQ(m.find_variable("tag")->to_string_value(), "a\"b");
  EXPECT_EQ(m.find_variable("word")->to_string_value(), "left");
}

TEST(CommandLineDefines, IfndefKeepsThemAndAPlainSetNamesBothPlaces) {
  math::MathParser m;
  m.define("K", "", "1e3", "on the command line (-D K=1e3)");
  const parser::SourceLocation here{};
  m.execute_set("ifndef real K = 1.", here);
  EXPECT_EQ(m.find_variable("K")->to_real(), 1000.0);
  try {
    m.execute_set("real K = 2.", here);
    ADD_FAILURE() << "no error";
  } catch (const parser::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("already defined on the command line (-D K=1e3)"),
              std::string::npos)
        << e.what();
  }
}

TEST(CommandLineDefines, ParseDefineRejectsMalformedArguments) {
  const DeckDefine d = parse_define("n:integer=3");
  EXPECT_EQ(d.name, "n");
  EXPECT_EQ(d.type, "integer");
  EXPECT_EQ(d.value, "3");
  EXPECT_THROW(parse_define("K"), std::invalid_argument);
  EXPECT_THROW(parse_define("=3"), std::invalid_argument);
  EXPECT_THROW(parse_define("3K=1"), std::invalid_argument);
  EXPECT_THROW(parse_define("K:float=1"), std::invalid_argument);
}

TEST(CommandLineDefines, TheProgramRunsADeckWithACommandLineStiffness) {
  // A spring-mass deck whose stiffness is `set: ifndef`: -D K=... is what the deck uses (the
  // .log symbol table); a malformed -D is exit 2.
  const std::filesystem::path dir = test::fresh_temp_dir("utest_defines");
  std::ofstream(dir / "deck") << R"(
begin: data; problem: initial value; end: data;
set: ifndef real K = 1.;
begin: initial value; initial time: 0.; final time: 0.95; time step: 0.1; end: initial value;
begin: control data; structural nodes: 2; rigid bodies: 1; joints: 2; print: symbol table; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, dynamic, 1., 0., 0., eye, null, null;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  joint: 2, rod, 1, 2, from nodes, linear elastic, K;
  body: 2, 2, 1., null, eye;
end: elements;
)";
  const std::string program = MBL_BINARY;
  const auto run = [&](const std::string& args, const std::string& out) {
    return test::run(program + " -s " + args + " -f " + test::quoted(dir / "deck") + " -o " +
                         test::quoted(dir / out),
                     dir / (out + ".txt"));
  };
  ASSERT_EQ(run("-D K=100.", "stiff"), 0) << test::read_file(dir / "stiff.txt");
  ASSERT_EQ(run("", "soft"), 0) << test::read_file(dir / "soft.txt");
  EXPECT_NE(test::read_file(dir / "stiff.log").find("real K = 100"), std::string::npos);
  EXPECT_NE(test::read_file(dir / "soft.log").find("real K = 1"), std::string::npos);
  EXPECT_EQ(run("-D K:real", "bad"), 2);
}

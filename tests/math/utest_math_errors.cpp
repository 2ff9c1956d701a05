// Malformed or failing expressions give parser::InputError at the exact file:line:column of the
// offending token inside the deck, with an "expected X, found Y"-style message.
#include <gtest/gtest.h>

#include <cmath>

#include "parser/errors.hpp"
#include "parser/math/math_parser.hpp"

using mbl::math::MathParser;
using mbl::parser::InputError;
using mbl::parser::SourceFile;
using mbl::parser::SourceLocation;

namespace {

struct Case {
  const char* text;
  int line, column;
  const char* message;  // expected substring of the message
};

// Every text starts at line 3, column 10 of "deck.mbd".
const Case kCases[] = {
    {"1 +", 3, 13, "expected an operand, found end of expression"},
    {"1 2", 3, 12, "expected an operator or the end of the expression, found '2'"},
    {"max(1, 2", 3, 18, "expected ',' or ')', found end of expression"},
    {"sin(1, 2)", 3, 10, "expected 1 argument for sin(), found 2"},
    {"2 * unknown_var", 3, 14, "unknown variable 'unknown_var'"},
    {"1 / (2 - 2)", 3, 12, "division by zero in 1 / 0"},
    {"\"abc", 3, 10, "unterminated string: expected a closing '\"', found end of expression"},
    {"1 + \"a\" * 2", 3, 18, "operator * expects a number as left operand, found string \"a\""},
    {"foo(1)", 3, 10, "unknown function 'foo'"},
    {"(1 + 2", 3, 16, "expected ')', found end of expression"},
    {"7 % 2.", 3, 12, "operator % expects integer operands, found integer 7 % real 2."},
    {"1000000000000000 + 1", 3, 10, "integer 1000000000000000 is out of range"},
    {"real = 3", 3, 15, "expected a name, found '='"},
    {"const real z", 3, 21, "const variables must be initialized"},
    {"1 $ 2", 3, 12, "expected an operator or the end of the expression, found '$'"},
    {"sqrt(-1.)", 3, 10, "sqrt(): expected a non-negative argument, found -1."},
    {"x = 1", 3, 10, "unknown variable 'x'"},
    {"(real a = 1;\n   a +* 2)", 4, 7, "expected an operand, found '*'"},
    {"2 ^ 31", 3, 12, "integer overflow in 2 ^ 31"},
    {"(1;)", 3, 13, "expected an expression, found ')'"},
    {"1.2.3", 3, 10, "expected a number, found '1.2.'"},
    {"a::", 3, 13, "expected a name, found end of expression"},
    {"1)", 3, 11, "expected an operator or the end of the expression, found ')'"},
    {"[dof, x", 3, 10, "expected ']' closing the plugin variable"},
    {"const x = 1", 3, 16, "expected a type (bool, integer, real or string) and a name, found 'x'"},
    {"real sin = 1", 3, 15, "expected a variable name, found keyword 'sin'"},
    {"-\"s\"", 3, 10, "unary - expects a number, found string \"s\""},
    {"\"a\" < \"b\"", 3, 14, "operator < expects a number as left operand"},
    {"integer(\"3\")", 3, 10, "integer(): cannot convert string \"3\" to integer"},
    {"1e999", 3, 10, "real number 1e999 is out of range"},
    {"INT_MAX * 2", 3, 18, "integer overflow in 2147483647 * 2"},
    {"model::x", 3, 10, "namespace 'model' has no variables"},
    {"\n\n  1 +\n  )", 6, 3, "expected an operand, found ')'"},
};

}  // namespace

TEST(MathErrors, LocatedAtTheOffendingToken) {
  auto file = std::make_shared<SourceFile>();
  file->path = "deck.mbd";
  file->text = "line one\nline two\n    set: <expression here>\n";
  const SourceLocation where{file, 3, 10};
  int checked = 0;
  for (const Case& c : kCases) {
    MathParser p;
    try {
      p.execute_set(c.text, where);
      ADD_FAILURE() << "no error for: " << c.text;
    } catch (const InputError& e) {
      EXPECT_EQ(e.where().line, c.line) << c.text << " -> " << e.what();
      EXPECT_EQ(e.where().column, c.column) << c.text << " -> " << e.what();
      EXPECT_NE(e.message().find(c.message), std::string::npos) << c.text << " -> " << e.what();
      EXPECT_EQ(e.where().file, file);
      ++checked;
    }
  }
  EXPECT_GE(checked, 30);
}

TEST(MathErrors, FormattedDiagnosticPointsAtTheColumn) {
  auto file = std::make_shared<SourceFile>();
  file->path = "deck.mbd";
  file->text = "set: real x = 1 + * 2;\n";
  MathParser p;
  try {
    p.execute_set(std::string_view(file->text).substr(5, 16), SourceLocation{file, 1, 6});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.format(),
              "deck.mbd:1:19: error: expected an operand, found '*'\n"
              "  set: real x = 1 + * 2;\n"
              "                    ^\n");
  }
}

TEST(MathErrors, CompileTimeAndRunTimeErrors) {
  MathParser p;
  auto file = std::make_shared<SourceFile>();
  file->path = "drives.mbd";
  file->text = "  string, \"1./(Time - 1.)\"\n";
  // compiles fine, fails only when evaluated at Time == 1, still located in the deck
  auto e = p.compile("1/(integer(Time) - 1)", SourceLocation{file, 1, 12});
  p.set_variable("Time", mbl::math::Value(2.0));
  EXPECT_EQ(e->eval(p).to_integer(), 1);
  p.set_variable("Time", mbl::math::Value(1.0));
  try {
    e->eval(p);
    FAIL();
  } catch (const InputError& err) {
    EXPECT_EQ(err.where().str(), "drives.mbd:1:13");
    EXPECT_EQ(err.message(), "division by zero in 1 / 0");
  }
  // at run time a real divided by zero is IEEE arithmetic, as in MBDyn 2024 (EE_Divide only
  // prints a note)...
  EXPECT_TRUE(std::isinf(p.compile("1./(Time - 1.)", {})->eval(p).to_real()));
  EXPECT_TRUE(std::isinf(p.compile("4067.5/0", {})->eval(p).to_real()));
  EXPECT_TRUE(std::isnan(p.compile("0./0.", {})->eval(p).to_real()));
  // ... while reading (a set:, a card's argument) it is an error at the operator (issue #30)
  for (const char* text : {"1./(Time - 1.)", "4067.5/0", "0./0.", "(real h = 0.; 2. * (1. / h))"}) {
    try {
      p.evaluate(text, SourceLocation{file, 1, 12});
      ADD_FAILURE() << text;
    } catch (const InputError& err) {
      EXPECT_EQ(err.message().rfind("division by zero in ", 0), 0u) << err.message();
    }
  }
  try {
    p.execute_set("real k = 1.e3 / (Time - 1.)", SourceLocation{file, 1, 12});
    ADD_FAILURE();
  } catch (const InputError& err) {
    EXPECT_EQ(err.where().str(), "drives.mbd:1:26");
    EXPECT_EQ(err.message(), "division by zero in 1000. / 0.");
  }
  // syntax errors are found by compile()
  EXPECT_THROW(p.compile("Time +", SourceLocation{file, 1, 12}), InputError);
  // blank text: a number field reads 0 (manual §2.2); a set: card needs something
  EXPECT_EQ(p.evaluate("  \n ", {}).to_real(), 0.0);
  EXPECT_THROW(p.execute_set("  ", {}), InputError);
  // comments are blanks for the math language too
  EXPECT_EQ(p.evaluate("1 + /* two */ 2 # rest", {}).to_integer(), 3);
  // NaN and infinities do not crash
  EXPECT_TRUE(std::isnan(p.evaluate("REAL_MAX*10 - REAL_MAX*10", {}).to_real()));
  EXPECT_THROW(p.evaluate("integer(REAL_MAX)", {}), InputError);
  EXPECT_TRUE(std::isnan(p.evaluate("(-8.)^(1./3.)", {}).to_real()));  // pow(), unchecked
}

TEST(MathErrors, HostileInputDoesNotExhaustTheStack) {
  MathParser p;
  EXPECT_THROW(p.evaluate(std::string(100000, '(') + "1" + std::string(100000, ')'), {}), InputError);
  EXPECT_THROW(p.evaluate(std::string(100000, '-') + "1", {}), InputError);
  std::string chain = "1";
  for (int i = 0; i < 50000; ++i) chain += "+1";
  EXPECT_THROW(p.evaluate(chain, {}), InputError);
  std::string pow = "1";
  for (int i = 0; i < 1000; ++i) pow += "^1";
  EXPECT_THROW(p.evaluate(pow, {}), InputError);
  // within the limits nesting works
  EXPECT_EQ(p.evaluate(std::string(200, '(') + "7" + std::string(200, ')'), {}).to_integer(), 7);
  std::string sum = "0";
  for (int i = 0; i < 1000; ++i) sum += "+Step";
  p.set_variable("Step", mbl::math::Value(2));
  EXPECT_EQ(p.evaluate(sum, {}).to_integer(), 2000);
  EXPECT_THROW(p.evaluate(std::string("\"") + std::string(1000, 'x'), {}), InputError);
}

// Issue #30: the names a string drive reads at run time are checked once the deck is read:
// an undefined one is an input error at its place in the string, one defined by a later `set:`
// or declared by the string itself is fine.
TEST(MathErrors, RunTimeNamesAreCheckedAfterReading) {
  MathParser p;
  auto file = std::make_shared<SourceFile>();
  file->path = "deck.mbd";
  file->text = "  string, \"A * sin(Time) + B\"\n";
  auto fine = p.compile_drive_string("(real w = 2. * pi; sin(w * Time)) + A", {});
  auto later = p.compile_drive_string("A * sin(Time) + B", SourceLocation{file, 1, 12});
  p.execute_set("real A = 1.", {});
  try {
    p.check_run_time_names();
    FAIL();
  } catch (const InputError& err) {
    EXPECT_EQ(err.where().str(), "deck.mbd:1:28");
    EXPECT_EQ(err.message(), "unknown variable 'B'");
  }
  p.execute_set("real B = 2.", {});
  auto assigns_undeclared = p.compile_drive_string("x = 2. * Time", SourceLocation{file, 1, 12});
  try {
    p.check_run_time_names();
    FAIL();
  } catch (const InputError& err) {
    EXPECT_EQ(err.message(), "unknown variable 'x' (declare it first, e.g. 'real x = ...')");
  }
  assigns_undeclared.reset();  // no longer used: not checked
  EXPECT_NO_THROW(p.check_run_time_names());
}

// Declarations (`set:` cards, manual §2.2): types, const, ifndef, redefinition, assignment,
// statement lists, namespaces, registered functions, plugin variables, symbol-table printing.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "parser/errors.hpp"
#include "parser/math/math_parser.hpp"

using mbl::math::MathParser;
using mbl::math::Type;
using mbl::math::Value;
using mbl::parser::InputError;

namespace {
Value ev(MathParser& p, const std::string& text) { return p.evaluate(text, {}); }
void set(MathParser& p, const std::string& text) { p.execute_set(text, {}); }
std::string error_of(MathParser& p, const std::string& text) {
  try {
    p.execute_set(text, {});
  } catch (const InputError& e) {
    return e.message();
  }
  return "no error";
}
}  // namespace

TEST(MathDeclarations, ManualExamples) {
  MathParser p;
  set(p, "integer N");
  set(p, "integer W = 10");
  set(p, "ifndef integer W = 11");  // ignored, W exists
  set(p, "const integer M = 100");
  set(p, "string welcome_message = \"hello\"");
  set(p, "const real x = -1.e-3");
  set(p, "real y");
  set(p, "bool B");
  EXPECT_EQ(ev(p, "N").to_integer(), 0);
  EXPECT_EQ(ev(p, "W").to_integer(), 10);
  EXPECT_EQ(ev(p, "M").to_integer(), 100);
  EXPECT_EQ(ev(p, "welcome_message").to_string_value(), "hello");
  EXPECT_DOUBLE_EQ(ev(p, "x").to_real(), -1e-3);
  EXPECT_EQ(ev(p, "y").type(), Type::Real);
  EXPECT_EQ(ev(p, "B").type(), Type::Bool);
  EXPECT_NE(error_of(p, "const real z").find("must be initialized"), std::string::npos);
  set(p, "ifndef real brand_new = 4");  // ifndef of a missing variable defines it
  EXPECT_DOUBLE_EQ(ev(p, "brand_new").to_real(), 4.0);
}

TEST(MathDeclarations, StrongTypingOnStore) {
  MathParser p;
  set(p, "integer i = 2.9");  // real truncated into integer
  EXPECT_EQ(ev(p, "i").type(), Type::Integer);
  EXPECT_EQ(ev(p, "i").to_integer(), 2);
  set(p, "i = 7.5");
  EXPECT_EQ(ev(p, "i").to_integer(), 7);
  set(p, "real r = 3");
  EXPECT_EQ(ev(p, "r").type(), Type::Real);
  EXPECT_EQ(ev(p, "r/2").to_real(), 1.5);  // real, not integer division
  set(p, "bool b = 5");
  EXPECT_TRUE(ev(p, "b").to_bool());
  set(p, "string s = 12");
  EXPECT_EQ(ev(p, "s").to_string_value(), "12");
  EXPECT_NE(error_of(p, "real q = \"text\"").find("cannot store string"), std::string::npos);
}

TEST(MathDeclarations, RedefinitionAndConst) {
  MathParser p;
  set(p, "real a = 1");
  EXPECT_NE(error_of(p, "real a = 2").find("already defined"), std::string::npos);
  set(p, "const real c = 1");
  EXPECT_NE(error_of(p, "real c = 2").find("cannot redefine const"), std::string::npos);
  EXPECT_NE(error_of(p, "c = 2").find("cannot assign to const"), std::string::npos);
  EXPECT_NE(error_of(p, "undeclared = 2").find("unknown variable 'undeclared'"), std::string::npos);
  EXPECT_NE(error_of(p, "real pi = 3").find("cannot redefine const"), std::string::npos);
  EXPECT_NE(error_of(p, "real sqrt = 3").find("keyword 'sqrt'"), std::string::npos);
  // ifndef never touches an existing variable, even a const one
  set(p, "ifndef const real c = 5");
  EXPECT_DOUBLE_EQ(ev(p, "c").to_real(), 1.0);
  // Time & co. are ordinary variables (manual table 2.2)
  set(p, "Time = 3.5");
  EXPECT_DOUBLE_EQ(ev(p, "Time").to_real(), 3.5);
  // optional MBDyn-like redefinition switch
  p.set_allow_redefinition(true);
  set(p, "integer a = 4");
  EXPECT_EQ(ev(p, "a").type(), Type::Integer);
  EXPECT_NE(error_of(p, "real c = 2").find("cannot redefine const"), std::string::npos);
}

TEST(MathDeclarations, StatementLists) {
  MathParser p;
  EXPECT_DOUBLE_EQ(ev(p, "(real r = 2.*pi; integer i = 3; sin(i*r*Time+.87))").to_real(),
                   std::sin(.87));
  EXPECT_EQ(ev(p, "i").to_integer(), 3);  // declarations persist
  set(p, "(\n\tconst integer P_A = 100;\n\tconst real P_A_X = -0.06934;\n\n0)");
  EXPECT_EQ(ev(p, "P_A").to_integer(), 100);
  EXPECT_EQ(ev(p, "(i = i + 1; i * 2)").to_integer(), 8);
  EXPECT_EQ(ev(p, "max(i = 10; i, 2)").to_real(), 10.0);  // statement lists as arguments
  // A compiled declaration can run again (a string drive evaluated every step).
  auto drive = p.compile("(real omega = 2.*pi*Time; sin(omega))", {});
  p.set_variable("Time", Value(0.25));
  EXPECT_DOUBLE_EQ(drive->eval(p).to_real(), 1.0);
  p.set_variable("Time", Value(0.5));
  EXPECT_NEAR(drive->eval(p).to_real(), 0.0, 1e-15);
  // but another text declaring the same name is a redefinition
  EXPECT_THROW(ev(p, "real omega = 1"), InputError);
}

TEST(MathDeclarations, NamespacesAndRegisteredFunctions) {
  MathParser p;
  EXPECT_DOUBLE_EQ(ev(p, "default::sqrt(4.)").to_real(), 2.0);
  set(p, "real default::v = 2");
  EXPECT_DOUBLE_EQ(ev(p, "default::v + v").to_real(), 4.0);
  // model functions registered after the text is compiled are found at evaluation
  auto e = p.compile("model::distance(1, 2) * 2", {});
  EXPECT_THROW(e->eval(p), InputError);
  p.register_function("model", "distance", [](std::span<const Value> a) {
    if (a.size() != 2) throw std::invalid_argument("expected 2 node labels");
    return Value(static_cast<double>(a[0].to_integer() + a[1].to_integer()));
  });
  EXPECT_DOUBLE_EQ(e->eval(p).to_real(), 6.0);
  EXPECT_DOUBLE_EQ(ev(p, "model::distance(10, 5)").to_real(), 15.0);
  try {
    ev(p, "model::distance(10)");
    FAIL();
  } catch (const InputError& err) {
    EXPECT_EQ(err.message(), "model::distance(): expected 2 node labels");
  }
  // nested names: namespace "model", function "node::electric"
  p.register_function("model", "node::electric", [](std::span<const Value> a) {
    return Value(a[1].to_string_value() == "x" ? 1.25 * a[0].to_real() : 0.0);
  });
  set(p, "real R = 2.");
  EXPECT_DOUBLE_EQ(
      ev(p, "(model::node::electric(1, \"x\") - model::node::electric(2, \"x\"))/R").to_real(),
      -0.625);
  // a function in the default namespace
  p.register_function("", "twice", [](std::span<const Value> a) { return Value(2 * a[0].to_real()); });
  EXPECT_DOUBLE_EQ(ev(p, "twice(3) + default::twice(1)").to_real(), 8.0);
  EXPECT_THROW(ev(p, "model::v"), InputError);  // no variables in other namespaces
  EXPECT_EQ(p.find_variable("default::v")->to_real(), 2.0);
  EXPECT_EQ(p.find_variable("nope"), nullptr);
}

TEST(MathDeclarations, PluginVariables) {
  MathParser p;
  double dof_value = 1.5;
  std::vector<std::string> seen;
  p.register_plugin("dof", [&](std::span<const std::string> args, const mbl::parser::SourceLocation&) {
    seen.assign(args.begin(), args.end());
    return mbl::math::PluginGetter([&] { return Value(dof_value); });
  });
  set(p, "[dof,x,1,structural,1,algebraic, prev=false]");
  EXPECT_EQ(seen, (std::vector<std::string>{"1", "structural", "1", "algebraic", "prev=false"}));
  auto drive = p.compile("(Time>0)*(1e-0*x)", {});
  p.set_variable("Time", Value(1.0));
  EXPECT_DOUBLE_EQ(drive->eval(p).to_real(), 1.5);
  dof_value = 2.5;  // read again at every evaluation
  EXPECT_DOUBLE_EQ(drive->eval(p).to_real(), 2.5);
  EXPECT_THROW(set(p, "x = 3"), InputError);                       // plugin variables are const
  EXPECT_THROW(set(p, "[dof,x,2,structural,1,algebraic]"), InputError);  // already defined
  EXPECT_THROW(set(p, "[nosuch,y,1]"), InputError);
  set(p, "[DOF, \"q\", 1, \"a,b\"]");
  EXPECT_EQ(seen, (std::vector<std::string>{"1", "a,b"}));
  std::ostringstream os;
  p.print_symbol_table(os);
  EXPECT_NE(os.str().find("  const real x = 2.5\n"), std::string::npos);
}

TEST(MathDeclarations, SymbolTableFormat) {
  MathParser p;
  set(p, "integer Pendulum = 1");
  set(p, "real L = .5");
  set(p, "real M = 1.");
  set(p, "string s = \"ab\"");
  set(p, "real big = 1e20");
  std::ostringstream os;
  p.print_symbol_table(os);
  const std::string expected =
      "  const bool FALSE = 0\n"
      "  const integer INT_MAX = 2147483647\n"
      "  const integer INT_MIN = -2147483648\n"
      "  real L = 0.5\n"
      "  real M = 1.\n"
      "  integer Pendulum = 1\n"
      "  const integer RAND_MAX = 2147483647\n"
      "  const real REAL_MAX = 1.79769e+308\n"
      "  const real REAL_MIN = 2.22507e-308\n"
      "  integer Step = 0\n"
      "  const bool TRUE = 1\n"
      "  real Time = 0.\n"
      "  real TimeStep = 0.\n"
      "  real Var = 0.\n"
      "  real big = 1e+20.\n"
      "  const real deg2rad = 0.0174533\n"
      "  const real e = 2.71828\n"
      "  const real ft2m = 0.3048\n"
      "  const real in2m = 0.0254\n"
      "  const real in2mm = 25.4\n"
      "  const real kg2lb = 2.20462\n"
      "  const real kg2slug = 0.0685218\n"
      "  const real lb2kg = 0.453592\n"
      "  const real m2ft = 3.28084\n"
      "  const real m2in = 39.3701\n"
      "  const real mm2in = 0.0393701\n"
      "  const real pi = 3.14159\n"
      "  const real rad2deg = 57.2958\n"
      "  string s = \"ab\"\n"
      "  const real slug2kg = 14.5939\n";
  EXPECT_EQ(os.str(), expected);
}

TEST(MathDeclarations, SetVariableFromTheSolver) {
  MathParser p;
  p.set_variable("Time", Value(2));  // integer converted to the declared real
  EXPECT_EQ(p.find_variable("Time")->type(), Type::Real);
  p.set_variable("Step", Value(3));
  EXPECT_EQ(ev(p, "Step/2").to_integer(), 1);
  p.set_variable("NewVar", Value(std::string("z")));
  EXPECT_EQ(ev(p, "NewVar + 1").to_string_value(), "z1");
  EXPECT_THROW(p.set_variable("pi", Value(3.0)), std::invalid_argument);
}

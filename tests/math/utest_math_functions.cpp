// Built-in functions (input manual tables 2.4, 2.5) against <cmath>, predefined constants
// (table 2.2) and the speed path of a compiled string-drive expression.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <sstream>

#include "parser/errors.hpp"
#include "parser/math/math_parser.hpp"

using mbl::math::MathParser;
using mbl::math::Type;
using mbl::math::Value;

namespace {
Value ev(MathParser& p, const std::string& text) { return p.evaluate(text, {}); }
double R(MathParser& p, const std::string& text) {
  Value v = ev(p, text);
  EXPECT_EQ(v.type(), Type::Real) << text;
  return v.to_real();
}
}  // namespace

TEST(MathFunctions, RealFunctionsMatchCmath) {
  MathParser p;
  struct Case {
    const char* name;
    double (*f)(double);
    double x;
  };
  const Case cases[] = {
      {"sin", [](double x) { return std::sin(x); }, 0.7},
      {"cos", [](double x) { return std::cos(x); }, 0.7},
      {"tan", [](double x) { return std::tan(x); }, 0.7},
      {"asin", [](double x) { return std::asin(x); }, 0.3},
      {"acos", [](double x) { return std::acos(x); }, 0.3},
      {"atan", [](double x) { return std::atan(x); }, 2.5},
      {"sinh", [](double x) { return std::sinh(x); }, 0.7},
      {"cosh", [](double x) { return std::cosh(x); }, 0.7},
      {"tanh", [](double x) { return std::tanh(x); }, 0.7},
      {"asinh", [](double x) { return std::asinh(x); }, 0.7},
      {"acosh", [](double x) { return std::acosh(x); }, 1.7},
      {"atanh", [](double x) { return std::atanh(x); }, 0.7},
      {"exp", [](double x) { return std::exp(x); }, 1.3},
      {"log", [](double x) { return std::log(x); }, 1.3},
      {"log10", [](double x) { return std::log10(x); }, 130.0},
      {"sqrt", [](double x) { return std::sqrt(x); }, 2.0},
      {"abs", [](double x) { return std::fabs(x); }, -2.25},
      {"ctan", [](double x) { return 1.0 / std::tan(x); }, 0.7},
      {"ctanh", [](double x) { return 1.0 / std::tanh(x); }, 0.7},
      {"actan", [](double x) { return std::atan2(1.0, x); }, 0.4},
      {"actanh", [](double x) { return std::atanh(1.0 / x); }, 2.5},
      {"sign", [](double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }, -0.3},
      {"step", [](double x) { return x > 0 ? 1.0 : (x < 0 ? 0.0 : 0.5); }, 0.0},
      {"ramp", [](double x) { return x > 0 ? x : 0.0; }, 1.5},
      {"par", [](double x) { return x > 0 ? x * x : 0.0; }, 1.5},
  };
  for (const auto& c : cases) {
    std::ostringstream text;
    text.precision(17);
    text << c.name << "(" << std::showpoint << c.x << ")";
    EXPECT_DOUBLE_EQ(R(p, text.str()), c.f(c.x)) << text.str();
  }
  // integer arguments promote to real
  EXPECT_DOUBLE_EQ(R(p, "sqrt(2)"), std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(R(p, "abs(-3)"), 3.0);
  EXPECT_DOUBLE_EQ(R(p, "step(-1.)"), 0.0);
  EXPECT_DOUBLE_EQ(R(p, "step(1.)"), 1.0);
  EXPECT_DOUBLE_EQ(R(p, "ramp(-1.)"), 0.0);
  EXPECT_DOUBLE_EQ(R(p, "par(-2.)"), 0.0);
  EXPECT_DOUBLE_EQ(R(p, "sign(0.)"), 0.0);
  EXPECT_DOUBLE_EQ(R(p, "sign(4)"), 1.0);
}

TEST(MathFunctions, TwoAndThreeArgumentFunctions) {
  MathParser p;
  EXPECT_DOUBLE_EQ(R(p, "atan2(1., -2.)"), std::atan2(1.0, -2.0));
  EXPECT_DOUBLE_EQ(R(p, "actan2(1., -2.)"), std::atan2(-2.0, 1.0));
  EXPECT_DOUBLE_EQ(R(p, "copysign(3., -0.5)"), -3.0);
  EXPECT_DOUBLE_EQ(R(p, "max(1, 2.5)"), 2.5);
  EXPECT_DOUBLE_EQ(R(p, "min(1, 2.5)"), 1.0);
  EXPECT_EQ(ev(p, "max(1, 2)").type(), Type::Real);  // table 2.4: real
  EXPECT_DOUBLE_EQ(R(p, "sramp(-1., 2.)"), 0.0);
  EXPECT_DOUBLE_EQ(R(p, "sramp(1.5, 2.)"), 1.5);
  EXPECT_DOUBLE_EQ(R(p, "sramp(3., 2.)"), 2.0);
  // in_xy(l, x, u): e = bound included, l = excluded
  EXPECT_TRUE(ev(p, "in_ee(0, 0, 1)").to_bool());
  EXPECT_TRUE(ev(p, "in_ee(0, 1, 1)").to_bool());
  EXPECT_FALSE(ev(p, "in_ll(0, 0, 1)").to_bool());
  EXPECT_FALSE(ev(p, "in_ll(0, 1, 1)").to_bool());
  EXPECT_TRUE(ev(p, "in_ll(0, .5, 1)").to_bool());
  EXPECT_FALSE(ev(p, "in_le(0, 0, 1)").to_bool());
  EXPECT_TRUE(ev(p, "in_le(0, 1, 1)").to_bool());
  EXPECT_TRUE(ev(p, "in_el(0, 0, 1)").to_bool());
  EXPECT_FALSE(ev(p, "in_el(0, 1, 1)").to_bool());
  EXPECT_EQ(ev(p, "in_el(0, 0, 1)").type(), Type::Bool);
}

TEST(MathFunctions, RoundingGivesIntegers) {
  MathParser p;
  EXPECT_EQ(ev(p, "floor(2.7)").type(), Type::Integer);
  EXPECT_EQ(ev(p, "floor(2.7)").to_integer(), 2);
  EXPECT_EQ(ev(p, "floor(-2.2)").to_integer(), -3);
  EXPECT_EQ(ev(p, "ceil(2.2)").to_integer(), 3);
  EXPECT_EQ(ev(p, "ceil(-2.7)").to_integer(), -2);
  EXPECT_EQ(ev(p, "round(2.4)").to_integer(), 2);
  EXPECT_EQ(ev(p, "round(2.6)").to_integer(), 3);
  EXPECT_EQ(ev(p, "round(-2.6)").to_integer(), -3);
  EXPECT_EQ(ev(p, "floor(7.9)/2").to_integer(), 3);  // integer division afterwards
  EXPECT_THROW(ev(p, "floor(1e20)"), mbl::parser::InputError);
}

TEST(MathFunctions, CastsAndEvalVariants) {
  MathParser p;
  EXPECT_EQ(ev(p, "integer(2.9)").to_integer(), 2);
  EXPECT_EQ(ev(p, "integer(-2.9)").to_integer(), -2);
  EXPECT_EQ(ev(p, "real(3)").type(), Type::Real);
  EXPECT_EQ(ev(p, "bool(0.5)").type(), Type::Bool);
  EXPECT_TRUE(ev(p, "bool(0.5)").to_bool());
  EXPECT_FALSE(ev(p, "bool(0)").to_bool());
  EXPECT_EQ(ev(p, "string(7)").to_string_value(), "7");
  EXPECT_EQ(ev(p, "string(1.5)").to_string_value(), "1.500000e+00");
  EXPECT_EQ(ev(p, "string(TRUE)").to_string_value(), "1");
  EXPECT_THROW(ev(p, "real(\"1.5\")"), mbl::parser::InputError);

  // <type>_eval: evaluated once, when the text is compiled (manual §2.2, test deck parser/eval)
  p.execute_set("real VAL = 5.5", {});
  auto late = p.compile("VAL", {});
  auto early = p.compile("real_eval(VAL)", {});
  auto early_int = p.compile("integer_eval(VAL)", {});
  p.execute_set("VAL = VAL + 2", {});
  EXPECT_DOUBLE_EQ(late->eval(p).to_real(), 7.5);
  EXPECT_DOUBLE_EQ(early->eval(p).to_real(), 5.5);
  EXPECT_EQ(early_int->eval(p).to_integer(), 5);
  EXPECT_EQ(ev(p, "\"creating real variable VAL = \" + VAL").to_string_value(),
            "creating real variable VAL = 7.500000e+00");
  EXPECT_EQ(ev(p, "\"as integer: \" + integer_eval(VAL)").to_string_value(), "as integer: 7");
  EXPECT_EQ(ev(p, "\"as bool: \" + bool_eval(VAL)").to_string_value(), "as bool: 1");
  EXPECT_EQ(ev(p, "\"as string: \" + string_eval(VAL)").to_string_value(),
            "as string: 7.500000e+00");
}

TEST(MathFunctions, StringsSprintfAndPrint) {
  MathParser p;
  EXPECT_EQ(ev(p, "sprintf(\"%04d\", 9)").to_string_value(), "0009");
  EXPECT_EQ(ev(p, "sprintf(\"0x%x\", 255)").to_string_value(), "0xff");
  EXPECT_EQ(ev(p, "sprintf(\"N%04d\", 9) + \" = \" + sprintf(\"%e\", 0.1)").to_string_value(),
            "N0009 = 1.000000e-01");
  EXPECT_EQ(ev(p, "sprintf(\"%.3f%%\", 2)").to_string_value(), "2.000%");
  EXPECT_EQ(ev(p, "sprintf(\"<%s>\", \"ab\")").to_string_value(), "<ab>");
  EXPECT_EQ(ev(p, "sprintf(\"no conversion\", 1)").to_string_value(), "no conversion");
  EXPECT_THROW(ev(p, "sprintf(\"%d %d\", 1)"), mbl::parser::InputError);
  EXPECT_THROW(ev(p, "sprintf(\"%n\", 1)"), mbl::parser::InputError);
  EXPECT_THROW(ev(p, "sprintf(\"%s\")"), mbl::parser::InputError);
  EXPECT_EQ(ev(p, "\"a\" + 1 + TRUE").to_string_value(), "a11");
  EXPECT_EQ(ev(p, "\"x\\\"y\\\\z\"").to_string_value(), "x\"y\\z");
  EXPECT_EQ(ev(p, "\"\\41\\42\"").to_string_value(), "AB");  // \<hexpair>
  EXPECT_TRUE(ev(p, "!\"\"").to_bool());

  std::ostringstream out;
  p.set_print_stream(out);
  EXPECT_EQ(ev(p, "print(2.5) + print(3) + print(\"s\")").to_integer(), 0);
  EXPECT_EQ(out.str(), "2.5\n3\ns\n");
}

TEST(MathFunctions, RandomSeedAndStop) {
  MathParser p;
  ev(p, "seed(42)");
  const auto a = ev(p, "rand()").to_integer();
  const double r = ev(p, "random()").to_real();
  ev(p, "seed(42)");
  EXPECT_EQ(ev(p, "rand()").to_integer(), a);
  EXPECT_DOUBLE_EQ(ev(p, "random()").to_real(), r);
  EXPECT_GE(a, 0);
  EXPECT_LE(a, ev(p, "RAND_MAX").to_integer());
  EXPECT_GE(r, -1.0);
  EXPECT_LE(r, 1.0);
  EXPECT_EQ(ev(p, "rand()").type(), Type::Integer);

  auto drive = p.compile("(Time>0)*(1.)+stop(Time>2.,0)", {});
  p.set_variable("Time", Value(1.0));
  EXPECT_DOUBLE_EQ(drive->eval(p).to_real(), 1.0);
  p.set_variable("Time", Value(2.5));
  try {
    drive->eval(p);
    FAIL() << "stop() did not stop";
  } catch (const mbl::math::StopRequest& s) {
    EXPECT_EQ(s.exit_code, 0);
  }
  EXPECT_THROW(ev(p, "stop(TRUE, 3)"), mbl::math::StopRequest);
}

TEST(MathFunctions, PredefinedConstants) {
  MathParser p;
  EXPECT_DOUBLE_EQ(ev(p, "pi").to_real(), M_PI);
  EXPECT_DOUBLE_EQ(ev(p, "e").to_real(), M_E);
  EXPECT_EQ(ev(p, "INT_MAX").to_integer(), 2147483647);
  EXPECT_EQ(ev(p, "INT_MIN").to_integer(), -2147483647 - 1);
  EXPECT_EQ(ev(p, "RAND_MAX").to_integer(), 2147483647);
  EXPECT_DOUBLE_EQ(ev(p, "REAL_MAX").to_real(), DBL_MAX);
  EXPECT_DOUBLE_EQ(ev(p, "REAL_MIN").to_real(), DBL_MIN);
  EXPECT_EQ(ev(p, "TRUE").type(), Type::Bool);
  EXPECT_FALSE(ev(p, "FALSE").to_bool());
  EXPECT_DOUBLE_EQ(ev(p, "in2m").to_real(), 0.0254);
  EXPECT_DOUBLE_EQ(ev(p, "m2in").to_real(), 1 / 0.0254);
  EXPECT_DOUBLE_EQ(ev(p, "in2mm").to_real(), 25.4);
  EXPECT_DOUBLE_EQ(ev(p, "mm2in").to_real(), 1 / 25.4);
  EXPECT_DOUBLE_EQ(ev(p, "ft2m").to_real(), 0.3048);
  EXPECT_DOUBLE_EQ(ev(p, "m2ft").to_real(), 1 / 0.3048);
  EXPECT_DOUBLE_EQ(ev(p, "lb2kg").to_real(), 0.45359237);
  EXPECT_DOUBLE_EQ(ev(p, "kg2lb").to_real(), 1 / 0.45359237);
  EXPECT_DOUBLE_EQ(ev(p, "deg2rad").to_real(), M_PI / 180);
  EXPECT_DOUBLE_EQ(ev(p, "rad2deg").to_real(), 180 / M_PI);
  EXPECT_DOUBLE_EQ(ev(p, "slug2kg").to_real(), 14.5939);
  EXPECT_DOUBLE_EQ(ev(p, "kg2slug").to_real(), 1 / 14.5939);
  EXPECT_EQ(ev(p, "Step").type(), Type::Integer);
  EXPECT_EQ(ev(p, "Time").type(), Type::Real);
  EXPECT_EQ(ev(p, "TimeStep").type(), Type::Real);
  EXPECT_EQ(ev(p, "Var").type(), Type::Real);
  EXPECT_THROW(ev(p, "pi = 3"), mbl::parser::InputError);
}

TEST(MathFunctions, CompiledDriveEvaluatesWithChangingTime) {
  // A string drive compiled once and evaluated at every step (1e5 steps).
  MathParser p;
  p.execute_set("const real A = 2.", {});
  p.execute_set("real B = 0.5", {});
  p.execute_set("real f = 3.", {});
  auto drive = p.compile("A*sin(2*pi*f*Time)+B", {});
  double max_err = 0.0;
  for (int i = 0; i < 100000; ++i) {
    const double t = i * 1e-4;
    p.set_variable("Time", Value(t));
    const double v = drive->eval(p).to_real();
    max_err = std::max(max_err, std::fabs(v - (2.0 * std::sin(2 * M_PI * 3.0 * t) + 0.5)));
  }
  EXPECT_LT(max_err, 1e-12);
  // Changing a variable the drive uses is seen at the next evaluation.
  p.execute_set("B = 1.5", {});
  p.set_variable("Time", Value(0.0));
  EXPECT_DOUBLE_EQ(drive->eval(p).to_real(), 1.5);
}

TEST(MathFunctions, SprintfRejectsHugeFields) {
  MathParser p;
  EXPECT_THROW(ev(p, "sprintf(\"%999999999d\", 1)"), mbl::parser::InputError);
  EXPECT_EQ(ev(p, "sprintf(\"%8.3e\", 1)").to_string_value(), "1.000e+00");
}

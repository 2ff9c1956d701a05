// Types, promotion, integer arithmetic and literals of the math language (manual §2.1-2.2).
#include <gtest/gtest.h>

#include <cmath>
#include <span>

#include "parser/errors.hpp"
#include "parser/math/math_parser.hpp"

using mbl::math::MathParser;
using mbl::math::Type;
using mbl::math::Value;

namespace {
Value ev(MathParser& p, std::string_view text) { return p.evaluate(text, {}); }
}  // namespace

TEST(MathBasic, IntegerArithmeticStaysInteger) {
  MathParser p;
  EXPECT_EQ(ev(p, "1/2").type(), Type::Integer);
  EXPECT_EQ(ev(p, "1/2").to_integer(), 0);
  EXPECT_EQ(ev(p, "7%2").to_integer(), 1);
  EXPECT_EQ(ev(p, "-7/2").to_integer(), -3);
  EXPECT_DOUBLE_EQ(ev(p, "1+2.5").to_real(), 3.5);
  EXPECT_EQ(ev(p, "1+2.5").type(), Type::Real);
}

TEST(MathBasic, PromotionAndTypes) {
  MathParser p;
  EXPECT_EQ(ev(p, "TRUE + TRUE").type(), Type::Integer);  // bool promotes to integer
  EXPECT_EQ(ev(p, "TRUE + TRUE").to_integer(), 2);
  EXPECT_EQ(ev(p, "TRUE * 2.5").type(), Type::Real);
  EXPECT_EQ(ev(p, "2 * 3").type(), Type::Integer);
  EXPECT_EQ(ev(p, "2 * 3.").type(), Type::Real);
  // MBDyn 2024: integer ^ integer is a real (so 9^2/10^2 is 0.81, not 81/100 == 0)
  EXPECT_EQ(ev(p, "2 ^ 10").to_real(), 1024.0);
  EXPECT_EQ(ev(p, "2 ^ 10").type(), Type::Real);
  EXPECT_DOUBLE_EQ(ev(p, "9^2/10^2").to_real(), 0.81);
  EXPECT_EQ(ev(p, "(-1) ^ -3").to_real(), -1.0);
  EXPECT_EQ(ev(p, "0 ^ 0").to_real(), 1.0);
  EXPECT_EQ(ev(p, "(1 > 0) ^ (1 > 0)").type(), Type::Real);  // bool ^ bool too
  EXPECT_THROW(ev(p, "2 ^ -1"), mbl::parser::InputError);  // not an integer: MBDyn refuses it
  EXPECT_EQ(ev(p, "2 ^ (1 > 0)").to_real(), 2.0);  // integer ^ bool: plain pow()
  EXPECT_DOUBLE_EQ(ev(p, "2 ^ .5").to_real(), std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(ev(p, "(-2.) ^ 3").to_real(), -8.0);
  EXPECT_EQ(ev(p, "1 < 2").type(), Type::Bool);
  EXPECT_TRUE(ev(p, "1 == 1.").to_bool());
  EXPECT_TRUE(ev(p, "0.1 + 0.2 != 0.3").to_bool());
  EXPECT_EQ(ev(p, "3 && 0.5").type(), Type::Bool);
  EXPECT_TRUE(ev(p, "3 && 0.5").to_bool());
  EXPECT_EQ(ev(p, "-7 % 3").to_integer(), -1);  // C remainder
  EXPECT_EQ(ev(p, "-TRUE").type(), Type::Integer);
  EXPECT_EQ(ev(p, "7 / 2 * 2.").to_real(), 6.0);  // (7/2)*2. with 7/2 == 3
  EXPECT_DOUBLE_EQ(ev(p, "7. / 2 * 2").to_real(), 7.0);
}

TEST(MathBasic, NumberLiterals) {
  MathParser p;
  EXPECT_EQ(ev(p, "1234").type(), Type::Integer);
  EXPECT_EQ(ev(p, "-12").to_integer(), -12);
  EXPECT_EQ(ev(p, "1.").type(), Type::Real);
  EXPECT_DOUBLE_EQ(ev(p, "1.234").to_real(), 1.234);
  EXPECT_DOUBLE_EQ(ev(p, ".5").to_real(), 0.5);
  EXPECT_DOUBLE_EQ(ev(p, "1.e-3").to_real(), 1e-3);
  EXPECT_DOUBLE_EQ(ev(p, "1e3").to_real(), 1000.0);
  EXPECT_EQ(ev(p, "1e3").type(), Type::Real);  // an exponent makes a real
  EXPECT_DOUBLE_EQ(ev(p, "1.E+3").to_real(), 1000.0);
  EXPECT_DOUBLE_EQ(ev(p, "6.825E7").to_real(), 6.825e7);
  EXPECT_DOUBLE_EQ(ev(p, "1.d-2").to_real(), 1e-2);  // Fortran exponent letters as MBDyn
  EXPECT_DOUBLE_EQ(ev(p, "1000000000000000.").to_real(), 1e15);
  EXPECT_DOUBLE_EQ(ev(p, "1e15").to_real(), 1e15);
  EXPECT_EQ(ev(p, "2147483647").to_integer(), 2147483647);
  // beyond INT_MAX an integer literal is an error (MBDyn would silently wrap)
  EXPECT_THROW(ev(p, "2147483648"), mbl::parser::InputError);
  EXPECT_THROW(ev(p, "99999999999999999999999"), mbl::parser::InputError);
  EXPECT_THROW(ev(p, "1e400"), mbl::parser::InputError);
  EXPECT_EQ(ev(p, "1e-400").to_real(), 0.0);  // underflow reads as 0
  EXPECT_EQ(ev(p, "  \n\t 42 \n ").to_integer(), 42);
}

TEST(MathBasic, StringsConcatenate) {
  MathParser p;
  EXPECT_EQ(ev(p, "\"a\" + \"b\"").to_string_value(), "ab");
  EXPECT_EQ(ev(p, "\"n=\" + 3").to_string_value(), "n=3");
  EXPECT_EQ(ev(p, "\"x=\" + 0.1").to_string_value(), "x=1.000000e-01");  // %e as MBDyn
  EXPECT_EQ(ev(p, "\"b=\" + (1 > 0)").to_string_value(), "b=1");
  EXPECT_THROW(ev(p, "1 + \"a\""), mbl::parser::InputError);
  EXPECT_THROW(ev(p, "\"a\" - \"b\""), mbl::parser::InputError);
  EXPECT_EQ(ev(p, "\"multi\\\nline\"").to_string_value(), "multiline");  // escaped newline
}

TEST(MathBasic, ExpressionFormsOfTheDecks) {
  // String drives and numeric fields found in the decks under shared/decks.
  MathParser p;
  for (const char* s : {"real a = 10e-3", "real b = 30e-3", "real dvx = a", "real dvy = b",
                        "real vx = 0", "real vy = 0.", "real vz = 0.", "real omegay = 2 * pi",
                        "real p0 = 0", "real p1 = 15e6", "const real T1 = 2.",
                        "const real T2 = 2./3.", "const real OMEGA1 = pi/T1",
                        "const real OMEGA2 = pi/T2", "real T3 = 3.", "real x = 1.", "real y = 2.",
                        "real f = .5", "real D = .5*1.225*1.*1.", "const integer NODE_LABEL = 1",
                        "real VAL = 5.5", "VAL = VAL + 2", "integer CURR_SIDE",
                        "integer FRONT = 0", "CURR_SIDE = FRONT", "real nu = 0.3",
                        "real E = 6.825E7", "real h = 0.001", "real C = E*h/(1. - nu^2)",
                        "real THETA_0 = 15*deg2rad", "real L_A = 38.0", "real L_L =  7.8",
                        "real L_AL = sqrt(L_A^2 + L_L^2)"})
    p.execute_set(s, {});
  p.register_function("model", "velocity", [](std::span<const Value>) { return Value(2.0); });
  p.register_function("model", "xvelocity", [](std::span<const Value>) { return Value(3.0); });
  p.register_function("model", "drive", [](std::span<const Value> a) { return Value(a[0].to_real()); });
  p.register_function("model", "current", [](std::span<const Value>) { return Value(0.25); });
  p.set_variable("Time", Value(0.3));
  p.set_variable("Var", Value(1.0));
  const double t = 0.3;
  struct F {
    const char* text;
    double value;
  };
  const F forms[] = {
      {"-0.5 * (a + dvx * Time) * sin(omegay * Time) + vz * Time",
       -0.5 * (10e-3 + 10e-3 * t) * std::sin(2 * M_PI * t)},
      {"0.5 * b + (vy + 0.5 * dvy) * Time", 0.5 * 30e-3 + (0.5 * 30e-3) * t},
      {"(Time > .1995) && (Time < .2005)", 0.0},
      {"(Time > .2) && (Time < .4)", 1.0},
      {"(Time-T2)*(Time-T3) <= 0", 0.0},
      {"(Time>0)*(1e-0*(x-y)-.5e0*f)", -1.0 - 0.25},
      {"(Var < T1)*(1 - cos(OMEGA1*Var)) + (Var >= T1)*(1 + cos(OMEGA2*(Var - T1)))",
       1 - std::cos(M_PI / 2)},
      {"-D*model::xvelocity(NODE_LABEL)*model::velocity(NODE_LABEL)", -.5 * 1.225 * 6.0},
      {"model::drive(1) + model::drive(2)", 3.0},
      {"real_eval(model::drive(1) + model::drive(2))", 3.0},
      {"p0 + Time * p1", 15e6 * t},
      {"(A_G_X = 0.04; (A_G_X - model::current(\"L\"))/2)", (0.04 - 0.25) / 2},
      {"VAL", 7.5},
      {"cos(pi/3.)", 0.5},
      {"100.*sin(pi/3.)", 100 * std::sin(M_PI / 3)},
  };
  p.execute_set("real A_G_X = 0", {});
  for (const auto& f : forms) {
    SCOPED_TRACE(f.text);
    EXPECT_NEAR(p.evaluate(f.text, {}).to_real(), f.value, 1e-12);
  }
  EXPECT_EQ(p.find_variable("CURR_SIDE")->to_integer(), 0);
  EXPECT_NEAR(p.find_variable("L_AL")->to_real(), std::sqrt(38.0 * 38.0 + 7.8 * 7.8), 1e-12);
}

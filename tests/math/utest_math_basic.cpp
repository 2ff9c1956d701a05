// Types, promotion, integer arithmetic and literals of the math language (manual §2.1-2.2).
#include <gtest/gtest.h>

#include <cmath>

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

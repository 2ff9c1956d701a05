// Precedence and associativity of every pair of binary operators (input manual table 2.3, as
// MBDyn's parser groups them: ^ > * / % > + - > relational > logical), unary operators.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parser/errors.hpp"
#include "parser/math/math_parser.hpp"

using mbl::math::MathParser;
using mbl::math::Type;
using mbl::math::Value;

namespace {

struct Op {
  const char* text;
  int level;  // higher binds tighter
  bool right_assoc;
};

const std::vector<Op> kOps = {
    {"^", 5, true},   {"*", 4, false},  {"/", 4, false},  {"%", 4, false},  {"+", 3, false},
    {"-", 3, false},  {">", 2, false},  {">=", 2, false}, {"==", 2, false}, {"<=", 2, false},
    {"<", 2, false},  {"!=", 2, false}, {"&&", 1, false}, {"||", 1, false}, {"~|", 1, false},
};

/// Result of `text` as "type:value", or "error" when it does not evaluate.
std::string run(MathParser& p, const std::string& text) {
  try {
    Value v = p.evaluate(text, {});
    return std::to_string(static_cast<int>(v.type())) + ":" + v.str();
  } catch (const mbl::parser::InputError&) {
    return "error";
  }
}

}  // namespace

TEST(MathPrecedence, EveryOperatorPairGroupsAsTheTable) {
  MathParser p;
  const std::vector<int> values = {0, 1, 2, 3, 5, 7};
  int checked = 0;
  std::vector<std::string> indistinguishable;
  for (const Op& a : kOps) {
    for (const Op& b : kOps) {
      // `x a y b z` groups left when a binds tighter, or same level and left-associative.
      const bool left = a.level > b.level || (a.level == b.level && !a.right_assoc);
      bool found = false;
      for (int x : values) {
        for (int y : values) {
          for (int z : values) {
            const std::string xs = std::to_string(x), ys = std::to_string(y), zs = std::to_string(z);
            const std::string flat = xs + " " + a.text + " " + ys + " " + b.text + " " + zs;
            const std::string lg = "(" + xs + " " + a.text + " " + ys + ") " + b.text + " " + zs;
            const std::string rg = xs + " " + a.text + " (" + ys + " " + b.text + " " + zs + ")";
            const std::string l = run(p, lg), r = run(p, rg);
            if (l == "error" || r == "error" || l == r) continue;
            EXPECT_EQ(run(p, flat), left ? l : r) << flat;
            found = true;
            ++checked;
            break;
          }
          if (found) break;
        }
        if (found) break;
      }
      if (!found) indistinguishable.push_back(std::string(a.text) + " " + b.text);
    }
  }
  // Only pairs where both groupings always agree (or one always fails) may be missing
  // (e.g. + then + is associative).
  EXPECT_GT(checked, 180);
  for (const auto& pair : indistinguishable)
    EXPECT_TRUE(pair == "* *" || pair == "+ +" || pair == "&& &&" || pair == "|| ||" ||
                pair == "~| ~|" || pair == "* /" || pair == "+ -" || pair == "&& ||" ||
                pair == "|| &&" || pair == "~| &&" || pair == "&& ~|" || pair == "|| ~|" ||
                pair == "~| ||" || pair == "* %" || pair == "== ==" || pair == "!= !=" ||
                pair == "!= ==" || pair == "== !=" ||
                // integer ^ integer is real (MBDyn 2024) and % refuses reals
                pair == "^ %" || pair == "% ^")
        << "no operands distinguish the groupings of " << pair;
}

TEST(MathPrecedence, HandComputedGroupings) {
  MathParser p;
  auto I = [&](const char* t) { return p.evaluate(t, {}).to_integer(); };
  auto R = [&](const char* t) { return p.evaluate(t, {}).to_real(); };
  auto B = [&](const char* t) { return p.evaluate(t, {}).to_bool(); };
  EXPECT_EQ(I("2^3^2"), 512);      // right associative: 2^(3^2)
  EXPECT_EQ(I("-2^2"), 4);         // manual: -2^2 == (-2)^2
  EXPECT_EQ(I("2*3^2"), 18);
  EXPECT_EQ(I("2+3*4"), 14);
  EXPECT_EQ(I("10-4-3"), 3);       // left associative
  EXPECT_EQ(I("100/10/5"), 2);
  EXPECT_EQ(I("17%5*2"), 4);       // (17%5)*2
  EXPECT_EQ(I("2*17%5"), 4);       // (2*17)%5
  EXPECT_TRUE(B("1+1 == 2"));
  EXPECT_TRUE(B("3 > 2 == 1"));    // (3>2)==1: one relational level, left to right
  EXPECT_FALSE(B("3 > 2 > 1"));    // (3>2)>1 is 1>1
  EXPECT_TRUE(B("1 < 2 && 2 < 3"));
  EXPECT_TRUE(B("1 || 0 && 0") == false);  // one logical level, left to right: (1||0)&&0
  EXPECT_TRUE(B("0 && 0 || 1"));
  EXPECT_FALSE(B("1 ~| 1"));
  EXPECT_TRUE(B("1 ~| 0"));
  EXPECT_EQ(I("!0 + 1"), 2);       // unary ! binds to its operand; bool + int is integer
  EXPECT_EQ(I("- -3"), 3);
  EXPECT_EQ(I("-3*-2"), 6);
  EXPECT_DOUBLE_EQ(R("2.^-1"), 0.5);
  EXPECT_DOUBLE_EQ(R("-2.^2"), 4.0);
  EXPECT_DOUBLE_EQ(R("+2.5"), 2.5);
  EXPECT_EQ(p.evaluate("!2", {}).type(), Type::Bool);
  EXPECT_DOUBLE_EQ(R("(Time > 0)*(1e-0*(2.-1.)-.5e0*1.)"), 0.0);
  p.set_variable("Time", Value(1.0));
  EXPECT_DOUBLE_EQ(R("(Time > 0)*(1e-0*(2.-1.)-.5e0*1.)"), 0.5);
}

// String drive expressions (input manual §2.6.35) as MBDyn builds them: of a top-level statement
// list only the last statement is evaluated at each call, the earlier ones run once when read
// (observed in MBDyn's output of tests/joints/rod/rodprestrain).
#include <gtest/gtest.h>

#include "parser/math/math_parser.hpp"

using mbl::math::MathParser;
using mbl::math::Value;

TEST(MathDriveString, TopLevelStatementsBeforeTheLastRunOnceAtReadTime) {
  MathParser p;
  p.execute_set("real F", {});
  p.set_variable("Time", Value(2.0));
  auto drive = p.compile_drive_string("F = 10.*Time; F + Time", {});
  // The assignment ran while reading: F = 20.
  EXPECT_DOUBLE_EQ(p.find_variable("F")->to_real(), 20.0);
  p.set_variable("Time", Value(3.0));
  // Only `F + Time` is evaluated: F keeps its read-time value.
  EXPECT_DOUBLE_EQ(drive->eval(p).to_real(), 23.0);
  EXPECT_DOUBLE_EQ(p.find_variable("F")->to_real(), 20.0);
  // A single statement, or a parenthesised list, is evaluated whole at every call.
  auto whole = p.compile_drive_string("(F = 2.*Time; F + 1.)", {});
  EXPECT_DOUBLE_EQ(whole->eval(p).to_real(), 7.0);
  p.set_variable("Time", Value(4.0));
  EXPECT_DOUBLE_EQ(whole->eval(p).to_real(), 9.0);
  EXPECT_DOUBLE_EQ(p.compile_drive_string("Time*2", {})->eval(p).to_real(), 8.0);
}

// Input-related cards handled inside DeckReader (input manual §2.4): set, remark, print symbol
// table, setenv -- none of them is returned to the model builder.
#include <cstdlib>

#include "tests/parser/parser_test_util.hpp"

namespace mbl::parser::test {
namespace {

TEST(InputCards, SetDeclaresAndAssignsAcrossCards) {
  MemoryDeck d(
      "set: integer N = 3;\n"
      "set: ifndef integer N = 11; # ignored, N exists\n"
      "set: const real X = -1.e-3;\n"
      "set: (real EA = 1e6; # N, axial stiffness\n"
      "      real GA = 2e6; 0);\n"
      "set: N = N + 1;\n"
      "values: N, X, EA + GA, (N > 3) + 1;\n");
  CardReader& c = d.card();
  EXPECT_EQ(c.description(), "values");
  EXPECT_EQ(c.integer(), 4);
  EXPECT_DOUBLE_EQ(c.real(), -1e-3);
  EXPECT_DOUBLE_EQ(c.real(), 3e6);
  EXPECT_EQ(c.integer(), 2);
  EXPECT_EQ(d.reader.next_card(), nullptr);
}

TEST(InputCards, SetErrorsPointIntoTheStatement) {
  auto e = error_of("set: const real z = 1.;\nset:  z = 2.;\n");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->where().line, 2);
  EXPECT_GE(e->where().column, 7);
}

TEST(InputCards, RemarkPrintsLineFileAndValues) {
  ::testing::internal::CaptureStderr();
  {
    MemoryDeck d("set: real EA = 1e6;\n\nremark: \"square root of 2\", sqrt(2.), EA;\nend;", "remarks");
    EXPECT_TRUE(d.card().card_is("end"));
  }
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("line 3, file <remarks>: square root of 2, 1.41421, 1e+06"), std::string::npos)
      << err;
}

TEST(InputCards, PrintSymbolTableBothSpellings) {
  ::testing::internal::CaptureStdout();
  {
    MemoryDeck d("set: real MY_VARIABLE = 2.5;\nprint symbol table;\nprint: symbol table;\nprint: dof stats;");
    CardReader& c = d.card();  // `print: dof stats` is a control-data card for the builder
    EXPECT_TRUE(c.card_is("print"));
    EXPECT_TRUE(c.keyword_is("dof stats"));
  }
  const std::string out = ::testing::internal::GetCapturedStdout();
  const auto first = out.find("MY_VARIABLE = 2.5");
  ASSERT_NE(first, std::string::npos) << out;
  EXPECT_NE(out.find("MY_VARIABLE = 2.5", first + 1), std::string::npos) << out;
}

TEST(InputCards, Setenv) {
  ::unsetenv("MBL_DECK_TEST_VAR");
  MemoryDeck d(
      "setenv: \"MBL_DECK_TEST_VAR=one\";\n"
      "setenv: \"MBL_DECK_TEST_VAR=two\";\n"  // no overwrite by default
      "a;\n"
      "setenv: overwrite, yes, \"MBL_DECK_TEST_VAR=three\";\n"
      "b;\n"
      "setenv: \"MBL_DECK_TEST_VAR\";\n"
      "c;\n");
  d.card();
  ASSERT_NE(std::getenv("MBL_DECK_TEST_VAR"), nullptr);
  EXPECT_STREQ(std::getenv("MBL_DECK_TEST_VAR"), "one");
  d.card();
  EXPECT_STREQ(std::getenv("MBL_DECK_TEST_VAR"), "three");
  d.card();
  EXPECT_EQ(std::getenv("MBL_DECK_TEST_VAR"), nullptr);
}

TEST(InputCards, ScalarsOfEveryKind) {
  MemoryDeck d(
      "s: \"txt\", \"a\" + \"b\", yes, no, 0, 2 > 1, 7, 7., 2.5, 1e3, (1 + 2) * 3, \"x\";\n");
  CardReader& c = d.card();
  EXPECT_EQ(c.string(), "txt");
  EXPECT_EQ(c.string(), "ab");
  EXPECT_TRUE(c.boolean());
  EXPECT_FALSE(c.boolean());
  EXPECT_FALSE(c.boolean());
  EXPECT_TRUE(c.boolean());
  EXPECT_EQ(c.label(), 7u);
  EXPECT_EQ(c.label(), 7u);  // an integral real is a valid label
  EXPECT_EQ(c.integer(), 2);  // truncated, as MBDyn does
  EXPECT_DOUBLE_EQ(c.value().to_real(), 1000.0);
  auto e = c.expression();
  EXPECT_DOUBLE_EQ(e->eval(d.math).to_real(), 9.0);
  EXPECT_EQ(c.value().to_string_value(), "x");
  c.expect_end();
}

}  // namespace
}  // namespace mbl::parser::test

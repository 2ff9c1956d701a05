// Bytes above 127 (UTF-8 or Latin-1 text) in a deck (issue #30). MBDyn reads them as any other
// byte: in comments and strings they are text; where a name, a keyword or a number is expected they
// are an input error at their place. Boost.Spirit's standard encoding asserts on them in its
// character classes (they reach it as negative chars), so the grammars use explicit character
// sets; the sanitized build keeps Boost's assertions on (parser/boost_assert_handler.cpp), where
// these tests abort without that change.
#include "tests/parser/parser_test_util.hpp"

namespace mbl::parser::test {
namespace {

TEST(HighBytes, InCommentsAndStringsAreText) {
  MemoryDeck d(
      "# commento: perch\xc3\xa9 \xe2\x82\xac \xff\n"
      "set: real L = 2.; # lunghezza \xc3\xa8 2 m\n"
      "set: real M = /* massa \xc3\xa8 */ 3.;\n"
      "values: \"perch\xc3\xa9\", L * M /* \xe9 */, 1.; # \xc3\xa9\n");
  CardReader& c = d.card();
  EXPECT_EQ(c.description(), "values");
  EXPECT_EQ(c.string(), "perch\xc3\xa9");
  EXPECT_DOUBLE_EQ(c.real(), 6.);
  EXPECT_DOUBLE_EQ(c.real(), 1.);
  EXPECT_EQ(d.reader.next_card(), nullptr);
}

TEST(HighBytes, WhereANumberOrANameIsExpectedAreAnErrorAtTheirPlace) {
  const auto read_reals = [](CardReader& c) {
    while (!c.at_end()) c.real();
  };
  EXPECT_INPUT_ERROR(error_of("values: 1., \xc3\xa9;\n", read_reals), "\xc3", 1, 13);
  EXPECT_INPUT_ERROR(error_of("values: 2. * \xe9;\n", read_reals), "\xe9", 1, 14);
  EXPECT_INPUT_ERROR(error_of("set: real x\xc3\xa9 = 1.;\n"), "expected", 1, 12);
  EXPECT_INPUT_ERROR(error_of("set: real y = \xc3\xa9;\n"), "\xc3", 1, 15);
}

TEST(HighBytes, InAKeywordPositionIsNoKeyword) {
  MemoryDeck d("kind: \xc3\xa9l\xc3\xa9ment, 1.;\n");
  CardReader& c = d.card();
  EXPECT_FALSE(c.keyword_is("element"));
  EXPECT_FALSE(c.keyword_is("\xc3\xa9l\xc3\xa9ment x"));
}

}  // namespace
}  // namespace mbl::parser::test

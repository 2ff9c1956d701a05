// Card-level lexing (input manual §1.2, §2.1): comments, strings, groups, multi-word keywords.
#include "tests/parser/parser_test_util.hpp"

namespace mbl::parser::test {
namespace {

TEST(DeckLexing, CardsWithAndWithoutArguments) {
  MemoryDeck d("begin: data;\n  problem: initial value;\nend: data;\ngravity;\n");
  CardReader& c1 = d.card();
  EXPECT_EQ(c1.description(), "begin");
  EXPECT_TRUE(c1.card_is("Begin"));
  EXPECT_TRUE(c1.keyword_is("data"));
  EXPECT_TRUE(c1.at_end());
  CardReader& c2 = d.card();
  EXPECT_EQ(c2.description(), "problem");
  EXPECT_EQ(c2.card_location().line, 2);
  EXPECT_EQ(c2.card_location().column, 3);
  EXPECT_EQ(c2.location().column, 12);
  EXPECT_EQ(c2.keyword(), "initialvalue");
  d.card().skip_rest();
  CardReader& c4 = d.card();
  EXPECT_EQ(c4.description(), "gravity");
  EXPECT_TRUE(c4.at_end());
  EXPECT_EQ(d.reader.next_card(), nullptr);
  EXPECT_EQ(d.reader.next_card(), nullptr);
}

TEST(DeckLexing, MultiWordKeywordsIgnoreCaseAndBlanks) {
  MemoryDeck d("Initial  Value: In Line, LINEAR visco elastic generic, inline;\nControlData;");
  CardReader& c = d.card();
  EXPECT_EQ(c.description(), "initialvalue");
  EXPECT_TRUE(c.card_is("initial value"));
  EXPECT_TRUE(c.card_is("INITIALVALUE"));
  EXPECT_FALSE(c.keyword_is("in"));  // an argument that is not exactly the keyword is left
  EXPECT_TRUE(c.peek_keyword_is("inline"));
  EXPECT_TRUE(c.keyword_is("in line"));
  EXPECT_TRUE(c.keyword_is("linear viscoelastic generic"));
  EXPECT_TRUE(c.keyword_is("in line"));
  EXPECT_TRUE(c.at_end());
  EXPECT_TRUE(d.card().card_is("control data"));
}

TEST(DeckLexing, CommentsAreBlanksAndKeepColumns) {
  MemoryDeck d(
      "# a comment: with; separators, \"quotes\n"
      "set: real A = 2.; /* block ; , comment */\n"
      "structural /* inline */ : 1, /* x */ A * 3., # trailing, comment\n"
      "  4.;\n");
  CardReader& c = d.card();
  EXPECT_EQ(c.description(), "structural");
  EXPECT_EQ(c.label(), 1u);
  EXPECT_EQ(c.location().line, 3);
  EXPECT_EQ(c.location().column, 38);
  EXPECT_EQ(c.peek_text(), "A * 3.");
  EXPECT_DOUBLE_EQ(c.real(), 6.0);
  EXPECT_EQ(c.location().line, 4);
  EXPECT_EQ(c.location().column, 3);
  EXPECT_DOUBLE_EQ(c.real(), 4.0);
  c.expect_end();
}

TEST(DeckLexing, CommentInsideArgumentIsBlanked) {
  MemoryDeck d("a: 1 + /* two */ 2, 3 # x\n + 4;");
  CardReader& c = d.card();
  EXPECT_EQ(c.peek_text(), "1 +           2");
  EXPECT_EQ(c.integer(), 3);
  EXPECT_EQ(c.integer(), 7);
}

TEST(DeckLexing, StringsMayHoldSeparatorsAndEscapes) {
  MemoryDeck d(
      "drive: \"a, b; # not a comment /* nor this */\", \"say \\\"hi\\\"\", \"x\\\ny\", \"\\41\";");
  CardReader& c = d.card();
  EXPECT_EQ(c.string(), "a, b; # not a comment /* nor this */");
  EXPECT_EQ(c.string(), "say \"hi\"");
  EXPECT_EQ(c.string(), "xy");
  EXPECT_EQ(c.string(), "A");
  c.expect_end();
}

TEST(DeckLexing, ParenthesesNestAndHoldSemicolons) {
  MemoryDeck d("set: (real a = 1.; real b = 2.; 0);\nx: (a + (b * 2)), [p, q; r], 3;");
  CardReader& c = d.card();
  EXPECT_EQ(c.description(), "x");
  EXPECT_DOUBLE_EQ(c.real(), 5.0);
  EXPECT_EQ(c.peek_text(), "[p, q; r]");
  c.skip_rest();
  EXPECT_EQ(d.reader.next_card(), nullptr);
  EXPECT_DOUBLE_EQ(d.math.find_variable("b")->to_real(), 2.0);
}

TEST(DeckLexing, EmptyArgumentsAndEmptyArgumentLists) {
  MemoryDeck d("v: ,, ;\nw: ;\n");
  CardReader& c = d.card();
  // §2.2: an empty field gives zero
  EXPECT_DOUBLE_EQ(c.real(), 0.0);
  EXPECT_DOUBLE_EQ(c.real(), 0.0);
  EXPECT_DOUBLE_EQ(c.real(), 0.0);
  EXPECT_TRUE(c.at_end());
  EXPECT_TRUE(d.card().at_end());
}

TEST(DeckLexing, NamespacedNamesKeepDoubleColons) {
  MemoryDeck d("a: model::xposition(1), default::sqrt(4.);");
  CardReader& c = d.card();
  EXPECT_EQ(c.peek_text(), "model::xposition(1)");
  c.skip_rest();
}

TEST(DeckLexing, EmptyAndCommentOnlyInputs) {
  EXPECT_TRUE(descriptions("").empty());
  EXPECT_TRUE(descriptions("  \n\t# only a comment").empty());
  EXPECT_TRUE(descriptions("/* x */ /* y\n */").empty());
  EXPECT_EQ(descriptions("a;b;c: 1;"), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(DeckLexing, CrLfLineEndings) {
  MemoryDeck d("a: 1,\r\n  2;\r\nb;\r\n");
  CardReader& c = d.card();
  EXPECT_EQ(c.integer(), 1);
  EXPECT_EQ(c.location().line, 2);
  EXPECT_EQ(c.location().column, 3);
  EXPECT_EQ(c.integer(), 2);
  EXPECT_TRUE(d.card().card_is("b"));
}

TEST(DeckLexing, UnreadArgumentsAreAnError) {
  MemoryDeck d("a: 1, 2;\nb;");
  CardReader& c = d.card();
  c.integer();
  try {
    d.reader.next_card();
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.message(), "expected ';', found \"2\"");
    EXPECT_EQ(e.where().column, 7);
  }
}

TEST(DeckLexing, NotImplementedIsRecordedAndSkips) {
  MemoryDeck d("joint: 1, fancy joint, 2, 3;\nb;");
  CardReader& c = d.card();
  c.label();
  c.not_implemented("joint type 'fancy joint'");
  ASSERT_EQ(d.ctx.count("not implemented"), 1u);
  EXPECT_EQ(d.ctx.diagnostics()[0].where.column, 11);
  EXPECT_TRUE(d.card().card_is("b"));
}

TEST(DeckLexing, DiagnosticShowsSourceLineAndCaret) {
  auto e = error_of("a: 1;\n  b: 1, 2);\n");
  ASSERT_TRUE(e);
  const std::string f = e->format();
  EXPECT_EQ(f, "test.mbd:2:10: error: expected ',' or ';', found ')'\n    b: 1, 2);\n           ^\n");
}

}  // namespace
}  // namespace mbl::parser::test

namespace mbl::parser::test {
namespace {

TEST(DeckLexing, HugeOneLineCardStaysFast) {
  // 200k arguments on one line: locations must not be recomputed from the line start each time.
  std::string text = "m: ";
  for (int i = 0; i < 200000; ++i) text += "1., ";
  text += "2.;\n";
  MemoryDeck d(text);
  CardReader& c = d.card();
  c.skip_rest();
  EXPECT_EQ(c.location().column, static_cast<int>(text.size()) - 1);
}

}  // namespace
}  // namespace mbl::parser::test

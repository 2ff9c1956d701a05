// Malformed decks: each gives an InputError with the expected message at the exact line:column.
#include <functional>

#include "tests/parser/parser_test_util.hpp"

namespace mbl::parser::test {
namespace {

using Read = std::function<void(CardReader&)>;

const Read skip = [](CardReader& c) { c.skip_rest(); };
const Read keywords = [](CardReader& c) {
  while (!c.at_end()) c.keyword();
};
const Read one_integer = [](CardReader& c) {
  if (!c.at_end()) c.integer();
};
const Read vec3 = [](CardReader& c) { c.vec3(); c.expect_end(); };
const Read vec3s = [](CardReader& c) {
  c.label();
  c.keyword();
  while (!c.at_end()) c.vec3();
};
const Read mat3 = [](CardReader& c) { c.mat3(); c.expect_end(); };
const Read mat6 = [](CardReader& c) { c.mat6(); c.expect_end(); };
const Read orientation = [](CardReader& c) { c.orientation_matrix(); c.expect_end(); };
const Read label = [](CardReader& c) { c.label(); };
const Read real = [](CardReader& c) { c.real(); };
const Read string = [](CardReader& c) { c.string(); };
const Read position_global = [](CardReader& c) { c.position(RigidFrame{}); };
const Read mat6x2 = [](CardReader& c) { c.mat6xn(2); };

struct Case {
  std::string text;
  Read read;
  std::string message;
  int line, column;
};

class Malformed : public ::testing::TestWithParam<Case> {};

TEST_P(Malformed, ReportsMessageAndLocation) {
  const Case& k = GetParam();
  EXPECT_INPUT_ERROR(error_of(k.text, k.read), k.message, k.line, k.column);
}

const std::string kNested = "a: " + std::string(300, '(') + ";";

INSTANTIATE_TEST_SUITE_P(
    Deck, Malformed,
    ::testing::Values(
        // ---- lexing ----
        Case{"a: 1, 2", skip, "expected ';' at the end of the card, found end of file", 1, 8},
        Case{"a: 1;\n  b: 2,\n  3  \n", skip, "expected ';' at the end of the card, found end of file", 3, 4},
        Case{"a;\n/* unterminated\n", skip, "unterminated comment: expected '*/'", 2, 1},
        Case{"a: 1 /* x ;", skip, "unterminated comment", 1, 6},
        Case{"a: 1;\n  b: \"abc;\n", skip, "unterminated string", 2, 6},
        Case{"a: (1, 2;", skip, "unbalanced '(': expected ')' before end of file", 1, 4},
        Case{"a: [1, (2);\n", skip, "unbalanced '['", 1, 4},
        Case{"a: (1, 2];", skip, "expected ')', found ']'", 1, 9},
        Case{"a: 1, 2);", skip, "expected ',' or ';', found ')'", 1, 8},
        Case{"@: 1;", skip, "expected a card name, found '@'", 1, 1},
        Case{"a;\n ;", skip, "expected a card name, found ';'", 2, 2},
        Case{"gravity\nbegin: elements;", skip, "expected ';' at the end of the card, found 'begin'", 1, 8},
        Case{"structural 1, dynamic;", skip, "expected ':' or ';' after the card name, found ','", 1, 13},
        Case{"a: x, y\nb: z;", keywords, "expected a keyword, found \"y b\" (is a ';' missing before line 2?)", 1, 7},
        Case{"s: 1, static, null, null, null\nend: nodes;", vec3s,
             "expected a real, found \"null end\" (is a ';' missing before line 2?)", 1, 27},
        Case{kNested, skip, "expected at most 200 nested parentheses", 1, 204},
        Case{std::string("a: 1;\n\0b;", 9), skip, "expected a card name, found byte 0x00", 2, 1},
        Case{"\xff\xfe;", skip, "expected a card name, found byte 0xFF", 1, 1},
        Case{"a: 1, 2;\nb;", one_integer, "expected ';', found \"2\"", 1, 7},
        // ---- scalars ----
        Case{"l: -1;", label, "expected a label (a non-negative integer), found \"-1\"", 1, 4},
        Case{"l: 1.5;", label, "expected a label (a non-negative integer), found \"1.5\"", 1, 4},
        Case{"l: ;", label, "expected a label (a non-negative integer), found ';'", 1, 4},
        Case{"r:  \"abc\";", real, "expected a real, found \"abc\"", 1, 5},
        Case{"s: 12;", string, "expected a string, found \"12\"", 1, 4},
        Case{"k: 12;", keywords, "expected a keyword, found \"12\"", 1, 4},
        // ---- structures ----
        Case{"v: 1,\n 2;", vec3, "expected a real, found ';'", 2, 3},
        Case{"v: 1, 2, 3, 4;", vec3, "expected ';', found \"4\"", 1, 13},
        Case{"v: 1, 2, 3, scale;", vec3, "expected a real, found ';'", 1, 18},
        Case{"m: sym, 1, 2;", mat3, "expected a real, found ';'", 1, 13},
        Case{"m: diag, 1, 2, 3, 4, 5;", mat6, "expected a real, found ';'", 1, 23},
        Case{"m: anba, 1, 2;", mat6x2, "expected a real, found ';'", 1, 14},
        Case{"o: null;", orientation, "a null matrix is not orthogonal", 1, 4},
        Case{"o: 4, 1, 0, 0, 2, 0, 1, 0;", orientation, "expected an orientation matrix (eye, matr", 1, 4},
        Case{"o: 1, 1, 0, 0, 1, 0, 1, 0;", orientation, "expected an axis index different from 1", 1, 16},
        Case{"o: 1, 1, 0, 0, 5, 0, 1, 0;", orientation, "expected an axis index (1, 2 or 3), found \"5\"", 1, 16},
        Case{"o: 1, 0, 0, 0, 2, 0, 1, 0;", orientation, "expected a non-null vector", 1, 7},
        Case{"o: 1, 1, 0, 0, 2, 2, 0, 0;", orientation, "expected a vector not parallel", 1, 19},
        Case{"o: matr, 1, 0, 0, 0, 1, 0, 0, 0;", orientation, "expected a real, found ';'", 1, 32},
        Case{"o: euler123, degrees, 1, 2;", orientation, "expected a real, found ';'", 1, 27},
        // ---- references and input-related cards ----
        Case{"p: reference, 7, 1, 2, 3;", position_global, "(reference 7 is not defined)", 1, 15},
        Case{"p: reference, other node, 1, 2, 3;", position_global, "this card has no other node", 1, 15},
        Case{"reference: 1, reference, node, null, eye, null, null;", skip, "this card has no node", 1, 26},
        Case{"reference: 1, null, eye, null, null;\nreference:  1, null, eye, null, null;", skip,
             "reference 1 is already defined at test.mbd:1:12", 2, 13},
        Case{"reference: 1, null, eye;", skip, "expected a real, found ';'", 1, 24},
        Case{"reference: 1, null, eye, null, null, 7;", skip, "expected ';', found \"7\"", 1, 38},
        Case{"include: 12;", skip, "expected a string, found \"12\"", 1, 10},
        Case{"include: \"nope.inc\";", skip, "cannot include \"nope.inc\": no such file", 1, 10},
        Case{"include: \"a\", \"b\";", skip, "expected ';', found \"b\"", 1, 15},
        Case{"set: ;", skip, "expected an expression after 'set:', found ';'", 1, 6},
        Case{"setenv: \"=x\";", skip, "expected \"NAME=value\" or \"NAME\", found \"=x\"", 1, 9}));

}  // namespace
}  // namespace mbl::parser::test

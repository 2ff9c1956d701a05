// The card-level grammar of a deck (input manual §1.2 and §2.1), in Boost.Spirit X3.
//
//   card        := description [ ':' arg { (',' | ':') arg } ] ';'
//   description := word { inline-blank word }          (words of [A-Za-z0-9_])
//   arg         := { blank | comment | string | '(' inner ')' | '[' inner ']' | '::' | other }
//   inner       := anything, with nested groups, strings and comments (',' ';' ':' included)
//   comment     := '#' ... end of line | '/*' ... '*/'
//   string      := '"' { '\' any | not '"' } '"'
//
// A ':' after the first one separates arguments like ',' does: `driven:` wraps a whole element card
// (`driven: 3, string, "Time > 1", joint: 3, ...;`, §8.16) and a few old cards use ':' between
// blocks of arguments (§1.2 note 2); `::` (namespaces, `model::xposition(1)`) stays in its argument.
// The top-level sequencing (description, ':', args, ';') is done by hand in lex_card so that every
// malformed card gets a precise "expected X, found Y" at the right offset.
#include "parser/deck/card_lexer.hpp"

#include <boost/spirit/home/x3.hpp>
#include <fmt/format.h>

#include <functional>
#include <utility>

namespace mbl::parser::deck {
namespace {

namespace x3 = boost::spirit::x3;
using It = const char*;

/// Nesting beyond this depth is rejected instead of recursing (fuzzed input, no real deck needs it).
constexpr std::size_t kMaxGroupDepth = 200;

struct LexState {
  std::vector<std::pair<It, It>> comments;  // may hold duplicates after backtracking (harmless)
  It open_comment = nullptr;
  It open_string = nullptr;
  std::vector<It> open_groups;
};
struct state_tag;

/// Thrown from a semantic action when groups nest too deep.
struct TooDeep {
  It where;
};

template <class Context>
LexState& state_of(const Context& ctx) {
  auto& s = x3::get<state_tag>(ctx);
  if constexpr (requires { s.get(); })
    return s.get();
  else
    return s;
}

// ---- actions -----------------------------------------------------------------------------------
const auto record_comment = [](auto& ctx) {
  auto r = x3::_attr(ctx);
  state_of(ctx).comments.emplace_back(r.begin(), r.end());
};
// These run on raw[opening token]: _attr is the token's range.
const auto mark_comment = [](auto& ctx) { state_of(ctx).open_comment = x3::_attr(ctx).begin(); };
const auto mark_string = [](auto& ctx) { state_of(ctx).open_string = x3::_attr(ctx).begin(); };
const auto push_group = [](auto& ctx) {
  auto& st = state_of(ctx);
  if (st.open_groups.size() >= kMaxGroupDepth) throw TooDeep{x3::_attr(ctx).begin()};
  st.open_groups.push_back(x3::_attr(ctx).begin());
};
const auto pop_group = [](auto& ctx) { state_of(ctx).open_groups.pop_back(); };

// ---- terminals ---------------------------------------------------------------------------------
// Blanks are spelled out (no locale-dependent isspace on arbitrary bytes).
const auto blank = x3::char_(" \t\r\n\f\v");
const auto inline_blank = x3::char_(" \t");
const auto word_char = x3::char_("a-zA-Z0-9_");

const auto close_comment = x3::rule<struct close_comment_id>{"*/"} = x3::lit("*/");
const auto close_quote = x3::rule<struct close_quote_id>{"\""} = x3::lit('"');
const auto close_paren = x3::rule<struct close_paren_id>{")"} = x3::lit(')')[pop_group];
const auto close_bracket = x3::rule<struct close_bracket_id>{"]"} = x3::lit(']')[pop_group];

const auto line_comment = x3::raw['#' >> *(x3::char_ - '\n')][record_comment];
const auto block_comment =
    x3::raw[x3::raw[x3::lit("/*")][mark_comment] >> *(x3::char_ - "*/") > close_comment][record_comment];
const auto comment = line_comment | block_comment;
const auto skip_item = blank | comment;

const auto string_literal =
    x3::raw[x3::lit('"')][mark_string] >> *(('\\' >> x3::char_) | (x3::char_ - '"')) > close_quote;

// ---- groups (recursive) ------------------------------------------------------------------------
x3::rule<struct paren_group_id> const paren_group = "paren_group";
x3::rule<struct bracket_group_id> const bracket_group = "bracket_group";

const auto inner_item =
    skip_item | string_literal | paren_group | bracket_group | (x3::char_ - x3::char_("()[]\""));

const auto paren_group_def = x3::raw[x3::lit('(')][push_group] >> *inner_item > close_paren;
const auto bracket_group_def = x3::raw[x3::lit('[')][push_group] >> *inner_item > close_bracket;
BOOST_SPIRIT_DEFINE(paren_group, bracket_group)

// ---- card pieces -------------------------------------------------------------------------------
// Words of a multi-word description are separated by blanks or comments on the same line.
const auto description = x3::raw[+word_char % +(inline_blank | comment)];

const auto arg_item = skip_item | string_literal | paren_group | bracket_group | x3::lit("::") |
                      (x3::char_ - x3::char_(",;:()[]\""));
const auto arg = x3::raw[*arg_item];

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}
bool is_word(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

class CardLexer {
 public:
  CardLexer(std::string_view text, std::size_t pos)
      : text_(text), base_(text.data()), end_(text.data() + text.size()), it_(base_ + pos) {}

  bool lex(std::size_t& pos, RawCard& card) {
    try {
      return lex_impl(pos, card);
    } catch (const x3::expectation_failure<It>& e) {
      translate(e);
    } catch (const TooDeep& e) {
      throw LexError{offset(e.where), fmt::format("expected at most {} nested parentheses, found more",
                                                  kMaxGroupDepth)};
    }
  }

 private:
  template <class P, class... A>
  bool run(const P& p, A&... attr) {
    return x3::parse(it_, end_, x3::with<state_tag>(std::ref(state_))[p], attr...);
  }
  std::size_t offset(It p) const { return static_cast<std::size_t>(p - base_); }

  bool lex_impl(std::size_t& pos, RawCard& card) {
    run(*skip_item);
    if (it_ == end_) {
      pos = text_.size();
      return false;
    }
    card = RawCard{};
    card.begin = offset(it_);
    boost::iterator_range<It> desc;
    if (!run(description, desc))
      throw LexError{offset(it_), "expected a card name, found " + describe_at(text_, offset(it_))};
    const std::size_t desc_end = offset(desc.end());
    run(*skip_item);

    std::vector<boost::iterator_range<It>> args;
    std::vector<char> separators;  // after each argument
    if (it_ != end_ && *it_ == ':') {
      card.has_colon = true;
      ++it_;
      for (;;) {
        boost::iterator_range<It> a;
        run(arg, a);  // never fails: an argument may be empty
        args.push_back(a);
        if (it_ == end_ || (*it_ != ',' && *it_ != ':')) break;
        separators.push_back(*it_++);
      }
      separators.push_back(';');
    }
    const std::string blanked = blank_comments(card.begin, offset(it_));
    if (it_ == end_ || *it_ != ';') missing_semicolon(card, blanked, desc_end);

    card.semicolon = offset(it_);
    card.next = card.semicolon + 1;
    card.description = trimmed(blanked, card.begin, card.begin, desc_end).text;
    if (card.has_colon) {
      RawArg all = trimmed(blanked, card.begin, offset(args.front().begin()), card.semicolon);
      card.args_begin = all.begin;
      card.args_text = std::move(all.text);
      for (std::size_t i = 0; i < args.size(); ++i) {
        card.args.push_back(trimmed(blanked, card.begin, offset(args[i].begin()), offset(args[i].end())));
        card.args.back().separator_after = separators[i];
      }
      if (card.args.size() == 1 && card.args[0].text.empty()) card.args.clear();
    } else {
      card.args_begin = card.semicolon;
    }
    pos = card.next;
    return true;
  }

  /// Copy of [from, to) with comments replaced by blanks (newlines kept, so columns stay right).
  std::string blank_comments(std::size_t from, std::size_t to) const {
    std::string out(text_.substr(from, to - from));
    for (auto [b, e] : state_.comments) {
      std::size_t cb = offset(b), ce = offset(e);
      if (ce <= from || cb >= to) continue;
      for (std::size_t i = std::max(cb, from); i < std::min(ce, to); ++i)
        if (out[i - from] != '\n') out[i - from] = ' ';
    }
    return out;
  }

  /// The non-blank part of [b, e) (offsets in text_), taken from `blanked` which starts at `origin`.
  static RawArg trimmed(const std::string& blanked, std::size_t origin, std::size_t b, std::size_t e) {
    while (b < e && is_blank(blanked[b - origin])) ++b;
    while (e > b && is_blank(blanked[e - 1 - origin])) --e;
    RawArg a;
    a.begin = b;
    a.end = e;
    a.text = blanked.substr(b - origin, e - b);
    return a;
  }

  /// Offset just after the last non-blank character of `blanked` before `limit`.
  static std::size_t content_end(const std::string& blanked, std::size_t origin, std::size_t limit) {
    std::size_t e = limit;
    while (e > origin && is_blank(blanked[e - 1 - origin])) --e;
    return e;
  }

  [[noreturn]] void missing_semicolon(const RawCard& card, const std::string& blanked,
                                      std::size_t desc_end) {
    const std::size_t here = offset(it_);
    const std::string found = describe_at(text_, here);
    if (it_ == end_)
      throw LexError{content_end(blanked, card.begin, here),
                     "expected ';' at the end of the card, found end of file"};
    if (!card.has_colon) {
      // `gravity` followed by the next card on a later line: the ';' is missing after `gravity`.
      const bool later_line = blanked.find('\n', desc_end - card.begin) < here - card.begin;
      if (later_line && is_word(*it_))
        throw LexError{desc_end, "expected ';' at the end of the card, found " + found};
      throw LexError{here, "expected ':' or ';' after the card name, found " + found};
    }
    throw LexError{here, "expected ',' or ';', found " + found};
  }

  [[noreturn]] void translate(const x3::expectation_failure<It>& e) const {
    const std::string& which = e.which();
    const std::size_t where = offset(e.where());
    if (which == "*/")
      throw LexError{offset(state_.open_comment),
                     "unterminated comment: expected '*/' before end of file"};
    if (which == "\"")
      throw LexError{offset(state_.open_string),
                     "unterminated string: expected '\"' before end of file"};
    const char open = which == ")" ? '(' : '[';
    if (e.where() == end_ && !state_.open_groups.empty())
      throw LexError{offset(state_.open_groups.back()),
                     fmt::format("unbalanced '{}': expected '{}' before end of file", open, which)};
    throw LexError{where, fmt::format("expected '{}', found {}", which, describe_at(text_, where))};
  }

  std::string_view text_;
  It base_, end_, it_;
  LexState state_;
};

}  // namespace

bool lex_card(std::string_view text, std::size_t& pos, RawCard& card) {
  return CardLexer(text, pos).lex(pos, card);
}

std::string describe_at(std::string_view text, std::size_t offset) {
  if (offset >= text.size()) return "end of file";
  const char c = text[offset];
  if (is_word(c)) {
    std::size_t e = offset;
    while (e < text.size() && e - offset < 32 && is_word(text[e])) ++e;
    return fmt::format("'{}'", text.substr(offset, e - offset));
  }
  if (c == '"') return "a string";
  if (c == '\n' || c == '\r') return "end of line";
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return fmt::format("'{}'", c);
  return fmt::format("byte 0x{:02X}", u);
}

std::string normalize_keyword(std::string_view words) {
  std::string out;
  out.reserve(words.size());
  for (char c : words) {
    if (is_blank(c)) continue;
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

}  // namespace mbl::parser::deck

#pragma once
// Telling a keyword from a number when an argument is optional (MBDyn's HP.IsArg() before an
// optional real): a bare identifier that names no variable of the math parser is a word.
#include <cctype>

#include "parser/card_reader.hpp"
#include "parser/math/math_parser.hpp"
#include "parser/read_context.hpp"

namespace mbl::elements {

/// The next argument is a bare word naming no variable (a keyword, a law's name, ...).
inline bool next_is_unknown_word(parser::CardReader& in) {
  const std::string_view text = in.peek_text();
  if (text.empty() || !(std::isalpha(static_cast<unsigned char>(text.front())) || text.front() == '_')) return false;
  for (char c : text)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ' ')) return false;
  return in.context().math().find_variable(text) == nullptr;
}

/// An optional real follows: an argument that is not a bare word.
inline bool real_follows(parser::CardReader& in) { return !in.at_end() && !next_is_unknown_word(in); }

}  // namespace mbl::elements

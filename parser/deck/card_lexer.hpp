#pragma once
// Card-level lexing of a deck (input manual §1.2, §2.1): `description [: arg, arg, ...];` with
// `#` and `/* */` comments, double-quoted strings, and nested () and [] groups inside which commas
// and semicolons do not split. The grammar itself lives in card_lexer.cpp (Boost.Spirit X3).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mbl::parser::deck {

/// One argument: the text between two top-level separators, trimmed of blanks and comments.
struct RawArg {
  std::size_t begin = 0;  ///< offset of the first character (for an empty argument: of the separator after it)
  std::size_t end = 0;    ///< one past the last character
  std::string text;       ///< [begin, end) with comments replaced by blanks (columns unchanged)
  char separator_after = ';';  ///< ',', ':' or ';'
};

struct RawCard {
  std::size_t begin = 0;          ///< offset of the first character of the description
  std::string description;        ///< as written (comments blanked, trimmed)
  bool has_colon = false;
  std::size_t args_begin = 0;     ///< first non-blank offset after ':' (== semicolon if none)
  std::string args_text;          ///< [args_begin, args_end): every argument, comments blanked
  std::vector<RawArg> args;       ///< empty for `description;` and `description: ;`
  std::size_t semicolon = 0;      ///< offset of the terminating ';'
  std::size_t next = 0;           ///< offset just after ';'
};

/// A lexing error at byte offset `offset` of the text.
struct LexError {
  std::size_t offset;
  std::string message;
};

/// Lexes the card starting at or after `pos` in `text`. Returns false (and sets `pos` to the end)
/// when only blanks and comments are left; throws LexError on malformed input.
bool lex_card(std::string_view text, std::size_t& pos, RawCard& card);

/// Short description of what is at `offset` for "found ..." messages ("end of file", "'@'", ...).
std::string describe_at(std::string_view text, std::size_t offset);

/// Lower case with every blank removed: "Control  Data" -> "controldata".
std::string normalize_keyword(std::string_view words);

}  // namespace mbl::parser::deck

#pragma once
// Source files and locations. Every value read from a deck carries the place it came from,
// so that any later error (semantic ones included) can say file:line:column.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mbl::parser {

/// One file of a deck, kept in memory for the whole run (error messages quote its lines).
struct SourceFile {
  std::string path;     ///< as given or resolved (relative to the including file)
  std::string text;     ///< whole contents
  /// The place of the `include:` card that pulled this file in (null for the main deck).
  std::shared_ptr<const struct SourceLocation> included_from;

  /// Line `line` (1-based) without its newline; empty when out of range.
  std::string_view line_text(int line) const;
};

struct SourceLocation {
  std::shared_ptr<const SourceFile> file;
  int line = 0;    ///< 1-based
  int column = 0;  ///< 1-based, in characters of the line

  /// "file:line:col" (or "<input>:line:col" without a file).
  std::string str() const;
  /// Location `offset` characters after this one inside `text` (which starts here); follows newlines.
  SourceLocation advanced(std::string_view text, std::size_t offset) const;
};

}  // namespace mbl::parser

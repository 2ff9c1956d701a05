#include "parser/errors.hpp"

#include <fmt/format.h>

namespace mbl::parser {

std::string_view SourceFile::line_text(int line) const {
  if (line < 1) return {};
  std::size_t pos = 0;
  for (int l = 1; l < line; ++l) {
    pos = text.find('\n', pos);
    if (pos == std::string::npos) return {};
    ++pos;
  }
  std::size_t end = text.find('\n', pos);
  if (end == std::string::npos) end = text.size();
  std::string_view v(text.data() + pos, end - pos);
  if (!v.empty() && v.back() == '\r') v.remove_suffix(1);
  return v;
}

std::string SourceLocation::str() const {
  return fmt::format("{}:{}:{}", file ? file->path : std::string("<input>"), line, column);
}

SourceLocation SourceLocation::advanced(std::string_view text, std::size_t offset) const {
  SourceLocation loc = *this;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++loc.line;
      loc.column = 1;
    } else {
      ++loc.column;
    }
  }
  return loc;
}

std::string format_diagnostic(const SourceLocation& where, std::string_view severity,
                              std::string_view message) {
  std::string out = fmt::format("{}: {}: {}\n", where.str(), severity, message);
  if (where.file) {
    std::string_view src = where.file->line_text(where.line);
    if (!src.empty() || where.line > 0) {
      // Tabs are kept in the caret line so that the caret sits under the right character.
      std::string caret;
      for (int i = 1; i < where.column && i - 1 < static_cast<int>(src.size()); ++i)
        caret += (src[i - 1] == '\t') ? '\t' : ' ';
      out += fmt::format("  {}\n  {}^\n", src, caret);
    }
    for (auto inc = where.file->included_from; inc; inc = inc->file ? inc->file->included_from : nullptr)
      out += fmt::format("  included from {}\n", inc->str());
  }
  return out;
}

InputError::InputError(SourceLocation where, std::string message)
    : std::runtime_error(where.str() + ": error: " + message),
      where_(std::move(where)),
      message_(std::move(message)) {}

std::string InputError::format() const { return format_diagnostic(where_, "error", message_); }

void fail_expected(const SourceLocation& where, std::string_view expected, std::string_view found) {
  throw InputError(where, fmt::format("expected {}, found {}", expected, found));
}

}  // namespace mbl::parser

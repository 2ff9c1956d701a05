#pragma once
// Input errors: "file:line:col: error: expected X, found Y", the source line, a caret under the
// column, and the include chain. Thrown by every reader; the program maps them to exit code 2.
#include <stdexcept>
#include <string>

#include "parser/source.hpp"

namespace mbl::parser {

class InputError : public std::runtime_error {
 public:
  /// `message` is the text after "error: " (e.g. "expected a real, found \"foo\"").
  InputError(SourceLocation where, std::string message);
  const SourceLocation& where() const { return where_; }
  const std::string& message() const { return message_; }
  /// The complete diagnostic: location line, source line, caret, include chain.
  std::string format() const;

 private:
  SourceLocation where_;
  std::string message_;
};

/// Shorthand for the common "expected ..., found ..." form.
[[noreturn]] void fail_expected(const SourceLocation& where, std::string_view expected,
                                std::string_view found);

/// Formats any located diagnostic ("error", "warning", "not implemented") the same way.
std::string format_diagnostic(const SourceLocation& where, std::string_view severity,
                              std::string_view message);

}  // namespace mbl::parser

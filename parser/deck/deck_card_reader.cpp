// Cursor, scalar reads and diagnostics of a deck card (input manual §2.1, §2.2).
#include "parser/deck/deck_card_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "parser/errors.hpp"

namespace mbl::parser::deck {

// ---- LineTable ---------------------------------------------------------------------------------
LineTable::LineTable(std::shared_ptr<const SourceFile> file) : file_(std::move(file)) {
  line_starts_.push_back(0);
  const std::string& t = file_->text;
  for (std::size_t i = 0; i < t.size(); ++i)
    if (t[i] == '\n') line_starts_.push_back(i + 1);
}

SourceLocation LineTable::at(std::size_t offset) const {
  const std::string& t = file_->text;
  offset = std::min(offset, t.size());
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  const std::size_t line = static_cast<std::size_t>(it - line_starts_.begin());
  // Locations are asked in increasing order within a line: continue from the previous one so
  // that a huge one-line deck stays linear.
  std::size_t from = line_starts_[line - 1];
  int column = 1;
  if (cached_line_ == line && cached_offset_ <= offset) {
    from = cached_offset_;
    column = cached_column_;
  }
  for (std::size_t i = from; i < offset; ++i)
    column += (static_cast<unsigned char>(t[i]) & 0xC0) != 0x80;  // UTF-8 continuation bytes
  cached_line_ = line;
  cached_offset_ = offset;
  cached_column_ = column;
  SourceLocation loc;
  loc.file = file_;
  loc.line = static_cast<int>(line);
  loc.column = column;
  return loc;
}

// ---- the card ----------------------------------------------------------------------------------
DeckCardReader::DeckCardReader(ReadContext& ctx, const LineTable& lines, const RawCard& raw)
    : ctx_(ctx),
      description_(normalize_keyword(raw.description)),
      card_where_(lines.at(raw.begin)),
      end_where_(lines.at(raw.semicolon)),
      args_where_(lines.at(raw.args_begin)),
      args_text_(raw.args_text) {
  args_.reserve(raw.args.size());
  for (const RawArg& a : raw.args) args_.push_back(Arg{a.text, lines.at(a.begin), a.separator_after});
}

bool DeckCardReader::card_is(std::string_view words) const {
  return normalize_keyword(words) == description_;
}

const SourceLocation& DeckCardReader::location() const {
  return at_end() ? end_where_ : args_[next_].where;
}

std::string_view DeckCardReader::peek_text() const {
  return at_end() ? std::string_view{} : std::string_view{args_[next_].text};
}

void DeckCardReader::expect_end() {
  if (!at_end() && !skipped_) fail_expected("';'");
}

void DeckCardReader::skip_rest() {
  next_ = args_.size();
  skipped_ = true;
}

// ---- diagnostics -------------------------------------------------------------------------------
std::string DeckCardReader::found_text() const {
  const Arg* a = peek();
  if (!a) return "';'";
  if (a->text.empty()) return "an empty argument";
  std::string shown;
  bool blank = false;
  for (char c : a->text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      blank = true;
      continue;
    }
    if (blank && !shown.empty()) shown += ' ';
    blank = false;
    shown += (u >= 0x20 && u < 0x7f) ? c : '?';
    if (shown.size() >= 40) {
      shown += "...";
      break;
    }
  }
  return shown.front() == '"' ? shown : fmt::format("\"{}\"", shown);
}

void DeckCardReader::fail_expected(std::string_view what) {
  std::string hint;
  // `a: 1, 2 <newline> b: 3;` lexes as one card whose argument "2 b" runs into the next card.
  if (const Arg* a = peek(); a && a->separator_after == ':') {
    const auto newlines = std::count(a->text.begin(), a->text.end(), '\n');
    if (newlines > 0)
      hint = fmt::format(" (is a ';' missing before line {}?)", a->where.line + newlines);
  }
  throw InputError(location(), fmt::format("expected {}, found {}{}", what, found_text(), hint));
}

void DeckCardReader::fail(std::string_view message) {
  throw InputError(location(), std::string(message));
}

void DeckCardReader::not_implemented(std::string_view what) { not_implemented(what, location()); }

void DeckCardReader::not_implemented(std::string_view what, const SourceLocation& at) {
  ctx_.report(Diagnostic{at, "not implemented", std::string(what)});
  skip_rest();
}

const DeckCardReader::Arg& DeckCardReader::require(std::string_view what) {
  if (at_end()) fail_expected(what);
  const Arg& a = args_[next_];
  // Two lines before a ':' are never one argument: a ';' is missing (fail_expected says where).
  if (a.separator_after == ':' && a.text.find('\n') != std::string::npos) fail_expected(what);
  return a;
}

// ---- scalars -----------------------------------------------------------------------------------
bool DeckCardReader::peek_keyword_is(std::string_view words) const {
  const Arg* a = peek();
  return a && !a->text.empty() && normalize_keyword(a->text) == normalize_keyword(words);
}

bool DeckCardReader::keyword_is(std::string_view words) {
  if (!peek_keyword_is(words)) return false;
  ++next_;
  return true;
}

std::string DeckCardReader::keyword() {
  const Arg& a = require("a keyword");
  const auto word = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  bool ok = !a.text.empty() && !(a.text[0] >= '0' && a.text[0] <= '9');
  // Multi-word keywords stay on one line ("in line"); a newline means a missing separator.
  for (char c : a.text) ok = ok && (word(c) || c == ' ' || c == '\t');
  if (!ok) fail_expected("a keyword");
  ++next_;
  return normalize_keyword(a.text);
}

math::Value DeckCardReader::evaluate_current(std::string_view what) {
  const Arg& a = require(what);
  try {
    return ctx_.math().evaluate(a.text, a.where);
  } catch (const InputError&) {
    throw;
  } catch (const math::StopRequest&) {
    throw;  // stop() ends the run; not an input error
  } catch (const std::exception& e) {
    throw InputError(a.where, fmt::format("expected {}, found {} ({})", what, found_text(), e.what()));
  }
}

math::Value DeckCardReader::value() {
  const Arg& a = require("a value");
  // §2.2: an empty field gives the default, zero when the caller has none.
  math::Value v = a.text.empty() ? math::Value(0) : evaluate_current("a value");
  ++next_;
  return v;
}

double DeckCardReader::real() {
  const Arg& a = require("a real");
  if (a.text.empty()) {
    ++next_;
    return 0.0;
  }
  const math::Value v = evaluate_current("a real");
  if (!v.is_number()) fail_expected("a real");
  const double d = v.to_real();
  // MBDyn 2024 evaluates 1/0 to inf and (-8)^(1/3) to nan: the value is refused where it is used.
  if (!std::isfinite(d))
    throw InputError(location(), fmt::format("expected a finite real, found {} (= {})", found_text(),
                                             std::isnan(d) ? "nan" : d > 0 ? "inf" : "-inf"));
  ++next_;
  return d;
}

std::int64_t DeckCardReader::integer() {
  const Arg& a = require("an integer");
  if (a.text.empty()) {
    ++next_;
    return 0;
  }
  const math::Value v = evaluate_current("an integer");
  if (!v.is_number()) fail_expected("an integer");
  std::int64_t i = 0;
  if (v.type() == math::Type::Real) {
    const double d = v.to_real();
    if (!std::isfinite(d) || std::fabs(d) > 9.0e18) fail_expected("an integer");
    i = static_cast<std::int64_t>(d);  // truncated, as MBDyn does
  } else {
    i = v.to_integer();
  }
  ++next_;
  return i;
}

unsigned DeckCardReader::label() {
  constexpr std::string_view what = "a label (a non-negative integer)";
  if (require(what).text.empty()) fail_expected(what);
  const math::Value v = evaluate_current(what);
  if (!v.is_number()) fail_expected(what);
  double d = 0;
  if (v.type() == math::Type::Real) {
    d = v.to_real();
    if (!std::isfinite(d) || d != std::floor(d)) fail_expected(what);
  } else {
    d = static_cast<double>(v.to_integer());
  }
  if (d < 0 || d > std::numeric_limits<unsigned>::max()) fail_expected(what);
  ++next_;
  return static_cast<unsigned>(d);
}

bool DeckCardReader::boolean() {
  // { yes | no | (bool) <expr> } as in `setenv: overwrite, yes, ...`
  if (keyword_is("yes") || keyword_is("true")) return true;
  if (keyword_is("no") || keyword_is("false")) return false;
  require("a boolean");
  const math::Value v = evaluate_current("a boolean");
  if (!v.is_number()) fail_expected("a boolean");
  ++next_;
  return v.to_bool();
}

namespace {
/// True when `text` is exactly one double-quoted literal.
bool is_single_literal(std::string_view text) {
  if (text.size() < 2 || text.front() != '"') return false;
  for (std::size_t i = 1; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '"') {
      return i + 1 == text.size();
    }
  }
  return false;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// §2.1.2 escapes: \\ and \" , backslash-newline (removed), \<hexpair>; others are kept as written.
std::string unescape_literal(std::string_view lit) {
  std::string out;
  std::string_view body = lit.substr(1, lit.size() - 2);
  for (std::size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (c != '\\' || i + 1 >= body.size()) {
      out += c;
      continue;
    }
    const char n = body[i + 1];
    if (n == '\\' || n == '"') {
      out += n;
      ++i;
    } else if (n == '\n') {
      ++i;
    } else if (n == '\r' && i + 2 < body.size() && body[i + 2] == '\n') {
      i += 2;
    } else if (i + 2 < body.size() && hex_digit(n) >= 0 && hex_digit(body[i + 2]) >= 0) {
      out += static_cast<char>(hex_digit(n) * 16 + hex_digit(body[i + 2]));
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}
}  // namespace

std::string DeckCardReader::string() {
  const Arg& a = require("a string");
  if (is_single_literal(a.text)) {
    ++next_;
    return unescape_literal(a.text);
  }
  if (a.text.empty()) fail_expected("a string");
  const math::Value v = evaluate_current("a string");
  if (v.type() != math::Type::String) fail_expected("a string");
  ++next_;
  return v.to_string_value();
}

std::shared_ptr<const math::Expression> DeckCardReader::expression() {
  const Arg& a = require("an expression");
  if (a.text.empty()) fail_expected("an expression");
  std::shared_ptr<const math::Expression> e;
  try {
    e = ctx_.math().compile(a.text, a.where);
  } catch (const InputError&) {
    throw;
  } catch (const math::StopRequest&) {
    throw;  // stop() ends the run; not an input error
  } catch (const std::exception& ex) {
    throw InputError(a.where, fmt::format("expected an expression, found {} ({})", found_text(), ex.what()));
  }
  ++next_;
  return e;
}

}  // namespace mbl::parser::deck

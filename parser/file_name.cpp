#include "parser/file_name.hpp"

#include <pwd.h>

#include <cctype>
#include <cstdlib>

#include "parser/errors.hpp"

namespace mbl::parser {
namespace {

bool is_name_start(char c) { return c == '_' || std::isalpha(static_cast<unsigned char>(c)); }
bool is_name_char(char c) { return c == '_' || std::isalnum(static_cast<unsigned char>(c)); }

ExpandedFileName failure(std::string why) { return {{}, std::move(why)}; }

/// `~/rest` -> $HOME/rest, `~user/rest` -> user's home/rest; anything else unchanged.
std::string expand_home(std::string name) {
  if (name.empty() || name[0] != '~') return name;
  const std::size_t slash = name.find('/');
  if (slash == std::string::npos) return name;
  const char* home = nullptr;
  if (slash == 1) {
    home = std::getenv("HOME");
  } else {
    const passwd* pw = ::getpwnam(name.substr(1, slash - 1).c_str());
    home = pw ? pw->pw_dir : nullptr;
  }
  return home ? std::string(home) + name.substr(slash) : name;
}

}  // namespace

ExpandedFileName expand_file_name(std::string_view given) {
  std::string out;
  out.reserve(given.size());
  for (std::size_t c = 0; c < given.size(); ++c) {
    if (given[c] != '$') {
      out += given[c];
      continue;
    }
    if (c + 1 < given.size() && given[c + 1] == '$') {  // "$$" is one '$'
      out += '$';
      ++c;
      continue;
    }
    std::string var;
    if (c + 1 < given.size() && given[c + 1] == '{') {
      const std::size_t close = given.find('}', c + 2);
      if (close == std::string_view::npos) return failure("missing trailing \"}\"");
      var = std::string(given.substr(c + 2, close - c - 2));
      c = close;
    } else {
      std::size_t end = c + 1;
      if (end >= given.size() || !is_name_start(given[end]))
        return failure("illegal leading character in an environment variable name");
      while (end < given.size() && is_name_char(given[end])) ++end;
      var = std::string(given.substr(c + 1, end - c - 1));
      c = end - 1;
    }
    const char* value = std::getenv(var.c_str());
    if (!value) return failure("environment variable \"" + var + "\" is not set");
    out += value;
  }
  return {expand_home(std::move(out)), {}};
}

std::string read_file_name(CardReader& in) {
  const SourceLocation at = in.location();
  const std::string given = in.string();
  ExpandedFileName e = expand_file_name(given);
  if (!e.error.empty())
    throw InputError(at, "expected a file name, found \"" + given + "\" (" + e.error + ")");
  return std::move(e.name);
}

}  // namespace mbl::parser

#pragma once
// A string as JSON text (quoted, escaped), for `compare --json` and the data of `view`'s page.
// '<' is written \u003c so that the text can sit inside an HTML <script> element.
#include <fmt/format.h>

#include <string>
#include <string_view>

namespace mbl::output {

inline std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char ch : s) {
    switch (ch) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '<': out += "\\u003c"; break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20)
          out += fmt::format("\\u{:04x}", int(ch));
        else
          out += ch;
    }
  }
  return out + "\"";
}

}  // namespace mbl::output

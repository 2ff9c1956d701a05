#include "parser/console.hpp"

#include <iostream>
#include <ostream>

namespace mbl {

namespace {
bool g_quiet = false;

/// A stream with no buffer: every write fails silently (badbit), nothing is formatted twice.
std::ostream& discard() {
  static std::ostream null_stream(nullptr);
  return null_stream;
}
}  // namespace

void set_console_quiet(bool quiet) { g_quiet = quiet; }
bool console_quiet() { return g_quiet; }
std::ostream& console_out() { return g_quiet ? discard() : std::cout; }
std::ostream& console_note() { return g_quiet ? discard() : std::cerr; }

}  // namespace mbl

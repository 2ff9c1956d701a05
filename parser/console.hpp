#pragma once
// What the program says on the console besides errors: progress lines of the phases ("Initial
// assembly performed successfully ..."), `remark:` cards, `print symbol table`, print() in
// expressions, the waits for a peer process. `-s`/`-q` silence all of it, as MBDyn's silent_cout
// is silenced by its -s; errors always go to std::cerr.
#include <iosfwd>

namespace mbl {

/// Called once by the command line, before the deck is read.
void set_console_quiet(bool quiet);
bool console_quiet();
/// std::cout, or a stream that discards everything under -q.
std::ostream& console_out();
/// std::cerr for notes that are not errors, or a stream that discards everything under -q.
std::ostream& console_note();

}  // namespace mbl

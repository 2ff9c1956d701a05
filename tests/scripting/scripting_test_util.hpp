#pragma once
// Decks with Lua for the scripting tests: a 1 kg body pushed along x by a force whose drive is
// the text under test, run by the program into a fresh folder.
#include <filesystem>
#include <fstream>
#include <string>

#include "support/run_program.hpp"

namespace mbl::test {

/// The deck with `drive` as the force's drive and `before_elements` (cards) in front of the
/// elements block.
inline std::string force_deck(const std::string& drive, const std::string& before_elements = "") {
  return R"(begin: data;
	problem: initial value;
end: data;
set: real K = 100.;
begin: initial value;
	initial time: 0.;
	final time: 1.;
	time step: 1.e-2;
	tolerance: 1.e-9;
	max iterations: 20;
end: initial value;
begin: control data;
	structural nodes: 1;
	rigid bodies: 1;
	forces: 1;
end: control data;
begin: nodes;
	structural: 1, dynamic, 0., 0., 0., eye, null, null;
end: nodes;
)" + before_elements + R"(
begin: elements;
	body: 1, 1, 1., null, eye;
	force: 1, absolute, 1, position, null, 1., 0., 0., )" +
         drive + R"(;
end: elements;
)";
}

struct DeckRun {
  int exit_code = -1;
  std::string messages;            ///< stdout and stderr
  std::filesystem::path prefix;    ///< outputs: prefix.mov, ...
};

/// Writes `text` to <dir>/<name>.mbd and runs it (`extra_args` before -f).
inline DeckRun run_deck_text(const std::filesystem::path& dir, const std::string& name, const std::string& text,
                             const std::string& extra_args = "") {
  const std::filesystem::path deck = dir / (name + ".mbd");
  std::ofstream(deck) << text;
  DeckRun r;
  r.prefix = dir / name;
  const std::filesystem::path log = dir / (name + ".messages");
  r.exit_code = run(quoted(MBL_BINARY) + " -s " + extra_args + " -f " + quoted(deck) + " -o " + quoted(r.prefix), log);
  r.messages = read_file(log);
  return r;
}

}  // namespace mbl::test

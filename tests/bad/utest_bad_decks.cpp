// Every broken deck of tests/bad/ is rejected where it breaks (issue #18). Each deck carries its
// expectation in its first line (or, for what cannot hold a comment — an empty file, a folder —
// in `<deck>.expect`):
//   # expect <exit code>: <the diagnostic line the user sees>          (mbdyn-like --check <deck>)
//   # expect run <exit code>: <text the messages contain>             (mbdyn-like -f <deck> -o ...)
// The diagnostic line is `file:line:col: error: message` (or `not implemented: ...`), so the
// code, the location and the message are all checked.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/run_program.hpp"

namespace fs = std::filesystem;

namespace {

struct Expectation {
  bool run = false;  ///< run the deck instead of --check
  int exit_code = -1;
  std::string text;
};

bool parse_expectation(const std::string& line, Expectation& e) {
  std::string rest;
  if (line.rfind("# expect run ", 0) == 0) {
    e.run = true;
    rest = line.substr(13);
  } else if (line.rfind("# expect ", 0) == 0) {
    rest = line.substr(9);
  } else {
    return false;
  }
  const auto colon = rest.find(": ");
  if (colon == std::string::npos) return false;
  e.exit_code = std::stoi(rest.substr(0, colon));
  e.text = rest.substr(colon + 2);
  return !e.text.empty();
}

std::string first_line(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::string line;
  std::getline(f, line);
  return line;
}

}  // namespace

TEST(BadDecks, EachIsRejectedWithItsMessageAndLocation) {
  const fs::path dir = fs::path(MBL_SOURCE_DIR) / "tests" / "bad";
  std::vector<fs::path> decks;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".mbd") decks.push_back(entry.path());
  std::sort(decks.begin(), decks.end());
  ASSERT_GE(decks.size(), 150u) << "tests/bad/ holds fewer broken decks than the issue asks for";

  const fs::path tmp = mbl::test::fresh_temp_dir("bad_decks");
  for (const fs::path& deck : decks) {
    const std::string name = deck.filename().string();
    SCOPED_TRACE(name);
    Expectation e;
    const fs::path sidecar = fs::path(deck.string() + ".expect");
    const std::string header = fs::exists(sidecar) ? first_line(sidecar) : first_line(deck);
    ASSERT_TRUE(parse_expectation(header, e)) << "no `# expect <code>: <message>` line: " << header;
    const fs::path log = tmp / (name + ".log");
    const std::string program = mbl::test::quoted(MBL_BINARY);
    const std::string cmd = "cd " + mbl::test::quoted(dir) + " && " + program +
                            (e.run ? " -s -f " + mbl::test::quoted(name) + " -o " + mbl::test::quoted(tmp / deck.stem())
                                   : " --check " + mbl::test::quoted(name));
    const int rc = mbl::test::run(cmd, log);
    const std::string messages = mbl::test::read_file(log);
    EXPECT_EQ(rc, e.exit_code) << messages;
    EXPECT_NE(messages.find(e.text), std::string::npos) << "expected: " << e.text << "\nfound:\n" << messages;
  }
  fs::remove_all(tmp);
}

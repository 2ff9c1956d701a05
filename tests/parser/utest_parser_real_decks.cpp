// Every real deck of the shared collection (decks/INDEX.md and the paper benchmarks) is read card
// by card: lexing, includes, `set:` and `reference:` must all go through without an InputError.
#include <filesystem>
#include <fstream>
#include <regex>

#include "tests/parser/parser_test_util.hpp"

namespace mbl::parser::test {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> main_decks() {
  std::vector<std::string> out;
  const fs::path shared(MBL_SHARED_DIR);
  std::ifstream index(shared / "decks" / "INDEX.md");
  const std::regex row(R"(^\|\s*([^|\s]+)\s*\|\s*([^|\s]+)\s*\|)");
  std::string line;
  std::smatch m;
  while (std::getline(index, line)) {
    if (!std::regex_search(line, m, row) || m[1] == "id" || m[1].str().starts_with("---")) continue;
    out.push_back((shared / "decks" / m[1].str() / "deck" / m[2].str()).string());
  }
  std::error_code ec;
  for (const auto& bench : fs::directory_iterator(shared / "paper", ec)) {
    if (!fs::is_directory(bench.path() / "deck")) continue;
    for (const auto& f : fs::directory_iterator(bench.path() / "deck"))
      if (f.path().extension() == ".mbd") out.push_back(f.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(RealDecks, EveryDeckReadsCardByCard) {
  const std::vector<std::string> decks = main_decks();
  ASSERT_GT(decks.size(), 150u) << "shared decks not found under " << MBL_SHARED_DIR;
  std::size_t cards = 0;
  std::vector<std::string> failures;
  for (const std::string& path : decks) {
    try {
      math::MathParser math;
      // Stand-ins for what the model builder registers (the model is not built here).
      for (const char* f : {"distance", "drive", "position", "xposition", "yposition", "zposition"})
        math.register_function("model", f, [](std::span<const math::Value>) { return math::Value(1.0); });
      for (const char* plugin : {"dof", "node", "element"})
        math.register_plugin(plugin, [](std::span<const std::string>, const SourceLocation&) {
          return math::PluginGetter([] { return math::Value(0.0); });
        });
      ReadContext ctx(math);
      DeckReader reader(path, ctx);
      while (CardReader* c = reader.next_card()) {
        c->skip_rest();
        ++cards;
      }
    } catch (const InputError& e) {
      failures.push_back(e.format());
    }
  }
  std::string all;
  for (const auto& f : failures) all += f + "\n";
  EXPECT_TRUE(failures.empty()) << failures.size() << " of " << decks.size() << " decks failed:\n"
                                << all;
  EXPECT_GT(cards, 10000u);
}

}  // namespace
}  // namespace mbl::parser::test

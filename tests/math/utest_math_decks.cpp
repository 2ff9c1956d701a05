// Every `set:` card of the real decks under MBL_SHARED_DIR/decks evaluates, in deck order
// (following include: cards), and the resulting symbol table matches the "Symbol table:"
// section of the .log that the real MBDyn wrote for that deck.
//
// Cards that need the model are run against stubs: model::<fn>(...) returns 1. and the `dof`
// plugin variables read 0. (their values are then not compared with the .log). Variables
// assigned by string drives while the model is built are compared by name and type only.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "parser/errors.hpp"
#include "parser/math/math_parser.hpp"

namespace fs = std::filesystem;
using mbl::math::MathParser;
using mbl::math::Value;
using mbl::parser::SourceFile;
using mbl::parser::SourceLocation;

namespace {

struct SetCard {
  SourceLocation where;
  std::string text;
};

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Comments (# to end of line, /* */) replaced by blanks, newlines kept, strings untouched.
std::string blank_comments(std::string t) {
  bool in_string = false;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (in_string) {
      if (t[i] == '\\') ++i;
      else if (t[i] == '"') in_string = false;
    } else if (t[i] == '"') {
      in_string = true;
    } else if (t[i] == '#') {
      for (; i < t.size() && t[i] != '\n'; ++i) t[i] = ' ';
    } else if (t.compare(i, 2, "/*") == 0) {
      for (; i < t.size() && t.compare(i, 2, "*/") != 0; ++i)
        if (t[i] != '\n') t[i] = ' ';
      if (i < t.size()) t[i] = t[i + 1] = ' ';
    }
  }
  return t;
}

SourceLocation location_of(const std::shared_ptr<SourceFile>& file, std::size_t offset) {
  SourceLocation loc{file, 1, 1};
  return loc.advanced(file->text, offset);
}

/// The `set:` cards of `path` and of the files it includes, in reading order.
void scan(const fs::path& path, std::vector<SetCard>& out, int depth = 0) {
  ASSERT_LT(depth, 10) << "include loop at " << path;
  auto file = std::make_shared<SourceFile>();
  file->path = path.string();
  file->text = read_file(path);
  const std::string text = blank_comments(file->text);
  static const std::regex card(R"(\b(set|include)[ \t]*:)", std::regex::icase);
  std::size_t resume = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), card); it != std::sregex_iterator();
       ++it) {
    const std::size_t begin = static_cast<std::size_t>(it->position() + it->length());
    if (static_cast<std::size_t>(it->position()) < resume) continue;
    // The argument runs to the first ';' outside parentheses, brackets and strings.
    std::size_t end = begin;
    int depth_paren = 0;
    bool in_string = false;
    for (; end < text.size(); ++end) {
      const char c = text[end];
      if (in_string) {
        if (c == '\\') ++end;
        else if (c == '"') in_string = false;
      } else if (c == '"') in_string = true;
      else if (c == '(' || c == '[') ++depth_paren;
      else if (c == ')' || c == ']') --depth_paren;
      else if (c == ';' && depth_paren <= 0) break;
    }
    resume = end;
    const std::string arg = text.substr(begin, end - begin);
    std::string keyword = (*it)[1].str();
    for (char& c : keyword) c = static_cast<char>(std::tolower(c));
    if (keyword == "include") {
      const auto q1 = arg.find('"'), q2 = arg.rfind('"');
      ASSERT_NE(q1, q2) << "include without a quoted file name in " << path;
      scan(path.parent_path() / arg.substr(q1 + 1, q2 - q1 - 1), out, depth + 1);
    } else {
      out.push_back({location_of(file, begin), arg});
    }
  }
}

struct DeckEntry {
  std::string id, main;
};

std::vector<DeckEntry> decks() {
  // index.json rows look like {"id": "...", "main": "...", ...}; a regex is enough here.
  const std::string index = read_file(fs::path(MBL_SHARED_DIR) / "decks" / "index.json");
  static const std::regex row(R"re("id":\s*"([^"]+)",\s*"main":\s*"([^"]+)")re");
  std::vector<DeckEntry> out;
  for (auto it = std::sregex_iterator(index.begin(), index.end(), row); it != std::sregex_iterator(); ++it)
    out.push_back({(*it)[1].str(), (*it)[2].str()});
  return out;
}

/// The "Symbol table:" lines of a .log, or empty.
std::vector<std::string> log_symbol_table(const fs::path& log) {
  std::ifstream in(log);
  std::string line;
  std::vector<std::string> out;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line == "Symbol table:") {
      inside = true;
      continue;
    }
    if (inside) {
      if (line.rfind("  ", 0) != 0) break;
      out.push_back(line);
    }
  }
  return out;
}

void install_model_stubs(MathParser& p) {
  for (const char* fn : {"distance", "drive", "current", "position", "velocity", "xposition",
                         "xvelocity", "yvelocity", "zvelocity", "zposition", "zanglerel"})
    p.register_function("model", fn, [](std::span<const Value>) { return Value(1.0); });
  p.register_plugin("dof", [](std::span<const std::string> args, const SourceLocation&) {
    EXPECT_GE(args.size(), 2u);
    return mbl::math::PluginGetter([] { return Value(0.0); });
  });
}

}  // namespace

TEST(MathDecks, EverySetCardEvaluatesAndSymbolTablesMatchMbdyn) {
  const auto all = decks();
  ASSERT_GT(all.size(), 50u) << "decks index not found under " << MBL_SHARED_DIR;
  int cards = 0, tables = 0;
  for (const auto& d : all) {
    SCOPED_TRACE(d.id);
    const fs::path dir = fs::path(MBL_SHARED_DIR) / "decks" / d.id;
    std::vector<SetCard> sets;
    scan(dir / "deck" / d.main, sets);
    MathParser p;
    install_model_stubs(p);
    std::set<std::string> model_dependent;  // values computed from stubs or by drives
    if (d.id == "t.joints.rod.rodprestrain") model_dependent.insert("l");  // string drive "l = ..."
    for (const auto& c : sets) {
      ++cards;
      EXPECT_NO_THROW({
        try {
          p.execute_set(c.text, c.where);
        } catch (const mbl::parser::InputError& e) {
          ADD_FAILURE() << e.format();
        }
      }) << c.where.str();
      if (c.text.find("model::") != std::string::npos || c.text.find('[') != std::string::npos) {
        static const std::regex declared(R"((\w+)\s*=)");
        static const std::regex plugin_var(R"(\[\s*\w+\s*,\s*(\w+))");
        std::smatch m;
        if (std::regex_search(c.text, m, plugin_var) || std::regex_search(c.text, m, declared))
          model_dependent.insert(m[1].str());
      }
    }
    // Compare with MBDyn's own symbol table (printed before the first step: Time = 0.).
    fs::path log;
    for (const auto& f : fs::directory_iterator(dir / "mbdyn"))
      if (f.path().extension() == ".log") log = f.path();
    const auto expected = log_symbol_table(log);
    if (expected.empty()) continue;
    ++tables;
    std::ostringstream os;
    p.print_symbol_table(os);
    std::vector<std::string> got;
    std::istringstream is(os.str());
    for (std::string line; std::getline(is, line);) got.push_back(line);
    ASSERT_EQ(got.size(), expected.size()) << os.str();
    for (std::size_t i = 0; i < got.size(); ++i) {
      const std::string name_part = expected[i].substr(0, expected[i].find(" = "));
      const std::string name = name_part.substr(name_part.rfind(' ') + 1);
      if (model_dependent.count(name))
        EXPECT_EQ(got[i].substr(0, got[i].find(" = ")), name_part);
      else
        EXPECT_EQ(got[i], expected[i]);
    }
  }
  EXPECT_GT(cards, 300);
  EXPECT_GT(tables, 60);
  std::cout << "[ math ] " << cards << " set: cards evaluated, " << tables
            << " symbol tables compared with MBDyn's .log\n";
}

// DeckReader: reads a deck card by card through its include files, handling the input-related
// cards of input manual §2.4 that may appear anywhere (set, include, reference, remark, print
// symbol table, setenv) and returning every other card to the model builder.
#include "parser/deck/deck_reader.hpp"
#include "parser/console.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "parser/deck/card_lexer.hpp"
#include "parser/file_name.hpp"
#include "parser/deck/deck_card_reader.hpp"
#include "parser/errors.hpp"

namespace mbl::parser {

namespace fs = std::filesystem;
using deck::DeckCardReader;
using deck::LineTable;

namespace {
/// Deeper nesting of include files is certainly a mistake (MBDyn itself has no check at all).
constexpr std::size_t kMaxIncludeDepth = 64;

bool read_file(const std::string& path, std::string& text, std::string& why) {
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    why = "no such file";
    return false;
  }
  if (fs::is_directory(path, ec)) {
    why = "it is a directory";
    return false;
  }
  if (!fs::is_regular_file(path, ec)) {  // devices and pipes could block or never end
    why = "not a regular file";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    why = "cannot open it for reading";
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  text = ss.str();
  return true;
}

std::string identity_of(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::path(path), ec);
  return ec ? path : p.string();
}
}  // namespace

struct DeckReader::Impl {
  struct Source {
    std::shared_ptr<const SourceFile> file;
    LineTable lines;
    std::string identity;  ///< canonical path (or the in-memory name), for cycle detection
    std::size_t pos = 0;
  };

  explicit Impl(ReadContext& c) : ctx(c) {}

  void push(std::string path, std::string text, std::shared_ptr<const SourceLocation> from,
            std::string identity) {
    auto file = std::make_shared<SourceFile>();
    file->path = std::move(path);
    file->text = std::move(text);
    file->included_from = std::move(from);
    std::shared_ptr<const SourceFile> cfile = file;
    if (!main_file) main_file = cfile;
    stack.push_back(Source{cfile, LineTable(cfile), std::move(identity), 0});
  }

  CardReader* next() {
    if (current) {
      if (!current->finished()) current->expect_end();
      current.reset();
    }
    while (!stack.empty()) {
      Source& s = stack.back();
      deck::RawCard raw;
      bool got = false;
      try {
        got = deck::lex_card(s.file->text, s.pos, raw);
      } catch (const deck::LexError& e) {
        throw InputError(s.lines.at(e.offset), e.message);
      }
      if (!got) {
        stack.pop_back();
        continue;
      }
      auto card = std::make_unique<DeckCardReader>(ctx, s.lines, raw);
      if (handle(*card)) continue;
      current = std::move(card);
      return current.get();
    }
    return nullptr;
  }

  /// Input-related cards handled here; false for every card of the model builder.
  bool handle(DeckCardReader& c) {
    const std::string_view d = c.description();
    if (d == "set") {
      set(c);
    } else if (d == "include") {
      include(c);
    } else if (d == "reference") {
      reference(c);
    } else if (d == "remark") {
      remark(c);
    } else if (d == "printsymboltable" || (d == "print" && c.peek_keyword_is("symbol table"))) {
      // §2.4.7: `print symbol table [: all | namespaces];` -- one namespace here, print it all.
      c.skip_rest();
      ctx.math().print_symbol_table(console_out());
    } else if (d == "setenv") {
      setenv(c);
    } else {
      return false;
    }
    return true;
  }

  /// §2.4.10: the whole argument text is one math statement (declaration, assignment, ...).
  void set(DeckCardReader& c) {
    if (c.at_end()) c.fail_expected("an expression after 'set:'");
    try {
      ctx.math().execute_set(c.args_text(), c.args_location());
    } catch (const InputError&) {
      throw;
    } catch (const math::StopRequest&) {
      throw;  // stop() ends the run; not an input error
    } catch (const std::exception& e) {
      throw InputError(c.args_location(), fmt::format("invalid 'set:' statement ({})", e.what()));
    }
    c.skip_rest();
  }

  /// §2.4.5: the path is relative to the directory of the including file; $VAR and ~ expanded
  /// as MBDyn's GetFileName (so a `setenv:` before it is seen).
  void include(DeckCardReader& c) {
    const SourceLocation where = c.location();
    const std::string name = read_file_name(c);
    c.expect_end();
    const Source& parent = stack.back();
    fs::path p(name);
    if (p.is_relative()) p = fs::path(parent.file->path).parent_path() / p;
    const std::string path = p.lexically_normal().string();
    if (stack.size() >= kMaxIncludeDepth)
      throw InputError(where, fmt::format("expected at most {} nested include files, found more",
                                          kMaxIncludeDepth));
    const std::string identity = identity_of(path);
    for (std::size_t i = 0; i < stack.size(); ++i) {
      if (stack[i].identity != identity) continue;
      std::string chain;
      for (std::size_t j = i; j < stack.size(); ++j) chain += stack[j].file->path + " -> ";
      throw InputError(where, fmt::format("include cycle: {}{}", chain, path));
    }
    std::string text, why;
    if (!read_file(path, text, why))
      throw InputError(where, fmt::format("cannot include \"{}\": {}", path, why));
    push(path, std::move(text), std::make_shared<const SourceLocation>(where), identity);
  }

  /// §2.4.8: `reference: <label>, [name, "<name>",] <frame>;` stored resolved to global.
  void reference(DeckCardReader& c) {
    const SourceLocation where = c.location();
    const unsigned label = c.label();
    if (const NamedReference* old = ctx.find_reference(label))
      throw InputError(where, fmt::format("reference {} is already defined at {}", label,
                                          old->where.str()));
    if (c.keyword_is("name")) c.string();
    const RigidFrame frame = c.reference_frame();
    c.expect_end();
    ctx.add_reference(label, NamedReference{frame, where, ctx.default_orientation_description});
  }

  /// §2.4.9: "line N, file <name>: value, value, ..."
  void remark(DeckCardReader& c) {
    const SourceLocation& at = c.card_location();
    std::string out = fmt::format("line {}, file <{}>:", at.line, at.file ? at.file->path : "");
    bool first = true;
    while (!c.at_end()) {
      const math::Value v = c.value();
      out += first ? " " : ", ";
      out += v.type() == math::Type::String ? v.to_string_value() : v.str();
      first = false;
    }
    console_note() << out << '\n';
  }

  /// §2.4.11: `setenv: [overwrite, {yes|no|<bool>},] "NAME[=value]";`
  void setenv(DeckCardReader& c) {
    bool overwrite = false;
    if (c.keyword_is("overwrite")) overwrite = c.boolean();
    const SourceLocation where = c.location();
    const std::string spec = c.string();
    c.expect_end();
    const std::size_t eq = spec.find('=');
    const std::string name = spec.substr(0, eq);
    if (name.empty() || name.find('\0') != std::string::npos)
      throw InputError(where, fmt::format("expected \"NAME=value\" or \"NAME\", found \"{}\"", spec));
    if (eq == std::string::npos) {
      ::unsetenv(name.c_str());
    } else {
      const std::string value = spec.substr(eq + 1);
      ::setenv(name.c_str(), value.c_str(), overwrite ? 1 : 0);
    }
  }

  ReadContext& ctx;
  std::shared_ptr<const SourceFile> main_file;
  std::vector<Source> stack;
  std::unique_ptr<DeckCardReader> current;
};

DeckReader::DeckReader(const std::string& path, ReadContext& ctx) : impl_(std::make_unique<Impl>(ctx)) {
  std::string text, why;
  if (!read_file(path, text, why)) {
    auto file = std::make_shared<SourceFile>();
    file->path = path;
    SourceLocation where;
    where.file = file;
    throw InputError(where, fmt::format("cannot read the deck \"{}\": {}", path, why));
  }
  impl_->push(path, std::move(text), nullptr, identity_of(path));
}

DeckReader::DeckReader(std::string name, std::string text, ReadContext& ctx)
    : impl_(std::make_unique<Impl>(ctx)) {
  std::string identity = identity_of(name);
  impl_->push(std::move(name), std::move(text), nullptr, std::move(identity));
}

DeckReader::~DeckReader() = default;

CardReader* DeckReader::next_card() { return impl_->next(); }

SourceLocation DeckReader::end_location() const {
  SourceLocation at;
  at.file = impl_->main_file;
  at.line = 1;
  at.column = 1;
  if (!at.file) return at;
  const std::string& text = at.file->text;
  const std::size_t last = text.find_last_not_of(" \t\r\n\f\v");
  if (last == std::string::npos) return at;
  return at.advanced(text, last + 1);
}

}  // namespace mbl::parser

// `module load: "lua", {file, "<path>" | chunk, "<code>" | max instructions, <n> | max seconds, <s>
//  | max memory, <MB>} [, ...];`
// (input manual §2.4.6 `module load`; docs/lua.md). Accepted in and between blocks; other
// run-time modules are not implemented.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/mbdyn_kinds.hpp"
#include "parser/errors.hpp"
#include "scripting/lua_engine.hpp"

namespace mbl::scripting {
namespace {

/// `path` relative to the file that names it.
std::string read_script(const std::string& path, const parser::SourceLocation& where) {
  namespace fs = std::filesystem;
  fs::path p(path);
  if (p.is_relative() && where.file) p = fs::path(where.file->path).parent_path() / p;
  std::ifstream f(p);
  if (!f) throw parser::InputError(where, fmt::format("expected a readable Lua file, found \"{}\" ({})", path, p.string()));
  std::ostringstream text;
  text << f.rdbuf();
  return text.str();
}

void read_module_load(parser::CardReader& in, BuildContext& ctx, unsigned) {
  // Peeked, so that a module we do not implement is reported at its name.
  std::string_view name = in.peek_text();
  if (name.size() >= 2 && name.front() == '"' && name.back() == '"') name = name.substr(1, name.size() - 2);
  if (name != "lua") {
    kinds::note_unimplemented_module(in.context(), name);
    return in.not_implemented(fmt::format("run-time module \"{}\"", name));
  }
  in.string();
  std::shared_ptr<LuaEngine> engine = engine_for(in.context(), ctx.model().drive_env());
  do {
    if (in.keyword_is("file")) {
      const parser::SourceLocation at = in.location();
      const std::string path = in.string();
      engine->run_chunk(read_script(path, at), "@" + path, at);
    } else if (in.keyword_is("chunk")) {
      const parser::SourceLocation at = in.location();
      engine->run_chunk(in.string(), "=chunk", at);
    } else if (in.keyword_is("max instructions")) {
      engine->set_instruction_limit(parser::checked_integer(in, [](auto n) { return n > 0; }, "a positive count"));
    } else if (in.keyword_is("max seconds")) {
      engine->set_time_limit(parser::checked_real(in, [](double x) { return x > 0.0; }, "a positive time"));
    } else if (in.keyword_is("max memory")) {
      const double mb = parser::checked_real(in, [](double x) { return x >= 1.0 && x <= 1048576.0; },
                                             "a memory size in MB (1 to 1048576)");
      engine->set_memory_limit(static_cast<std::size_t>(mb * 1048576.0));
    } else {
      in.fail_expected("file, chunk, max instructions, max seconds or max memory");
    }
  } while (!in.at_end());
}

const bool registered = CardRegistry::family("definition").add("module load", read_module_load);

}  // namespace
}  // namespace mbl::scripting

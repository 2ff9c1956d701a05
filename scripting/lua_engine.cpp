#include "scripting/lua_engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <lua.hpp>

#include "mbdyn-like/core/model.hpp"
#include "parser/errors.hpp"
#include "parser/math/math_parser.hpp"

namespace mbl::scripting {

namespace {

bool g_unsafe = false;

/// Instructions between two checks of the budget.
constexpr int kHookEvery = 10000;

LuaEngine& engine_of(lua_State* L) { return **static_cast<LuaEngine**>(lua_getextraspace(L)); }

/// Message handler of every protected call: the error with Lua's stack traceback.
int traceback(lua_State* L) {
  const char* msg = lua_tostring(L, 1);
  if (!msg) msg = luaL_typename(L, 1);
  luaL_traceback(L, L, msg, 1);
  return 1;
}

/// The instruction-count hook: a script past its instruction or wall-time budget is stopped with
/// an error. The clock covers library functions (a loop of `string.rep` runs few instructions).
void count_hook(lua_State* L, lua_Debug*) {
  LuaEngine& engine = engine_of(L);
  long long& budget = engine.budget();
  budget -= kHookEvery;
  if (budget < 0)
    luaL_error(L, "instruction limit exceeded (an endless loop?); raise it with `module load: \"lua\", "
                  "max instructions, <n>`");
  if (engine.past_deadline())
    luaL_error(L, "time limit of %f s exceeded (an endless loop?); raise it with `module load: \"lua\", "
                  "max seconds, <s>`", engine.time_limit_seconds());
}

void push_value(lua_State* L, const math::Value& v) {
  switch (v.type()) {
    case math::Type::Bool: lua_pushboolean(L, v.to_bool()); break;
    case math::Type::Integer: lua_pushinteger(L, v.to_integer()); break;
    case math::Type::Real: lua_pushnumber(L, v.to_real()); break;
    case math::Type::String: lua_pushstring(L, v.to_string_value().c_str()); break;
  }
}

void push_vec3(lua_State* L, const Vec3& v) {
  lua_createtable(L, 3, 0);
  for (int i = 0; i < 3; ++i) {
    lua_pushnumber(L, v[i]);
    lua_rawseti(L, -2, i + 1);
  }
}

/// _G's __index: a global the script did not define is the deck variable of that name.
int global_fallback(lua_State* L) {
  const char* name = lua_tostring(L, 2);
  const math::Value* v = name && lua_type(L, 2) == LUA_TSTRING ? engine_of(L).math().find_variable(name) : nullptr;
  if (!v) return 0;
  push_value(L, *v);
  return 1;
}

/// Lua's message for a use of a library the sandbox withholds ("attempt to index a nil value
/// (global 'io')") with what it means and how to allow it. The names stay nil (`io == nil` holds).
std::string explain_sandbox(std::string msg) {
  if (g_unsafe) return msg;
  for (std::string_view name : {"io", "os", "package", "require", "dofile", "loadfile", "debug"})
    if (msg.find(fmt::format("(global '{}')", name)) != std::string::npos) {
      const std::size_t end_of_line = std::min(msg.find('\n'), msg.size());
      msg.insert(end_of_line, fmt::format(": `{}` is withheld by the Lua sandbox; run mbdyn-like with --lua-unsafe to "
                                          "allow it (trusted decks only)", name));
      break;
    }
  return msg;
}

// ---- the `mbdyn` table -------------------------------------------------------------------------

/// mbdyn.time, mbdyn.step, mbdyn.time_step: the drives' clock, read when asked.
int mbdyn_index(lua_State* L) {
  const char* key = lua_tostring(L, 2);
  const DriveEnvironment* env = engine_of(L).env();
  if (!key || !env) return 0;
  const std::string_view k(key);
  if (k == "time") lua_pushnumber(L, env->time);
  else if (k == "time_step") lua_pushnumber(L, env->time_step);
  else if (k == "step") lua_pushinteger(L, env->step);
  else return 0;
  return 1;
}

/// mbdyn.node(label): {X, R, V, W} of a structural node, global frame, current iterate.
int mbdyn_node(lua_State* L) {
  const lua_Integer label = luaL_checkinteger(L, 1);
  Model* model = engine_of(L).model();
  const StructNode* n = model && label >= 0 ? model->find_struct_node(static_cast<unsigned>(label)) : nullptr;
  if (!n) return luaL_error(L, "mbdyn.node(%d): no structural node %d", int(label), int(label));
  push_node(L, {n->x_W(), n->v_W(), n->w_W(), n->R_WN()});
  return 1;
}

/// mbdyn.get(name): a deck variable (nil when undefined).
int mbdyn_get(lua_State* L) {
  const math::Value* v = engine_of(L).math().find_variable(luaL_checkstring(L, 1));
  if (!v) return 0;
  push_value(L, *v);
  return 1;
}

/// mbdyn.set(name, value): defines or overwrites a deck variable (number, boolean or string).
int mbdyn_set(lua_State* L) {
  const char* name = luaL_checkstring(L, 1);
  luaL_checkany(L, 2);
  char failure[256] = "";
  {
    math::Value v;
    switch (lua_type(L, 2)) {
      case LUA_TBOOLEAN: v = math::Value(bool(lua_toboolean(L, 2))); break;
      case LUA_TSTRING: v = math::Value(std::string(lua_tostring(L, 2))); break;
      case LUA_TNUMBER:
        v = lua_isinteger(L, 2) ? math::Value(static_cast<std::int64_t>(lua_tointeger(L, 2)))
                                : math::Value(lua_tonumber(L, 2));
        break;
      default: std::snprintf(failure, sizeof failure, "mbdyn.set(\"%s\", ...): expected a number, boolean or string", name);
    }
    if (!failure[0]) try {
        engine_of(L).math().set_variable(name, std::move(v));
      } catch (const std::exception& e) {
        std::snprintf(failure, sizeof failure, "mbdyn.set(\"%s\", ...): %s", name, e.what());
      }
  }
  if (failure[0]) return luaL_error(L, "%s", failure);
  return 0;
}

/// mbdyn.on(event, fn): "before_step", "after_step" (after convergence) or "output".
int mbdyn_on(lua_State* L) {
  static const char* const kEvents[] = {"before_step", "after_step", "output", nullptr};
  const int e = luaL_checkoption(L, 1, nullptr, kEvents);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_pushvalue(L, 2);
  const int ref = luaL_ref(L, LUA_REGISTRYINDEX);
  LuaEngine& engine = engine_of(L);
  engine.hooks().push_back({static_cast<LuaEngine::Event>(e), ref, engine.loading_at()});
  return 0;
}

/// mbdyn.private_data(kind, label, name): what `element`/`node` drives read.
int mbdyn_private_data(lua_State* L) {
  const char* kind = luaL_checkstring(L, 1);
  const lua_Integer label = luaL_checkinteger(L, 2);
  const char* name = luaL_checkstring(L, 3);
  parser::EntityDirectory* dir = engine_of(L).entities();
  parser::PrivateDataOwner* owner = dir && label >= 0 ? dir->find_entity(kind, static_cast<unsigned>(label)) : nullptr;
  if (!owner) return luaL_error(L, "mbdyn.private_data: no %s %d", kind, int(label));
  const unsigned i = owner->private_data_index(name);
  if (i == 0) return luaL_error(L, "mbdyn.private_data: %s %d has no private data \"%s\"", kind, int(label), name);
  lua_pushnumber(L, owner->private_data(i));
  return 1;
}

void open_libraries(lua_State* L) {
  if (g_unsafe) {
    luaL_openlibs(L);
    return;
  }
  static const luaL_Reg kSafe[] = {{LUA_GNAME, luaopen_base},        {LUA_MATHLIBNAME, luaopen_math},
                                   {LUA_STRLIBNAME, luaopen_string}, {LUA_TABLIBNAME, luaopen_table},
                                   {LUA_UTF8LIBNAME, luaopen_utf8}};
  for (const luaL_Reg& lib : kSafe) {
    luaL_requiref(L, lib.name, lib.func, 1);
    lua_pop(L, 1);
  }
  // No file access from base, and `load` of text chunks only (binary chunks can crash the VM).
  for (const char* name : {"dofile", "loadfile"}) {
    lua_pushnil(L);
    lua_setglobal(L, name);
  }
  luaL_dostring(L,
                "local load = load\n"
                "_G.load = function(chunk, name, mode, ...)\n"
                "  return load(chunk, name, 't', ...)\n"
                "end\n");
}

}  // namespace

void set_unsafe_libraries(bool on) { g_unsafe = on; }

const char* lua_version() { return LUA_RELEASE; }

void push_node(lua_State* L, const NodeKinematics& n) {
  lua_createtable(L, 0, 4);
  push_vec3(L, n.x_W);
  lua_setfield(L, -2, "X");
  lua_createtable(L, 3, 0);
  for (int i = 0; i < 3; ++i) {
    push_vec3(L, n.R_WN.row(i).transpose());
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "R");
  push_vec3(L, n.v_W);
  lua_setfield(L, -2, "V");
  push_vec3(L, n.w_W);
  lua_setfield(L, -2, "W");
}

LuaEngine::LuaEngine(math::MathParser& math, parser::EntityDirectory* entities, Model* model,
                     const DriveEnvironment* env)
    : math_(math), entities_(entities), model_(model), env_(env) {
  L_ = lua_newstate(&LuaEngine::allocate, this);
  if (!L_) throw std::runtime_error("cannot create the Lua state (out of memory)");
  // Every call is protected: an unprotected error is a bug; say so rather than abort silently.
  lua_atpanic(L_, [](lua_State* L) {
    std::fprintf(stderr, "mbdyn-like: unprotected Lua error: %s\n", lua_tostring(L, -1) ? lua_tostring(L, -1) : "?");
    return 0;
  });
  *static_cast<LuaEngine**>(lua_getextraspace(L_)) = this;
  open_libraries(L_);
  // Deck variables as fallback globals.
  lua_pushglobaltable(L_);
  lua_createtable(L_, 0, 1);
  lua_pushcfunction(L_, global_fallback);
  lua_setfield(L_, -2, "__index");
  lua_setmetatable(L_, -2);
  lua_pop(L_, 1);
  static const luaL_Reg kMbdyn[] = {{"node", mbdyn_node},         {"get", mbdyn_get},
                                    {"set", mbdyn_set},           {"on", mbdyn_on},
                                    {"private_data", mbdyn_private_data}, {nullptr, nullptr}};
  luaL_newlib(L_, kMbdyn);
  lua_createtable(L_, 0, 1);
  lua_pushcfunction(L_, mbdyn_index);
  lua_setfield(L_, -2, "__index");
  lua_setmetatable(L_, -2);
  lua_setglobal(L_, "mbdyn");
  lua_sethook(L_, count_hook, LUA_MASKCOUNT, kHookEvery);
  // Element functions return fresh small tables on every call: young garbage, which the
  // generational collector reclaims cheaply.
  lua_gc(L_, LUA_GCGEN, 0, 0);
  // The message handler of every protected call stays at the stack's bottom (not pushed per call).
  lua_settop(L_, 0);
  lua_pushcfunction(L_, traceback);
}

LuaEngine::~LuaEngine() { lua_close(L_); }

void* LuaEngine::allocate(void* engine, void* block, std::size_t old_size, std::size_t new_size) noexcept {
  auto* e = static_cast<LuaEngine*>(engine);
  // `old_size` is the block's size only when `block` is not null (else it codes the object's type).
  const std::size_t held = block ? old_size : 0;
  if (new_size == 0) {
    std::free(block);
    e->memory_used_ -= held;
    return nullptr;
  }
  // The budget holds inside protected calls only: outside them (arguments pushed, references
  // kept) an allocation failure would be an unprotected error, i.e. an abort.
  if (e->in_call_ && new_size > held && e->memory_used_ - held + new_size > e->memory_limit_) {
    e->memory_refused_ = true;
    return nullptr;  // Lua raises "not enough memory" (after one emergency collection)
  }
  void* grown = std::realloc(block, new_size);
  if (grown) e->memory_used_ = e->memory_used_ - held + new_size;
  return grown;
}

bool LuaEngine::protected_call(int nargs, int nresults) {
  budget_ = instruction_limit_;
  deadline_ = std::chrono::steady_clock::now() +
              std::chrono::duration_cast<std::chrono::steady_clock::duration>(time_limit_);
  memory_refused_ = false;
  const bool was_in_call = in_call_;
  in_call_ = true;
  const bool ok = lua_pcall(L_, nargs, nresults, kTracebackIndex) == LUA_OK;
  in_call_ = was_in_call;
  return ok;
}

void LuaEngine::fail(std::string_view what, const parser::SourceLocation& where) {
  std::string msg = explain_sandbox(lua_tostring(L_, -1) ? lua_tostring(L_, -1) : "(error object is not a string)");
  lua_pop(L_, 1);
  if (memory_refused_)
    msg += fmt::format("\n(the Lua memory budget of {} MB is used up; raise it with `module load: \"lua\", max "
                       "memory, <MB>`)", memory_limit_ >> 20);
  throw EvaluationError(fmt::format("{}: Lua error in {}: {}", where.str(), what, msg));
}

void LuaEngine::load_and_run(std::string_view code, const std::string& chunk_name,
                             const parser::SourceLocation& where, int nresults) {
  const int top = lua_gettop(L_);
  if (luaL_loadbufferx(L_, code.data(), code.size(), chunk_name.c_str(), "t") != LUA_OK) {
    std::string msg = lua_tostring(L_, -1);
    lua_settop(L_, top);
    throw parser::InputError(where, "Lua syntax error: " + msg);
  }
  loading_at_ = where;
  if (!protected_call(0, nresults)) {
    std::string msg = explain_sandbox(lua_tostring(L_, -1) ? lua_tostring(L_, -1) : "(error object is not a string)");
    lua_settop(L_, top);
    if (memory_refused_)
      msg += fmt::format(" (the Lua memory budget of {} MB is used up; raise it with `module load: \"lua\", max "
                         "memory, <MB>`)", memory_limit_ >> 20);
    throw parser::InputError(where, "Lua error while loading: " + msg);
  }
}

void LuaEngine::run_chunk(std::string_view code, const std::string& chunk_name, const parser::SourceLocation& where) {
  load_and_run(code, chunk_name, where, 0);
}

int LuaEngine::compile_expression(std::string_view expr, const parser::SourceLocation& where) {
  // Syntax errors are reported on the expression alone (line and column as the user wrote it).
  const std::string alone = fmt::format("return {}", expr);
  if (luaL_loadbufferx(L_, alone.data(), alone.size(), "=lua drive", "t") != LUA_OK) {
    std::string msg = lua_tostring(L_, -1);
    lua_pop(L_, 1);
    throw parser::InputError(where, "Lua syntax error: " + msg);
  }
  lua_pop(L_, 1);
  // Time is a parameter (no global lookup per call). The newline keeps a trailing `--` comment
  // of the expression from swallowing the `end`.
  load_and_run(fmt::format("return function(Var, Time) return {}\nend", expr), "=lua drive", where, 1);
  return luaL_ref(L_, LUA_REGISTRYINDEX);
}

int LuaEngine::function_ref(const std::string& name, const parser::SourceLocation& where) {
  lua_getglobal(L_, name.c_str());
  if (!lua_isfunction(L_, -1)) {
    lua_pop(L_, 1);
    throw parser::InputError(where, fmt::format("expected the name of a Lua function defined by a `module load: "
                                                "\"lua\"` card above, found \"{}\"",
                                                name));
  }
  return luaL_ref(L_, LUA_REGISTRYINDEX);
}

double LuaEngine::call_number(int ref, double x, std::string_view what, const parser::SourceLocation& where,
                              const double* time) {
  lua_rawgeti(L_, LUA_REGISTRYINDEX, ref);
  lua_pushnumber(L_, x);
  if (time) lua_pushnumber(L_, *time);
  if (!protected_call(time ? 2 : 1, 1)) fail(what, where);
  int isnum = 0;
  const double v = lua_tonumberx(L_, -1, &isnum);
  const int type = lua_type(L_, -1);
  lua_pop(L_, 1);
  if (type != LUA_TNUMBER || !isnum)
    throw EvaluationError(fmt::format("{}: Lua {} returned {} instead of a number", where.str(), what,
                                      lua_typename(L_, type)));
  if (std::isnan(v)) throw EvaluationError(fmt::format("{}: Lua {} returned NaN", where.str(), what));
  return v;
}

namespace {

/// Writes 3 numbers into the table field `key` of the table at the top; false if it is not a table.
bool refill_vec3(lua_State* L, const char* key, const Vec3& v) {
  lua_pushstring(L, key);
  if (lua_rawget(L, -2) != LUA_TTABLE) return lua_pop(L, 1), false;
  for (int i = 0; i < 3; ++i) {
    lua_pushnumber(L, v[i]);
    lua_rawseti(L, -2, i + 1);
  }
  lua_pop(L, 1);
  return true;
}

/// Overwrites the node tables of `nodes_table` (at the top) in place; false where a script changed
/// their structure (then they are built again).
bool refill_nodes(lua_State* L, const std::vector<NodeKinematics>& nodes) {
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (lua_rawgeti(L, -1, static_cast<lua_Integer>(i + 1)) != LUA_TTABLE) return lua_pop(L, 1), false;
    const NodeKinematics& n = nodes[i];
    bool ok = refill_vec3(L, "X", n.x_W) && refill_vec3(L, "V", n.v_W) && refill_vec3(L, "W", n.w_W);
    lua_pushstring(L, "R");
    ok = ok && lua_rawget(L, -2) == LUA_TTABLE;
    for (int r = 0; ok && r < 3; ++r) {
      ok = lua_rawgeti(L, -1, r + 1) == LUA_TTABLE;
      for (int c = 0; ok && c < 3; ++c) {
        lua_pushnumber(L, n.R_WN(r, c));
        lua_rawseti(L, -2, c + 1);
      }
      lua_pop(L, 1);
    }
    lua_pop(L, 2);
    if (!ok) return false;
  }
  return true;
}

}  // namespace

void LuaEngine::call_with_nodes(int ref, double t, const std::vector<NodeKinematics>& nodes, int& nodes_ref,
                                std::string_view what, const parser::SourceLocation& where, int state_ref,
                                int nresults) {
  lua_rawgeti(L_, LUA_REGISTRYINDEX, ref);
  lua_pushnumber(L_, t);
  // The nodes' tables are reused from call to call (no garbage per call): filled in place.
  bool reused = false;
  if (nodes_ref != LUA_NOREF) {
    lua_rawgeti(L_, LUA_REGISTRYINDEX, nodes_ref);
    reused = refill_nodes(L_, nodes);
    if (!reused) {
      lua_pop(L_, 1);
      luaL_unref(L_, LUA_REGISTRYINDEX, nodes_ref);
    }
  }
  if (!reused) {
    lua_createtable(L_, static_cast<int>(nodes.size()), 0);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      push_node(L_, nodes[i]);
      lua_rawseti(L_, -2, static_cast<lua_Integer>(i + 1));
    }
    lua_pushvalue(L_, -1);
    nodes_ref = luaL_ref(L_, LUA_REGISTRYINDEX);
  }
  if (state_ref != LUA_NOREF) lua_rawgeti(L_, LUA_REGISTRYINDEX, state_ref);
  if (!protected_call(state_ref != LUA_NOREF ? 3 : 2, nresults)) fail(what, where);
}

namespace {

void push_copy(lua_State* L, int from, int seen);

/// Copies the entries of table `from` into table `to` (both absolute indices).
void copy_entries(lua_State* L, int from, int to, int seen) {
  luaL_checkstack(L, 6, "copying a nested table");
  lua_pushnil(L);
  while (lua_next(L, from) != 0) {
    const int value = lua_gettop(L);
    push_copy(L, value - 1, seen);
    push_copy(L, value, seen);
    lua_rawset(L, to);
    lua_pop(L, 1);  // the value; the key stays for lua_next
  }
}

/// Pushes a deep copy of the value at `from`; `seen` maps the tables copied so far to their copies.
void push_copy(lua_State* L, int from, int seen) {
  from = lua_absindex(L, from);
  luaL_checkstack(L, 4, "copying a nested table");
  if (lua_type(L, from) != LUA_TTABLE) {
    lua_pushvalue(L, from);
    return;
  }
  lua_pushvalue(L, from);
  if (lua_rawget(L, seen) != LUA_TNIL) return;
  lua_pop(L, 1);
  lua_newtable(L);
  const int copy = lua_gettop(L);
  lua_pushvalue(L, from);
  lua_pushvalue(L, copy);
  lua_rawset(L, seen);
  copy_entries(L, from, copy, seen);
  if (lua_getmetatable(L, from)) lua_setmetatable(L, copy);
}

/// copy_into(from, to): runs protected (memory errors, deep nesting are Lua errors there).
int copy_into(lua_State* L) {
  lua_settop(L, 2);
  // Clear `to` (clearing existing fields during a traversal is allowed, Lua 5.4 manual, next).
  lua_pushnil(L);
  while (lua_next(L, 2) != 0) {
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    lua_pushnil(L);
    lua_rawset(L, 2);
  }
  lua_newtable(L);  // seen, at 3: `from` itself maps to `to`, so that self-references follow
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 2);
  lua_rawset(L, 3);
  copy_entries(L, 1, 2, 3);
  if (lua_getmetatable(L, 1)) lua_setmetatable(L, 2);
  return 0;
}

}  // namespace

int LuaEngine::new_table() {
  lua_newtable(L_);
  return luaL_ref(L_, LUA_REGISTRYINDEX);
}

void LuaEngine::copy_table(int from_ref, int to_ref, std::string_view what, const parser::SourceLocation& where) {
  lua_pushcfunction(L_, copy_into);
  lua_rawgeti(L_, LUA_REGISTRYINDEX, from_ref);
  lua_rawgeti(L_, LUA_REGISTRYINDEX, to_ref);
  if (!protected_call(2, 0)) fail(what, where);
}

void LuaEngine::run_hooks(Event e, double t) {
  static const char* const kNames[] = {"before_step hook", "after_step hook", "output hook"};
  for (const Hook& h : hooks_) {
    if (h.event != e) continue;
    lua_rawgeti(L_, LUA_REGISTRYINDEX, h.ref);
    lua_pushnumber(L_, t);
    if (!protected_call(1, 0)) fail(kNames[static_cast<int>(e)], h.where);
  }
}

std::shared_ptr<LuaEngine> engine_for(parser::ReadContext& ctx, const DriveEnvironment& env) {
  if (auto e = ctx.find_named<LuaEngine>("lua engine", "")) return e;
  Model* model = dynamic_cast<Model*>(ctx.entities());
  auto e = std::make_shared<LuaEngine>(ctx.math(), ctx.entities(), model, &env);
  if (model) model->add_step_observer(e);
  ctx.add_named("lua engine", "", e);
  return e;
}

}  // namespace mbl::scripting

#pragma once
// The one Lua 5.4 state of a run (docs/lua.md): a sandboxed interpreter whose globals fall back on
// the deck's variables (Time, TimeStep, Step and every `set:` variable), with the `mbdyn` table
// (time, node states, deck variables, private data, step hooks) and an instruction budget per call.
//
// Error discipline: Lua raises errors with longjmp, so no C++ exception ever crosses a Lua frame.
// Every call into Lua is protected; its failure becomes an EvaluationError (run time, exit 3) or a
// parser::InputError (reading, exit 2) that names the card whose Lua failed.
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mbdyn-like/core/drive_caller.hpp"
#include "mbdyn-like/core/step_observer.hpp"
#include "mbdyn-like/core/types.hpp"
#include "parser/read_context.hpp"
#include "parser/source.hpp"

struct lua_State;

namespace mbl {
class Model;
}

namespace mbl::scripting {

/// `--lua-unsafe`: scripts get every standard library (io, os, package, require, dofile).
/// Read when the run's state is created.
void set_unsafe_libraries(bool on);

/// Version string of the embedded Lua, e.g. "Lua 5.4.6".
const char* lua_version();

/// A node's kinematics as scripts see it (global frame).
struct NodeKinematics {
  Vec3 x_W, v_W, w_W;
  Mat3 R_WN;
};

class LuaEngine final : public StepObserver {
 public:
  LuaEngine(math::MathParser& math, parser::EntityDirectory* entities, Model* model, const DriveEnvironment* env);
  ~LuaEngine() override;
  LuaEngine(const LuaEngine&) = delete;
  LuaEngine& operator=(const LuaEngine&) = delete;

  lua_State* state() const { return L_; }

  /// Runs a chunk (`module load:`); `chunk_name` is Lua's ("@file.lua" or "=chunk"). A syntax or
  /// run-time error is an InputError at `where` quoting Lua's message (with the chunk's line).
  void run_chunk(std::string_view code, const std::string& chunk_name, const parser::SourceLocation& where);
  /// Compiles `return function(Var, Time) return <expr> end` and keeps the function; returns its ref.
  int compile_expression(std::string_view expr, const parser::SourceLocation& where);
  /// The global function `name` defined by a loaded chunk (InputError at `where` otherwise).
  int function_ref(const std::string& name, const parser::SourceLocation& where);

  /// Calls function `ref` with x (and *time when given) and returns the number it returns; errors
  /// (Lua errors, not a number, NaN) throw EvaluationError naming `what` and `where`.
  double call_number(int ref, double x, std::string_view what, const parser::SourceLocation& where,
                     const double* time = nullptr);

  /// Calls `ref(t, nodes)` with nodes as `mbdyn.node()` tables and leaves its one result on the
  /// stack (the caller reads it and pops it).
  /// `nodes_ref` keeps the nodes' tables between calls (start with kNoRef): they are refilled in
  /// place rather than allocated for every call.
  /// `state_ref` (a table's ref, or kNoRef) is passed as a third argument.
  void call_with_nodes(int ref, double t, const std::vector<NodeKinematics>& nodes, int& nodes_ref,
                       std::string_view what, const parser::SourceLocation& where, int state_ref = kNoRef,
                       int nresults = 1);
  static constexpr int kNoRef = -2;  ///< LUA_NOREF

  /// A new empty table, kept in the registry; returns its ref.
  int new_table();
  /// Makes table `to_ref` a deep copy of table `from_ref` (its own entries cleared first, its
  /// identity kept): nested tables are copied (shared and cyclic ones as often as the original
  /// holds them), metatables shared, other values (functions included) taken as they are.
  void copy_table(int from_ref, int to_ref, std::string_view what, const parser::SourceLocation& where);

  /// Instructions one call (or chunk) may execute before it is stopped as a runaway.
  void set_instruction_limit(long long n) { instruction_limit_ = n; }
  /// Wall time one call (or chunk) may take, library functions included (checked with the
  /// instruction budget, every kHookEvery instructions).
  void set_time_limit(double seconds) { time_limit_ = std::chrono::duration<double>(seconds); }
  /// Memory the whole Lua state may hold (its allocator refuses more: Lua's "not enough memory").
  void set_memory_limit(std::size_t bytes) { memory_limit_ = bytes; }
  static constexpr long long kDefaultInstructions = 100'000'000;
  static constexpr double kDefaultSeconds = 10.0;
  static constexpr std::size_t kDefaultMemoryMB = 1024;

  /// `mbdyn.on(event, fn)` hooks (StepObserver).
  void before_step(double t) override { run_hooks(Event::BeforeStep, t); }
  void after_step(double t) override { run_hooks(Event::AfterStep, t); }
  void after_output(double t) override { run_hooks(Event::Output, t); }

  /// Throws EvaluationError with the Lua error on the stack top (popped), for `what` at `where`.
  [[noreturn]] void fail(std::string_view what, const parser::SourceLocation& where);

  enum class Event { BeforeStep, AfterStep, Output };
  struct Hook {
    Event event;
    int ref;
    parser::SourceLocation where;
  };

  // Used by the C functions of the `mbdyn` table.
  math::MathParser& math() { return math_; }
  parser::EntityDirectory* entities() { return entities_; }
  Model* model() { return model_; }
  const DriveEnvironment* env() const { return env_; }
  std::vector<Hook>& hooks() { return hooks_; }
  const parser::SourceLocation& loading_at() const { return loading_at_; }
  long long& budget() { return budget_; }
  /// Whether the running call is past its wall-time budget (the count hook asks).
  bool past_deadline() const { return std::chrono::steady_clock::now() > deadline_; }
  double time_limit_seconds() const { return time_limit_.count(); }

 private:
  /// lua_pcall with the traceback handler and a fresh instruction budget; returns true on success.
  bool protected_call(int nargs, int nresults);
  void load_and_run(std::string_view code, const std::string& chunk_name, const parser::SourceLocation& where,
                    int nresults);
  void run_hooks(Event e, double t);

  static constexpr int kTracebackIndex = 1;  ///< the message handler's stack slot
  lua_State* L_ = nullptr;
  math::MathParser& math_;
  parser::EntityDirectory* entities_;
  Model* model_;
  const DriveEnvironment* env_;
  std::vector<Hook> hooks_;
  parser::SourceLocation loading_at_;  ///< the `module load:` card being run
  /// The state's allocator: lua_Alloc with the memory budget.
  static void* allocate(void* engine, void* block, std::size_t old_size, std::size_t new_size) noexcept;

  long long instruction_limit_ = kDefaultInstructions;
  long long budget_ = 0;
  std::chrono::duration<double> time_limit_{kDefaultSeconds};
  std::chrono::steady_clock::time_point deadline_;
  std::size_t memory_limit_ = kDefaultMemoryMB << 20;
  std::size_t memory_used_ = 0;
  bool memory_refused_ = false;  ///< the allocator refused a block since the last call began
  bool in_call_ = false;         ///< inside protected_call (where the memory budget holds)
};

/// The run's engine, created on first use and kept in the ReadContext. Its `mbdyn` table sees the
/// model read into `ctx` (ReadContext::entities()); `env` is the drives' clock.
std::shared_ptr<LuaEngine> engine_for(parser::ReadContext& ctx, const DriveEnvironment& env);

/// Pushes a `mbdyn.node()` table.
void push_node(lua_State* L, const NodeKinematics& n);

}  // namespace mbl::scripting

#pragma once
// The math language of the input manual §2.2 (MBDyn's MathParser): typed values (bool, integer,
// real, string), variables with `const`/`ifndef` declarations, namespaces, statement lists, every
// operator and built-in function. Any numeric argument of any card is evaluated here.
//
// Interface owned by the parser team; implementation in parser/math/*.cpp.
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>

#include "parser/source.hpp"

namespace mbl::math {

enum class Type { Bool, Integer, Real, String };

/// A typed value. Arithmetic follows MBDyn: integer op integer stays integer (so 1/2 == 0),
/// mixing with real promotes to real, `+` on strings concatenates.
class Value {
 public:
  Value() : v_(0.0) {}
  Value(bool b) : v_(b) {}
  Value(std::int64_t i) : v_(i) {}
  Value(int i) : v_(static_cast<std::int64_t>(i)) {}
  Value(double d) : v_(d) {}
  Value(std::string s) : v_(std::move(s)) {}

  Type type() const { return static_cast<Type>(v_.index()); }
  bool is_number() const { return type() != Type::String; }
  /// Numeric conversions (bool -> 0/1); throw std::invalid_argument on strings.
  double to_real() const;
  std::int64_t to_integer() const;  ///< real values are truncated as MBDyn does
  bool to_bool() const;
  const std::string& to_string_value() const;  ///< throws unless String
  /// Printed as MBDyn prints it in the symbol table (reals with %g-like formatting).
  std::string str() const;

  const std::variant<bool, std::int64_t, double, std::string>& raw() const { return v_; }

 private:
  std::variant<bool, std::int64_t, double, std::string> v_;
};

class MathParser;

/// A compiled expression: parse once, evaluate many times (string drives evaluate each step).
class Expression {
 public:
  virtual ~Expression() = default;
  virtual Value eval(MathParser& env) const = 0;
  /// Throws parser::InputError at the first variable or function the expression reads that
  /// `env` does not define now (nor the expression declares before reading it).
  virtual void check_names(MathParser& env) const = 0;
};

/// Built-in or registered function: receives evaluated arguments. Errors: throw any
/// std::exception (its what() becomes the message, located at the call) or parser::InputError.
using Function = std::function<Value(std::span<const Value> args)>;

/// §2.2.2 plugin variables, `set: [<plugin>, <var>, <arg>, ...];`. The factory receives the
/// arguments after the variable name (trimmed, quotes removed) and returns the getter that is
/// called every time the variable is read. Throw parser::InputError (or any std::exception)
/// for bad arguments.
using PluginGetter = std::function<Value()>;
using PluginFactory = std::function<PluginGetter(std::span<const std::string> args,
                                                 const parser::SourceLocation& where)>;

/// Thrown by the built-in stop(condition, code) when condition is true (e.g. a string drive
/// "...+stop(Time>2.,0)"), or by a file driver's `bailout` (input manual §7.1.1): the run must
/// end with the last converged step, successfully when exit_code == 0.
class StopRequest : public std::runtime_error {
 public:
  explicit StopRequest(int exit_code, const std::string& why = {})
      : std::runtime_error(!why.empty()       ? why
                           : exit_code == 0 ? "stop() requested: success"
                                            : "stop() requested: failure"),
        exit_code(exit_code) {}
  int exit_code;
};

class MathParser {
 public:
  MathParser();  ///< with the predefined constants (TRUE, FALSE, pi, e, Time, Var, ...)
  ~MathParser();
  MathParser(const MathParser&) = delete;
  MathParser& operator=(const MathParser&) = delete;

  /// Evaluates `text` (an expression or a parenthesised statement list) that starts at `where`
  /// in the deck. Errors throw parser::InputError at the exact column inside `text`.
  /// Blank text (or only comments) gives real 0, the manual's value of an empty field.
  Value evaluate(std::string_view text, const parser::SourceLocation& where);

  /// Parses `text` once; the result can be evaluated later against the current variables.
  std::shared_ptr<const Expression> compile(std::string_view text,
                                            const parser::SourceLocation& where);

  /// A string drive's expression (§2.6.35) as MBDyn (>= 1.7, expression trees) builds it: of a
  /// top-level statement list `s1; s2; ...; sn` only the last statement is kept and evaluated
  /// at every call; s1..sn-1 are executed once, now (so variables they assign keep their
  /// read-time values). Observed in MBDyn's output of tests/joints/rod/rodprestrain.
  std::shared_ptr<const Expression> compile_drive_string(std::string_view text,
                                                         const parser::SourceLocation& where);

  /// Checks the names of every string drive compiled so far that is still in use
  /// (Expression::check_names): called once the whole deck is read, so that a `set:` after the
  /// drive still defines its variables, as at run time; an undefined name is an input error
  /// before the run (and under --check), not a failure at the first step.
  void check_run_time_names();

  /// Executes the argument text of a `set:` card: a declaration
  /// `[const|ifndef] [bool|integer|real|string] name = expr`, an assignment or an expression.
  void execute_set(std::string_view text, const parser::SourceLocation& where);

  /// Declares a variable before the deck is read (`mbdyn-like -D name[:type]=value`), as a
  /// `set:` would; `origin` says where ("on the command line (-D K=1e3)") in the error of a later
  /// plain declaration of the same name. Without a type, the value's own type (integer, real,
  /// bool; a value that is not an expression is a string); with type string, the text as it is.
  void define(std::string_view name, std::string_view type, std::string_view value,
              const std::string& origin);

  /// Defines or overwrites a (non-const) variable, e.g. Time, TimeStep, Step, Var.
  void set_variable(std::string_view name, Value value);
  /// Current value of a variable (namespace-qualified names allowed), or nullptr.
  const Value* find_variable(std::string_view name) const;

  /// Registers `ns::name(...)` (e.g. "model", "distance"); ns empty = global function.
  void register_function(std::string_view ns, std::string_view name, Function f);

  /// `print: symbol table;` — the format of MBDyn's .log "Symbol table:" section: one line
  /// per symbol, "  [const ]<type> <name> = <value>", sorted by name (no header line).
  void print_symbol_table(std::ostream& os) const;

  /// Registers the plugin `[<name>, ...]` (e.g. "dof", "node", "element"); names ignore case.
  void register_plugin(std::string_view name, PluginFactory factory);
  /// When true, declaring an existing (non-const) variable again re-declares it instead of
  /// being an error (default false: MBDyn rejects redefinitions unless told otherwise).
  void set_allow_redefinition(bool allow);
  /// Where print() writes (default std::cout).
  void set_print_stream(std::ostream& os);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace mbl::math

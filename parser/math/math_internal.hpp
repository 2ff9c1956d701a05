#pragma once
// Internals of the math language (input manual §2.1-2.2): the variable table, the function
// registry, the value operations and the compiled expression tree. Only parser/math/*.cpp and
// tests/math include this header.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "parser/math/math_parser.hpp"

namespace mbl::math::detail {

/// An error of the math language with no position yet (thrown by value operations and built-in
/// functions); the tree node that catches it adds its own position.
class MathError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An error at `offset` characters into the expression text; turned into parser::InputError by
/// the compiled expression that owns the text.
struct LocatedError {
  std::size_t offset;
  std::string message;
};

/// Range of MBDyn's `integer` (a C int, manual §2.1.3): INT_MIN..INT_MAX. Integer literals and
/// integer arithmetic leaving this range are errors (never silent wrap-around as in MBDyn, and
/// never silent promotion to real: the manual asks for `1e15` or `1000000000000000.` instead).
inline constexpr std::int64_t kIntMax = 2147483647;
inline constexpr std::int64_t kIntMin = -2147483647 - 1;
inline constexpr std::int64_t kRandMax = 2147483647;

// ---- values ------------------------------------------------------------------------------------

const char* type_name(Type t);
/// Short description of a value for messages: `real 1.5`, `string "abc"`.
std::string describe(const Value& v);
/// Checks that an integer result fits MBDyn's integer range.
std::int64_t checked_int(std::int64_t v, std::string_view what);
/// MBDyn's conversion of a value to string in `+` and string(): integers as %ld, reals as %e.
std::string to_text(const Value& v);
/// Conversion applied when a value is stored into a variable of type `t` (declaration,
/// assignment): reals are truncated into integers, non-zero numbers become true, numbers are
/// printed into strings; a string into a number is an error.
Value convert_for_store(Type t, const Value& v);

enum class BinOp { Add, Sub, Mul, Div, Mod, Pow, Gt, Ge, Eq, Le, Lt, Ne, And, Or, Xor };
enum class UnOp { Neg, Plus, Not };
const char* op_text(BinOp op);
Value apply(BinOp op, const Value& a, const Value& b);
Value apply(UnOp op, const Value& a);
bool truth(const Value& v, std::string_view what);  ///< a number used as a condition

// ---- symbol table ------------------------------------------------------------------------------

struct Variable {
  std::string name;
  Value value;  ///< always of the declared type (variables are strongly typed)
  bool is_const = false;
  std::uint64_t declared_by = 0;   ///< id of the declaration node that created it (0 = API)
  std::function<Value()> plugin;   ///< §2.2.2 plugin variable: evaluated at every read
  std::string defined_outside;     ///< e.g. "on the command line (-D K=1e3)"; empty: in the deck

  Value read() const { return plugin ? plugin() : value; }
  Type type() const { return plugin ? read().type() : value.type(); }
};

struct FunctionEntry {
  Function f;
  int min_args = -1;  ///< -1: not checked (registered functions check their own arguments)
  int max_args = -1;
};

}  // namespace mbl::math::detail

namespace mbl::math {

struct MathParser::Impl {
  explicit Impl(MathParser& owner);

  static Impl& of(MathParser& p) { return *p.impl_; }
  static const Impl& of(const MathParser& p) { return *p.impl_; }

  detail::Variable* find(std::string_view name);
  /// Function `name` of namespace `ns` ("" and "default" are the default namespace), or null.
  const detail::FunctionEntry* find_function(std::string_view ns, std::string_view name) const;
  void add_function(std::string_view ns, std::string_view name, detail::FunctionEntry e);
  detail::Variable& add_constant(std::string name, Value v);

  MathParser& owner;
  /// Sorted by name as MBDyn's table (the symbol table prints in this order). unique_ptr keeps
  /// the address of a variable stable, so compiled expressions may cache it.
  std::map<std::string, std::unique_ptr<detail::Variable>, std::less<>> variables;
  std::map<std::string, std::map<std::string, detail::FunctionEntry, std::less<>>, std::less<>>
      functions;
  std::map<std::string, PluginFactory, std::less<>> plugins;
  bool allow_redefinition = false;
  /// True while an expression is evaluated once at read time (`set:`, a card's argument): a
  /// real division by zero is then an error at the operator instead of MBDyn's IEEE inf/nan,
  /// which run-time expressions (string drives) keep.
  bool eager = false;
  /// Expressions kept for run time (string drives), whose names are checked once the deck is
  /// read (MathParser::check_run_time_names).
  std::vector<std::weak_ptr<const Expression>> run_time;
  std::mt19937 rng{0u};  ///< fixed default seed: runs are reproducible (MBDyn seeds with time)
  std::ostream* print_stream = nullptr;  ///< print(): std::cout unless redirected
};

}  // namespace mbl::math

namespace mbl::math::detail {

// ---- compiled tree -----------------------------------------------------------------------------

class Node {
 public:
  explicit Node(std::size_t offset) : offset_(offset) {}
  virtual ~Node() = default;
  virtual Value eval(MathParser::Impl& env) const = 0;
  /// True when the value never changes (literal); lets the compiler fold constant subtrees.
  virtual bool is_literal() const { return false; }
  /// Throws LocatedError at the first variable or function this tree reads that `env` does not
  /// define and the tree does not declare before (`declared`: names declared so far).
  virtual void check_names(MathParser::Impl& /*env*/, std::set<std::string, std::less<>>& /*declared*/) const {}
  std::size_t offset() const { return offset_; }

 private:
  std::size_t offset_;  ///< position of the construct in the expression text (for errors)
};
using NodePtr = std::shared_ptr<const Node>;

/// Parses `text` (a statement list) into a tree; throws LocatedError on syntax errors.
/// `env` is used for compile-time work: arity checks and the <type>_eval functions.
NodePtr parse_statements(std::string_view text, MathParser::Impl& env,
                         const parser::SourceLocation& where);

/// Registers the built-in functions of tables 2.4 and 2.5 into `env`.
void register_builtins(MathParser::Impl& env);

}  // namespace mbl::math::detail

// `lua` drive callers (docs/lua.md):
//   lua, "<expression>"                                  a Lua expression of Time, Var, deck variables
//   lua, function, "<name>" [, derivative, "<name>"]     a function f(x) of a loaded chunk
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "elements/drives/drive_reader.hpp"
#include "scripting/lua_engine.hpp"

namespace mbl::scripting {
namespace {

class LuaDrive final : public DriveCaller {
 public:
  struct Params {
    std::shared_ptr<LuaEngine> engine;
    bool expression = false;  ///< `lua, "<expr>"` (reads Time) rather than a function of x
    std::string text;         ///< the expression or the function's name
    int ref = 0;
    std::string derivative_name;
    int derivative_ref = -1;
    parser::SourceLocation where;
  };
  explicit LuaDrive(Params p) : p_(std::move(p)) {}

  double value(double x) const override { return value_at(x, 0.0); }
  bool has_derivative() const override { return true; }
  /// The user's derivative function, else a central difference; an expression's Time is shifted
  /// with its input when the input is the time (as `string` drives do).
  double derivative(double x) const override {
    if (p_.derivative_ref >= 0) return p_.engine->call_number(p_.derivative_ref, x, "drive derivative", p_.where);
    const bool shift_time = p_.expression && p_.engine->env() && p_.engine->env()->time == x;
    const double h = 1e-6 * std::max(1.0, std::abs(x));
    const double dt = shift_time ? h : 0.0;
    return (value_at(x + h, dt) - value_at(x - h, -dt)) / (2.0 * h);
  }
  std::string describe() const override {
    if (p_.expression) return fmt::format("lua, \"{}\"", p_.text);
    std::string s = fmt::format("lua, function, \"{}\"", p_.text);
    if (p_.derivative_ref >= 0) s += fmt::format(", derivative, \"{}\"", p_.derivative_name);
    return s;
  }

 private:
  /// The expression form receives Time (shifted by `time_shift`) as an argument.
  double value_at(double x, double time_shift) const {
    if (!p_.expression) return p_.engine->call_number(p_.ref, x, "drive", p_.where);
    const double time = (p_.engine->env() ? p_.engine->env()->time : 0.0) + time_shift;
    return p_.engine->call_number(p_.ref, x, "drive", p_.where, &time);
  }

  Params p_;
};

DriveCallerPtr read_lua_drive(parser::CardReader& in, DriveEnvironment& env) {
  LuaDrive::Params p;
  p.engine = engine_for(in.context(), env);
  if (in.keyword_is("function")) {
    p.where = in.location();
    p.text = in.string();
    p.ref = p.engine->function_ref(p.text, p.where);
    if (in.keyword_is("derivative")) {
      const parser::SourceLocation at = in.location();
      p.derivative_name = in.string();
      p.derivative_ref = p.engine->function_ref(p.derivative_name, at);
    }
  } else {
    p.expression = true;
    p.where = in.location();
    p.text = in.string();
    p.ref = p.engine->compile_expression(p.text, p.where);
  }
  return std::make_shared<LuaDrive>(std::move(p));
}

const bool registered = (drives::register_drive_caller_type("lua", read_lua_drive), true);

}  // namespace
}  // namespace mbl::scripting

// Values of the math language and the operators on them (input manual §2.1.3, §2.2, table 2.3).
// Semantics follow MBDyn: bool and integer operands combine as integers (1/2 == 0), any real
// operand promotes to real, `+` with a string on the left concatenates (numbers printed as %ld
// or %e), comparisons and logical operators work on numbers and give bool; integer ^ integer
// gives a real (MBDyn 2024), a real divided by zero gives inf or nan.
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <sstream>

#include <fmt/format.h>

#include "parser/math/math_internal.hpp"

namespace mbl::math {

namespace {
[[noreturn]] void not_a_number(const Value& v, std::string_view expected) {
  throw std::invalid_argument(fmt::format("expected {}, found {}", expected, detail::describe(v)));
}
}  // namespace

double Value::to_real() const {
  switch (type()) {
    case Type::Bool: return std::get<bool>(v_) ? 1.0 : 0.0;
    case Type::Integer: return static_cast<double>(std::get<std::int64_t>(v_));
    case Type::Real: return std::get<double>(v_);
    case Type::String: break;
  }
  not_a_number(*this, "a number");
}

std::int64_t Value::to_integer() const {
  switch (type()) {
    case Type::Bool: return std::get<bool>(v_) ? 1 : 0;
    case Type::Integer: return std::get<std::int64_t>(v_);
    case Type::Real: {
      const double d = std::get<double>(v_);
      // Truncation toward zero as a C cast; out of range (or NaN) is an error, not UB.
      if (!(d > static_cast<double>(detail::kIntMin) - 1.0 &&
            d < static_cast<double>(detail::kIntMax) + 1.0))
        throw std::invalid_argument(
            fmt::format("real {} does not fit an integer (INT_MIN..INT_MAX)", str()));
      return static_cast<std::int64_t>(d);
    }
    case Type::String: break;
  }
  not_a_number(*this, "a number");
}

bool Value::to_bool() const {
  switch (type()) {
    case Type::Bool: return std::get<bool>(v_);
    case Type::Integer: return std::get<std::int64_t>(v_) != 0;
    case Type::Real: return std::get<double>(v_) != 0.0;
    case Type::String: break;
  }
  not_a_number(*this, "a number");
}

const std::string& Value::to_string_value() const {
  if (type() != Type::String) not_a_number(*this, "a string");
  return std::get<std::string>(v_);
}

std::string Value::str() const {
  switch (type()) {
    case Type::Bool: return std::get<bool>(v_) ? "1" : "0";
    case Type::Integer: return std::to_string(std::get<std::int64_t>(v_));
    case Type::Real: {
      // MBDyn streams reals with the default precision (6 significant digits, %g-like) and
      // appends a '.' when the text has none, so that the value reads back as a real.
      std::ostringstream os;
      os << std::get<double>(v_);
      std::string s = os.str();
      if (s.find('.') == std::string::npos) s += '.';
      return s;
    }
    case Type::String: return '"' + std::get<std::string>(v_) + '"';
  }
  return {};
}

namespace detail {

const char* type_name(Type t) {
  switch (t) {
    case Type::Bool: return "bool";
    case Type::Integer: return "integer";
    case Type::Real: return "real";
    case Type::String: return "string";
  }
  return "?";
}

std::string describe(const Value& v) { return fmt::format("{} {}", type_name(v.type()), v.str()); }

std::int64_t checked_int(std::int64_t v, std::string_view what) {
  if (v < kIntMin || v > kIntMax)
    throw MathError(fmt::format(
        "integer overflow in {}: {} is outside INT_MIN..INT_MAX (use real values, e.g. 1e15)",
        what, v));
  return v;
}

std::string to_text(const Value& v) {
  char buf[64];
  switch (v.type()) {
    case Type::Bool:
    case Type::Integer:
      std::snprintf(buf, sizeof buf, "%" PRId64, v.to_integer());
      return buf;
    case Type::Real:
      std::snprintf(buf, sizeof buf, "%e", v.to_real());
      return buf;
    case Type::String: return v.to_string_value();
  }
  return {};
}

Value convert_for_store(Type t, const Value& v) {
  if (v.type() == t) return v;
  if (t == Type::String) return Value(to_text(v));
  if (v.type() == Type::String)
    throw MathError(fmt::format("cannot store {} into a {} variable", describe(v), type_name(t)));
  switch (t) {
    case Type::Bool: return Value(v.to_bool());
    case Type::Integer:
      try {
        return Value(v.to_integer());
      } catch (const std::invalid_argument& e) {
        throw MathError(e.what());
      }
    case Type::Real: return Value(v.to_real());
    case Type::String: break;
  }
  return v;
}

const char* op_text(BinOp op) {
  switch (op) {
    case BinOp::Add: return "+";
    case BinOp::Sub: return "-";
    case BinOp::Mul: return "*";
    case BinOp::Div: return "/";
    case BinOp::Mod: return "%";
    case BinOp::Pow: return "^";
    case BinOp::Gt: return ">";
    case BinOp::Ge: return ">=";
    case BinOp::Eq: return "==";
    case BinOp::Le: return "<=";
    case BinOp::Lt: return "<";
    case BinOp::Ne: return "!=";
    case BinOp::And: return "&&";
    case BinOp::Or: return "||";
    case BinOp::Xor: return "~|";
  }
  return "?";
}

namespace {

bool integral(const Value& v) { return v.type() == Type::Bool || v.type() == Type::Integer; }

void require_number(BinOp op, const Value& v, const char* side) {
  if (v.type() == Type::String)
    throw MathError(fmt::format("operator {} expects a number as {} operand, found {}",
                                op_text(op), side, describe(v)));
}

// MBDyn 2024 (evaluator_impl.h, EE_Power): integer ^ integer (or bool ^ bool) is computed in
// floating point and gives a *real*, so `9^2/10^2` is 0.81; a result that is not exactly an
// integer (2^-1, 2^31) is an error there ("overflows (use explicit/implicit cast?)").
Value integral_pow(std::int64_t base, std::int64_t exp) {
  const double value = std::pow(static_cast<double>(base), static_cast<double>(exp));
  if (!(value >= static_cast<double>(kIntMin) && value <= static_cast<double>(kIntMax)) ||
      value != std::trunc(value))
    throw MathError(fmt::format(
        "integer overflow in {} ^ {}: the result is not an integer (use a real base, e.g. {}.)",
        base, exp, base));
  return Value(value);
}

}  // namespace

bool truth(const Value& v, std::string_view what) {
  if (v.type() == Type::String)
    throw MathError(fmt::format("{} expects a number, found {}", what, describe(v)));
  return v.to_bool();
}

Value apply(BinOp op, const Value& a, const Value& b) {
  if (op == BinOp::Add && a.type() == Type::String) return Value(a.to_string_value() + to_text(b));
  require_number(op, a, "left");
  require_number(op, b, "right");
  const bool ints = integral(a) && integral(b);
  switch (op) {
    case BinOp::Add:
    case BinOp::Sub:
    case BinOp::Mul:
      if (ints) {
        const std::int64_t x = a.to_integer(), y = b.to_integer();
        std::int64_t r = 0;
        const bool ovf = op == BinOp::Add   ? __builtin_add_overflow(x, y, &r)
                         : op == BinOp::Sub ? __builtin_sub_overflow(x, y, &r)
                                            : __builtin_mul_overflow(x, y, &r);
        const std::string what = fmt::format("{} {} {}", x, op_text(op), y);
        if (ovf) throw MathError(fmt::format("integer overflow in {} (use real values, e.g. {}.)", what, x));
        return Value(checked_int(r, what));
      } else {
        const double x = a.to_real(), y = b.to_real();
        return Value(op == BinOp::Add ? x + y : op == BinOp::Sub ? x - y : x * y);
      }
    case BinOp::Div:
      // MBDyn 2024 divides a real by zero in IEEE arithmetic (inf, nan: EE_Divide only prints a
      // note); an integer division by zero would trap there, here it is an error.
      if (ints) {
        if (b.to_integer() == 0)
          throw MathError(fmt::format("division by zero in {} / {}", a.str(), b.str()));
        const std::int64_t x = a.to_integer(), y = b.to_integer();
        return Value(checked_int(x == INT64_MIN && y == -1 ? INT64_MAX : x / y, "division"));
      }
      return Value(a.to_real() / b.to_real());
    case BinOp::Mod:
      if (!ints)
        throw MathError(fmt::format("operator % expects integer operands, found {} % {}",
                                    describe(a), describe(b)));
      if (b.to_integer() == 0)
        throw MathError(fmt::format("division by zero in {} % {}", a.str(), b.str()));
      if (b.to_integer() == -1) return Value(std::int64_t{0});
      return Value(a.to_integer() % b.to_integer());
    case BinOp::Pow: {
      // Only integer ^ integer and bool ^ bool take the integral path; mixed kinds (integer ^
      // bool) and reals are plain pow(), IEEE results included (MBDyn 2024 does not check them).
      if (a.type() == b.type() && ints) return integral_pow(a.to_integer(), b.to_integer());
      return Value(std::pow(a.to_real(), b.to_real()));
    }
    case BinOp::Gt:
    case BinOp::Ge:
    case BinOp::Eq:
    case BinOp::Le:
    case BinOp::Lt:
    case BinOp::Ne: {
      int cmp;  // -1, 0, 1; 2 = unordered (NaN)
      if (ints) {
        const std::int64_t x = a.to_integer(), y = b.to_integer();
        cmp = x < y ? -1 : (x > y ? 1 : 0);
      } else {
        const double x = a.to_real(), y = b.to_real();
        cmp = x < y ? -1 : (x > y ? 1 : (x == y ? 0 : 2));
      }
      switch (op) {
        case BinOp::Gt: return Value(cmp == 1);
        case BinOp::Ge: return Value(cmp == 1 || cmp == 0);
        case BinOp::Eq: return Value(cmp == 0);
        case BinOp::Le: return Value(cmp == -1 || cmp == 0);
        case BinOp::Lt: return Value(cmp == -1);
        default: return Value(cmp != 0);
      }
    }
    case BinOp::And: return Value(a.to_bool() && b.to_bool());
    case BinOp::Or: return Value(a.to_bool() || b.to_bool());
    case BinOp::Xor: return Value(a.to_bool() != b.to_bool());
  }
  return Value();
}

Value apply(UnOp op, const Value& a) {
  switch (op) {
    case UnOp::Plus: return a;
    case UnOp::Not:
      // MBDyn: !"" is true, !"text" is false.
      if (a.type() == Type::String) return Value(a.to_string_value().empty());
      return Value(!a.to_bool());
    case UnOp::Neg:
      if (a.type() == Type::String)
        throw MathError(fmt::format("unary - expects a number, found {}", describe(a)));
      if (a.type() == Type::Real) return Value(-a.to_real());
      return Value(checked_int(-a.to_integer(), "unary -"));
  }
  return a;
}

}  // namespace detail
}  // namespace mbl::math

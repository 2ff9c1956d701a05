// Built-in functions of the default namespace: input manual table 2.4 (mathematical functions)
// and table 2.5 (casts; the <type>_eval variants are folded at compile time by the grammar).
// Result types follow the manual's tables (floor/ceil/round give integer, the others real).
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>

#include <fmt/format.h>

#include "parser/console.hpp"
#include "parser/math/math_internal.hpp"

namespace mbl::math::detail {

namespace {

using Args = std::span<const Value>;

double arg(Args a, std::size_t i) { return a[i].to_real(); }

[[noreturn]] void domain_error(std::string_view what, double x) {
  throw MathError(fmt::format("expected {}, found {}", what, Value(x).str()));
}

/// Real -> integer for floor/ceil/round, which return integer (manual table 2.4).
Value to_int_result(double r) {
  if (!(r >= static_cast<double>(kIntMin) && r <= static_cast<double>(kIntMax)))
    throw MathError(fmt::format("result {} does not fit an integer (INT_MIN..INT_MAX)", Value(r).str()));
  return Value(static_cast<std::int64_t>(r));
}

/// sprintf(format, value): exactly one conversion is allowed and it must suit the value, so
/// that no format can read a wrong argument (C's printf would be undefined behaviour).
std::string format_one(const std::string& format, const Value& v) {
  std::string spec;  // the conversion rebuilt with our own length modifier
  std::string before, after;
  bool found = false;
  for (std::size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      (found ? after : before) += format[i];
      continue;
    }
    if (i + 1 < format.size() && format[i + 1] == '%') {
      (found ? after : before) += '%';
      ++i;
      continue;
    }
    if (found) throw MathError("expected a format with one conversion, found more than one '%'");
    found = true;
    std::size_t j = i + 1;
    spec.assign(1, '%');  // (not `= "%"`: GCC 12 gives a false -Wrestrict there)
    while (j < format.size() && std::string_view("-+ #0'").find(format[j]) != std::string_view::npos)
      spec += format[j++];
    // field width and precision, bounded so that no format can ask for gigabytes
    auto number = [&] {
      std::string digits;
      while (j < format.size() && std::isdigit(static_cast<unsigned char>(format[j]))) digits += format[j++];
      if (digits.size() > 4 || (!digits.empty() && std::stoi(digits) > 1024))
        throw MathError(fmt::format("expected a field width or precision up to 1024, found {}", digits));
      spec += digits;
    };
    number();
    if (j < format.size() && format[j] == '.') {
      spec += format[j++];
      number();
    }
    while (j < format.size() && std::string_view("hlLqjzt").find(format[j]) != std::string_view::npos) ++j;
    if (j >= format.size()) throw MathError("expected a conversion character after '%', found end of format");
    const char c = format[j];
    if (std::string_view("diouxXc").find(c) != std::string_view::npos) {
      if (v.type() == Type::String || v.type() == Type::Real)
        throw MathError(fmt::format("expected an integer for %{}, found {}", c, describe(v)));
      spec += (c == 'c') ? std::string("c") : std::string("ll") + c;
    } else if (std::string_view("eEfFgGaA").find(c) != std::string_view::npos) {
      if (v.type() == Type::String)
        throw MathError(fmt::format("expected a number for %{}, found {}", c, describe(v)));
      spec += c;
    } else if (c == 's') {
      spec += c;
    } else {
      throw MathError(fmt::format("expected a conversion (d i o u x X c e E f F g G a A s), found '%{}'", c));
    }
    i = j;
  }
  std::string out = before;
  if (found) {
    const char c = spec.back();
    char small[256];
    auto run = [&](auto x) {
      int n = std::snprintf(small, sizeof small, spec.c_str(), x);
      if (n < 0) throw MathError("invalid format");
      if (static_cast<std::size_t>(n) < sizeof small) return std::string(small, n);
      std::string big(static_cast<std::size_t>(n) + 1, '\0');
      std::snprintf(big.data(), big.size(), spec.c_str(), x);
      big.resize(static_cast<std::size_t>(n));
      return big;
    };
    std::string text;
    if (c == 's') {
      const std::string s = to_text(v);
      text = run(s.c_str());
    } else if (c == 'c') {
      text = run(static_cast<int>(v.to_integer()));
    } else if (std::string_view("eEfFgGaA").find(c) != std::string_view::npos) {
      text = run(v.to_real());
    } else if (c == 'd' || c == 'i') {
      text = run(static_cast<long long>(v.to_integer()));
    } else {
      text = run(static_cast<unsigned long long>(v.to_integer()));
    }
    out += text;
  }
  out += after;
  return out;
}

}  // namespace

void register_builtins(MathParser::Impl& env) {
  auto add = [&](const char* name, int nargs, Function f) {
    env.add_function("", name, FunctionEntry{std::move(f), nargs, nargs});
  };
  auto real1 = [&](const char* name, double (*f)(double)) {
    add(name, 1, [f](Args a) { return Value(f(arg(a, 0))); });
  };
  auto real2 = [&](const char* name, double (*f)(double, double)) {
    add(name, 2, [f](Args a) { return Value(f(arg(a, 0), arg(a, 1))); });
  };

  real1("sin", [](double x) { return std::sin(x); });
  real1("cos", [](double x) { return std::cos(x); });
  real1("tan", [](double x) { return std::tan(x); });
  real1("sinh", [](double x) { return std::sinh(x); });
  real1("cosh", [](double x) { return std::cosh(x); });
  real1("tanh", [](double x) { return std::tanh(x); });
  real1("asinh", [](double x) { return std::asinh(x); });
  real1("atan", [](double x) { return std::atan(x); });
  real1("exp", [](double x) { return std::exp(x); });
  real1("abs", [](double x) { return std::fabs(x); });
  real1("asin", [](double x) {
    if (!(x >= -1.0 && x <= 1.0)) domain_error("an argument in [-1, 1]", x);
    return std::asin(x);
  });
  real1("acos", [](double x) {
    if (!(x >= -1.0 && x <= 1.0)) domain_error("an argument in [-1, 1]", x);
    return std::acos(x);
  });
  real1("acosh", [](double x) {
    if (!(x >= 1.0)) domain_error("an argument >= 1", x);
    return std::acosh(x);
  });
  real1("atanh", [](double x) {
    if (!(x > -1.0 && x < 1.0)) domain_error("an argument in (-1, 1)", x);
    return std::atanh(x);
  });
  real1("log", [](double x) {
    if (!(x > 0.0)) domain_error("a positive argument", x);
    return std::log(x);
  });
  real1("log10", [](double x) {
    if (!(x > 0.0)) domain_error("a positive argument", x);
    return std::log10(x);
  });
  real1("sqrt", [](double x) {
    if (!(x >= 0.0)) domain_error("a non-negative argument", x);
    return std::sqrt(x);
  });
  // Co-functions: ctan = 1/tan, ctanh = 1/tanh, actan = atan2(1, x), actanh = atanh(1/x).
  real1("ctan", [](double x) {
    const double t = std::tan(x);
    if (t == 0.0) domain_error("an argument that is not a multiple of pi", x);
    return 1.0 / t;
  });
  real1("ctanh", [](double x) {
    if (x == 0.0) domain_error("a non-zero argument", x);
    return 1.0 / std::tanh(x);
  });
  real1("actan", [](double x) { return std::atan2(1.0, x); });
  real1("actanh", [](double x) {
    if (!(std::fabs(x) > 1.0)) domain_error("an argument with |x| > 1", x);
    return std::atanh(1.0 / x);
  });
  real1("sign", [](double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); });
  real1("step", [](double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? 0.0 : 0.5); });
  real1("ramp", [](double x) { return x > 0.0 ? x : 0.0; });
  real1("par", [](double x) { return x > 0.0 ? x * x : 0.0; });

  real2("atan2", [](double y, double x) { return std::atan2(y, x); });
  real2("actan2", [](double a, double b) { return std::atan2(b, a); });
  real2("copysign", [](double x, double y) { return std::copysign(x, y); });
  real2("max", [](double x, double y) { return std::max(x, y); });
  real2("min", [](double x, double y) { return std::min(x, y); });
  real2("sramp", [](double x, double sat) { return x < 0.0 ? 0.0 : (x > sat ? sat : x); });

  add("floor", 1, [](Args a) { return to_int_result(std::floor(arg(a, 0))); });
  add("ceil", 1, [](Args a) { return to_int_result(std::ceil(arg(a, 0))); });
  // rint: nearest integer, ties to even under the default rounding mode (as MBDyn).
  add("round", 1, [](Args a) { return to_int_result(std::rint(arg(a, 0))); });

  // in_xy(l, x, u): x inside [l, u] with l/u included (e) or excluded (l).
  add("in_ll", 3, [](Args a) { return Value(arg(a, 0) < arg(a, 1) && arg(a, 1) < arg(a, 2)); });
  add("in_le", 3, [](Args a) { return Value(arg(a, 0) < arg(a, 1) && arg(a, 1) <= arg(a, 2)); });
  add("in_el", 3, [](Args a) { return Value(arg(a, 0) <= arg(a, 1) && arg(a, 1) < arg(a, 2)); });
  add("in_ee", 3, [](Args a) { return Value(arg(a, 0) <= arg(a, 1) && arg(a, 1) <= arg(a, 2)); });

  MathParser::Impl* self = &env;
  add("rand", 0, [self](Args) {
    return Value(static_cast<std::int64_t>(
        std::uniform_int_distribution<std::int64_t>(0, kRandMax)(self->rng)));
  });
  add("random", 0, [self](Args) {
    return Value(std::uniform_real_distribution<double>(-1.0, 1.0)(self->rng));
  });
  add("seed", 1, [self](Args a) {
    self->rng.seed(static_cast<std::uint32_t>(a[0].to_integer()));
    return Value(std::int64_t{0});
  });
  add("print", 1, [self](Args a) {
    std::ostream& os = self->print_stream ? *self->print_stream : console_out();
    if (a[0].type() == Type::String)
      os << a[0].to_string_value() << '\n';
    else
      os << a[0].str() << '\n';
    return Value(std::int64_t{0});
  });
  add("sprintf", 2, [](Args a) { return Value(format_one(a[0].to_string_value(), a[1])); });
  add("stop", 2, [](Args a) {
    if (truth(a[0], "stop()")) throw StopRequest(static_cast<int>(a[1].to_integer()));
    return Value(std::int64_t{0});
  });

  // Casts (table 2.5): reals truncate into integers, non-zero numbers are true, numbers are
  // printed into strings (%ld / %e); a string never converts to a number.
  auto cast = [&](const char* name, Type t) {
    Function f = [t](Args a) {
      if (t != Type::String && a[0].type() == Type::String)
        throw MathError(fmt::format("cannot convert {} to {}", describe(a[0]), type_name(t)));
      return convert_for_store(t, a[0]);
    };
    add(name, 1, f);
    add((std::string(name) + "_eval").c_str(), 1, f);
  };
  cast("bool", Type::Bool);
  cast("integer", Type::Integer);
  cast("real", Type::Real);
  cast("string", Type::String);
}

}  // namespace mbl::math::detail

// Readers of scalar functions (input manual §2.7): registry keyword -> reader, the
// `scalar function:` card and `(ScalarFunction)` arguments.
#include <fmt/format.h>

#include <cmath>
#include <map>
#include <numbers>

#include "elements/drives/scalar_function.hpp"
#include "parser/card_reader.hpp"
#include "parser/errors.hpp"
#include "parser/read_context.hpp"

namespace mbl::drives {

namespace {

using Registry = std::map<std::string, ScalarFunctionReader>;

/// `[ base, b, ] [ coefficient, c, ] m` of exp and log.
struct BaseCoefMult {
  double base = std::numbers::e, coef = 1.0, mult = 1.0;
};

BaseCoefMult read_base_coef_mult(parser::CardReader& in) {
  BaseCoefMult r;
  if (in.keyword_is("base")) {
    const parser::SourceLocation at = in.location();
    r.base = in.real();
    if (!(r.base > 0.0) || r.base == 1.0)
      throw parser::InputError(at, fmt::format("expected a positive base other than 1, found {}",
                                               r.base));
  }
  if (in.keyword_is("coefficient")) r.coef = in.real();
  r.mult = in.real();
  return r;
}

/// `[ do not extrapolate, [ bailout, ] ] x, y, x, y, ... [, end ]`
struct Table {
  std::vector<double> x, y;
  Extrapolation mode = Extrapolation::Extrapolate;
};

Table read_table(parser::CardReader& in, std::size_t min_points) {
  Table t;
  if (in.keyword_is("do not extrapolate"))
    t.mode = in.keyword_is("bailout") ? Extrapolation::Bailout : Extrapolation::HoldEnds;
  const parser::SourceLocation first = in.location();
  while (!in.at_end() && !in.keyword_is("end")) {
    const parser::SourceLocation at = in.location();
    const double x = in.real();
    if (!t.x.empty() && !(x > t.x.back()))
      throw parser::InputError(at, fmt::format("expected an abscissa greater than {}, found {}",
                                               t.x.back(), x));
    t.x.push_back(x);
    t.y.push_back(in.real());
  }
  if (t.x.size() < min_points)
    throw parser::InputError(first, fmt::format("expected at least {} points, found {}",
                                                min_points, t.x.size()));
  return t;
}

ScalarFunctionPtr binary(parser::CardReader& in, BinaryScalarFunction::Op op) {
  auto f1 = read_scalar_function(in);
  auto f2 = read_scalar_function(in);
  return std::make_shared<BinaryScalarFunction>(op, std::move(f1), std::move(f2));
}

Registry& registry() {
  static Registry r = [] {
    Registry reg;
    reg["const"] = [](parser::CardReader& in) -> ScalarFunctionPtr {
      return std::make_shared<ConstScalarFunction>(in.real());
    };
    reg["exp"] = [](parser::CardReader& in) -> ScalarFunctionPtr {
      const auto p = read_base_coef_mult(in);
      return std::make_shared<ExpScalarFunction>(p.base, p.coef, p.mult);
    };
    reg["log"] = [](parser::CardReader& in) -> ScalarFunctionPtr {
      const auto p = read_base_coef_mult(in);
      return std::make_shared<LogScalarFunction>(p.base, p.coef, p.mult);
    };
    reg["pow"] = [](parser::CardReader& in) -> ScalarFunctionPtr {
      return std::make_shared<PowScalarFunction>(in.real());
    };
    reg["sin"] = [](parser::CardReader& in) -> ScalarFunctionPtr {
      const double a = in.real(), w = in.real(), phi = in.real();
      return std::make_shared<HarmonicScalarFunction>(false, a, w, phi);
    };
    reg["cos"] = [](parser::CardReader& in) -> ScalarFunctionPtr {
      const double a = in.real(), w = in.real(), phi = in.real();
      return std::make_shared<HarmonicScalarFunction>(true, a, w, phi);
    };
    reg["linear"] = [](parser::CardReader& in) -> ScalarFunctionPtr {
      const double x1 = in.real(), y1 = in.real();
      const parser::SourceLocation at = in.location();
      const double x2 = in.real(), y2 = in.real();
      if (x2 == x1)
        throw parser::InputError(at, fmt::format("the two points of a linear scalar function "
                                                 "need different abscissae (both {})", x1));
      if (x2 < x1)
        return std::make_shared<MultilinearScalarFunction>(std::vector{x2, x1},
                                                           std::vector{y2, y1});
      return std::make_shared<MultilinearScalarFunction>(std::vector{x1, x2},
                                                         std::vector{y1, y2});
    };
    reg["multilinear"] = [](parser::CardReader& in) -> ScalarFunctionPtr {
      Table t = read_table(in, 2);
      return std::make_shared<MultilinearScalarFunction>(std::move(t.x), std::move(t.y), t.mode);
    };
    reg["cubic spline"] = [](parser::CardReader& in) -> ScalarFunctionPtr {
      Table t = read_table(in, 3);
      return std::make_shared<CubicSplineScalarFunction>(std::move(t.x), std::move(t.y), t.mode);
    };
    reg["chebychev"] = [](parser::CardReader& in) -> ScalarFunctionPtr {
      const double a = in.real();
      const parser::SourceLocation at = in.location();
      const double b = in.real();
      if (!(b > a))
        throw parser::InputError(at, fmt::format("expected an upper bound greater than {}, "
                                                 "found {}", a, b));
      const bool extrapolate = !in.keyword_is("do not extrapolate");
      std::vector<double> c;
      while (!in.at_end() && !in.keyword_is("end")) c.push_back(in.real());
      if (c.empty()) in.fail_expected("at least one chebychev coefficient");
      return std::make_shared<ChebychevScalarFunction>(a, b, std::move(c), extrapolate);
    };
    reg["sum"] = [](parser::CardReader& in) { return binary(in, BinaryScalarFunction::Op::Sum); };
    reg["sub"] = [](parser::CardReader& in) { return binary(in, BinaryScalarFunction::Op::Sub); };
    reg["mul"] = [](parser::CardReader& in) { return binary(in, BinaryScalarFunction::Op::Mul); };
    reg["div"] = [](parser::CardReader& in) { return binary(in, BinaryScalarFunction::Op::Div); };
    reg["powfun"] = [](parser::CardReader& in) {
      return binary(in, BinaryScalarFunction::Op::Pow);
    };
    return reg;
  }();
  return r;
}

const ScalarFunctionReader* match_type(parser::CardReader& in) {
  for (const auto& [keyword, reader] : registry())
    if (in.keyword_is(keyword)) return &reader;
  return nullptr;
}

/// Defines `name`: stores it for later `"name"` uses and exposes it to the math language as
/// model::sf::name(x [, order]) (§2.2 model namespace): the value, or the derivative of that order.
void define(parser::ReadContext& ctx, const std::string& name, ScalarFunctionPtr f) {
  ctx.add_named("scalar function", name, std::const_pointer_cast<ScalarFunction>(f));
  ctx.math().register_function("model", "sf::" + name, [f](std::span<const math::Value> args) {
    if (args.empty() || args.size() > 2)
      throw std::invalid_argument("a scalar function takes its argument and, optionally, a derivative order");
    const double x = args[0].to_real();
    if (args.size() == 1) return math::Value(f->value(x));
    const double order = args[1].to_real();
    if (order < 0 || order != std::floor(order))
      throw std::invalid_argument("the derivative order of a scalar function is a non-negative integer");
    if (order == 0) return math::Value(f->value(x));
    if (!f->has_derivative()) throw std::invalid_argument("this scalar function has no derivative");
    return math::Value(f->derivative(x, static_cast<int>(order)));
  });
}

ScalarFunctionPtr read_definition(parser::CardReader& in, const std::string& name,
                                  const parser::SourceLocation& name_at, bool type_optional) {
  ScalarFunctionPtr f;
  try {
    if (const auto* reader = match_type(in))
      f = (*reader)(in);
    else if (type_optional)
      f = std::make_shared<ConstScalarFunction>(in.real());  // §2.7: default type const
    else
      throw parser::InputError(name_at, fmt::format("scalar function \"{}\" is not defined", name));
  } catch (const std::invalid_argument& e) {
    throw parser::InputError(name_at, e.what());
  }
  define(in.context(), name, f);
  return f;
}

}  // namespace

void register_scalar_function_type(const std::string& keyword, ScalarFunctionReader reader) {
  registry()[keyword] = std::move(reader);
}

ScalarFunctionPtr read_scalar_function(parser::CardReader& in) {
  const parser::SourceLocation at = in.location();
  const std::string name = in.string();
  if (auto f = in.context().find_named<ScalarFunction>("scalar function", name)) return f;
  return read_definition(in, name, at, false);
}

void read_scalar_function_card(parser::CardReader& in) {
  const parser::SourceLocation at = in.location();
  const std::string name = in.string();
  if (in.context().find_named<ScalarFunction>("scalar function", name))
    throw parser::InputError(at, fmt::format("scalar function \"{}\" is already defined", name));
  read_definition(in, name, at, true);
  in.expect_end();
}

}  // namespace mbl::drives

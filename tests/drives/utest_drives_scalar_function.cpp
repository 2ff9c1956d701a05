// Scalar functions (manual §2.7): formulas, derivatives, the card reader, and the scalar
// function drive.
#include <cmath>
#include <numbers>

#include "drive_test_util.hpp"
#include "elements/drives/scalar_function.hpp"

namespace mbl::drives::test {
namespace {

/// Reads every `scalar function:` card of `deck`.
void define(DriveDeck& k, const std::string& deck) {
  k.read_cards(deck, [](parser::CardReader& c) { read_scalar_function_card(c); });
}

ScalarFunctionPtr sf(DriveDeck& k, const std::string& name) {
  return k.ctx.find_named<ScalarFunction>("scalar function", name);
}

void expect_sf_derivative(const ScalarFunction& f, double x, double tol = 1e-6) {
  const double h = 1e-6;
  const double fd = (f.value(x + h) - f.value(x - h)) / (2 * h);
  EXPECT_NEAR(f.derivative(x, 1), fd, tol * std::max(1.0, std::abs(fd))) << "at x=" << x;
}

TEST(DrivesScalarFunction, ElementaryFunctions) {
  DriveDeck k;
  define(k, R"(
    scalar function: "c", const, 1.e-2;
    scalar function: "c_default", 3.;
    scalar function: "e", exp, 1.e-2;
    scalar function: "e2", exp, base, 2., coefficient, 3., 0.5;
    scalar function: "l", log, 1.e-2;
    scalar function: "l10", log, base, 10., coefficient, 2., 3.;
    scalar function: "p", pow, 3.;
    scalar function: "s", sin, 2., 3., .5;
    scalar function: "k", cos, 2., 3., .5;
  )");
  EXPECT_DOUBLE_EQ(sf(k, "c")->value(5.0), 1e-2);
  EXPECT_DOUBLE_EQ(sf(k, "c_default")->value(5.0), 3.0);
  EXPECT_NEAR(sf(k, "e")->value(2.0), 1e-2 * std::exp(2.0), 1e-15);
  EXPECT_NEAR(sf(k, "e2")->value(1.0), 0.5 * 8.0, 1e-13);
  EXPECT_NEAR(sf(k, "l")->value(3.0), 1e-2 * std::log(3.0), 1e-15);
  EXPECT_NEAR(sf(k, "l10")->value(50.0), 3.0 * 2.0, 1e-13);
  EXPECT_DOUBLE_EQ(sf(k, "p")->value(2.0), 8.0);
  EXPECT_NEAR(sf(k, "s")->value(1.0), 2.0 * std::sin(3.5), 1e-14);
  EXPECT_NEAR(sf(k, "k")->value(1.0), 2.0 * std::cos(3.5), 1e-14);
  for (const char* n : {"e", "e2", "l", "l10", "p", "s", "k"}) expect_sf_derivative(*sf(k, n), 1.3);
  EXPECT_NEAR(sf(k, "p")->derivative(2.0, 2), 12.0, 1e-12);
  EXPECT_THROW(sf(k, "l")->value(-1.0), std::domain_error);
}

TEST(DrivesScalarFunction, LinearAndMultilinear) {
  DriveDeck k;
  define(k, R"(
    scalar function: "lin", linear, 0., 1., 2., 5.;
    scalar function: "ml", multilinear, -20., 1., -10., 0.1, 0., 0., 10., 0.1, 20., 1.;
    scalar function: "hold", multilinear, do not extrapolate, 0., 0., 1., 1., end;
    scalar function: "bail", multilinear, do not extrapolate, bailout, 0., 0., 1., 1.;
  )");
  EXPECT_DOUBLE_EQ(sf(k, "lin")->value(1.0), 3.0);
  EXPECT_DOUBLE_EQ(sf(k, "lin")->derivative(7.0, 1), 2.0);
  EXPECT_NEAR(sf(k, "ml")->value(-15.0), 0.55, 1e-15);
  EXPECT_NEAR(sf(k, "ml")->value(5.0), 0.05, 1e-15);
  EXPECT_NEAR(sf(k, "ml")->value(30.0), 1.9, 1e-14);  // extrapolated with the end slope
  EXPECT_NEAR(sf(k, "ml")->derivative(15.0, 1), 0.09, 1e-15);
  EXPECT_DOUBLE_EQ(sf(k, "hold")->value(3.0), 1.0);
  EXPECT_DOUBLE_EQ(sf(k, "hold")->derivative(3.0, 1), 0.0);
  EXPECT_THROW(sf(k, "bail")->value(1.5), std::domain_error);
}

TEST(DrivesScalarFunction, NaturalCubicSpline) {
  DriveDeck k;
  // (0,0), (1,1), (2,0) with natural ends: m(1) = -3, so s(x) = 1.5 x - 0.5 x^3 on [0, 1]
  // and s(2 - x) = s(x).
  define(k, R"(scalar function: "cs", cubic spline, 0., 0., 1., 1., 2., 0.;)");
  const auto f = sf(k, "cs");
  EXPECT_NEAR(f->value(0.5), 1.5 * 0.5 - 0.5 * 0.125, 1e-14);
  EXPECT_NEAR(f->value(1.5), 1.5 * 0.5 - 0.5 * 0.125, 1e-14);
  EXPECT_NEAR(f->value(1.0), 1.0, 1e-14);
  EXPECT_NEAR(f->derivative(1.0, 2), -3.0, 1e-12);
  EXPECT_NEAR(f->derivative(2.0, 2), 0.0, 1e-12);  // natural end
  expect_sf_derivative(*f, 0.3);
  expect_sf_derivative(*f, 1.7);
  // interpolates every point
  define(k, R"(scalar function: "cs2", cubic spline, 0., 1., 1., 3., 2.5, 2., 4., 0., end;)");
  const auto g = sf(k, "cs2");
  EXPECT_NEAR(g->value(1.0), 3.0, 1e-13);
  EXPECT_NEAR(g->value(2.5), 2.0, 1e-13);
  // continuous first derivative at an inner point
  EXPECT_NEAR(g->derivative(1.0 - 1e-9, 1), g->derivative(1.0 + 1e-9, 1), 1e-6);
}

TEST(DrivesScalarFunction, Chebychev) {
  DriveDeck k;
  // on [0, 2]: xi = x - 1; f = 1 + 2 T1 + 3 T2 = 1 + 2 xi + 3 (2 xi^2 - 1)
  define(k, R"(scalar function: "ch", chebychev, 0., 2., 1., 2., 3.;)");
  const auto f = sf(k, "ch");
  auto ref = [](double x) { const double xi = x - 1.0; return 1 + 2 * xi + 3 * (2 * xi * xi - 1); };
  EXPECT_NEAR(f->value(0.3), ref(0.3), 1e-14);
  EXPECT_NEAR(f->value(1.7), ref(1.7), 1e-14);
  EXPECT_NEAR(f->derivative(1.7, 1), 2 + 12 * 0.7, 1e-13);
  define(k, R"(scalar function: "ch4", chebychev, -1., 1., do not extrapolate, 0., 0., 0., 0., 1.;)");
  EXPECT_NEAR(sf(k, "ch4")->value(0.5), 8 * 0.0625 - 8 * 0.25 + 1, 1e-14);  // T4
  expect_sf_derivative(*sf(k, "ch4"), 0.3);
  EXPECT_THROW(sf(k, "ch4")->value(1.5), std::domain_error);
}

TEST(DrivesScalarFunction, BinaryCombinations) {
  DriveDeck k;
  define(k, R"(
    scalar function: "first_function", const, 1.;
    scalar function: "second_function", const, 2.;
    scalar function: "sum_function", sum, "first_function", "second_function";
    scalar function: "sub_function", sub, "first_function", "second_function";
    scalar function: "mul_function", mul, "first_function", "second_function";
    scalar function: "div_function", div, "first_function", "second_function";
    scalar function: "powfun_function", powfun, "second_function", "second_function";
    scalar function: "x2", mul, "id", linear, 0., 0., 1., 1., "id";
    scalar function: "zero", const, 0.;
    scalar function: "bad", div, "first_function", "zero";
  )");
  EXPECT_DOUBLE_EQ(sf(k, "sum_function")->value(0.0), 3.0);
  EXPECT_DOUBLE_EQ(sf(k, "sub_function")->value(0.0), -1.0);
  EXPECT_DOUBLE_EQ(sf(k, "mul_function")->value(0.0), 2.0);
  EXPECT_DOUBLE_EQ(sf(k, "div_function")->value(0.0), 0.5);
  EXPECT_DOUBLE_EQ(sf(k, "powfun_function")->value(0.0), 4.0);
  // "id" is defined inline the first time, reused the second time
  EXPECT_DOUBLE_EQ(sf(k, "x2")->value(3.0), 9.0);
  EXPECT_DOUBLE_EQ(sf(k, "x2")->derivative(3.0, 1), 6.0);
  EXPECT_THROW(sf(k, "bad")->value(1.0), std::domain_error);
}

TEST(DrivesScalarFunction, DriveAndMathNamespace) {
  DriveDeck k;
  define(k, R"(scalar function: "this_is_a_test", multilinear,
      -20., 1., -10., 0.1, 0., 0., 10., 0.1, 20., 1.;)");
  auto d = k.drive("scalar function, \"this_is_a_test\"");
  EXPECT_NEAR(d->value(15.0), 0.55, 1e-15);
  expect_derivative(*d, 12.0);
  // inline definition (manual's alternative syntax)
  auto inl = k.drive("scalar function, \"inline\", multilinear, 0., 0., 1., 2.");
  EXPECT_DOUBLE_EQ(inl->value(0.25), 0.5);
  // model::sf::<name>(x) in expressions
  EXPECT_NEAR(k.math.evaluate("model::sf::this_is_a_test(15.)", {}).to_real(), 0.55, 1e-15);
  // model::sf::<name>(x, order): the value (0) or a derivative; slope (1 - 0.1) / 10 at 15
  EXPECT_NEAR(k.math.evaluate("model::sf::this_is_a_test(15., 0)", {}).to_real(), 0.55, 1e-15);
  EXPECT_NEAR(k.math.evaluate("model::sf::this_is_a_test(15., 1)", {}).to_real(), 0.09, 1e-15);
  EXPECT_ANY_THROW(k.math.evaluate("model::sf::this_is_a_test(15., 0.5)", {}));
  EXPECT_ANY_THROW(k.math.evaluate("model::sf::this_is_a_test(15., 1, 2)", {}));
}

TEST(DrivesScalarFunction, Errors) {
  DriveDeck k;
  auto e = input_error([&] { k.drive("scalar function, \"nope\""); });
  EXPECT_NE(e.message().find("scalar function \"nope\" is not defined"), std::string::npos);
  EXPECT_EQ(e.where().line, 1);
  EXPECT_EQ(e.where().column, 21);
  auto e2 = input_error([&] { define(k, "scalar function: \"m\", multilinear, 1., 0., 0., 1.;"); });
  EXPECT_NE(e2.message().find("expected an abscissa greater than 1"), std::string::npos);
  EXPECT_EQ(e2.where().column, 44);
  auto e3 = input_error([&] {
    define(k, "scalar function: \"d\", const, 1.;\nscalar function: \"d\", const, 2.;");
  });
  EXPECT_EQ(e3.where().line, 2);
}

}  // namespace
}  // namespace mbl::drives::test

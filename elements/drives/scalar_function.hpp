#pragma once
// Scalar functions (input manual §2.7): f(x) with derivatives, defined by `scalar function:`
// cards and used by the `scalar function` drive, constitutive laws, friction, ... Readers are a
// registry keyword -> reader (scalar_function_reader.cpp).
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mbl::parser {
class CardReader;
}

namespace mbl::drives {

class ScalarFunction {
 public:
  virtual ~ScalarFunction() = default;
  virtual double value(double x) const = 0;
  virtual bool has_derivative() const { return true; }
  /// d^order f / dx^order (order >= 1); functions that cannot throw std::domain_error.
  virtual double derivative(double x, int order = 1) const = 0;
};

using ScalarFunctionPtr = std::shared_ptr<const ScalarFunction>;

/// f(x) = c
class ConstScalarFunction final : public ScalarFunction {
 public:
  explicit ConstScalarFunction(double c) : c_(c) {}
  double value(double) const override { return c_; }
  double derivative(double, int) const override { return 0.0; }

 private:
  double c_;
};

/// f(x) = m base^(c x)  (eq. 2.30)
class ExpScalarFunction final : public ScalarFunction {
 public:
  ExpScalarFunction(double base, double coef, double mult);
  double value(double x) const override;
  double derivative(double x, int order) const override;

 private:
  double log_base_, coef_, mult_;
};

/// f(x) = m log_base(c x)  (eq. 2.31); the argument must be positive.
class LogScalarFunction final : public ScalarFunction {
 public:
  LogScalarFunction(double base, double coef, double mult);
  double value(double x) const override;
  double derivative(double x, int order) const override;

 private:
  double log_base_, coef_, mult_;
};

/// f(x) = x^p  (eq. 2.32)
class PowScalarFunction final : public ScalarFunction {
 public:
  explicit PowScalarFunction(double p) : p_(p) {}
  double value(double x) const override;
  double derivative(double x, int order) const override;

 private:
  double p_;
};

/// f(x) = A sin(w x + phi) or A cos(w x + phi)  (eq. 2.33-2.34)
class HarmonicScalarFunction final : public ScalarFunction {
 public:
  HarmonicScalarFunction(bool cosine, double a, double w, double phi)
      : cosine_(cosine), a_(a), w_(w), phi_(phi) {}
  double value(double x) const override;
  double derivative(double x, int order) const override;

 private:
  bool cosine_;
  double a_, w_, phi_;
};

/// What tabulated functions do outside their points (§2.7 cubic spline, multilinear).
enum class Extrapolation { Extrapolate, HoldEnds, Bailout };

/// `multilinear`: linear interpolation (and extrapolation with the end slopes by default); `linear`
/// is the two-point case (eq. 2.35).
class MultilinearScalarFunction final : public ScalarFunction {
 public:
  MultilinearScalarFunction(std::vector<double> x, std::vector<double> y,
                            Extrapolation mode = Extrapolation::Extrapolate);
  double value(double x) const override;
  double derivative(double x, int order) const override;

 private:
  std::size_t segment(double x) const;  ///< i such that x in [x_i, x_{i+1}] (clamped)
  std::vector<double> x_, y_;
  Extrapolation mode_;
};

/// `cubic spline`: natural cubic spline (zero second derivative at the ends); outside the
/// points the end cubic is extrapolated unless told otherwise.
class CubicSplineScalarFunction final : public ScalarFunction {
 public:
  CubicSplineScalarFunction(std::vector<double> x, std::vector<double> y,
                            Extrapolation mode = Extrapolation::Extrapolate);
  double value(double x) const override;
  double derivative(double x, int order) const override;

 private:
  std::size_t segment(double x) const;
  double eval(double x, int order) const;
  std::vector<double> x_, y_, m_;  ///< m_ = second derivatives at the points
  Extrapolation mode_;
};

/// `chebychev` (eq. 2.36-2.51): sum c_k T_k(xi), xi = (2x - (a + b)) / (b - a).
class ChebychevScalarFunction final : public ScalarFunction {
 public:
  ChebychevScalarFunction(double a, double b, std::vector<double> c, bool extrapolate)
      : a_(a), b_(b), c_(std::move(c)), extrapolate_(extrapolate) {}
  double value(double x) const override;
  double derivative(double x, int order) const override;

 private:
  double a_, b_;
  std::vector<double> c_;
  bool extrapolate_;
};

/// `sum`, `sub`, `mul`, `div`, `powfun` of two scalar functions.
class BinaryScalarFunction final : public ScalarFunction {
 public:
  enum class Op { Sum, Sub, Mul, Div, Pow };
  BinaryScalarFunction(Op op, ScalarFunctionPtr f1, ScalarFunctionPtr f2)
      : op_(op), f1_(std::move(f1)), f2_(std::move(f2)) {}
  double value(double x) const override;
  bool has_derivative() const override {
    return f1_->has_derivative() && f2_->has_derivative();
  }
  double derivative(double x, int order) const override;

 private:
  Op op_;
  ScalarFunctionPtr f1_, f2_;
};

// ---- readers --------------------------------------------------------------------------------

/// `(ScalarFunction)`: `"name"` of a defined function, or `"name", <type>, <args>` defining it
/// (also registered under that name). Errors are InputErrors at the argument.
ScalarFunctionPtr read_scalar_function(parser::CardReader& in);

/// The `scalar function: "name", [type,] args;` card (type defaults to const).
void read_scalar_function_card(parser::CardReader& in);

/// Reader of the arguments that follow a scalar function type keyword.
using ScalarFunctionReader = std::function<ScalarFunctionPtr(parser::CardReader&)>;
/// Adds a type (plugins, later families); keywords are compared like CardReader::keyword_is.
void register_scalar_function_type(const std::string& keyword, ScalarFunctionReader reader);

}  // namespace mbl::drives

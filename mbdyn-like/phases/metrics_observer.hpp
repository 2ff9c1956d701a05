#pragma once
// Run metrics (`mbdyn-like --metric 'peak=max(abs(model::xposition(2)))'`, used by `sweep`): a
// math-language expression evaluated after every converged step (its output written), reduced to one number by max, min, final or rms. A step observer of the model: the
// phases know nothing of it.
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "mbdyn-like/core/step_observer.hpp"
#include "parser/math/math_parser.hpp"

namespace mbl {

struct Metric {
  enum class Reduce { Max, Min, Final, Rms };
  std::string name;
  Reduce reduce = Reduce::Final;
  std::string expression;
  std::shared_ptr<const math::Expression> compiled;
  // Running reduction.
  double value = 0.0;
  double sum_of_squares = 0.0;
  long samples = 0;
  double result() const;
};

/// Parses "name=max|min|final|rms(<expression>)"; throws std::invalid_argument saying what is
/// wrong. The expression is compiled against `math` (model:: functions, deck variables).
Metric parse_metric(const std::string& text, math::MathParser& math);

class MetricsObserver final : public StepObserver {
 public:
  MetricsObserver(math::MathParser& math, std::vector<Metric> metrics)
      : math_(math), metrics_(std::move(metrics)) {}
  void after_output(double t) override;
  const std::vector<Metric>& metrics() const { return metrics_; }
  /// "name value" lines (value with 17 significant digits; nan where never evaluated).
  void write(std::ostream& os) const;

 private:
  math::MathParser& math_;
  std::vector<Metric> metrics_;
};

}  // namespace mbl

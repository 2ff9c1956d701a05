#pragma once
// Run metrics (`mbdyn-like --metric 'peak=max(abs(model::xposition(2)))'`, used by `sweep`): a
// math-language expression evaluated after the initial solution and after every converged step,
// reduced to one number by max, min, final or rms. It wraps the run's other output, so the
// phases know nothing of it.
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "mbdyn-like/phases/run_output.hpp"
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

class MetricsOutput final : public RunOutput {
 public:
  MetricsOutput(RunOutput& inner, math::MathParser& math, std::vector<Metric> metrics)
      : inner_(inner), math_(math), metrics_(std::move(metrics)) {}
  void setup(Model& model) override { inner_.setup(model); }
  void derivatives_done(double t, int iterations, double residual_error) override {
    inner_.derivatives_done(t, iterations, residual_error);
  }
  void eigenanalysis(Model& model, const EigenSolution& solution) override {
    inner_.eigenanalysis(model, solution);
  }
  void derivatives(Model& model, double t, int iterations, double residual_error,
                   bool simulation_follows) override;
  void dummy_steps(Model& model, double t_derivatives, int derivatives_iterations,
                   double derivatives_error, double t, double dt, int iterations,
                   double residual_error) override;
  void step(Model& model, long step, double t, double dt, const integrators::StepResult& r) override;
  void close() override { inner_.close(); }
  const std::vector<Metric>& metrics() const { return metrics_; }
  /// "name value" lines (value with 17 significant digits; nan where never evaluated).
  void write(std::ostream& os) const;

 private:
  void sample();
  RunOutput& inner_;
  math::MathParser& math_;
  std::vector<Metric> metrics_;
};

}  // namespace mbl

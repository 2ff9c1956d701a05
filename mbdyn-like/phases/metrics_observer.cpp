#include "mbdyn-like/phases/metrics_observer.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <limits>
#include <ostream>
#include <stdexcept>

namespace mbl {

double Metric::result() const {
  if (samples == 0) return std::numeric_limits<double>::quiet_NaN();
  return reduce == Reduce::Rms ? std::sqrt(sum_of_squares / double(samples)) : value;
}

Metric parse_metric(const std::string& text, math::MathParser& math) {
  const std::size_t eq = text.find('=');
  const std::size_t open = text.find('(', eq == std::string::npos ? 0 : eq);
  if (eq == std::string::npos || eq == 0 || open == std::string::npos || text.back() != ')')
    throw std::invalid_argument(fmt::format(
        "--metric {}: expected name=max|min|final|rms(<expression>)", text));
  Metric m;
  m.name = text.substr(0, eq);
  for (unsigned char c : m.name)
    if (!std::isalnum(c) && c != '_')
      throw std::invalid_argument(fmt::format("--metric {}: expected a name of letters, digits "
                                              "and _, found \"{}\"", text, m.name));
  std::string reduce = text.substr(eq + 1, open - eq - 1);
  if (reduce == "max") m.reduce = Metric::Reduce::Max;
  else if (reduce == "min") m.reduce = Metric::Reduce::Min;
  else if (reduce == "final") m.reduce = Metric::Reduce::Final;
  else if (reduce == "rms") m.reduce = Metric::Reduce::Rms;
  else
    throw std::invalid_argument(fmt::format("--metric {}: expected max, min, final or rms, found \"{}\"",
                                            text, reduce));
  m.expression = text.substr(open + 1, text.size() - open - 2);
  auto source = std::make_shared<parser::SourceFile>();
  source->path = "<metric " + m.name + ">";
  source->text = m.expression;
  m.compiled = math.compile(source->text, parser::SourceLocation{source, 1, 1});
  return m;
}

void MetricsObserver::after_output(double) {
  for (Metric& m : metrics_) {
    double v;
    try {
      v = m.compiled->eval(math_).to_real();
    } catch (const std::exception& e) {
      throw EvaluationError(fmt::format("metric {}: {}", m.name, e.what()));
    }
    const bool first = m.samples == 0;
    switch (m.reduce) {
      case Metric::Reduce::Max: m.value = first ? v : std::max(m.value, v); break;
      case Metric::Reduce::Min: m.value = first ? v : std::min(m.value, v); break;
      case Metric::Reduce::Final: m.value = v; break;
      case Metric::Reduce::Rms: m.sum_of_squares += v * v; break;
    }
    ++m.samples;
  }
}

void MetricsObserver::write(std::ostream& os) const {
  for (const Metric& m : metrics_) os << m.name << ' ' << fmt::format("{:.17g}", m.result()) << '\n';
}

}  // namespace mbl

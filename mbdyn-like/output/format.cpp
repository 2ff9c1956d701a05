#include "mbdyn-like/output/format.hpp"

#include <fmt/format.h>

#include <charconv>
#include <string_view>
#include <iterator>
#include <sstream>

namespace mbl::output {

namespace {

/// `v` as printf's "%.*e" (`format` scientific) or "%.*g" (general) would write it: std::to_chars
/// with a precision is specified as printf's conversion (C++ [charconv.to.chars]), exact and 5x
/// faster than snprintf or fmt (whose 'e' is %e too); formatting was 3 % of a flexible run.
std::string_view printf_like(char (&buf)[128], double v, std::chars_format format, int precision) {
  const auto r = std::to_chars(buf, buf + sizeof buf, v, format, precision);
  if (r.ec != std::errc{}) return {};
  return {buf, static_cast<std::size_t>(r.ptr - buf)};
}

}  // namespace

void append_real(std::string& out, double v, int precision) {
  // C's %e: mantissa, at least two exponent digits, sign of zero kept.
  char buf[128];
  std::string_view s = printf_like(buf, v, std::chars_format::scientific, precision);
  out.push_back(' ');
  if (!s.empty()) {
    out.append(s);
    return;
  }
  fmt::format_to(std::back_inserter(out), "{:.{}e}", v, precision);
}

std::string format_real(double v, int precision) {
  std::string s;
  append_real(s, v, precision);
  return s;
}

std::string format_label(unsigned label) { return fmt::format("{:>8}", label); }

std::string format_general(double v, int precision) {
  // The .out file is written through a C++ stream in default float mode, i.e. %g without the
  // '#' flag: trailing zeros dropped, exponent form when exp < -4 or exp >= precision. The stream
  // formats through printf's "%.*g" itself; to_chars's general format is that conversion.
  char buf[128];
  if (std::string_view s = printf_like(buf, v, std::chars_format::general, precision); !s.empty())
    return std::string(s);
  std::ostringstream os;
  os.precision(precision);
  os << v;
  return os.str();
}

std::string format_step_line(const StepLine& s, int precision) {
  return fmt::format("Step {} {} {} {} {} {} {} {}", s.step, format_general(s.time, precision),
                     format_general(s.time_step, precision), s.iterations,
                     format_general(s.residual_error, precision),
                     format_general(s.solution_error, precision), s.solution_converged ? 1 : 0,
                     s.output ? 1 : 0);
}

static std::string solution_comment(std::string_view what, double time, int iterations,
                                    double error, int precision) {
  return fmt::format("# {} at time {} performed in {} iterations with {} error", what,
                     format_general(time, precision), iterations,
                     format_general(error, precision));
}

std::string format_derivatives_line(double time, int iterations, double error, int precision) {
  return solution_comment("Derivatives solution step", time, iterations, error, precision);
}

std::string format_dummy_steps_line(double time, int iterations, double error, int precision) {
  return solution_comment("Initial solution after dummy steps", time, iterations, error, precision);
}

std::string_view step_key_lines() {
  return "# Key for lines starting with \"Step\":\n"
         "# Step Time TStep NIter ResErr SolErr SolConv Out\n";
}

}  // namespace mbl::output

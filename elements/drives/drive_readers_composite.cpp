// Readers of the drive callers built from other drive callers, expressions or scalar functions
// (drive_composite.hpp), manual §2.6.
#include <fmt/format.h>

#include <string>

#include "elements/drives/drive_registry.hpp"
#include "elements/drives/scalar_function.hpp"
#include "parser/errors.hpp"

namespace mbl::drives {

namespace {

DriveCallerPtr read_array(parser::CardReader& in, DriveEnvironment& env) {
  const long n = read_count(in, 1, "the number of drive callers");
  std::vector<DriveCallerPtr> d;
  for (long i = 0; i < n; ++i) d.push_back(read_drive_caller(in, env));
  if (n == 1) return d.front();  // §2.6.1: a single drive is just that drive
  return std::make_shared<ArrayDrive>(std::move(d));
}

DriveCallerPtr read_periodic(parser::CardReader& in, DriveEnvironment& env) {
  const double t0 = in.real();
  const parser::SourceLocation at = in.location();
  const double period = in.real();
  if (!(period > 0.0))
    throw parser::InputError(at, fmt::format("expected a positive period, found {}", period));
  return std::make_shared<PeriodicDrive>(t0, period, read_drive_caller(in, env));
}

DriveCallerPtr read_frequency_sweep(parser::CardReader& in, DriveEnvironment& env) {
  const double t_i = in.real();
  auto omega = read_drive_caller(in, env);
  auto amplitude = read_drive_caller(in, env);
  const double f_i = in.real();
  const double t_f = read_end_time(in);
  const double f_f = in.real();
  return std::make_shared<FrequencySweepDrive>(t_i, std::move(omega), std::move(amplitude), f_i,
                                               t_f, f_f);
}

DriveCallerPtr read_postponed(parser::CardReader& in, DriveEnvironment&) {
  const parser::SourceLocation at = in.location();
  const unsigned label = in.label();
  auto& tables = drive_tables(in.context());
  auto& slot = tables.postponed[label];
  if (!slot) {
    slot = std::make_shared<PostponedSlot>();
    slot->label = label;
    slot->first_use = at;
    slot->target = in.context().find_named<DriveCaller>("drive caller", std::to_string(label));
  }
  return std::make_shared<PostponedDrive>(slot);
}

/// Removes the `\`-newline continuations MBDyn allows inside strings (§2.6.35).
std::string join_continued_lines(std::string s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && (s[i + 1] == '\n' || s[i + 1] == '\r')) {
      ++i;
      if (s[i] == '\r' && i + 1 < s.size() && s[i + 1] == '\n') ++i;
      continue;
    }
    out += s[i];
  }
  return out;
}

DriveCallerPtr read_string(parser::CardReader& in, DriveEnvironment& env) {
  const parser::SourceLocation at = in.location();
  const std::string text = join_continued_lines(in.string());
  math::MathParser& math = env.math ? *env.math : in.context().math();
  // The expression starts one column after the opening quote.
  parser::SourceLocation expr_at = at;
  expr_at.column += 1;
  auto expr = math.compile_drive_string(text, expr_at);
  return std::make_shared<StringDrive>(text, std::move(expr), math);
}

DriveCallerPtr read_scalar_function_drive(parser::CardReader& in, DriveEnvironment&) {
  const std::string name(in.peek_text());
  auto f = read_scalar_function(in);
  std::string clean = name;
  if (clean.size() >= 2 && clean.front() == '"' && clean.back() == '"')
    clean = clean.substr(1, clean.size() - 2);
  return std::make_shared<ScalarFunctionDrive>(clean, std::move(f));
}

}  // namespace

void register_composite_drives(DriveCallerRegistry& r) {
  r["array"] = read_array;
  // `function, <drive>`: any drive may be preceded by `function` (drive_.cc FunctionDCR).
  r["function"] = [](parser::CardReader& in, DriveEnvironment& env) { return read_drive_caller(in, env); };
  r["mult"] = [](parser::CardReader& in, DriveEnvironment& env) -> DriveCallerPtr {
    auto a = read_drive_caller(in, env);
    auto b = read_drive_caller(in, env);
    return std::make_shared<MultDrive>(std::move(a), std::move(b));
  };
  r["drive"] = [](parser::CardReader& in, DriveEnvironment& env) -> DriveCallerPtr {
    auto outer = read_drive_caller(in, env);
    auto inner = read_drive_caller(in, env);
    return std::make_shared<NestedDrive>(std::move(outer), std::move(inner));
  };
  r["periodic"] = read_periodic;
  r["frequency sweep"] = read_frequency_sweep;
  r["postponed"] = read_postponed;
  r["string"] = read_string;
  r["scalar function"] = read_scalar_function_drive;
}

}  // namespace mbl::drives

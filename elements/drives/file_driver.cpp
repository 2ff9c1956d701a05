#include "elements/drives/file_driver.hpp"
#include "parser/math/math_parser.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "elements/drives/drive_registry.hpp"
#include "elements/drives/socket_drivers.hpp"
#include "elements/input/file_path.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/mbdyn_kinds.hpp"
#include "parser/errors.hpp"

namespace mbl::drives {

// ---- driver ----------------------------------------------------------------------------------

TableFileDriver::TableFileDriver(unsigned label, std::string path, std::vector<double> times,
                                 std::vector<std::vector<double>> records, Options options)
    : FileDriver(label), path_(std::move(path)), times_(std::move(times)),
      records_(std::move(records)), options_(options) {}

long TableFileDriver::locate(double t) const {
  if (t < times_.front()) return -1;
  if (t > times_.back()) return -2;
  auto it = std::upper_bound(times_.begin(), times_.end(), t);
  const long i = long(it - times_.begin()) - 1;
  return std::min(i, long(times_.size()) - 1);
}

double TableFileDriver::value(int column, double t) const {
  const long i = locate(t);
  const std::size_t c = std::size_t(column - 1);
  if (i < 0) {
    const bool below = i == -1;
    if ((below && options_.bailout_lower) || (!below && options_.bailout_upper))
      // Like MBDyn, a bailout halts the simulation: it ends cleanly at the last converged step.
      throw math::StopRequest(0, fmt::format(
          "file driver {} (\"{}\"): time {} is outside the data range [{}, {}]: bailout ends the "
          "simulation", label(), path_, t, times_.front(), times_.back()));
    if (options_.out_of_range == OutOfRange::PadZeroes) return 0.0;
    return below ? records_.front()[c] : records_.back()[c];
  }
  const auto n = std::size_t(i);
  if (options_.interpolation == Interpolation::Const || n + 1 == times_.size())
    return records_[n][c];
  const double s = (t - times_[n]) / (times_[n + 1] - times_[n]);
  return records_[n][c] + s * (records_[n + 1][c] - records_[n][c]);
}

double TableFileDriver::derivative(int column, double t) const {
  const long i = locate(t);
  if (i < 0 || options_.interpolation == Interpolation::Const) return 0.0;
  auto n = std::size_t(i);
  if (n + 1 == times_.size()) {
    if (n == 0) return 0.0;
    --n;  // at the last record: slope of the last interval
  }
  const std::size_t c = std::size_t(column - 1);
  return (records_[n + 1][c] - records_[n][c]) / (times_[n + 1] - times_[n]);
}

std::string FileDrive::describe() const {
  return fmt::format("file, {}, {}, amplitude, {}", driver_->label(), column_, amplitude_);
}

// ---- data files ------------------------------------------------------------------------------

FileDriverData parse_file_driver_data(const std::string& path, const std::string& text,
                                      int per_record) {
  FileDriverData data;
  std::vector<double> current;
  std::istringstream lines(text);
  std::string line;
  int line_no = 0;
  auto comment_value = [&](std::string_view body, std::string_view key, double& out) {
    // "# initial time: 0.5" (case-insensitive key)
    std::string lower(body);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    const auto k = lower.find(key);
    if (k == std::string::npos) return false;
    const auto colon = lower.find(':', k + key.size());
    if (colon == std::string::npos) return false;
    try {
      out = std::stod(std::string(body.substr(colon + 1)));
    } catch (const std::exception&) {
      throw std::runtime_error(fmt::format("{}:{}: expected a number after \"{}:\"", path,
                                           line_no, key));
    }
    return true;
  };
  while (std::getline(lines, line)) {
    ++line_no;
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    if (line[first] == '#') {
      const std::string_view body = std::string_view(line).substr(first + 1);
      if (comment_value(body, "initial time", data.initial_time)) data.has_initial_time = true;
      if (comment_value(body, "time step", data.time_step)) data.has_time_step = true;
      continue;
    }
    std::size_t pos = first;
    while (pos < line.size()) {
      pos = line.find_first_not_of(" \t\r,;", pos);
      if (pos == std::string::npos) break;
      const auto end = line.find_first_of(" \t\r,;", pos);
      const std::string token = line.substr(pos, end == std::string::npos ? end : end - pos);
      double v = 0.0;
      std::size_t used = 0;
      try {
        v = std::stod(token, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != token.size())
        throw std::runtime_error(fmt::format("{}:{}: expected a number, found \"{}\"", path,
                                             line_no, token));
      current.push_back(v);
      if (int(current.size()) == per_record) {
        data.records.push_back(std::move(current));
        current.clear();
      }
      pos = end;
    }
  }
  if (!current.empty())
    throw std::runtime_error(fmt::format("{}: the last record has {} values, expected {}", path,
                                         current.size(), per_record));
  return data;
}

// ---- readers ---------------------------------------------------------------------------------

namespace {

using elements::resolve_path;

std::string key_of(unsigned label) { return std::to_string(label); }

TableFileDriver::Options read_options(parser::CardReader& in) {
  TableFileDriver::Options o;
  for (;;) {
    if (in.keyword_is("interpolation")) {
      if (in.keyword_is("linear"))
        o.interpolation = TableFileDriver::Interpolation::Linear;
      else if (in.keyword_is("const"))
        o.interpolation = TableFileDriver::Interpolation::Const;
      else
        in.fail_expected("`linear` or `const`");
    } else if (in.keyword_is("pad zeroes") || in.keyword_is("pad zeros")) {  // MBDyn reads both spellings
      o.out_of_range = in.boolean() ? TableFileDriver::OutOfRange::PadZeroes
                                    : TableFileDriver::OutOfRange::HoldEnds;
    } else if (in.keyword_is("bailout")) {
      if (in.keyword_is("none")) {
        o.bailout_lower = o.bailout_upper = false;
      } else if (in.keyword_is("upper")) {
        o.bailout_upper = true;
      } else if (in.keyword_is("lower")) {
        o.bailout_lower = true;
      } else if (in.keyword_is("any")) {
        o.bailout_lower = o.bailout_upper = true;
      } else {
        in.fail_expected("`none`, `upper`, `lower` or `any`");
      }
    } else {
      return o;
    }
  }
}

struct DataFile {
  std::string path;
  FileDriverData data;
};

DataFile load(parser::CardReader& in, int per_record) {
  const parser::SourceLocation at = in.location();
  const std::string name = parser::read_file_name(in);
  DataFile f;
  f.path = resolve_path(at, name);
  std::ifstream is(f.path, std::ios::binary);
  if (!is) throw parser::InputError(at, fmt::format("cannot open file driver data \"{}\"", f.path));
  std::stringstream ss;
  ss << is.rdbuf();
  try {
    f.data = parse_file_driver_data(f.path, ss.str(), per_record);
  } catch (const std::runtime_error& e) {
    throw parser::InputError(at, e.what());
  }
  if (f.data.records.empty())
    throw parser::InputError(at, fmt::format("file driver data \"{}\" has no records", f.path));
  return f;
}

std::shared_ptr<TableFileDriver> read_fixed_step(parser::CardReader& in, unsigned label) {
  long steps = -1;  // count
  if (!in.keyword_is("count")) steps = read_count(in, 1, "the number of steps");
  const int channels = int(read_count(in, 1, "the number of channels"));
  in.keyword_is("initial time");
  std::optional<double> t0, dt;
  if (!in.keyword_is("from file")) t0 = in.real();
  in.keyword_is("time step");
  const parser::SourceLocation dt_at = in.location();
  if (!in.keyword_is("from file")) dt = in.real();
  const auto options = read_options(in);
  const parser::SourceLocation file_at = in.location();
  DataFile f = load(in, channels);
  // `from file`: the value of the `# <what>: x` comment (manual §7.1.1)
  auto from_file = [&](std::optional<double>& v, bool present, double value, const char* what) {
    if (v) return;
    if (!present)
      throw parser::InputError(file_at, fmt::format("\"{}\" has no `# {}: ...` comment (needed "
                                                    "by `{}, from file`)",
                                                    f.path, what, what));
    v = value;
  };
  from_file(t0, f.data.has_initial_time, f.data.initial_time, "initial time");
  from_file(dt, f.data.has_time_step, f.data.time_step, "time step");
  if (!(*dt > 0.0))
    throw parser::InputError(dt_at, fmt::format("expected a positive time step, found {}", *dt));
  auto& records = f.data.records;
  if (steps > 0) {
    if (std::size_t(steps) > records.size())
      throw parser::InputError(file_at, fmt::format("\"{}\" has {} records, {} were declared",
                                                    f.path, records.size(), steps));
    records.resize(std::size_t(steps));
  }
  std::vector<double> times(records.size());
  for (std::size_t i = 0; i < times.size(); ++i) times[i] = *t0 + double(i) * *dt;
  return std::make_shared<TableFileDriver>(label, f.path, std::move(times), std::move(records),
                                      options);
}

std::shared_ptr<TableFileDriver> read_variable_step(parser::CardReader& in, unsigned label) {
  const int channels = int(read_count(in, 1, "the number of channels"));
  const auto options = read_options(in);
  const parser::SourceLocation file_at = in.location();
  DataFile f = load(in, channels + 1);
  std::vector<double> times;
  std::vector<std::vector<double>> records;
  for (auto& r : f.data.records) {
    if (!times.empty() && !(r.front() > times.back()))
      throw parser::InputError(file_at, fmt::format("\"{}\": times must grow, found {} after {}",
                                                    f.path, r.front(), times.back()));
    times.push_back(r.front());
    records.emplace_back(r.begin() + 1, r.end());
  }
  return std::make_shared<TableFileDriver>(label, f.path, std::move(times), std::move(records),
                                      options);
}

bool looks_like_column(parser::CardReader& in) {
  if (in.at_end() || in.peek_keyword_is("amplitude")) return false;
  const std::string_view text = in.peek_text();
  if (!text.empty() && std::all_of(text.begin(), text.end(),
                                   [](char c) { return std::isdigit((unsigned char)c); }))
    return true;
  return in.context().math().find_variable(text) != nullptr;
}

DriveCallerPtr read_file_drive(parser::CardReader& in, DriveEnvironment&) {
  const parser::SourceLocation label_at = in.location();
  const unsigned label = in.label();
  auto driver = in.context().find_named<FileDriver>("file driver", key_of(label));
  // A driver whose kind is not implemented (socket, ...): the card using it is skipped too.
  if (!driver && in.context().find_named<void>("skipped file driver", key_of(label))) {
    in.not_implemented(fmt::format("this card uses file driver {}, whose kind is not implemented", label));
    throw CardSkipped{};
  }
  if (!driver)
    throw parser::InputError(label_at, fmt::format("file driver {} is not defined (expected a "
                                                   "`file: {}, ...;` card in the drivers block)",
                                                   label, label));
  int column = 1;
  if (looks_like_column(in)) {
    const parser::SourceLocation col_at = in.location();
    const auto c = in.integer();
    if (c < 1 || c > driver->channels())
      throw parser::InputError(col_at, fmt::format("expected a column in [1, {}] of file driver "
                                                   "{}, found {}",
                                                   driver->channels(), label, c));
    column = int(c);
  }
  double amplitude = 1.0;
  if (in.keyword_is("amplitude")) amplitude = in.real();
  return std::make_shared<FileDrive>(driver, column, amplitude);
}

}  // namespace

std::shared_ptr<StepObserver> read_file_driver_card(parser::CardReader& in, DriveEnvironment&) {
  const parser::SourceLocation label_at = in.location();
  const unsigned label = in.label();
  auto& ctx = in.context();
  if (ctx.find_named<FileDriver>("file driver", key_of(label)))
    throw parser::InputError(label_at, fmt::format("file driver {} is already defined", label));
  std::shared_ptr<FileDriver> driver;
  std::shared_ptr<StepObserver> observer;
  auto live = [&](auto d) {
    driver = d;
    observer = d;
  };
  if (in.keyword_is("fixed step"))
    driver = read_fixed_step(in, label);
  else if (in.keyword_is("variable step"))
    driver = read_variable_step(in, label);
  else if (in.keyword_is("socket"))
    live(read_socket_driver(in, label));
  else if (in.keyword_is("stream") || in.keyword_is("socket stream"))  // MBDyn's older name
    live(read_stream_driver(in, label));
  else
    kinds::reject(in, "file driver", "file driver type");  // an input error unless MBDyn has it
  if (!driver) {
    ctx.add_named("skipped file driver", key_of(label), std::make_shared<int>(0));
    return nullptr;
  }
  in.expect_end();
  ctx.add_named("file driver", key_of(label), driver);
  return observer;
}

void register_file_drive(DriveCallerRegistry& r) { r["file"] = read_file_drive; }

}  // namespace mbl::drives

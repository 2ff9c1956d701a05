// Readers of the drive callers with memory or step counting (drive_stateful.hpp), manual §2.6.
#include <fmt/format.h>

#include <chrono>

#include "elements/drives/drive_registry.hpp"
#include "elements/drives/drive_stateful.hpp"
#include "parser/errors.hpp"

namespace mbl::drives {

namespace {

DriveCallerPtr read_bistop(parser::CardReader& in, DriveEnvironment& env) {
  bool active = false;
  if (in.keyword_is("initial status")) {
    if (in.keyword_is("active"))
      active = true;
    else if (!in.keyword_is("inactive"))
      in.fail_expected("`active` or `inactive`");
  }
  auto on = read_drive_caller(in, env);
  auto off = read_drive_caller(in, env);
  return std::make_shared<BistopDrive>(active, std::move(on), std::move(off));
}

DriveCallerPtr read_closest_next(parser::CardReader& in, DriveEnvironment& env) {
  const double t0 = in.real();
  const double t1 = read_end_time(in);
  return std::make_shared<ClosestNextDrive>(env, t0, t1, read_drive_caller(in, env));
}

DriveCallerPtr read_discrete_filter(parser::CardReader& in, DriveEnvironment& env) {
  const long n_a = read_count(in, 0, "the number of regression coefficients");
  std::vector<double> a;
  for (long i = 0; i < n_a; ++i) a.push_back(in.real());
  const double b0 = in.real();
  const long n_b = read_count(in, 0, "the number of input coefficients");
  std::vector<double> b;
  for (long i = 0; i < n_b; ++i) b.push_back(in.real());
  auto input = read_drive_caller(in, env);
  return std::make_shared<DiscreteFilterDrive>(env, std::move(a), b0, std::move(b),
                                               std::move(input));
}

DriveCallerPtr read_sample_and_hold(parser::CardReader& in, DriveEnvironment& env) {
  auto function = read_drive_caller(in, env);
  auto trigger = read_drive_caller(in, env);
  std::optional<double> initial;
  if (in.keyword_is("initial value")) initial = in.real();
  return std::make_shared<SampleAndHoldDrive>(env, std::move(function), std::move(trigger),
                                              initial);
}

DriveCallerPtr read_meter(parser::CardReader& in, DriveEnvironment& env) {
  const double t0 = in.real();
  const double t1 = read_end_time(in);
  long steps = 1;
  if (in.keyword_is("steps")) steps = read_count(in, 1, "the number of steps");
  return std::make_shared<MeterDrive>(env, t0, t1, steps);
}

DriveCallerPtr read_random(parser::CardReader& in, DriveEnvironment& env) {
  const double amplitude = in.real(), mean = in.real(), t0 = in.real();
  const double t1 = read_end_time(in);
  long steps = 1;
  std::uint64_t seed = 1;  // fixed default: runs are reproducible unless `seed, time` is given
  for (;;) {
    if (in.keyword_is("steps")) {
      steps = read_count(in, 1, "the number of steps");
    } else if (in.keyword_is("seed")) {
      if (in.keyword_is("time"))
        seed = std::uint64_t(std::chrono::system_clock::now().time_since_epoch().count());
      else
        seed = std::uint64_t(in.integer());
    } else {
      break;
    }
  }
  return std::make_shared<RandomDrive>(env, amplitude, mean, t0, t1, steps, seed);
}

}  // namespace

void register_stateful_drives(DriveCallerRegistry& r) {
  r["bistop"] = read_bistop;
  r["closest next"] = read_closest_next;
  r["discrete filter"] = read_discrete_filter;
  r["sample and hold"] = read_sample_and_hold;
  r["meter"] = read_meter;
  r["random"] = read_random;
}

}  // namespace mbl::drives

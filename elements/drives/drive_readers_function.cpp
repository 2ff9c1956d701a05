// Readers of the closed-form drive callers (drive_callers.hpp), manual §2.6.
#include <fmt/format.h>

#include "elements/drives/drive_callers.hpp"
#include "elements/drives/drive_registry.hpp"
#include "parser/errors.hpp"

namespace mbl::drives {

namespace {

DriveCallerPtr read_polynomial(parser::CardReader& in, int degree) {
  std::vector<double> c;
  for (int k = 0; k <= degree; ++k) c.push_back(in.real());
  return std::make_shared<PolynomialDrive>(std::move(c));
}

DriveCallerPtr read_harmonic(parser::CardReader& in, HarmonicDrive::Kind kind) {
  const double t0 = in.real();
  const parser::SourceLocation omega_at = in.location();
  const double omega = in.real();
  const double amplitude = in.real();
  const long cycles = read_cycles(in, true);
  const double v0 = in.real();
  if (cycles != 0 && omega == 0.0)
    throw parser::InputError(omega_at,
                             "a sine/cosine drive with a number of cycles needs a non-zero "
                             "angular velocity");
  return std::make_shared<HarmonicDrive>(kind, t0, omega, amplitude, cycles, v0);
}

DriveCallerPtr read_fourier(parser::CardReader& in) {
  const double t0 = in.real();
  const parser::SourceLocation omega_at = in.location();
  const double omega = in.real();
  const long n = read_count(in, 1, "the number of terms");
  const double a0 = in.real();
  std::vector<double> ab;
  for (long k = 0; k < 2 * n; ++k) ab.push_back(in.real());
  const long cycles = read_cycles(in, false);
  const double v0 = in.real();
  if (cycles != 0 && omega == 0.0)
    throw parser::InputError(omega_at, "a fourier series drive with a number of cycles needs a "
                                       "non-zero angular velocity");
  return std::make_shared<FourierSeriesDrive>(t0, omega, a0, std::move(ab), cycles, v0);
}

DriveCallerPtr read_piecewise_linear(parser::CardReader& in) {
  const long n = read_count(in, 2, "the number of points");
  std::vector<double> x, y;
  for (long i = 0; i < n; ++i) {
    const parser::SourceLocation at = in.location();
    x.push_back(in.real());
    if (i > 0 && !(x[i] > x[i - 1]))
      throw parser::InputError(at, fmt::format("expected a point greater than {}, found {}",
                                               x[i - 1], x[i]));
    y.push_back(in.real());
  }
  return std::make_shared<PiecewiseLinearDrive>(std::move(x), std::move(y));
}

DriveCallerPtr read_ramp(parser::CardReader& in) {
  const double slope = in.real();
  const double t0 = in.real();
  const double t1 = read_end_time(in);
  const double v0 = in.real();
  return std::make_shared<RampDrive>(slope, t0, t1, v0);
}

DriveCallerPtr read_double_ramp(parser::CardReader& in) {
  const double a_slope = in.real(), a_t0 = in.real(), a_t1 = in.real();
  const double d_slope = in.real(), d_t0 = in.real();
  const double d_t1 = read_end_time(in);
  const double v0 = in.real();
  return std::make_shared<RampDrive>(a_slope, a_t0, a_t1, d_slope, d_t0, d_t1, v0);
}

DriveCallerPtr read_step5(parser::CardReader& in) {
  const double t0 = in.real(), v0 = in.real();
  const parser::SourceLocation at = in.location();
  const double t1 = in.real(), v1 = in.real();
  if (!(t1 > t0))
    throw parser::InputError(at, fmt::format("expected a final time greater than the initial "
                                             "time {}, found {}", t0, t1));
  return std::make_shared<Step5Drive>(t0, v0, t1, v1);
}

}  // namespace

void register_function_drives(DriveCallerRegistry& r) {
  r["null"] = [](auto&, auto&) -> DriveCallerPtr { return std::make_shared<NullDrive>(); };
  r["zero"] = r["null"];  // deprecated alias
  r["unit"] = [](auto&, auto&) -> DriveCallerPtr { return std::make_shared<UnitDrive>(); };
  r["one"] = r["unit"];  // deprecated alias (§2.6.40)
  r["direct"] = [](auto&, auto&) -> DriveCallerPtr { return std::make_shared<DirectDrive>(); };
  r["time"] = [](auto&, auto&) -> DriveCallerPtr { return std::make_shared<DirectDrive>(true); };
  r["timestep"] = [](parser::CardReader&, DriveEnvironment& env) -> DriveCallerPtr {
    return std::make_shared<TimeStepDrive>(env);
  };
  r["const"] = [](parser::CardReader& in, auto&) -> DriveCallerPtr {
    return std::make_shared<ConstDrive>(in.real());
  };
  r["linear"] = [](parser::CardReader& in, auto&) { return read_polynomial(in, 1); };
  r["parabolic"] = [](parser::CardReader& in, auto&) { return read_polynomial(in, 2); };
  r["cubic"] = [](parser::CardReader& in, auto&) { return read_polynomial(in, 3); };
  r["step"] = [](parser::CardReader& in, auto&) -> DriveCallerPtr {
    const double t0 = in.real(), step = in.real(), v0 = in.real();
    return std::make_shared<StepDrive>(t0, step, v0);
  };
  r["double step"] = [](parser::CardReader& in, auto&) -> DriveCallerPtr {
    const double t0 = in.real(), t1 = in.real(), step = in.real(), v0 = in.real();
    return std::make_shared<DoubleStepDrive>(t0, t1, step, v0);
  };
  r["ramp"] = [](parser::CardReader& in, auto&) { return read_ramp(in); };
  r["double ramp"] = [](parser::CardReader& in, auto&) { return read_double_ramp(in); };
  r["sine"] = [](parser::CardReader& in, auto&) {
    return read_harmonic(in, HarmonicDrive::Kind::Sine);
  };
  r["cosine"] = [](parser::CardReader& in, auto&) {
    return read_harmonic(in, HarmonicDrive::Kind::Cosine);
  };
  r["exponential"] = [](parser::CardReader& in, auto&) -> DriveCallerPtr {
    const double a = in.real(), tau = in.real(), t0 = in.real(), v0 = in.real();
    return std::make_shared<ExponentialDrive>(a, tau, t0, v0);
  };
  r["step5"] = [](parser::CardReader& in, auto&) { return read_step5(in); };
  r["tanh"] = [](parser::CardReader& in, auto&) -> DriveCallerPtr {
    const double t0 = in.real(), a = in.real(), s = in.real(), v0 = in.real();
    return std::make_shared<TanhDrive>(t0, a, s, v0);
  };
  r["fourier series"] = [](parser::CardReader& in, auto&) { return read_fourier(in); };
  r["piecewise linear"] = [](parser::CardReader& in, auto&) { return read_piecewise_linear(in); };
}

}  // namespace mbl::drives

// Hydraulic fluid data (input manual §2.11) and the `hydraulic fluid:` definition card (§2.4.4).
#include "elements/hydraulics/hydraulic_fluid.hpp"

#include <fmt/format.h>

#include <limits>
#include <string>

#include "parser/errors.hpp"

namespace mbl::elements::hydraulics {
namespace {

using parser::CardReader;
using parser::checked_real;

constexpr double kEps = std::numeric_limits<double>::epsilon();

/// `density, <rho>, {sound celerity, <c> | [bulk modulus,] <beta>}, [pressure,] <p0>` of the
/// compressible fluids (the bracketed keywords are optional in MBDyn's hfluid.cc).
void read_compressible_density(CardReader& in, HydraulicFluid& f) {
  f.density0 = checked_real(in, [](double v) { return v >= kEps; }, "a positive density");
  if (in.keyword_is("sound celerity")) {
    const double c = checked_real(in, [](double v) { return v >= kEps; }, "a positive sound celerity");
    f.beta = c * c * f.density0;  // eq. 2.101
  } else {
    in.keyword_is("bulk modulus");
    f.beta = checked_real(in, [](double v) { return std::abs(v) >= kEps; }, "a non-zero bulk modulus");
  }
  in.keyword_is("pressure");
  f.pressure0 = checked_real(in, [](double v) { return v >= 0.0; }, "a non-negative reference pressure");
}

void read_viscosity(CardReader& in, HydraulicFluid& f) {
  const parser::SourceLocation at = in.location();
  if (in.keyword_is("viscosity")) f.viscosity0 = in.real();
  if (f.viscosity0 < kEps) throw parser::InputError(at, fmt::format("expected viscosity, <positive viscosity>, found {}", f.viscosity0));
}

void read_temperature(CardReader& in, HydraulicFluid& f) {
  if (in.keyword_is("temperature")) f.temperature0 = in.real();
}

void read_definition(CardReader& in, BuildContext& ctx, unsigned) {
  const unsigned label = in.label();
  if (in.keyword_is("name")) in.string();  // mbpar.cc HydraulicFluid_int: a name for messages only
  auto fluid = read_fluid_data(in);
  ctx.read().add_named("hydraulic fluid", std::to_string(label), std::const_pointer_cast<HydraulicFluid>(fluid));
  in.expect_end();
}

const bool registered = CardRegistry::family("definition").add("hydraulic fluid", read_definition);

}  // namespace

HydraulicFluidPtr read_fluid_data(CardReader& in) {
  auto f = std::make_shared<HydraulicFluid>();
  using T = HydraulicFluid::Type;
  // MBDyn reads an incompressible fluid when no type keyword is given.
  if (in.keyword_is("linear thermal compressible")) f->type = T::LinearThermalCompressible;
  else if (in.keyword_is("linear compressible")) f->type = T::LinearCompressible;
  else if (in.keyword_is("super")) f->type = T::Super;
  else if (in.keyword_is("exponential")) f->type = T::Exponential;
  else if (!in.keyword_is("incompressible")) in.keyword_is("uncompressible");

  switch (f->type) {
    case T::Incompressible: {
      const parser::SourceLocation at = in.location();
      if (in.keyword_is("density")) {
        f->density0 = in.real();
        // `thermal expansion, <alpha>` (hfluid.cc ReadHydraulicFluid): only a temperature-dependent
        // density would use it, and no element of MBDyn 2024 asks for one.
        if (in.keyword_is("thermal expansion")) in.real();
      }
      if (f->density0 < kEps) throw parser::InputError(at, fmt::format("expected density, <positive density>, found {}", f->density0));
      read_viscosity(in, *f);
      if (in.keyword_is("pressure")) f->pressure0 = in.real();
      read_temperature(in, *f);
      break;
    }
    case T::LinearCompressible:
    case T::Super:
    case T::Exponential:
      if (in.keyword_is("density")) read_compressible_density(in, *f);
      read_viscosity(in, *f);
      read_temperature(in, *f);
      if (f->type == T::Exponential) f->p_saturation = in.real();
      break;
    case T::LinearThermalCompressible:
      if (in.keyword_is("density")) {
        read_compressible_density(in, *f);
        in.keyword_is("thermal expansion");  // optional keywords (hfluid.cc)
        f->alpha = in.real();
        in.keyword_is("temperature");
        f->temperature0 = in.real();
      }
      read_viscosity(in, *f);
      break;
  }
  if (f->compressible() && f->beta == 0.0)
    throw parser::InputError(in.location(), "expected density, <density>, <bulk modulus>, <reference pressure> for a compressible fluid");
  return f;
}

HydraulicFluidPtr read_element_fluid(CardReader& in, BuildContext& ctx) {
  if (!in.keyword_is("hydraulic fluid") && !in.keyword_is("fluid")) in.fail_expected("\"hydraulic fluid\"");
  if (!in.keyword_is("reference")) return read_fluid_data(in);
  const parser::SourceLocation at = in.location();
  const unsigned label = in.label();
  auto f = ctx.read().find_named<HydraulicFluid>("hydraulic fluid", std::to_string(label));
  if (!f) {
    ctx.skip_if_depends_on_skipped(in, "hydraulic fluid", label);
    throw parser::InputError(at, fmt::format("expected a defined hydraulic fluid, found {}", label));
  }
  return f;
}

}  // namespace mbl::elements::hydraulics

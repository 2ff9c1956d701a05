#pragma once
// Hydraulic fluids (input manual §2.11): density and viscosity as functions of pressure, for the
// hydraulic elements (§8.11). The laws are templates so that the elements can differentiate them
// with forward automatic differentiation (hydraulic_element.hpp). Where the manual is silent
// (super fluid constants, Reynolds thresholds) the values are MBDyn's.
#include <cmath>
#include <memory>

#include "mbdyn-like/core/card_registry.hpp"

namespace mbl::elements::hydraulics {

struct HydraulicFluid {
  enum class Type { Incompressible, LinearCompressible, LinearThermalCompressible, Super, Exponential };
  Type type = Type::Incompressible;
  double density0 = 0.0;     ///< reference density
  double beta = 0.0;         ///< bulk modulus (compressible fluids)
  double pressure0 = 0.0;    ///< reference pressure
  double viscosity0 = 0.0;   ///< dynamic viscosity
  double alpha = 0.0;        ///< thermal expansion (linear thermal compressible)
  double temperature0 = -1;  ///< reference temperature
  double p_saturation = 0.0; ///< exponential fluid

  // Super fluid (§2.11.4, eq. 2.102): MBDyn hard-codes rho_0, a and p_0 in SI units.
  static constexpr double kSuperA = 2.e-5;
  static constexpr double kSuperP = 0.2 * 101325.0;
  static constexpr double kSuperRho = 977.0 * 1.e-2;

  /// Reynolds numbers bounding the laminar-turbulent transition of the pipes.
  static constexpr double kReLower = 2000.0;
  static constexpr double kReUpper = 4000.0;

  /// The reference density (elements that use the fluid's nominal value).
  double density() const { return density0; }
  /// d(density)/dp at the reference state.
  double density_dp() const { return compressible() ? density0 / beta : 0.0; }
  bool compressible() const { return type != Type::Incompressible; }

  template <class T>
  T density(const T& p) const {
    using std::exp;
    using std::tanh;
    switch (type) {
      case Type::Incompressible: return T(density0) + 0.0 * p;
      case Type::LinearCompressible:
      case Type::LinearThermalCompressible: return density0 + (p - pressure0) * (density0 / beta);
      case Type::Super: {
        T d = kSuperRho + density0 * 0.5 * (1.0 + tanh(kSuperA * (p - kSuperP)));
        if (p > kSuperP) d += (p - kSuperP) * (density0 / beta);
        return d;
      }
      case Type::Exponential:
        return p >= p_saturation ? T(density0 * exp((p - pressure0) / beta)) : T(density0 * exp(1000.0 * (p - pressure0) / beta));
    }
    return T(density0);
  }
  template <class T>
  T density_dp(const T& p) const {
    using std::cosh;
    using std::exp;
    switch (type) {
      case Type::Incompressible: return T(0.0) + 0.0 * p;
      case Type::LinearCompressible:
      case Type::LinearThermalCompressible: return T(density0 / beta) + 0.0 * p;
      case Type::Super: {
        const T ch = cosh(kSuperA * (p - kSuperP));
        T d = kSuperA * density0 * 0.5 / (ch * ch);
        if (p > kSuperP) d += density0 / beta;
        return d;
      }
      case Type::Exponential:
        return p >= p_saturation ? T(density0 / beta * exp((p - pressure0) / beta))
                                 : T(density0 * 1000.0 / beta * exp(1000.0 * (p - pressure0) / beta));
    }
    return T(0.0);
  }
  /// Dynamic viscosity at pressure p.
  double viscosity(double p) const {
    if (type == Type::Super && p < kSuperP) return 1.e-6 * viscosity0;
    if (type == Type::Exponential && p < p_saturation) return 0.0;
    return viscosity0;
  }
};

using HydraulicFluidPtr = std::shared_ptr<const HydraulicFluid>;

/// Reads `<fluid_type>, <fluid_properties>` (§2.11); no type keyword reads an incompressible fluid.
HydraulicFluidPtr read_fluid_data(parser::CardReader& in);
/// Reads `{hydraulic fluid | fluid}, {reference, <label> | <fluid_type>, <fluid_properties>}` (§8.11).
HydraulicFluidPtr read_element_fluid(parser::CardReader& in, BuildContext& ctx);

}  // namespace mbl::elements::hydraulics

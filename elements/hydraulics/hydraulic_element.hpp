#pragma once
// Common base of the hydraulic elements (input manual §8.11): each writes its residual and
// Jacobian at once over automatic differentiation (elements/misc/local_assembly.hpp).

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "elements/hydraulics/hydraulic_fluid.hpp"
#include "elements/hydraulics/pressure_node.hpp"
#include "elements/misc/local_assembly.hpp"

namespace mbl::elements::hydraulics {

using elements::AD;
using elements::AssembledElement;
using elements::Mat3AD;
using elements::Vec3AD;

/// End-of-stroke penalties of a moving part (accumulator piston, valve spools; input manual
/// §8.11): past the lower end (c1..c3) or the upper end (cf1..cf3) of the stroke, a stiffness on
/// the overtravel, and damping and inertia only while moving outwards. `ends_included`: standing
/// exactly at an end counts as past it (MBDyn's valves) or not (its accumulator).
struct StrokeEndPenalties {
  double c1 = 0, c2 = 0, c3 = 0, cf1 = 0, cf2 = 0, cf3 = 0;
};
inline StrokeEndPenalties stroke_end_penalties(double s, double sp, double vp, double lower, double upper,
                                               double c_displacement, double c_velocity, double c_acceleration,
                                               bool ends_included) {
  StrokeEndPenalties c;
  if (ends_included ? s <= lower : s < lower) {
    c.c1 = c_displacement;
    c.c2 = sp < 0. ? c_velocity : 0.;
    c.c3 = vp < 0. ? c_acceleration : 0.;
  }
  if (ends_included ? s >= upper : s > upper) {
    c.cf1 = c_displacement;
    c.cf2 = sp > 0. ? c_velocity : 0.;
    c.cf3 = vp > 0. ? c_acceleration : 0.;
  }
  return c;
}

/// sign(s) * |m|, as C's copysign, for AD values.
inline AD copysign_ad(const AD& m, const AD& s) { return s.value() < 0.0 ? AD(-abs(m)) : AD(abs(m)); }
/// |x|^e with the derivative e |x|^(e-1) sign(x) dx, taken as 0 at x = 0 (e < 1 would divide by 0).
inline AD pow_abs(const AD& x, double e) {
  const double ax = std::abs(x.value());
  if (ax == 0.0) return AD(0.0, Eigen::VectorXd::Zero(x.derivatives().size()));
  const double v = std::pow(ax, e);
  return AD(v, x.derivatives() * (e * v / ax * (x.value() < 0.0 ? -1.0 : 1.0)));
}

/// sign(x) sqrt(|x|); its derivative uses max(|x|, floor) as MBDyn's Jacobians do, so that it
/// stays finite where the pressure jump vanishes.
inline AD signed_sqrt(const AD& x, double floor = 1.e8 * std::numeric_limits<double>::epsilon()) {
  const double ax = std::abs(x.value());
  const double v = std::sqrt(ax);
  return AD(x.value() < 0.0 ? -v : v, x.derivatives() * (0.5 / std::sqrt(std::max(ax, floor))));
}

/// The local assembly of hydraulic elements: also reads pressures.
class LocalAssembly : public elements::LocalAssembly {
 public:
  using elements::LocalAssembly::LocalAssembly;
  /// The pressure of a hydraulic node.
  AD pressure(const PressureNode& n) { return scalar(n.first_index(), false).x; }
};

/// A hydraulic element; subclasses implement assemble() once for residual and Jacobian.
class HydraulicElement : public AssembledElement<LocalAssembly> {
 public:
  using AssembledElement::AssembledElement;
  std::string_view kind() const override { return "hydraulic"; }

 protected:
  // assemble(): the values kept for output and for the flow regime are those of the last residual.
  /// Writes one .hyd line: label, `values`, then (if >= 0) a flag MBDyn prints as an integer.
  void write_hyd(OutputSink& out, std::initializer_list<double> values, int flag = -1) const;
};

}  // namespace mbl::elements::hydraulics

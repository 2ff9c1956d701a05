#pragma once
// Common base of the hydraulic elements (input manual §8.11). Each element writes its residual
// once, over the scalar type AD (forward automatic differentiation); the Jacobian is the
// derivative of that same residual along the Newton update, in the convention of assembly.hpp:
// J = -(dr/dy' + dCoef dr/dy). A differential unknown moves y by dCoef and y' by 1 per unit of
// update, an algebraic one moves y by 1; a structural node's rotation moves by dCoef d (global
// frame) and its angular velocity by d - dCoef w_ref x d (technical manual §5.1).
#include <Eigen/Core>
#include <unsupported/Eigen/AutoDiff>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "elements/hydraulics/hydraulic_fluid.hpp"
#include "elements/hydraulics/pressure_node.hpp"
#include "mbdyn-like/core/element.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements::hydraulics {

using AD = Eigen::AutoDiffScalar<Eigen::VectorXd>;
using Vec3AD = Eigen::Matrix<AD, 3, 1>;
using Mat3AD = Eigen::Matrix<AD, 3, 3>;

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

/// The unknowns one element reads, as AD values whose derivatives are the columns of its local
/// Jacobian; collects its residual rows and, when asked, their Jacobian rows.
class LocalAssembly {
 public:
  LocalAssembly(const StepContext& c, ResidualSink* r, JacobianSink* J) : c_(c), r_(r), J_(J) {}

  struct Scalar {
    AD x, xp;
  };
  /// A scalar unknown at column `index` (its derivative is meaningful when differential).
  Scalar scalar(int index, bool differential);
  /// The pressure of a hydraulic node.
  AD pressure(const PressureNode& n) { return scalar(n.first_index(), false).x; }

  struct Kinematics {
    Vec3AD x, v, w;
    Mat3AD R;
  };
  /// Position, orientation, velocity and angular velocity of a structural node.
  Kinematics kinematics(const StructNode& n);

  /// Adds `v` to row `row` of the residual (and its derivatives to the Jacobian).
  void add(int row, const AD& v);
  void add(int row, const Vec3AD& v) {
    for (int i = 0; i < 3; ++i) add(row + i, v[i]);
  }
  /// Number of columns; every seeded unknown must be declared before the first AD operation.
  void reserve(int n) { n_ = n; }

 private:
  AD seeded(double value, int k, double d);

  const StepContext& c_;
  ResidualSink* r_;
  JacobianSink* J_;
  int n_ = 0;
  std::vector<int> columns_;
};

/// A hydraulic element; subclasses implement assemble() once for residual and Jacobian.
class HydraulicElement : public Element {
 public:
  using Element::Element;
  std::string_view kind() const override { return "hydraulic"; }
  void residual(ResidualSink& r, const StepContext& c) override {
    LocalAssembly a(c, &r, nullptr);
    assemble(a, c, true);
  }
  void jacobian(JacobianSink& J, const StepContext& c) override {
    LocalAssembly a(c, nullptr, &J);
    assemble(a, c, false);
  }

 protected:
  /// Writes the element's equations; `record` is set on residual evaluations (the values kept for
  /// output and for the flow regime are those of the last residual, as MBDyn's).
  virtual void assemble(LocalAssembly& a, const StepContext& c, bool record) = 0;
  /// Writes one .hyd line: label, `values`, then (if >= 0) a flag MBDyn prints as an integer.
  void write_hyd(OutputSink& out, std::initializer_list<double> values, int flag = -1) const;
};

}  // namespace mbl::elements::hydraulics

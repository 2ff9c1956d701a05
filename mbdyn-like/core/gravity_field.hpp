#pragma once
// The gravity acceleration field (manual "gravity" element: uniform or central). Bodies ask the
// model for it; the gravity element implements it.
#include "mbdyn-like/core/types.hpp"

namespace mbl {

class GravityField {
 public:
  virtual ~GravityField() = default;
  /// Gravity acceleration at the point x_W at time t, in W.
  virtual Vec3 acceleration(const Vec3& x_W, double t) const = 0;
  /// d acceleration / d x_W (zero for uniform gravity).
  virtual Mat3 gradient(const Vec3& x_W, double t) const { return Mat3::Zero(); }
  /// Whether acceleration() and gradient() may be called from several threads at once.
  virtual bool concurrent_reads() const { return false; }
};

}  // namespace mbl

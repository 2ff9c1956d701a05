#include "elements/forces/gravity.hpp"

#include "mbdyn-like/core/model.hpp"

namespace mbl::elements {

Gravity::Gravity(std::function<Vec3(double)> acceleration_W)
    : Element(0), uniform_(std::move(acceleration_W)) {}

Gravity::Gravity(const Vec3& x0_W, double GM) : Element(0), central_(true), x0_W_(x0_W), GM_(GM) {}

void Gravity::setup(Model& m) {
  m.set_gravity(this);
  if (!central_) m.call_after_residual(*this);
}

void Gravity::after_residual(const StepContext& c) {
  if (!central_) uniform_seen_W_ = uniform_(c.t);
}

Vec3 Gravity::acceleration(const Vec3& x_W, double t) const {
  if (!central_) {
    if (!uniform_seen_W_) uniform_seen_W_ = uniform_(t);  // before the first assembly: at t0
    return *uniform_seen_W_;
  }
  const Vec3 d = x_W - x0_W_;
  const double r = d.norm();
  return -GM_ / (r * r * r) * d;
}

Mat3 Gravity::gradient(const Vec3& x_W, double t) const {
  if (!central_) return Mat3::Zero();
  const Vec3 d = x_W - x0_W_;
  const double r = d.norm();
  return -GM_ / (r * r * r) * (Mat3::Identity() - 3.0 * d * d.transpose() / (r * r));
}

}  // namespace mbl::elements

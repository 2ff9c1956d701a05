#pragma once
// Gravity (input manual "gravity"): uniform g(t) = a(t) (a template drive of Vec3), or central
// g(x) = -G M (x - x0) / |x - x0|^3. Bodies evaluate it at their centre of mass.
#include <functional>

#include "mbdyn-like/core/element.hpp"
#include "mbdyn-like/core/gravity_field.hpp"

namespace mbl::elements {

class Gravity final : public Element, public GravityField {
 public:
  /// Uniform gravity: acceleration(t) in W.
  explicit Gravity(std::function<Vec3(double)> acceleration_W);
  /// Central gravity about x0_W with G*M = GM.
  Gravity(const Vec3& x0_W, double GM);

  std::string_view kind() const override { return "gravity"; }
  std::string_view type_name() const override { return "Gravity"; }
  void setup(Model& m) override;
  void residual(ResidualSink&, const StepContext&) override {}
  void jacobian(JacobianSink&, const StepContext&) override {}

  Vec3 acceleration(const Vec3& x_W, double t) const override;
  Mat3 gradient(const Vec3& x_W, double t) const override;

 private:
  std::function<Vec3(double)> uniform_;
  bool central_ = false;
  Vec3 x0_W_ = Vec3::Zero();
  double GM_ = 0.0;
};

}  // namespace mbl::elements

#pragma once
// Gravity (input manual "gravity"): uniform g(t) = a(t) (a template drive of Vec3), or central
// g(x) = -G M (x - x0) / |x - x0|^3. Bodies evaluate it at their centre of mass.
#include <functional>
#include <optional>

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
  void after_residual(const StepContext& c) override;
  void jacobian(JacobianSink&, const StepContext&) override {}

  Vec3 acceleration(const Vec3& x_W, double t) const override;
  Mat3 gradient(const Vec3& x_W, double t) const override;
  /// Uniform gravity writes its value at the first read when no residual has set it yet.
  bool concurrent_reads() const override { return central_ || uniform_seen_W_.has_value(); }
  bool concurrent_jacobian() const override { return true; }

 private:
  std::function<Vec3(double)> uniform_;
  // Uniform gravity as MBDyn applies it: the acceleration the bodies see is the one evaluated at
  // the previous residual assembly (MBDyn's uniform gravity refreshes its value while assembling,
  // after the bodies have read it), so the first residual of a step still has the previous step's
  // gravity. With a time-varying gravity this costs MBDyn one Newton iteration per step, and the
  // seed-000 rotating shaft's iteration counts match only with it.
  mutable std::optional<Vec3> uniform_seen_W_;
  bool central_ = false;
  Vec3 x0_W_ = Vec3::Zero();
  double GM_ = 0.0;
};

}  // namespace mbl::elements

#pragma once
// Absolute displacement forces (input manual §8.8, NetCDF types "absolute displacement" and
// "internal absolute displacement"): a force given in the global frame applied to the position
// equations of a node (no arm, hence no moment), so it also applies to displacement-only nodes;
// the internal variant applies the opposite force to a second node.
#include <functional>

#include "mbdyn-like/core/element.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements {

class DisplacementForce final : public Element {
 public:
  /// `value(t)`: the force in W; `b` (may be null) receives the opposite force.
  DisplacementForce(unsigned label, StructNode& a, StructNode* b, std::function<Vec3(double)> value);

  std::string_view kind() const override { return "force"; }
  std::string_view type_name() const override {
    return b_ ? "internal absolute displacement" : "absolute displacement";
  }
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink&, const StepContext&) override {}  // the force does not depend on y
  void after_convergence(const StepContext& c) override { F_W_ = value_(c.t); }

  void output_setup(OutputSink& out) override;
  void output(OutputSink& out) const override;
  std::string log_line() const override;

  const Vec3& force_W() const { return F_W_; }

 private:
  StructNode& a_;
  StructNode* b_;
  std::function<Vec3(double)> value_;
  Vec3 F_W_ = Vec3::Zero();  ///< converged force, for output
  int nc_F_ = -1;
};

}  // namespace mbl::elements

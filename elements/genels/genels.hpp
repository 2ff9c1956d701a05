#pragma once
// General-purpose genels (input manual §8.9.1) on one NodeDof: `clamp` imposes the value (or
// derivative) of the degree of freedom with a multiplier; `spring support` applies a 1D
// constitutive law of the value (and derivative) to the degree of freedom's equation.
#include <memory>

#include "elements/genels/node_dof.hpp"
#include "mbdyn-like/core/constitutive_law.hpp"
#include "mbdyn-like/core/drive_caller.hpp"
#include "mbdyn-like/core/element.hpp"

namespace mbl::elements {

class GenelClamp final : public Element {
 public:
  /// `imposed` null: the value at the initial state (`from node`).
  GenelClamp(unsigned label, NodeDof dof, DriveCallerPtr imposed);

  std::string_view kind() const override { return "genel"; }
  std::string_view type_name() const override { return "clamp"; }
  int dof_count() const override { return 1; }
  void initial_state(Vector& y, Vector& yp) const override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override { reaction_ = (*c.y)[first_index()]; }
  double reaction() const { return reaction_; }

 private:
  double imposed(double t) const { return imposed_ ? imposed_->value(t) : from_node_; }
  NodeDof dof_;
  DriveCallerPtr imposed_;
  mutable double from_node_ = 0.0;
  double reaction_ = 0.0;
};

class SpringSupport final : public Element {
 public:
  SpringSupport(unsigned label, NodeDof dof, std::unique_ptr<ConstitutiveLaw<1>> law);

  std::string_view kind() const override { return "genel"; }
  std::string_view type_name() const override { return "spring support"; }
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext&) override { law_->after_convergence(); }

 private:
  void evaluate(const StepContext& c);
  NodeDof dof_;
  std::unique_ptr<ConstitutiveLaw<1>> law_;
};

}  // namespace mbl::elements

#pragma once
// The `spring` and `mass` genels (input manual §8.9.1).
#include <memory>

#include "elements/genels/node_dof.hpp"
#include "mbdyn-like/core/constitutive_law.hpp"
#include "mbdyn-like/core/drive_caller.hpp"
#include "mbdyn-like/core/element.hpp"

namespace mbl::elements {

/// An elastic 1D law of the difference of two degrees of freedom (of any order), f(q2 - q1):
/// +f on the equation of q1, -f on that of q2.
class GenelSpring final : public Element {
 public:
  GenelSpring(unsigned label, NodeDof dof1, NodeDof dof2, std::unique_ptr<ConstitutiveLaw<1>> law);

  std::string_view kind() const override { return "genel"; }
  std::string_view type_name() const override { return "spring"; }
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext&) override { law_->after_convergence(); }
  void save_step_state() override { law_->save_step_state(); }
  void restore_step_state() override { law_->restore_step_state(); }

 private:
  void evaluate(const StepContext& c);
  NodeDof dof1_, dof2_;
  std::unique_ptr<ConstitutiveLaw<1>> law_;
};

/// An inertia m(t) on a differential degree of freedom x, through its own differential unknown
/// u = x' (the derivative "differentiated in a state-space sense"): m u' on the equation of x,
/// x' - u = 0 on its own.
class GenelMass final : public Element {
 public:
  GenelMass(unsigned label, NodeDof dof, DriveCallerPtr mass);

  std::string_view kind() const override { return "genel"; }
  std::string_view type_name() const override { return "mass"; }
  int dof_count() const override { return 1; }
  DofOrder dof_order(int) const override { return DofOrder::Differential; }
  void initial_state(Vector& y, Vector& yp) const override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;

 private:
  NodeDof dof_;
  DriveCallerPtr mass_;
};

}  // namespace mbl::elements

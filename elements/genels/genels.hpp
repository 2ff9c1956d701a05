#pragma once
// General-purpose genels (input manual §8.9.1): `clamp` imposes the value (or derivative) of a
// degree of freedom with a multiplier, `distance` the difference of two; `spring support` applies
// a 1D constitutive law of the value (and derivative) of a degree of freedom to its equation,
// `cross spring support` to the equation of another one.
#include <memory>

#include "elements/genels/node_dof.hpp"
#include "mbdyn-like/core/constitutive_law.hpp"
#include "mbdyn-like/core/drive_caller.hpp"
#include "mbdyn-like/core/element.hpp"

namespace mbl::elements {

/// Adds a genel read from `in` (its output flag, its card location) to the model.
void add_genel(parser::CardReader& in, BuildContext& ctx, std::unique_ptr<Element> e);
/// An abstract node with a derivative (MBDyn's ScalarDifferentialNode), by label.
Node* read_differential_abstract_node(parser::CardReader& in, BuildContext& ctx);

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

/// q2 - q1 = d(t) with multiplier lambda: r_1 += lambda, r_2 -= lambda (MBDyn's signs).
class GenelDistance final : public Element {
 public:
  GenelDistance(unsigned label, NodeDof dof1, NodeDof dof2, DriveCallerPtr imposed);

  std::string_view kind() const override { return "genel"; }
  std::string_view type_name() const override { return "distance"; }
  int dof_count() const override { return 1; }
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;

 private:
  /// Both values of differential unknowns: the constraint is holonomic, scaled by 1/dCoef.
  bool holonomic() const { return dof1_.holonomic() && dof2_.holonomic(); }
  NodeDof dof1_, dof2_;
  DriveCallerPtr imposed_;
};

/// f(q_col, q_col') on the equation of `row` (the same degree of freedom for `spring support`).
class SpringSupport final : public Element {
 public:
  SpringSupport(unsigned label, NodeDof row, NodeDof col, std::unique_ptr<ConstitutiveLaw<1>> law);

  std::string_view kind() const override { return "genel"; }
  std::string_view type_name() const override { return cross() ? "cross spring support" : "spring support"; }
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext&) override { law_->after_convergence(); }
  void save_step_state() override { law_->save_step_state(); }
  void restore_step_state() override { law_->restore_step_state(); }

  // Private data (genel_.cc GenelSpringSupport): "F", the law's force, and "X", its strain.
  unsigned private_data_count() const override { return 2; }
  double private_data(unsigned i) const override { return i == 1 ? law_->force()[0] : i == 2 ? strain_ : 0.0; }
  DatumInfo private_data_info(unsigned i) const override {
    if (i == 1) return {"F", "force of the law"};
    return i == 2 ? DatumInfo{"X", "value of the degree of freedom (the law's strain)"} : DatumInfo{};
  }

 private:
  void evaluate(const StepContext& c);
  bool cross() const { return row_.node != col_.node || row_.k != col_.k; }
  double strain_ = 0.0;  ///< the value the law saw last (private datum "X")
  NodeDof row_, col_;
  std::unique_ptr<ConstitutiveLaw<1>> law_;
};

}  // namespace mbl::elements

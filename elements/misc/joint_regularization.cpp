// Joint regularization (input manual §8.13): the constraint equations of the joint with the same
// label, with c a compliance per multiplier (MBDyn's jointreg.cc):
//  - tikhonov: Phi - c lambda = 0 (§8.13.1, eqs. 8.78-8.79): r_c -= c lambda and J(c, lambda) += c
//    on the joint's rows. The term is not scaled by the 1/dCoef of holonomic rows
//    (docs/architecture.md): scaled, it would dominate the derivatives phase, where dCoef is tiny.
//  - dynamic: the same Jacobian, and in the residual the multipliers of the previous residual
//    evaluation, zero at the first one after each converged step (DynamicRegularization: the
//    constraint relaxed by the last iterate's reaction, lambda_prev -> lambda as Newton converges).
//  - jacobian: the same Jacobian and nothing in the residual (JacobianRegularization: the
//    iteration matrix regularized, the solution that of the bare joint).
// None of them adds anything during the initial assembly's residual but tikhonov (as MBDyn's
// InitialAssRes: dynamic's multipliers are zero there, jacobian's is empty).
//   joint regularization: <label>, {tikhonov | dynamic | jacobian} [, { <c> | list, <c_1> [, ...] }];
#include <fmt/format.h>

#include "elements/misc/driven.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {
namespace {

enum class RegularizationType { Tikhonov, Dynamic, Jacobian };

class JointRegularization final : public Element {
 public:
  JointRegularization(unsigned label, RegularizationType type, std::vector<double> coef,
                      parser::SourceLocation coef_at)
      : Element(label), type_(type), coef_(std::move(coef)), coef_at_(std::move(coef_at)) {}

  std::string_view kind() const override { return "joint regularization"; }
  std::string_view type_name() const override {
    return type_ == RegularizationType::Tikhonov ? "Tikhonov" : type_ == RegularizationType::Dynamic ? "Dynamic" : "Jacobian";
  }

  void setup(Model& m) override {
    joint_ = m.find_element("joint", label());
    if (!joint_) throw parser::InputError(where, fmt::format("expected an existing joint {} to regularize", label()));
    driven_ = dynamic_cast<const Driven*>(joint_);
  }
  void residual(ResidualSink& r, const StepContext& c) override {
    if (!regularizing() || type_ == RegularizationType::Jacobian) return;
    const int n = joint_->dof_count();
    if (type_ == RegularizationType::Tikhonov) {
      for (int k = 0; k < n; ++k) r.add(joint_->first_index() + k, -coef(k) * (*c.y)[joint_->first_index() + k]);
      return;
    }
    if (c.initial_assembly) return;
    lambda_prev_.resize(std::size_t(n), 0.0);
    for (int k = 0; k < n; ++k) {
      r.add(joint_->first_index() + k, -coef(k) * lambda_prev_[std::size_t(k)]);
      lambda_prev_[std::size_t(k)] = (*c.y)[joint_->first_index() + k];
    }
  }
  void after_convergence(const StepContext&) override { lambda_prev_.assign(lambda_prev_.size(), 0.0); }
  void jacobian(JacobianSink& J, const StepContext& c) override {
    if (!regularizing()) return;
    for (int k = 0; k < joint_->dof_count(); ++k)
      J.add(joint_->first_index() + k, joint_->first_index() + k, coef(k));
  }

 private:
  double coef(int k) const {
    if (coef_.size() == 1) return coef_[0];
    if (k >= static_cast<int>(coef_.size()))
      throw parser::InputError(coef_at_, fmt::format("expected {} coefficients (one per multiplier of joint {}), found {}",
                                                     joint_->dof_count(), label(), coef_.size()));
    return coef_[std::size_t(k)];
  }
  /// A driven joint that is inactive has no constraint to regularize.
  bool regularizing() const { return !driven_ || driven_->active(); }

  RegularizationType type_;
  std::vector<double> coef_;
  std::vector<double> lambda_prev_;  ///< dynamic: the multipliers at the last residual
  parser::SourceLocation coef_at_;
  Element* joint_ = nullptr;
  const Driven* driven_ = nullptr;  ///< joint_ when it is a driven element (resolved once in setup)
};

void read_joint_regularization(parser::CardReader& in, BuildContext& ctx, unsigned label) {
  // MBDyn's ReadJointRegularization (jointreg.cc).
  RegularizationType type = RegularizationType::Tikhonov;
  if (in.keyword_is("tikhonov")) type = RegularizationType::Tikhonov;
  else if (in.keyword_is("dynamic")) type = RegularizationType::Dynamic;
  else if (in.keyword_is("jacobian")) type = RegularizationType::Jacobian;
  else in.fail_expected("a joint regularization type (tikhonov, dynamic, jacobian)");
  const parser::SourceLocation at = in.location();
  std::vector<double> coef;
  if (in.keyword_is("list")) {
    do coef.push_back(in.real());
    while (!in.at_end());
  } else {
    coef.push_back(in.at_end() ? 1e-6 : in.real());
  }
  auto e = std::make_unique<JointRegularization>(label, type, std::move(coef), at);
  e->where = in.card_location();
  e->set_output_enabled(false);
  ctx.model().add_element(std::move(e));
}

const bool registered = CardRegistry::family("element").add("joint regularization", read_joint_regularization);

}  // namespace
}  // namespace mbl::elements

// Joint regularization (input manual §8.13), Tikhonov type: the constraint equations of the joint
// with the same label become Phi - c lambda = 0 (§8.13.1, eqs. 8.78-8.79), c a compliance per
// multiplier: r_c -= c lambda and J(c, lambda) += c on the joint's rows. The term is not scaled
// by the 1/dCoef of holonomic rows (docs/architecture.md): scaled, it would dominate the
// derivatives phase, where dCoef is tiny.
//   joint regularization: <label>, tikhonov, { <c> | list, <c_1> [, ...] };
#include <fmt/format.h>

#include "elements/misc/driven.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {
namespace {

class TikhonovRegularization final : public Element {
 public:
  TikhonovRegularization(unsigned label, std::vector<double> coef, parser::SourceLocation coef_at)
      : Element(label), coef_(std::move(coef)), coef_at_(std::move(coef_at)) {}

  std::string_view kind() const override { return "joint regularization"; }
  std::string_view type_name() const override { return "Tikhonov"; }

  void setup(Model& m) override {
    joint_ = m.find_element("joint", label());
    if (!joint_) throw parser::InputError(where, fmt::format("expected an existing joint {} to regularize", label()));
    driven_ = dynamic_cast<const Driven*>(joint_);
  }
  void residual(ResidualSink& r, const StepContext& c) override {
    if (!regularizing()) return;
    for (int k = 0; k < joint_->dof_count(); ++k)
      r.add(joint_->first_index() + k, -coef(k) * (*c.y)[joint_->first_index() + k]);
  }
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

  std::vector<double> coef_;
  parser::SourceLocation coef_at_;
  Element* joint_ = nullptr;
  const Driven* driven_ = nullptr;  ///< joint_ when it is a driven element (resolved once in setup)
};

void read_joint_regularization(parser::CardReader& in, BuildContext& ctx, unsigned label) {
  // MBDyn's ReadJointRegularization (jointreg.cc) also has "dynamic" and "jacobian".
  if (in.peek_keyword_is("dynamic") || in.peek_keyword_is("jacobian"))
    return in.not_implemented("joint regularization \"dynamic\" and \"jacobian\" (input manual §8.13)");
  if (!in.keyword_is("tikhonov")) in.fail_expected("a joint regularization type (tikhonov, dynamic, jacobian)");
  const parser::SourceLocation at = in.location();
  std::vector<double> coef;
  if (in.keyword_is("list")) {
    do coef.push_back(in.real());
    while (!in.at_end());
  } else {
    coef.push_back(in.at_end() ? 1e-6 : in.real());
  }
  auto e = std::make_unique<TikhonovRegularization>(label, std::move(coef), at);
  e->where = in.card_location();
  e->set_output_enabled(false);
  ctx.model().add_element(std::move(e));
}

const bool registered = CardRegistry::family("element").add("joint regularization", read_joint_regularization);

}  // namespace
}  // namespace mbl::elements

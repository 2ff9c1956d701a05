// Modal force (input manual §8.8.8): drive values added to the modal equations of a modal
// joint, and, when the joint rides on a modal node, their resultant force and moment (given per
// mode in the node frame) on the node:
//   force: <label>, modal, <modal joint> [, list, <n>, <mode> [, ...]],
//          <drive> [, resultant, <f>, <m>] [, ...];
// Output (.frc): label [, F, M (node frame) with a modal node], the drive values.
#include <fmt/format.h>

#include "elements/input/drive_input.hpp"
#include "elements/joints/modal/modal_joint.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {
namespace {

class ModalForce final : public Element {
 public:
  struct Mode {
    int index;  ///< 0-based index among the joint's modes
    DriveCallerPtr value;
    Vec3 f_N = Vec3::Zero(), m_N = Vec3::Zero();  ///< resultant per unit value, node frame
  };
  ModalForce(unsigned label, const ModalJoint& joint, std::vector<Mode> modes)
      : Element(label), joint_(joint), modes_(std::move(modes)), values_(modes_.size(), 0.0) {}
  std::string_view kind() const override { return "force"; }
  std::string_view type_name() const override { return "modal"; }

  void residual(ResidualSink& r, const StepContext& c) override {
    F_N_.setZero();
    M_N_.setZero();
    for (std::size_t k = 0; k < modes_.size(); ++k) {
      values_[k] = modes_[k].value->value(c.t);
      r.add(joint_.modal_equation(modes_[k].index), values_[k]);
      F_N_ += modes_[k].f_N * values_[k];
      M_N_ += modes_[k].m_N * values_[k];
    }
    if (const StructNode* n = joint_.modal_node()) {
      r.add(n->eq_index(), Vec3(n->R_WN() * F_N_));
      r.add(n->eq_index() + 3, Vec3(n->R_WN() * M_N_));
    }
  }
  // The resultant turns with the node: d(R F) = dCoef [d x] R F.
  void jacobian(JacobianSink& J, const StepContext& c) override {
    if (const StructNode* n = joint_.modal_node()) {
      J.add(n->eq_index(), n->dof_index() + 3, Mat3(c.dCoef * skew(n->R_WN() * F_N_)));
      J.add(n->eq_index() + 3, n->dof_index() + 3, Mat3(c.dCoef * skew(n->R_WN() * M_N_)));
    }
  }
  void output(OutputSink& out) const override {
    std::ostream* os = out.text(OutputFile::Frc);
    if (!os) return;
    out.write_label(*os, label());
    if (joint_.modal_node()) {
      out.write(*os, F_N_);
      out.write(*os, M_N_);
    }
    for (double v : values_) out.write(*os, v);
    *os << '\n';
  }

 private:
  const ModalJoint& joint_;
  std::vector<Mode> modes_;
  std::vector<double> values_;
  Vec3 F_N_ = Vec3::Zero(), M_N_ = Vec3::Zero();
};

void read_modal_force(parser::CardReader& in, BuildContext& ctx, unsigned label) {
  const parser::SourceLocation at_joint = in.location();
  const unsigned joint_label = in.label();
  const auto* joint = dynamic_cast<const ModalJoint*>(ctx.model().find_element("joint", joint_label));
  if (!joint)
    throw parser::InputError(at_joint, fmt::format("expected the label of a modal joint, found {}", joint_label));
  const int N = joint->modes();
  std::vector<ModalForce::Mode> modes;
  if (in.keyword_is("list")) {
    const int n = static_cast<int>(parser::checked_integer(
        in, [N](std::int64_t v) { return v > 0 && v <= N; }, fmt::format("a number of modes from 1 to {}", N)));
    std::vector<bool> given(N, false);
    for (int k = 0; k < n; ++k) {
      const parser::SourceLocation at = in.location();
      const std::int64_t m = in.integer();
      const auto& numbers = joint->body().mode_numbers;
      int j = 0;
      while (j < N && numbers[j] != m) ++j;
      if (j == N) throw parser::InputError(at, fmt::format("expected a mode of modal joint {}, found {}", joint_label, m));
      if (given[j]) throw parser::InputError(at, fmt::format("expected a mode not listed yet, found {}", m));
      given[j] = true;
      modes.push_back({j, nullptr});
    }
  } else {
    for (int j = 0; j < N; ++j) modes.push_back({j, nullptr});
  }
  for (ModalForce::Mode& m : modes) {
    m.value = read_drive(in, ctx);
    if (joint->modal_node() && in.keyword_is("resultant")) {
      m.f_N = in.vec3();
      m.m_N = in.vec3();
    }
  }
  auto e = std::make_unique<ModalForce>(label, *joint, std::move(modes));
  e->where = in.card_location();
  ctx.read_output_flag(in, *e, "forces");
  ctx.model().add_element(std::move(e));
}

const bool registered = CardRegistry::family("force type").add("modal", read_modal_force);

}  // namespace
}  // namespace mbl::elements

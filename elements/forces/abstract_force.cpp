// Abstract forces (input manual §8.8.2-8.8.3): a drive value added to the equation of a NodeDof,
// and the internal variant adding the opposite value to a second NodeDof's equation.
//   force: <label>, abstract, <node dof>, <drive caller>;
//   force: <label>, abstract internal, <node dof 1>, <node dof 2>, <drive caller>;
// Output (.frc): label, node label, value [, node 2 label, -value].
#include <optional>

#include "elements/genels/node_dof.hpp"
#include "elements/input/drive_input.hpp"
#include "mbdyn-like/core/element.hpp"

namespace mbl::elements {
namespace {

class AbstractForce final : public Element {
 public:
  AbstractForce(unsigned label, NodeDof dof, const NodeDof* dof2, DriveCallerPtr value)
      : Element(label), dof_(dof), value_(std::move(value)) {
    if (dof2) dof2_ = *dof2;
  }
  std::string_view kind() const override { return "force"; }
  std::string_view type_name() const override { return dof2_ ? "abstract internal" : "abstract"; }
  void residual(ResidualSink& r, const StepContext& c) override {
    const double f = value_->value(c.t);
    r.add(dof_.equation(), f);
    if (dof2_) r.add(dof2_->equation(), -f);
  }
  // The drive may read the state (dof drives): like MBDyn, it is not linearised.
  void jacobian(JacobianSink&, const StepContext&) override {}
  void after_convergence(const StepContext& c) override { f_ = value_->value(c.t); }
  void output(OutputSink& out) const override {
    if (!output_enabled()) return;
    if (std::ostream* os = out.text(OutputFile::Frc)) {
      out.write_label(*os, label());
      *os << ' ' << dof_.node->label();
      out.write(*os, f_);
      if (dof2_) {
        *os << ' ' << dof2_->node->label();
        out.write(*os, -f_);
      }
      *os << '\n';
    }
  }

 private:
  NodeDof dof_;
  std::optional<NodeDof> dof2_;  ///< the internal variant's second dof
  DriveCallerPtr value_;
  double f_ = 0.0;
};

void read_abstract_force(parser::CardReader& in, BuildContext& ctx, unsigned label, bool internal) {
  const NodeDof d = read_node_dof(in, ctx);
  NodeDof d2;
  if (internal) d2 = read_node_dof(in, ctx);
  auto e = std::make_unique<AbstractForce>(label, d, internal ? &d2 : nullptr, read_drive(in, ctx));
  e->where = in.card_location();
  ctx.read_output_flag(in, *e, "forces");
  ctx.model().add_element(std::move(e));
}

const bool registered =
    CardRegistry::family("force type")
        .add("abstract", [](parser::CardReader& in, BuildContext& c, unsigned l) { read_abstract_force(in, c, l, false); }) &&
    CardRegistry::family("force type")
        .add("abstract internal", [](parser::CardReader& in, BuildContext& c, unsigned l) { read_abstract_force(in, c, l, true); });

}  // namespace
}  // namespace mbl::elements

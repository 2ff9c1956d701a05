// Abstract force (input manual §8.8.2): a drive value added to the equation of a NodeDof.
//   force: <label>, abstract, <node dof>, <drive caller>;
// Output (.frc): label, node label, value.
#include "elements/genels/node_dof.hpp"
#include "elements/input/drive_input.hpp"
#include "mbdyn-like/core/element.hpp"

namespace mbl::elements {
namespace {

class AbstractForce final : public Element {
 public:
  AbstractForce(unsigned label, NodeDof dof, DriveCallerPtr value)
      : Element(label), dof_(dof), value_(std::move(value)) {}
  std::string_view kind() const override { return "force"; }
  std::string_view type_name() const override { return "abstract"; }
  void residual(ResidualSink& r, const StepContext& c) override { r.add(dof_.equation(), value_->value(c.t)); }
  // The drive may read the state (dof drives): like MBDyn, it is not linearised.
  void jacobian(JacobianSink&, const StepContext&) override {}
  void after_convergence(const StepContext& c) override { f_ = value_->value(c.t); }
  void output(OutputSink& out) const override {
    if (!output_enabled()) return;
    if (std::ostream* os = out.text(OutputFile::Frc)) {
      out.write_label(*os, label());
      *os << ' ' << dof_.node->label();
      out.write(*os, f_);
      *os << '\n';
    }
  }

 private:
  NodeDof dof_;
  DriveCallerPtr value_;
  double f_ = 0.0;
};

void read_abstract_force(parser::CardReader& in, BuildContext& ctx, unsigned label) {
  const NodeDof d = read_node_dof(in, ctx);
  auto e = std::make_unique<AbstractForce>(label, d, read_drive(in, ctx));
  e->where = in.card_location();
  ctx.read_output_flag(in, *e, "forces");
  ctx.model().add_element(std::move(e));
}

const bool registered = CardRegistry::family("force type").add("abstract", read_abstract_force);

}  // namespace
}  // namespace mbl::elements

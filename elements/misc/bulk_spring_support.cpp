#include "elements/misc/bulk_spring_support.hpp"

#include "elements/input/drive_input.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/mbdyn_kinds.hpp"

namespace mbl::elements {

BulkSpringSupport::BulkSpringSupport(unsigned label, NodeDof dof, DriveCallerPtr stiffness)
    : Element(label), dof_(dof), stiffness_(std::move(stiffness)) {}

void BulkSpringSupport::residual(ResidualSink& r, const StepContext& c) {
  r.add(dof_.equation(), -stiffness_->value(c.t) * dof_.value(c));
}

void BulkSpringSupport::jacobian(JacobianSink& J, const StepContext& c) {
  // MBDyn puts k dCoef (the value of a differential unknown); for an algebraic unknown the
  // exact derivative is k, which we use (same solution).
  J.add(dof_.equation(), dof_.unknown(), stiffness_->value(c.t) * dof_.update_coef(c.dCoef));
}

namespace {

using parser::CardReader;

void read_bulk(CardReader& in, BuildContext& ctx, unsigned label) {
  if (const CardReaderFn* reader = CardRegistry::family("bulk").match_keyword(in)) return (*reader)(in, ctx, label);
  kinds::reject(in, "bulk", "bulk element type");
}

// `<node>, <type> [, <dof>], (DriveCaller) <stiffness>` (bulk.cc ReadBulk: ReadScalarDof without
// the order).
void read_spring_support(CardReader& in, BuildContext& ctx, unsigned label) {
  NodeDof dof = read_node_dof(in, ctx, false);
  dof.k = 0;  // MBDyn's BulkSpringSupport uses the first degree of freedom (see the class)
  DriveCallerPtr k = read_drive(in, ctx);
  auto e = std::make_unique<BulkSpringSupport>(label, dof, std::move(k));
  e->where = in.card_location();
  ctx.read_output_flag(in, *e, "bulk elements");
  ctx.model().add_element(std::move(e));
}

const bool registered = CardRegistry::family("element").add("bulk", read_bulk) &&
                        CardRegistry::family("bulk").add("spring support", read_spring_support);

}  // namespace
}  // namespace mbl::elements

#include "elements/genels/genels.hpp"

#include <fmt/format.h>

#include "elements/input/drive_input.hpp"
#include "elements/laws/law_reader.hpp"
#include "mbdyn-like/core/mbdyn_kinds.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {

GenelClamp::GenelClamp(unsigned label, NodeDof dof, DriveCallerPtr imposed)
    : Element(label), dof_(dof), imposed_(std::move(imposed)) {}

void GenelClamp::initial_state(Vector& y, Vector& yp) const {
  from_node_ = dof_.differential ? yp[dof_.unknown()] : y[dof_.unknown()];
}

// Phi = q - q0(t) with q the value (scaled by 1/dCoef, like a holonomic joint) or the
// derivative; multiplier lambda: r_eq -= lambda.
void GenelClamp::residual(ResidualSink& r, const StepContext& c) {
  const double lambda = (*c.y)[first_index()];
  r.add(dof_.equation(), -lambda);
  const double phi = dof_.value(c) - imposed(c.t);
  r.add(first_index(), dof_.holonomic() ? phi / c.dCoef : phi);
}

void GenelClamp::jacobian(JacobianSink& J, const StepContext& c) {
  J.add(dof_.equation(), first_index(), 1.0);
  // -d(r_c)/dq' - dCoef d(r_c)/dq = -1 in all three cases (value with 1/dCoef, derivative,
  // value of an algebraic unknown).
  (void)c;
  J.add(first_index(), dof_.unknown(), -1.0);
}

GenelDistance::GenelDistance(unsigned label, NodeDof dof1, NodeDof dof2, DriveCallerPtr imposed)
    : Element(label), dof1_(dof1), dof2_(dof2), imposed_(std::move(imposed)) {}

void GenelDistance::residual(ResidualSink& r, const StepContext& c) {
  const double lambda = (*c.y)[first_index()];
  r.add(dof1_.equation(), lambda);
  r.add(dof2_.equation(), -lambda);
  const double phi = imposed_->value(c.t) - dof2_.value(c) + dof1_.value(c);
  r.add(first_index(), holonomic() ? phi / c.dCoef : phi);
}

void GenelDistance::jacobian(JacobianSink& J, const StepContext& c) {
  J.add(dof1_.equation(), first_index(), -1.0);
  J.add(dof2_.equation(), first_index(), 1.0);
  const double scale = holonomic() ? 1.0 / c.dCoef : 1.0;
  J.add(first_index(), dof1_.unknown(), -scale * dof1_.update_coef(c.dCoef));
  J.add(first_index(), dof2_.unknown(), scale * dof2_.update_coef(c.dCoef));
}

SpringSupport::SpringSupport(unsigned label, NodeDof row, NodeDof col, std::unique_ptr<ConstitutiveLaw<1>> law)
    : Element(label), row_(row), col_(col), law_(std::move(law)) {}

void SpringSupport::evaluate(const StepContext& c) {
  const int i = col_.unknown();
  Eigen::Matrix<double, 1, 1> eps, eps_dot;
  eps[0] = (*c.y)[i];
  eps_dot[0] = col_.has_derivative() ? (*c.yp)[i] : 0.0;
  law_->update(eps, eps_dot, c.t);
  strain_ = eps[0];
}

void SpringSupport::residual(ResidualSink& r, const StepContext& c) {
  evaluate(c);
  r.add(row_.equation(), -law_->force()[0]);
}

void SpringSupport::jacobian(JacobianSink& J, const StepContext& c) {
  evaluate(c);
  const double K = law_->stiffness()(0, 0), C = law_->damping()(0, 0);
  const double v = col_.has_derivative() ? C + c.dCoef * K : K;
  J.add(row_.equation(), col_.unknown(), v);
}

void add_genel(parser::CardReader& in, BuildContext& ctx, std::unique_ptr<Element> e) {
  e->where = in.card_location();
  ctx.read_output_flag(in, *e, "genels");
  ctx.model().add_element(std::move(e));
}

Node* read_differential_abstract_node(parser::CardReader& in, BuildContext& ctx) {
  const parser::SourceLocation at = in.location();
  const unsigned label = in.label();
  Node* n = ctx.find_node("abstract", label);
  if (!n) ctx.skip_if_depends_on_skipped(in, "abstract", label);
  if (!n) throw parser::InputError(at, fmt::format("expected an existing abstract node, found no abstract node {}", label));
  if (n->dof_order(0) != DofOrder::Differential)
    throw parser::InputError(at, fmt::format("expected a differential abstract node, found algebraic abstract node {}", label));
  return n;
}

namespace {

using parser::CardReader;

void read_genel(CardReader& in, BuildContext& ctx, unsigned label) {
  if (const CardReaderFn* reader = CardRegistry::family("genel").match_keyword(in)) return (*reader)(in, ctx, label);
  kinds::reject(in, "genel", "genel type");
}

void read_clamp(CardReader& in, BuildContext& ctx, unsigned label) {
  const NodeDof d = read_node_dof(in, ctx);
  DriveCallerPtr imposed = in.keyword_is("from node") ? nullptr : read_drive(in, ctx);
  add_genel(in, ctx, std::make_unique<GenelClamp>(label, d, std::move(imposed)));
}

// `<node_dof>, <law>` or, cross, `<row_node_dof>, <col_node_dof>, <law>`.
void read_spring_support(CardReader& in, BuildContext& ctx, unsigned label, bool cross) {
  const NodeDof row = read_node_dof(in, ctx);
  const NodeDof col = cross ? read_node_dof(in, ctx) : row;
  auto law = laws::read_constitutive_law<1>(in, ctx);
  if (!law) return;
  // MBDyn's spring support (genel.cc, ReadGenel) takes `position, {from node | <x0>}`: the
  // strain is measured from x0.
  if (!cross && in.peek_keyword_is("position"))
    return in.not_implemented("spring support `position` (the reference value of the strain; input manual §8.9)");
  add_genel(in, ctx, std::make_unique<SpringSupport>(label, row, col, std::move(law)));
}

void read_distance(CardReader& in, BuildContext& ctx, unsigned label) {
  const NodeDof d1 = read_node_dof(in, ctx);
  const NodeDof d2 = read_node_dof(in, ctx);
  add_genel(in, ctx, std::make_unique<GenelDistance>(label, d1, d2, read_drive(in, ctx)));
}

const bool registered = CardRegistry::family("element").add("genel", read_genel) &&
                        CardRegistry::family("genel").add("clamp", read_clamp) &&
                        CardRegistry::family("genel").add("distance", read_distance) &&
                        CardRegistry::family("genel").add("spring support",
                                                          [](CardReader& in, BuildContext& ctx, unsigned l) {
                                                            read_spring_support(in, ctx, l, false);
                                                          }) &&
                        CardRegistry::family("genel").add("cross spring support",
                                                          [](CardReader& in, BuildContext& ctx, unsigned l) {
                                                            read_spring_support(in, ctx, l, true);
                                                          });

}  // namespace
}  // namespace mbl::elements

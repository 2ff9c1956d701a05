#include "elements/genels/genels.hpp"

#include "elements/input/drive_input.hpp"
#include "elements/laws/law_reader.hpp"
#include "mbdyn-like/core/mbdyn_kinds.hpp"

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

SpringSupport::SpringSupport(unsigned label, NodeDof dof, std::unique_ptr<ConstitutiveLaw<1>> law)
    : Element(label), dof_(dof), law_(std::move(law)) {}

void SpringSupport::evaluate(const StepContext& c) {
  const int i = dof_.unknown();
  Eigen::Matrix<double, 1, 1> eps, eps_dot;
  eps[0] = (*c.y)[i];
  eps_dot[0] = dof_.has_derivative() ? (*c.yp)[i] : 0.0;
  law_->update(eps, eps_dot, c.t);
}

void SpringSupport::residual(ResidualSink& r, const StepContext& c) {
  evaluate(c);
  r.add(dof_.equation(), -law_->force()[0]);
}

void SpringSupport::jacobian(JacobianSink& J, const StepContext& c) {
  evaluate(c);
  const double K = law_->stiffness()(0, 0), C = law_->damping()(0, 0);
  const double v = dof_.has_derivative() ? C + c.dCoef * K : K;
  J.add(dof_.equation(), dof_.unknown(), v);
}

namespace {

using parser::CardReader;

void read_genel(CardReader& in, BuildContext& ctx, unsigned label) {
  if (const CardReaderFn* reader = CardRegistry::family("genel").match_keyword(in)) return (*reader)(in, ctx, label);
  kinds::reject(in, "genel", "genel type");
}

void add_genel(CardReader& in, BuildContext& ctx, std::unique_ptr<Element> e) {
  e->where = in.card_location();
  ctx.read_output_flag(in, *e, "genels");
  ctx.model().add_element(std::move(e));
}

void read_clamp(CardReader& in, BuildContext& ctx, unsigned label) {
  const NodeDof d = read_node_dof(in, ctx);
  DriveCallerPtr imposed = in.keyword_is("from node") ? nullptr : read_drive(in, ctx);
  add_genel(in, ctx, std::make_unique<GenelClamp>(label, d, std::move(imposed)));
}

void read_spring_support(CardReader& in, BuildContext& ctx, unsigned label) {
  const NodeDof d = read_node_dof(in, ctx);
  auto law = laws::read_constitutive_law<1>(in, ctx);
  if (!law) return;
  add_genel(in, ctx, std::make_unique<SpringSupport>(label, d, std::move(law)));
}

const bool registered = CardRegistry::family("element").add("genel", read_genel) &&
                        CardRegistry::family("genel").add("clamp", read_clamp) &&
                        CardRegistry::family("genel").add("spring support", read_spring_support);

}  // namespace
}  // namespace mbl::elements

#include "elements/genels/spring_mass.hpp"

#include "elements/genels/genels.hpp"
#include "elements/input/drive_input.hpp"
#include "elements/laws/law_reader.hpp"

namespace mbl::elements {

GenelSpring::GenelSpring(unsigned label, NodeDof dof1, NodeDof dof2, std::unique_ptr<ConstitutiveLaw<1>> law)
    : Element(label), dof1_(dof1), dof2_(dof2), law_(std::move(law)) {}

// As MBDyn, the law sees no strain rate.
void GenelSpring::evaluate(const StepContext& c) {
  law_->update(ConstitutiveLaw1D::VecN(dof2_.value(c) - dof1_.value(c)), ConstitutiveLaw1D::VecN::Zero(), c.t);
}

void GenelSpring::residual(ResidualSink& r, const StepContext& c) {
  evaluate(c);
  const double f = law_->force()[0];
  r.add(dof1_.equation(), f);
  r.add(dof2_.equation(), -f);
}

void GenelSpring::jacobian(JacobianSink& J, const StepContext& c) {
  evaluate(c);
  const double K = law_->stiffness()(0, 0);
  const double k1 = K * dof1_.update_coef(c.dCoef), k2 = K * dof2_.update_coef(c.dCoef);
  J.add(dof1_.equation(), dof1_.unknown(), k1);
  J.add(dof1_.equation(), dof2_.unknown(), -k2);
  J.add(dof2_.equation(), dof1_.unknown(), -k1);
  J.add(dof2_.equation(), dof2_.unknown(), k2);
}

GenelMass::GenelMass(unsigned label, NodeDof dof, DriveCallerPtr mass)
    : Element(label), dof_(dof), mass_(std::move(mass)) {}

void GenelMass::initial_state(Vector& y, Vector& yp) const {
  y[first_index()] = yp[dof_.unknown()];
  yp[first_index()] = 0.0;
}

void GenelMass::residual(ResidualSink& r, const StepContext& c) {
  const int u = first_index();
  r.add(dof_.equation(), -mass_->value(c.t) * (*c.yp)[u]);
  r.add(u, (*c.yp)[dof_.unknown()] - (*c.y)[u]);
}

void GenelMass::jacobian(JacobianSink& J, const StepContext& c) {
  const int u = first_index();
  J.add(dof_.equation(), u, mass_->value(c.t));
  J.add(u, dof_.unknown(), -1.0);
  J.add(u, u, c.dCoef);
}

namespace {

using parser::CardReader;

/// `<node_dof_1>, <node_dof_2>, <elastic 1D law>`
void read_spring(CardReader& in, BuildContext& ctx, unsigned label) {
  const NodeDof d1 = read_node_dof(in, ctx);
  const NodeDof d2 = read_node_dof(in, ctx);
  const parser::SourceLocation at = in.location();
  auto law = laws::read_constitutive_law<1>(in, ctx);
  if (!law) return;
  if (law->is_viscous()) throw parser::InputError(at, "expected an elastic constitutive law (genel spring), found a viscous one");
  add_genel(in, ctx, std::make_unique<GenelSpring>(label, d1, d2, std::move(law)));
}

/// `<node_dof>, <mass drive>`: the degree of freedom must have a derivative.
void read_mass(CardReader& in, BuildContext& ctx, unsigned label) {
  const parser::SourceLocation at = in.location();
  const NodeDof d = read_node_dof(in, ctx);
  if (!d.has_derivative()) throw parser::InputError(at, "expected a differential degree of freedom (genel mass), found an algebraic one");
  add_genel(in, ctx, std::make_unique<GenelMass>(label, d, read_drive(in, ctx)));
}

const bool registered = CardRegistry::family("genel").add("spring", read_spring) &&
                        CardRegistry::family("genel").add("mass", read_mass);

}  // namespace
}  // namespace mbl::elements

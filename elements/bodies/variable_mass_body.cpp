#include "elements/bodies/variable_mass_body.hpp"
#include "elements/bodies/body.hpp"

#include <fmt/format.h>

#include "elements/input/drive_input.hpp"
#include "mbdyn-like/core/log_text.hpp"
#include "mbdyn-like/core/model.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {

VariableMassBody::VariableMassBody(unsigned label, StructNode& node, Params p)
    : Element(label), node_(node), p_(std::move(p)) {}

std::string VariableMassBody::log_line() const {
  // No appendix entry; MBDyn's file (t.body.variable_mass_body) has "variable body: <label>
  // <node> <m> <b> <J> <J>" with the values at the initial time. The two matrices are taken as
  // J_vm and J_vg (in that file both are the identity).
  const double t = model_ ? model_->drive_env().time : 0.0;
  return fmt::format("variable body: {} {} {} {} {} {}", label(), node_.label(), log_text(mass(t)), log_text(b_N(t)),
                     log_text(Mat3(p_.J_vm_N->value(t))), log_text(Mat3(p_.J_vg_N->value(t))));
}

const GravityField* VariableMassBody::gravity() const { return model_ ? model_->gravity() : nullptr; }

void VariableMassBody::initial_state(Vector& y, Vector& yp) const {
  if (!node_.is_dynamic()) return;
  const auto& ic = node_.initial();
  const double t = model_ ? model_->drive_env().time : 0.0;
  const double m = mass(t);
  const Vec3 b = ic.R_WN * b_N(t);
  const Vec3 v_cm = ic.v_W + ic.w_W.cross(b) + ic.R_WN * p_.b_N->derivative(t);
  const Mat3 J = ic.R_WN * J_cm_N(t) * ic.R_WN.transpose();
  const int k = node_.momentum_dof_index();
  y.segment<3>(k) += m * v_cm;
  y.segment<3>(k + 3) += J * ic.w_W + b.cross(m * v_cm);
}

void VariableMassBody::residual(ResidualSink& r, const StepContext& c) {
  t_ = c.t;
  const Mat3& R = node_.R_WN();
  const double m = mass(c.t), m_dot = p_.mass->derivative(c.t);
  const Vec3 b = R * b_N(c.t), b_dot = R * p_.b_N->derivative(c.t);
  const Vec3& v = node_.v_W();
  const Vec3& w = node_.w_W();
  if (node_.is_dynamic()) {
    const Vec3 v_cm = v + w.cross(b) + b_dot;
    const Mat3 J_cm = R * J_cm_N(c.t) * R.transpose();
    const Mat3 J_vm_dot = R * p_.J_vm_N->derivative(c.t) * R.transpose();
    r.add(node_.momentum_eq_index(), Vec3(m * v_cm));
    r.add(node_.momentum_eq_index() + 3, Vec3(J_cm * w + b.cross(m * v_cm)));
    r.add(node_.eq_index(), Vec3(m_dot * v_cm));
    r.add(node_.eq_index() + 3, Vec3(b.cross(m_dot * v_cm) + J_vm_dot * w + m * b_dot.cross(v)));
  }
  if (const GravityField* field = gravity()) {
    const Vec3 g = field->acceleration(node_.x_W() + b, c.t);
    r.add(node_.eq_index(), Vec3(m * g));
    r.add(node_.eq_index() + 3, Vec3(m * b.cross(g)));
  }
}

// The Jacobian of a rigid body with the properties frozen at t (technical manual §8.1.1,
// "Linearization"), plus d(m' v)/dv.
void VariableMassBody::jacobian(JacobianSink& J, const StepContext& c) {
  const Mat3& R = node_.R_WN();
  const double m = mass(c.t);
  const Vec3 b = R * b_N(c.t);
  const Vec3 s = m * b;
  const int col_x = node_.dof_index(), col_g = col_x + 3;
  if (node_.is_dynamic()) {
    const Mat3 bx = skew(b);
    add_rigid_momentum_jacobian(J, c, node_, m, s, R * J_cm_N(c.t) * R.transpose() + m * bx * bx.transpose());
    J.add(node_.eq_index(), col_x, Mat3(-p_.mass->derivative(c.t) * Mat3::Identity()));
  }
  if (const GravityField* field = gravity()) {
    const Vec3 g = field->acceleration(node_.x_W() + b, c.t);
    J.add(node_.eq_index() + 3, col_g, Mat3(-c.dCoef * skew(g) * skew(s)));
  }
}

parser::PrivateDataOwner::DatumInfo VariableMassBody::private_data_info(unsigned i) const {
  // body_vm.cc VariableBody: iGetNumPrivData is 1 (E); its "V", though named, lies past that
  // count and a drive refuses it. V and m are ours here, as the Body's.
  DatumInfo d = body_private_data_info(i);
  if (i >= 2) d.extension = true;
  return d;
}

double VariableMassBody::private_data(unsigned i) const {
  const double m = mass(t_);
  const Vec3 b = node_.R_WN() * b_N(t_);
  switch (i) {
    case 1: {
      const Vec3 v_cm = node_.v_W() + node_.w_W().cross(b);
      const Mat3 J = node_.R_WN() * J_cm_N(t_) * node_.R_WN().transpose();
      return 0.5 * (m * v_cm.squaredNorm() + node_.w_W().dot(J * node_.w_W()));
    }
    case 2: {
      const GravityField* field = gravity();
      if (!field) return 0.0;
      const Vec3 x_cm = node_.x_W() + b;
      return -m * field->acceleration(x_cm, t_).dot(x_cm);
    }
    case 3: return m;
    default: return 0.0;
  }
}

void read_variable_mass_body(parser::CardReader& in, BuildContext& ctx, unsigned label, StructNode& node) {
  DriveEnvironment& env = ctx.model().drive_env();
  VariableMassBody::Params p;
  auto differentiable = [&](bool ok, const parser::SourceLocation& at, const char* what) {
    if (!ok) throw parser::InputError(at, fmt::format("expected a differentiable drive for the {}", what));
  };
  parser::SourceLocation at = in.location();
  p.mass = read_drive(in, ctx);
  differentiable(p.mass->has_derivative(), at, "mass");
  const parser::RigidFrame frame = node.frame();
  at = in.location();
  p.b_N = drives::read_tpl_drive_caller<Vec3>(in, env, &frame);
  differentiable(p.b_N->has_derivative(), at, "centre of mass");
  at = in.location();
  p.J_vm_N = drives::read_tpl_drive_caller<Mat3>(in, env);
  differentiable(p.J_vm_N->has_derivative(), at, "variable mass inertia");
  p.J_vg_N = drives::read_tpl_drive_caller<Mat3>(in, env);
  auto body = std::make_unique<VariableMassBody>(label, node, std::move(p));
  body->where = in.card_location();
  ctx.read_output_flag(in, *body, "rigid bodies");
  ctx.model().add_element(std::move(body));
}

}  // namespace mbl::elements

#include "elements/bodies/body.hpp"
#include "mbdyn-like/core/private_data_listing.hpp"

#include "mbdyn-like/core/log_text.hpp"

#include <fmt/format.h>

#include "mbdyn-like/core/model.hpp"

namespace mbl::elements {

BodyParams condense(const std::vector<BodyParams>& parts) {
  BodyParams out;
  Vec3 s = Vec3::Zero();
  for (const auto& p : parts) {
    out.mass += p.mass;
    s += p.mass * p.b_N;
  }
  out.b_N = out.mass != 0.0 ? Vec3(s / out.mass) : Vec3::Zero();
  // Parallel-axis transport of each part to the common centre of mass.
  for (const auto& p : parts) {
    const Vec3 d = p.b_N - out.b_N;
    out.J_cm_N += p.J_cm_N + p.mass * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
  }
  return out;
}

Body::Body(unsigned label, StructNode& node, const BodyParams& p)
    : Element(label), node_(node), p_(p) {
  const Mat3 bx = skew(p.b_N);
  J_node_N_ = p.J_cm_N + p.mass * bx * bx.transpose();
}

void Body::setup(Model& m) { model_ = &m; }

const GravityField* Body::gravity() const { return model_ ? model_->gravity() : nullptr; }

bool Body::concurrent_jacobian() const {
  const GravityField* field = gravity();
  return !field || field->concurrent_reads();
}

void Body::initial_state(Vector& y, Vector& yp) const {
  if (!node_.is_dynamic()) return;
  const auto& ic = node_.initial();
  const Vec3 s = p_.mass * (ic.R_WN * p_.b_N);
  const Mat3 J = ic.R_WN * J_node_N_ * ic.R_WN.transpose();
  const int k = node_.momentum_dof_index();
  y.segment<3>(k) += p_.mass * ic.v_W + ic.w_W.cross(s);
  if (node_.is_displacement()) return;  // a point mass: no momenta moment
  y.segment<3>(k + 3) += s.cross(ic.v_W) + J * ic.w_W;
}

void Body::residual(ResidualSink& r, const StepContext& c) {
  t_ = c.t;
  const Vec3 s = s_W();
  if (node_.is_dynamic()) {
    const Vec3& v = node_.v_W();
    const Vec3& w = node_.w_W();
    r.add(node_.momentum_eq_index(), Vec3(p_.mass * v + w.cross(s)));
    if (!node_.is_displacement()) r.add(node_.momentum_eq_index() + 3, Vec3(s.cross(v) + J_W() * w));
  }
  if (const GravityField* field = gravity()) {
    const Vec3 g = field->acceleration(node_.x_W() + node_.R_WN() * p_.b_N, c.t);
    r.add(node_.eq_index(), Vec3(p_.mass * g));
    if (!node_.is_displacement()) r.add(node_.eq_index() + 3, Vec3(s.cross(g)));
  }
}

// Linearisation of technical manual (8.4); gravity at the centre of mass.
void Body::jacobian(JacobianSink& J, const StepContext& c) {
  const Vec3 s = s_W();
  const int col_x = node_.dof_index(), col_g = node_.dof_index() + 3;
  if (node_.is_dynamic()) add_rigid_momentum_jacobian(J, c, node_, p_.mass, s, J_W());
  if (const GravityField* field = gravity()) {
    const Vec3 b_W = node_.R_WN() * p_.b_N;
    const Vec3 x_cm = node_.x_W() + b_W;
    const Vec3 g = field->acceleration(x_cm, c.t);
    const Mat3 dg = field->gradient(x_cm, c.t);
    // f = -m g(x_cm), f = -s x g(x_cm)
    if (node_.is_displacement()) {
      J.add(node_.eq_index(), col_x, Mat3(-c.dCoef * p_.mass * dg));
      return;
    }
    if (!dg.isZero()) {
      const Mat3 db = skew(b_W);
      J.add(node_.eq_index(), col_x, Mat3(-c.dCoef * p_.mass * dg));
      J.add(node_.eq_index(), col_g, Mat3(c.dCoef * p_.mass * dg * db));
      J.add(node_.eq_index() + 3, col_x, Mat3(-c.dCoef * skew(s) * dg));
      J.add(node_.eq_index() + 3, col_g, Mat3(c.dCoef * skew(s) * dg * db));
    }
    J.add(node_.eq_index() + 3, col_g, Mat3(-c.dCoef * skew(g) * skew(s)));
  }
}

void add_rigid_momentum_jacobian(JacobianSink& J, const StepContext& c, const StructNode& node, double m,
                                 const Vec3& s, const Mat3& inertia_W) {
  const Vec3& v = node.v_W();
  const Vec3& w = node.w_W();
  const Mat3 dw_dgp = Mat3::Identity() - c.dCoef * skew(node.w_ref());
  const int col_x = node.dof_index(), col_g = col_x + 3;
  const int row_b = node.momentum_eq_index(), row_g = row_b + 3;
  // f = -(m v + w x s)
  J.add(row_b, col_x, Mat3(-m * Mat3::Identity()));
  if (node.is_displacement()) return;  // a point mass
  J.add(row_b, col_g, Mat3(skew(s) * dw_dgp + c.dCoef * skew(w) * skew(s)));
  // f = -(s x v + J w)
  J.add(row_g, col_x, Mat3(-skew(s)));
  J.add(row_g, col_g, Mat3(-inertia_W * dw_dgp + c.dCoef * (-skew(v) * skew(s) + skew(inertia_W * w) - inertia_W * skew(w))));
}

std::string Body::log_line() const {
  // MBDyn writes the inertia about the node: J_N = J_cm - m [b x][b x].
  const Mat3 J = p_.J_cm_N - p_.mass * skew(p_.b_N) * skew(p_.b_N);
  return fmt::format("body: {} {} {} {} {}", label(), node_.label(), log_text(p_.mass), log_text(p_.b_N),
                     log_text(J));
}

parser::PrivateDataOwner::DatumInfo body_private_data_info(unsigned i) {
  static const PrivateDataListing listing = [] {
    PrivateDataListing l;
    add_datum(l, "E", "kinetic energy");
    add_datum(l, "V", "potential energy in the gravity field (-m g . x_cm)");
    return add_datum(l, "m", "mass");
  }();
  return listed(listing, i);
}

double Body::private_data(unsigned i) const {
  switch (i) {
    case 1: {
      const Vec3& v = node_.v_W();
      const Vec3& w = node_.w_W();
      return 0.5 * (p_.mass * v.squaredNorm() + w.dot(J_W() * w)) + v.dot(w.cross(s_W()));
    }
    case 2: {
      const GravityField* field = gravity();
      if (!field) return 0.0;
      const Vec3 x_cm = node_.x_W() + node_.R_WN() * p_.b_N;
      return -p_.mass * field->acceleration(x_cm, t_).dot(x_cm);
    }
    case 3: return p_.mass;
    default: return 0.0;
  }
}

}  // namespace mbl::elements

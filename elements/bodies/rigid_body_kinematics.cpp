#include "elements/bodies/rigid_body_kinematics.hpp"

#include "elements/drives/template_drive.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/core/rotations.hpp"

namespace mbl::elements {

void RigidBodyKinematics::setup(Model& m) {
  dynamic_nodes_.clear();
  bodies_.clear();
  for (const auto& n : m.nodes())
    if (const auto* s = dynamic_cast<const StructNode*>(n.get()); s && s->is_dynamic()) dynamic_nodes_.push_back(s);
  for (const auto& e : m.elements())
    if (const auto* b = dynamic_cast<const Body*>(e.get())) bodies_.push_back(b);
}

void RigidBodyKinematics::residual(ResidualSink& r, const StepContext& c) {
  if (c.initial_assembly) return;
  const Vec3 W = p_.W(c.t), dW = p_.dW(c.t), a0 = p_.a0(c.t);
  for (const StructNode* n : dynamic_nodes_) {
    r.add(n->eq_index(), Vec3(-2.0 * W.cross(n->beta())));
    if (!n->is_displacement()) r.add(n->eq_index() + 3, Vec3(-W.cross(n->gamma())));
  }
  for (const Body* b : bodies_) {
    const StructNode& n = b->node();
    const double m = b->params().mass;
    const Vec3 s = b->s_W(), x = n.x_W(), v = n.v_W(), w = n.w_W();
    const Mat3 Jn = b->J_W();
    const Vec3 s0 = m * x + s;
    r.add(n.eq_index(), Vec3(-(m * a0 + dW.cross(s0) + W.cross(W.cross(s0)))));
    if (n.is_displacement()) continue;
    const Vec3 a = a0 + dW.cross(x) + W.cross(W.cross(x)) + W.cross(v);
    const Vec3 JW = Jn * W;
    r.add(n.eq_index() + 3,
          Vec3(-(s.cross(a) + W.cross(JW) + Jn * dW + w.cross(JW) - Jn * w.cross(W) + v.cross(W.cross(s)))));
  }
}

// J = -dr: the loads enter with a minus sign, so J adds their derivatives along the update
// (dx = dCoef d, dv = d, dth = dCoef d_g, d w = (I - dCoef [w_ref x]) d_g, ds = dth x s,
// dJ = [dth x] J - J [dth x]).
void RigidBodyKinematics::jacobian(JacobianSink& J, const StepContext& c) {
  if (c.initial_assembly) return;
  const double h = c.dCoef;
  const Vec3 W = p_.W(c.t), dW = p_.dW(c.t), a0 = p_.a0(c.t);
  const Mat3 Wx = skew(W), A = skew(dW) + Wx * Wx;
  for (const StructNode* n : dynamic_nodes_) {
    J.add(n->eq_index(), n->momentum_dof_index(), Mat3(2.0 * h * Wx));
    if (!n->is_displacement()) J.add(n->eq_index() + 3, n->momentum_dof_index() + 3, Mat3(h * Wx));
  }
  for (const Body* b : bodies_) {
    const StructNode& n = b->node();
    const double m = b->params().mass;
    const Vec3 s = b->s_W(), x = n.x_W(), v = n.v_W(), w = n.w_W();
    const Mat3 Jn = b->J_W(), sx = skew(s);
    const int xi = n.dof_index(), gi = xi + 3, fi = n.eq_index(), mi = fi + 3;
    J.add(fi, xi, Mat3(h * m * A));
    if (n.is_displacement()) continue;
    J.add(fi, gi, Mat3(-h * A * sx));
    const Vec3 a = a0 + dW.cross(x) + W.cross(W.cross(x)) + W.cross(v);
    // d(J u)/dth = -[(J u) x] + J [u x]
    auto dJu = [&](const Vec3& u) { return Mat3(-skew(Jn * u) + Jn * skew(u)); };
    const Mat3 d_dx = sx * A;                                     // through a (x)
    const Mat3 d_dv = sx * Wx - skew(W.cross(s));                 // through a and v x (W x s)
    const Mat3 d_dw = -skew(Jn * W) + Jn * Wx;                    // w x J W - J (w x W)
    const Mat3 d_dth = skew(a) * sx - skew(v) * Wx * sx + Wx * dJu(W) + dJu(dW) + skew(w) * dJu(W) - dJu(w.cross(W));
    J.add(fi + 3, xi, Mat3(h * d_dx + d_dv));
    J.add(mi, gi, Mat3(h * d_dth + d_dw * (Mat3::Identity() - h * skew(n.w_ref()))));
  }
}

namespace {

using parser::CardReader;

/// `const [, position, X] [, orientation, R] [, velocity, V] [, angular velocity, W]
/// [, acceleration, a] [, angular acceleration, dW]` or the same with template drives of Vec3
/// (the orientation as a rotation vector).
void read_rigid_body_kinematics(CardReader& in, BuildContext& ctx, unsigned) {
  const bool drive = in.keyword_is("drive");
  if (!drive && !in.keyword_is("const")) in.fail_expected("a rigid body kinematics form (const, drive)");
  auto vec = [&]() -> RigidBodyKinematics::VecOfTime {
    if (drive) {
      auto d = drives::read_tpl_drive_caller<Vec3>(in, ctx.model().drive_env());
      return [d](double t) { return d->value(t); };
    }
    const Vec3 v = in.position(parser::RigidFrame{});
    return [v](double) { return v; };
  };
  const RigidBodyKinematics::VecOfTime zero = [](double) { return Vec3::Zero(); };
  RigidBodyKinematics::Params p{zero, zero, zero, zero, nullptr};
  if (in.keyword_is("position")) vec();
  RigidBodyKinematics::VecOfTime theta;  // orientation drive (rotation vector)
  if (in.keyword_is("orientation")) {
    if (drive) theta = vec();
    else in.orientation(parser::RigidFrame{});
  }
  // With an orientation drive the drives give absolute vectors, which MBDyn's
  // DriveRigidBodyKinematics expresses in the moving frame: R(t)^T v(t).
  auto in_frame = [&](RigidBodyKinematics::VecOfTime v) -> RigidBodyKinematics::VecOfTime {
    if (!theta) return v;
    return [theta, v](double t) { return Vec3(rot::rotvec_to_R(theta(t)).transpose() * v(t)); };
  };
  if (theta) p.R = [theta](double t) { return rot::rotvec_to_R(theta(t)); };
  if (in.keyword_is("velocity")) p.V = in_frame(vec());
  if (in.keyword_is("angular velocity")) p.W = in_frame(vec());
  if (in.keyword_is("acceleration")) p.a0 = in_frame(vec());
  if (in.keyword_is("angular acceleration")) p.dW = in_frame(vec());
  auto e = std::make_unique<RigidBodyKinematics>(std::move(p));
  e->where = in.card_location();
  ctx.model().add_element(std::move(e));
}

const bool registered = CardRegistry::family("control data").add("rigid body kinematics", read_rigid_body_kinematics);

}  // namespace
}  // namespace mbl::elements

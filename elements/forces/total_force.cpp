#include "elements/forces/total_force.hpp"

#include "elements/input/drive_input.hpp"
#include "mbdyn-like/core/card_registry.hpp"

namespace mbl::elements {

TotalForce::TotalForce(unsigned label, TotalForceParams p) : Element(label), p_(std::move(p)) {}

TotalForce::Loads TotalForce::loads(double t) const {
  const StructNode& n1 = *p_.a.node;
  Loads l;
  l.f_W = n1.R_WN() * (p_.a.R_NH * p_.force(t));
  l.m_W = n1.R_WN() * (p_.R_NM * p_.moment(t));
  l.arm1_W = p_.b ? Vec3(p_.b->x_W() - n1.x_W()) : p_.a.b_W();
  return l;
}

// Eq. 8.60: node 1 gets f and arm1 x f + m; node 2 (internal) -f and -(b2 x f + m).
void TotalForce::residual(ResidualSink& r, const StepContext& c) {
  t_ = c.t;
  const Loads l = loads(c.t);
  const StructNode& n1 = *p_.a.node;
  r.add(n1.eq_index(), l.f_W);
  r.add(n1.eq_index() + 3, Vec3(l.arm1_W.cross(l.f_W) + l.m_W));
  if (!p_.b) return;
  const StructNode& n2 = *p_.b->node;
  r.add(n2.eq_index(), Vec3(-l.f_W));
  r.add(n2.eq_index() + 3, Vec3(-(p_.b->b_W().cross(l.f_W) + l.m_W)));
}

// J = -dCoef dr/dq, with d(R v) = -(R v) x theta for the loads that follow node 1.
void TotalForce::jacobian(JacobianSink& J, const StepContext& c) {
  const Loads l = loads(c.t);
  const StructNode& n1 = *p_.a.node;
  const int F1 = n1.eq_index(), M1 = F1 + 3, x1 = n1.dof_index(), g1 = x1 + 3;
  const Mat3 fx = skew(l.f_W), mx = skew(l.m_W);
  const double k = c.dCoef;
  J.add(F1, g1, Mat3(k * fx));
  if (!p_.b) {
    // arm1 = R1 a also follows node 1: d(arm1 x f + m) = -((arm1 x f + m) x) theta.
    J.add(M1, g1, Mat3(k * skew(Vec3(l.arm1_W.cross(l.f_W) + l.m_W))));
    return;
  }
  const StructNode& n2 = *p_.b->node;
  const int F2 = n2.eq_index(), M2 = F2 + 3, x2 = n2.dof_index(), g2 = x2 + 3;
  const Mat3 b2x = skew(p_.b->b_W()), b1x = skew(l.arm1_W);
  // arm1 = x2 + R2 a2 - x1.
  J.add(M1, x1, Mat3(-k * fx));
  J.add(M1, x2, Mat3(k * fx));
  J.add(M1, g2, Mat3(-k * fx * b2x));
  J.add(M1, g1, Mat3(k * (b1x * fx + mx)));
  J.add(F2, g1, Mat3(-k * fx));
  J.add(M2, g2, Mat3(k * fx * b2x));
  J.add(M2, g1, Mat3(-k * (b2x * fx + mx)));
}

// MBDyn's .frc line of a total force: label, then the force and moment as the drives give them.
void TotalForce::output(OutputSink& out) const {
  if (!output_enabled()) return;
  if (std::ostream* os = out.text(OutputFile::Frc)) {
    out.write_label(*os, label());
    out.write(*os, p_.force(t_));
    out.write(*os, p_.moment(t_));
    *os << '\n';
  }
}

namespace {

/// `<node> [, position, a] [, force orientation, R] [, moment orientation, R]`; returns the moment
/// orientation.
Mat3 read_total_side(parser::CardReader& in, BuildContext& ctx, Attachment& a) {
  a.node = &ctx.struct_node(in);
  const parser::RigidFrame f = a.node->frame();
  if (in.keyword_is("position")) a.offset_N = in.position(f);
  if (in.keyword_is("force orientation")) a.R_NH = in.orientation(f);
  return in.keyword_is("moment orientation") ? in.orientation(f) : Mat3::Identity();
}

// §8.8.4-8.8.5: node 1 [, node 2 (internal)] [, force, (TplDriveCaller<Vec3>)] [, moment, ...].
void read_total(parser::CardReader& in, BuildContext& ctx, unsigned label, bool internal) {
  TotalForceParams p;
  p.R_NM = read_total_side(in, ctx, p.a);
  if (internal) {
    Attachment b;
    read_total_side(in, ctx, b);  // node 2's orientations do not enter (as in MBDyn)
    p.b = b;
  }
  const auto zero = [](double) { return Vec3::Zero().eval(); };
  p.force = in.keyword_is("force") ? read_vec3_drive(in, ctx) : std::function<Vec3(double)>(zero);
  p.moment = in.keyword_is("moment") ? read_vec3_drive(in, ctx) : std::function<Vec3(double)>(zero);
  auto e = std::make_unique<TotalForce>(label, std::move(p));
  e->where = in.card_location();
  ctx.read_output_flag(in, *e, "forces");
  ctx.model().add_element(std::move(e));
}

// MBDyn's force reader builds the same total force element from `couple: ..., total [internal]`
// (the card's force and moment drives are all it applies).
bool register_total(const char* family) {
  return CardRegistry::family(family).add(
             "total", [](parser::CardReader& in, BuildContext& ctx, unsigned l) { read_total(in, ctx, l, false); }) &&
         CardRegistry::family(family).add("total internal", [](parser::CardReader& in, BuildContext& ctx, unsigned l) {
           read_total(in, ctx, l, true);
         });
}

const bool registered = register_total("force type") && register_total("couple type");

}  // namespace
}  // namespace mbl::elements

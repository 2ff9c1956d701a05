#include "elements/joints/displacement_joints.hpp"
#include "mbdyn-like/core/private_data_listing.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "elements/joints/joint_input.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {

// offdispjad.cc, rbdispjad.cc: Fx..Mz (local), fx..mz (global).
parser::PrivateDataOwner::DatumInfo NodeReactionJoint::private_data_info(unsigned i) const {
  static const PrivateDataListing listing = [] {
    PrivateDataListing l;
    add_xyz(l, "F", "reaction force, joint frame");
    add_xyz(l, "M", "reaction moment, joint frame");
    add_xyz(l, "f", "reaction force, global frame");
    return add_xyz(l, "m", "reaction moment, global frame");
  }();
  return listed(listing, i);
}

double NodeReactionJoint::private_data(unsigned i) const {
  if (i >= 1 && i <= 6) return Joint::private_data(i);
  if (i >= 7 && i <= 9) return F_W_[i - 7];
  if (i >= 10 && i <= 12) return M_W_[i - 10];
  return 0.0;
}

// ---- offset displacement joint -------------------------------------------------------------------

OffsetDisplacementJoint::OffsetDisplacementJoint(unsigned label, StructNode& node1, const Vec3& o1_N,
                                                 StructNode& node2)
    : NodeReactionJoint(label), n1_(node1), n2_(node2), o1_N_(o1_N) {}

std::string OffsetDisplacementJoint::log_line() const {
  return fmt::format("offsetdisplacementjoint: {} {} {} {}", label(), n1_.label(), log_text(o1_N_), n2_.label());
}

void OffsetDisplacementJoint::residual(ResidualSink& r, const StepContext& c) {
  const Vec3 mu = lambda3(c, 0);
  const Vec3 a = n1_.R_WN() * o1_N_;
  r.add(n1_.eq_index(), Vec3(-mu));
  r.add(n1_.eq_index() + 3, Vec3(-a.cross(mu)));
  r.add(n2_.eq_index(), mu);
  r.add(first_index(), Vec3((n1_.x_W() + a - n2_.x_W()) / c.dCoef));
}

void OffsetDisplacementJoint::jacobian(JacobianSink& J, const StepContext& c) {
  const Vec3 mu = lambda3(c, 0);
  const Vec3 a = n1_.R_WN() * o1_N_;
  const Mat3 I = Mat3::Identity();
  const int ic = first_index(), x1 = n1_.dof_index(), t1 = x1 + 3, x2 = n2_.dof_index();
  J.add(n1_.eq_index(), ic, I);
  J.add(n1_.eq_index() + 3, ic, skew(a));
  J.add(n2_.eq_index(), ic, Mat3(-I));
  J.add(ic, x1, Mat3(-I));
  J.add(ic, t1, skew(a));  // d a = d theta x a, d theta = dCoef d; the 1/dCoef cancels
  J.add(ic, x2, I);
  J.add(n1_.eq_index() + 3, t1, Mat3(c.dCoef * skew(mu) * skew(a)));
}

void OffsetDisplacementJoint::after_convergence(const StepContext& c) {
  const Vec3 mu = lambda3(c, 0);
  F_W_ = mu;
  M_W_ = (n1_.R_WN() * o1_N_).cross(mu);
  R_WJ_ = n1_.R_WN();
}

// ---- rigid body displacement joint ---------------------------------------------------------------

RigidBodyDisplacementJoint::RigidBodyDisplacementJoint(unsigned label, StructNode& master,
                                                       std::vector<RigidBodySlave> slaves)
    : NodeReactionJoint(label), master_(master), slaves_(std::move(slaves)) {}

std::string RigidBodyDisplacementJoint::log_line() const {
  // As MBDyn writes it: no blank between the master and the first slave, one after each weight.
  std::string line = fmt::format("rigidbodydisplacementjoint: {} {}", label(), master_.label());
  for (const RigidBodySlave& s : slaves_)
    line += fmt::format("{} {} {} ", s.node->label(), log_text(s.o_M), log_text(s.weight));
  return line;
}

void RigidBodyDisplacementJoint::residual(ResidualSink& r, const StepContext& c) {
  const Vec3 mu_t = lambda3(c, 0), mu_r = lambda3(c, 3);
  const Mat3& R = master_.R_WN();
  Vec3 phi_t = Vec3::Zero(), phi_r = Vec3::Zero(), g_x = Vec3::Zero(), g_t = Vec3::Zero();
  for (const RigidBodySlave& s : slaves_) {
    const Vec3 a = R * s.o_M, d = master_.x_W() - s.node->x_W();
    phi_t += s.weight * (d + a);
    phi_r += s.weight * a.cross(d);
    const Vec3 g_j = s.weight * (a.cross(mu_r) - mu_t);  // Phi_xj^T mu
    r.add(s.node->eq_index(), Vec3(-g_j));
    g_x -= g_j;
    g_t += s.weight * a.cross(mu_t + d.cross(mu_r));
  }
  r.add(master_.eq_index(), Vec3(-g_x));
  r.add(master_.eq_index() + 3, Vec3(-g_t));
  r.add(first_index(), Vec3(phi_t / c.dCoef));
  r.add(first_index() + 3, Vec3(phi_r / c.dCoef));
}

void RigidBodyDisplacementJoint::jacobian(JacobianSink& J, const StepContext& c) {
  const Vec3 mu_t = lambda3(c, 0), mu_r = lambda3(c, 3);
  const Mat3& R = master_.R_WN();
  const Mat3 I = Mat3::Identity();
  const int it = first_index(), ir = it + 3;
  const int xm = master_.dof_index(), tm = xm + 3, em = master_.eq_index();
  Mat3 Pt_xm = Mat3::Zero(), Pt_tm = Mat3::Zero(), Pr_xm = Mat3::Zero(), Pr_tm = Mat3::Zero();
  Mat3 Gx_t = Mat3::Zero(), Gt_x = Mat3::Zero(), Gt_t = Mat3::Zero();
  for (const RigidBodySlave& s : slaves_) {
    const double w = s.weight;
    const Vec3 a = R * s.o_M, d = master_.x_W() - s.node->x_W();
    const Mat3 ax = skew(a), dx = skew(d);
    Pt_xm += w * I;
    Pt_tm -= w * ax;  // d a = -a x d theta
    Pr_xm += w * ax;
    Pr_tm += w * dx * ax;
    const int xj = s.node->dof_index(), ej = s.node->eq_index();
    // Constraint rows: -Phi_q (the 1/dCoef cancels); node rows: Phi_q^T.
    J.add(it, xj, Mat3(w * I));
    J.add(ir, xj, Mat3(w * ax));
    J.add(ej, it, Mat3(-w * I));
    J.add(ej, ir, Mat3(w * ax));
    // Geometric stiffness: d(Phi_q^T mu) / dq, positions and rotations moving by dCoef d.
    J.add(ej, tm, Mat3(c.dCoef * w * skew(mu_r) * ax));
    J.add(em + 3, xj, Mat3(c.dCoef * w * ax * skew(mu_r)));
    Gx_t -= w * skew(mu_r) * ax;
    Gt_x -= w * ax * skew(mu_r);
    Gt_t += w * skew(Vec3(mu_t + d.cross(mu_r))) * ax;
  }
  J.add(it, xm, Mat3(-Pt_xm));
  J.add(it, tm, Mat3(-Pt_tm));
  J.add(ir, xm, Mat3(-Pr_xm));
  J.add(ir, tm, Mat3(-Pr_tm));
  J.add(em, it, Pt_xm);
  J.add(em, ir, Pr_xm.transpose());
  J.add(em + 3, it, Pt_tm.transpose());
  J.add(em + 3, ir, Pr_tm.transpose());
  J.add(em, tm, Mat3(c.dCoef * Gx_t));
  J.add(em + 3, xm, Mat3(c.dCoef * Gt_x));
  J.add(em + 3, tm, Mat3(c.dCoef * Gt_t));
}

void RigidBodyDisplacementJoint::after_convergence(const StepContext& c) {
  const Vec3 mu_t = lambda3(c, 0), mu_r = lambda3(c, 3);
  F_W_.setZero();
  M_W_.setZero();
  for (const RigidBodySlave& s : slaves_) {
    const Vec3 a = master_.R_WN() * s.o_M, d = master_.x_W() - s.node->x_W();
    F_W_ += s.weight * (mu_t - a.cross(mu_r));
    M_W_ += s.weight * a.cross(mu_t + d.cross(mu_r));
  }
  R_WJ_ = master_.R_WN();
}

// ---- readers -------------------------------------------------------------------------------------

namespace {

/// `[position, <p>]` of a displacement node, relative to it (its absolute position otherwise),
/// as an offset in the frame of `node`.
Vec3 offset_of(parser::CardReader& in, const StructNode& node, const StructNode& other) {
  const Vec3 X = in.keyword_is("position") ? Vec3(other.x_W() + other.R_WN() * in.position(other.frame()))
                                           : other.x_W();
  return node.R_WN().transpose() * (X - node.x_W());
}

void read_offset_displacement_joint(parser::CardReader& in, BuildContext& ctx, unsigned label) {
  StructNode& n1 = ctx.struct_node(in);
  const parser::SourceLocation at = in.location();
  StructNode& n2 = ctx.struct_node(in, true);
  if (&n1 == &n2) throw parser::InputError(at, fmt::format("expected a node other than {}", n1.label()));
  const Vec3 o1 = offset_of(in, n1, n2);
  add_joint(in, ctx, std::make_unique<OffsetDisplacementJoint>(label, n1, o1, n2));
}

void read_rigid_body_displacement_joint(parser::CardReader& in, BuildContext& ctx, unsigned label) {
  StructNode& master = ctx.struct_node(in);
  const long n = parser::checked_integer(in, [](auto v) { return v >= 3; }, "at least three slave nodes");
  std::vector<RigidBodySlave> slaves;
  double weight_sum = 0.0, offset2 = 0.0;
  const parser::SourceLocation at = in.location();
  for (long k = 0; k < n; ++k) {
    RigidBodySlave s;
    s.node = &ctx.struct_node(in, true);
    s.o_M = offset_of(in, master, *s.node);
    if (in.keyword_is("weight")) s.weight = in.real();
    weight_sum += s.weight;
    offset2 += s.o_M.squaredNorm();
    slaves.push_back(s);
  }
  if (!(weight_sum > 0.0)) throw parser::InputError(at, "expected slave weights with a positive sum");
  if (!(offset2 > 0.0)) throw parser::InputError(at, "expected slave nodes away from the master");
  const double alpha = in.keyword_is("alpha") ? in.real() : double(n * n) / offset2;
  for (RigidBodySlave& s : slaves) s.weight *= alpha / weight_sum;
  add_joint(in, ctx, std::make_unique<RigidBodyDisplacementJoint>(label, master, std::move(slaves)));
}

const bool registered =
    CardRegistry::family("joint").add("offset displacement joint", read_offset_displacement_joint) &&
    CardRegistry::family("joint").add("rigid body displacement joint", read_rigid_body_displacement_joint);

}  // namespace
}  // namespace mbl::elements

#include "elements/joints/screw.hpp"
#include "mbdyn-like/core/private_data_listing.hpp"

#include <fmt/format.h>

#include <cmath>

#include "elements/joints/deformable_kinematics.hpp"
#include "mbdyn-like/core/rotations.hpp"

namespace mbl::elements {

// MBDyn's ScrewJoint::DescribeDof/DescribeEq (struct/screwjoint.cc): "a->a" ranges of one.
void ScrewJoint::describe_dofs(std::ostream& os, std::string_view prefix, int first, bool initial) const {
  os << prefix << first + 1 << "->" << first + 1 << ": reaction force [f]\n";
  if (initial) os << prefix << first + 2 << "->" << first + 2 << ": reaction force derivatives [fP]\n";
  if (friction_) friction_->describe(os, prefix, first + (initial ? 2 : 1), false);
}

void ScrewJoint::describe_equations(std::ostream& os, std::string_view prefix, int first, bool initial) const {
  os << prefix << first + 1 << "->" << first + 1 << ": screw constraint [g]\n";
  if (initial) os << prefix << first + 2 << "->" << first + 2 << ": screw constraint derivative [gP]\n";
  if (friction_) friction_->describe(os, prefix, first + (initial ? 2 : 1), true);
}
namespace {

constexpr double kTwoPi = 2.0 * M_PI;

/// d(Gamma(Theta)^-T v) / d Theta, with Gamma^-T v = v + 1/2 Theta x v + c(|Theta|) Theta x (Theta x v)
/// and c(a) = (1 - (a/2) cot(a/2)) / a^2 (see rotvec_gamma_inverse).
Mat3 gamma_inverse_T_derivative(const Vec3& th, const Vec3& v) {
  const double a = th.norm();
  const double c = RotvecGammaCoefficients::c(a), dc_over_a = RotvecGammaCoefficients::dc_over_a(a);
  const Vec3 ttv = th.cross(th.cross(v));
  return -0.5 * skew(v) + c * (th.dot(v) * Mat3::Identity() + th * v.transpose() - 2.0 * v * th.transpose()) +
         dc_over_a * ttv * th.transpose();
}

}  // namespace

ScrewJoint::ScrewJoint(unsigned label, const Attachment& a, const Attachment& b, double pitch,
                       std::unique_ptr<JointFriction> friction)
    : Joint(label), a_(a), b_(b), pitch_(pitch), friction_(std::move(friction)) {
  if (friction_) friction_->set_screw_pitch(pitch_);
  // The reference values: the configuration the joint is built in (before initial assembly).
  const Vec3 e_h = a_.R_NH.col(2);
  const Vec3 Theta = rot::R_to_rotvec(a_.node->R_WN().transpose() * b_.node->R_WN());
  theta0_ = theta_ = e_h.dot(Theta);
  s0_ = s_ = a_.R_WH().col(2).dot(b_.x_W() - a_.x_W());
  Theta_ = Theta;
  D_ = b_.x_W() - a_.x_W();
  R_WJ_ = a_.R_WH();
}

ScrewJoint::State ScrewJoint::state() const {
  State s;
  const Mat3& R1 = a_.node->R_WN();
  const Vec3 e_h = a_.R_NH.col(2);
  s.e = R1 * e_h;
  s.f1 = a_.b_W();
  s.f2 = b_.b_W();
  s.D = b_.x_W() - a_.x_W();
  s.Theta = rot::R_to_rotvec(R1.transpose() * b_.node->R_WN());
  s.Gamma_inv = rotvec_gamma_inverse(s.Theta);
  s.a = R1 * (s.Gamma_inv.transpose() * e_h);
  // Unwrap: the branch of theta nearest to the last converged value.
  s.theta = rot::unwrap_angle(e_h.dot(s.Theta), theta_);
  s.s = s.e.dot(s.D);
  return s;
}

double ScrewJoint::phi(const State& s) const { return pitch_ / kTwoPi * (s.theta - theta0_) - (s.s - s0_); }

// delta Phi = p/2pi a.(th2 - th1) - (th1 x e).D - e.(dx2 + th2 x f2 - dx1 - th1 x f1).
Vec3 ScrewJoint::dphi_dth1(const State& s) const {
  return -pitch_ / kTwoPi * s.a + s.D.cross(s.e) + s.f1.cross(s.e);
}
Vec3 ScrewJoint::dphi_dth2(const State& s) const { return pitch_ / kTwoPi * s.a - s.f2.cross(s.e); }

double ScrewJoint::spin(const State& s) const { return s.e.dot(b_.node->w_W() - a_.node->w_W()); }

void ScrewJoint::residual(ResidualSink& r, const StepContext& c) {
  const State s = state();
  const double l = lambda(c, 0);
  const int x1 = a_.node->eq_index(), x2 = b_.node->eq_index();
  r.add(x1, Vec3(-s.e * l));
  r.add(x1 + 3, Vec3(-dphi_dth1(s) * l));
  r.add(x2, Vec3(s.e * l));
  r.add(x2 + 3, Vec3(-dphi_dth2(s) * l));
  r.add(first_index(), phi(s) / c.dCoef);
  if (friction_) {
    const double sgn = load_sign(l);
    const double Q = friction_->residual(r, c, first_index() + 1, sgn * spin(s), std::abs(l));
    if (!c.initial_assembly) add_friction_load(r, x1 + 3, x2 + 3, s.e, sgn * Q);
  }
}

void ScrewJoint::jacobian(JacobianSink& J, const StepContext& c) {
  const State s = state();
  const double l = lambda(c, 0), h = c.dCoef * l, k = pitch_ / kTwoPi;
  const int row = first_index();
  const int fx1 = a_.node->eq_index(), fm1 = fx1 + 3, fx2 = b_.node->eq_index(), fm2 = fx2 + 3;
  const int cx1 = a_.node->dof_index(), ct1 = cx1 + 3, cx2 = b_.node->dof_index(), ct2 = cx2 + 3;
  const Vec3 g1 = dphi_dth1(s), g2 = dphi_dth2(s);
  // Multiplier column and constraint row (r_q = -Phi_q lambda, r_c = Phi / dCoef).
  J.add(fx1, row, s.e);
  J.add(fm1, row, g1);
  J.add(fx2, row, Vec3(-s.e));
  J.add(fm2, row, g2);
  J.add(row, cx1, Eigen::RowVector3d(-s.e.transpose()));
  J.add(row, ct1, Eigen::RowVector3d(-g1.transpose()));
  J.add(row, cx2, Eigen::RowVector3d(s.e.transpose()));
  J.add(row, ct2, Eigen::RowVector3d(-g2.transpose()));
  // Geometric stiffness dCoef lambda d(Phi_q)/dq: d e = th1 x e, d f_i = th_i x f_i,
  // d a = th1 x a + M (th2 - th1) with M = R1 d(Gamma^-T e_h)/dTheta Gamma^-1 R1^T.
  const Mat3& R1 = a_.node->R_WN();
  const Mat3 M = R1 * gamma_inverse_T_derivative(s.Theta, a_.R_NH.col(2)) * s.Gamma_inv * R1.transpose();
  const Mat3 ex = skew(s.e), ax = skew(s.a), Dx = skew(s.D), f1x = skew(s.f1), f2x = skew(s.f2);
  J.add(fx1, ct1, Mat3(-h * ex));
  J.add(fx2, ct1, Mat3(h * ex));
  J.add(fm1, cx1, Mat3(h * ex));
  J.add(fm1, cx2, Mat3(-h * ex));
  J.add(fm1, ct1, Mat3(h * (k * (ax + M) - Dx * ex - f1x * ex)));
  J.add(fm1, ct2, Mat3(h * (-k * M + ex * f2x)));
  J.add(fm2, ct1, Mat3(h * (-k * (ax + M) + f2x * ex)));
  J.add(fm2, ct2, Mat3(h * (k * M - ex * f2x)));
  if (friction_) {
    const double sgn = load_sign(l);
    LinearForm drate, dF;
    drate.add(spin_rate_form(*a_.node, *b_.node, s.e, c.dCoef), -sgn);  // d(e . (w_2 - w_1)) sign
    dF.add(row, sgn);                                                    // d|lambda|
    double Q = 0.0;
    const LinearForm dQ = friction_->jacobian(J, c, row + 1, sgn * spin(s), drate, std::abs(l), dF, Q);
    LinearForm dM;
    dM.add(dQ, sgn);
    add_friction_load_jacobian(J, fm1, fm2, s.e, sgn * Q, dM, ct1, c.dCoef);
  }
}

void ScrewJoint::after_convergence(const StepContext& c) {
  const State s = state();
  const double l = lambda(c, 0);
  theta_ = s.theta;
  s_ = s.s;
  Theta_ = s.Theta;
  D_ = s.D;
  // Reaction: what node 1 receives with the opposite sign (r_1 -= F, M), as for every joint.
  F_W_ = s.e * l;
  M_W_ = dphi_dth1(s) * l;
  R_WJ_ = a_.R_WH();
  if (friction_) {
    friction_->after_convergence(c, first_index() + 1, load_sign(l) * spin(s));
    friction_moment_ = load_sign(l) * friction_->Q();
    vrel_ = spin(s) * friction_->radius();
    M_W_ += s.e * friction_moment_;  // MBDyn's reaction moment includes the friction moment
  }
}

// .jnt columns 14-21: theta (degrees, unwrapped), e . d, the relative rotation vector (node 1
// frame, within +-pi) and d (global), as MBDyn writes them.
void ScrewJoint::output_extra(OutputSink& out, std::ostream& os) const {
  out.write(os, theta_ * 180.0 / M_PI);
  out.write(os, s_);
  out.write(os, Theta_);
  out.write(os, D_);
  if (friction_) {
    out.write(os, vrel_);
    out.write(os, friction_->coefficient());
    out.write(os, Vec3(a_.R_WH().col(2) * friction_moment_));
  }
}

// screwjoint.cc ScrewJoint: Fx..Mz, then d (7) and r (8).
parser::PrivateDataOwner::DatumInfo ScrewJoint::private_data_info(unsigned i) const {
  static const PrivateDataListing listing = [] {
    PrivateDataListing l;
    add_xyz(l, "F", "reaction force, global frame");
    add_xyz(l, "M", "reaction moment, global frame (without the friction moment)");
    add_datum(l, "d", "relative displacement along the screw axis");
    return add_datum(l, "r", "relative rotation about the screw axis");
  }();
  return listed(listing, i);
}

double ScrewJoint::private_data(unsigned i) const {
  // screwjoint.cc dGetPrivData: F1 lambda and C1 lambda, both global (unlike the .jnt's local
  // columns of the other joints), the friction moment left out.
  if (i >= 1 && i <= 3) return F_W_[i - 1];
  if (i >= 4 && i <= 6) return M_W_[i - 4] - a_.R_WH().col(2)[i - 4] * friction_moment_;
  if (i == 7) return s_;
  if (i == 8) return theta_;
  return 0.0;
}

std::string ScrewJoint::log_line() const {
  return fmt::format("screw: {} {} {} {} 1 0 0 0 1 0 0 0 1", label(), log_text(a_), b_.node->label(),
                     log_text(b_.offset_N));
}

}  // namespace mbl::elements

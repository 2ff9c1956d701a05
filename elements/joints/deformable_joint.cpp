#include "elements/joints/deformable_joint.hpp"

#include <fmt/format.h>

#include "mbdyn-like/core/law_private_data.hpp"
#include "mbdyn-like/core/nc_catalog.hpp"
#include "mbdyn-like/core/orientation_output.hpp"

#include "elements/joints/deformable_kinematics.hpp"
#include "mbdyn-like/core/rotations.hpp"

namespace mbl::elements {

struct DeformableJoint::Kinematics {
  Vec3 f1, f2, d, d1, d_dot, w1, w2;
  Vec3 theta;        ///< relative rotation R1h^T R2h (current)
  Vec3 theta_law;    ///< the one the law sees (frozen in the step for the invariant joint)
  Mat3 R1h, Rm, Gamma_inv;
  Mat3 R_force;      ///< takes the law's F~, M~ to the global frame: Rm, or R1h of the step
  bool theta_frozen = false;
  Mat3 I_hat = Mat3::Zero();  ///< invariant: R^ (I + R~)^-1 R^T (technical manual eq. 9.282)
  /// The law frame follows the nodes within the Newton iterations (false: fixed at the prediction).
  bool frame_moves = true;
  Vec6 e, e_dot;
};

DeformableJoint::DeformableJoint(unsigned label, Kind kind, bool invariant, const Attachment& a,
                                 const Attachment& b, Law law)
    : Joint(label), kind_(kind), invariant_(invariant), a_(a), b_(b), law_(std::move(law)) {
  R_WJ_ = a_.R_WH();
}

std::string_view DeformableJoint::type_name() const {
  switch (kind_) {
    // MBDyn's names (NetCDF `type` attribute).
    // MBDyn's NetCDF types (vehj*.cc OutputPrepare_int; the invariant hinge inherits its base's)
    case Kind::Hinge: return "Deformable hinge";
    case Kind::Displacement: return "deformable displacement";
    case Kind::Full: return "Deformable joint";
    case Kind::Axial: return "Deformable axial joint";
  }
  return "Deformable joint";
}

std::string DeformableJoint::log_line() const {
  const char* keyword = nullptr;
  switch (kind_) {
    case Kind::Hinge: keyword = invariant_ ? "invariantdeformablehinge" : "deformablehinge"; break;
    case Kind::Displacement: keyword = "deformabledisplacementjoint"; break;
    case Kind::Full: keyword = "deformablejoint"; break;
    case Kind::Axial: return {};
  }
  return fmt::format("{}: {} {} {}", keyword, label(), log_text(a_), log_text(b_));
}

namespace {
/// The law frame halfway between R1h and R1h exp(theta x), Rm = R1h R~ with R~ = exp(theta/2 x),
/// and I_hat = Rm (I + R~)^-1 Rm^T (technical manual eq. 9.262-9.263, 9.282).
void halfway_frame(const Mat3& R1h, const Vec3& theta, Mat3& Rm, Mat3& I_hat) {
  const Mat3 R_tilde = rot::rotvec_to_R(0.5 * theta);
  Rm = R1h * R_tilde;
  I_hat = Rm * (Mat3::Identity() + R_tilde).inverse() * Rm.transpose();
}
}  // namespace

const DeformableJoint::StepFrame& DeformableJoint::step_frame() {
  const Mat3 R1h_ref = a_.R_ref_WH(), R2h_ref = b_.R_ref_WH();
  StepFrame& f = step_frame_;
  if (R1h_ref == f.R1h_ref && R2h_ref == f.R2h_ref) return f;
  f.R1h_ref = R1h_ref;
  f.R2h_ref = R2h_ref;
  f.theta_ref = rot::R_to_rotvec(R1h_ref.transpose() * R2h_ref);
  halfway_frame(R1h_ref, f.theta_ref, f.Rm, f.I_hat);
  return f;
}

DeformableJoint::Kinematics DeformableJoint::kinematics() {
  Kinematics k;
  const StructNode& n1 = *a_.node;
  const StructNode& n2 = *b_.node;
  k.f1 = a_.b_W();
  k.f2 = b_.b_W();
  k.w1 = n1.w_W();
  k.w2 = n2.w_W();
  k.d = n2.x_W() + k.f2 - n1.x_W() - k.f1;
  k.d1 = k.d + k.f1;
  k.d_dot = n2.v_W() + k.w2.cross(k.f2) - n1.v_W() - k.w1.cross(k.f1);
  k.R1h = a_.R_WH();
  const Mat3 R2h = b_.R_WH();
  k.theta = k.theta_law = rot::R_to_rotvec(k.R1h.transpose() * R2h);
  if (invariant_ && kind_ == Kind::Full) {
    // MBDyn 2024's invariant deformable joint (ElasticJointInv) takes the law frame, I_hat and
    // the relative rotation from the nodes' reference orientations (the prediction of the step):
    // within the Newton iterations the law sees the current d~ but the predicted rotation, and
    // its force and moment act along R1h of the prediction. Node 1 takes I_hat (d x F).
    const StepFrame& f = step_frame();
    k.Rm = f.Rm;
    k.I_hat = f.I_hat;
    k.R_force = f.R1h_ref;
    k.theta_law = f.theta_ref;
    k.theta_frozen = true;
    k.frame_moves = false;
  } else if (invariant_ && kind_ == Kind::Displacement) {
    // MBDyn 2024's invariant deformable displacement joint (ElasticDispJointInv) takes the halfway
    // frame of the nodes' reference orientations (the prediction of the step), which stays fixed
    // during the Newton iterations; node 1 takes I_hat (d x F) of the moment, node 2 the rest.
    const StepFrame& f = step_frame();
    k.Rm = f.Rm;
    k.I_hat = f.I_hat;
    k.frame_moves = false;
  } else if (invariant_) {
    // §9.2.2 "Invariant": the law frame is halfway between the two sides (eq. 9.262-9.263).
    halfway_frame(k.R1h, k.theta, k.Rm, k.I_hat);
  } else {
    k.Rm = k.R1h;
  }
  if (!k.theta_frozen) k.R_force = k.Rm;
  k.Gamma_inv = rotvec_gamma_inverse(k.theta_law);
  k.e << k.Rm.transpose() * k.d, k.theta_law;
  // d~' = Rm^T (d' - w1 x d) (eq. 9.320; attached frame).
  k.e_dot << k.Rm.transpose() * (k.d_dot - k.w1.cross(k.d)), k.Rm.transpose() * (k.w2 - k.w1);
  return k;
}

void DeformableJoint::evaluate_law(const Vec6& e, const Vec6& e_dot, double t, Vec6& F6, Mat6& K6, Mat6& C6) {
  F6.setZero();
  K6.setZero();
  C6.setZero();
  switch (kind_) {
    case Kind::Hinge:
    case Kind::Displacement: {
      const int o = kind_ == Kind::Hinge ? 3 : 0;
      law_.law3->update(e.segment<3>(o), e_dot.segment<3>(o), t);
      F6.segment<3>(o) = law_.law3->force();
      K6.block<3, 3>(o, o) = law_.law3->stiffness();
      C6.block<3, 3>(o, o) = law_.law3->damping();
      break;
    }
    case Kind::Full:
      law_.law6->update(e, e_dot, t);
      F6 = law_.law6->force();
      K6 = law_.law6->stiffness();
      C6 = law_.law6->damping();
      break;
    case Kind::Axial:
      law_.law1->update(ConstitutiveLaw1D::VecN(e[5]), ConstitutiveLaw1D::VecN(e_dot[5]), t);
      F6[5] = law_.law1->force()[0];
      K6(5, 5) = law_.law1->stiffness()(0, 0);
      C6(5, 5) = law_.law1->damping()(0, 0);
      break;
  }
}

bool DeformableJoint::viscous() const {
  switch (kind_) {
    case Kind::Hinge:
    case Kind::Displacement: return law_.law3->is_viscous();
    case Kind::Full: return law_.law6->is_viscous();
    case Kind::Axial: return law_.law1->is_viscous();
  }
  return false;
}

void DeformableJoint::residual(ResidualSink& r, const StepContext& c) {
  const Kinematics k = kinematics();
  Mat6 K6, C6;
  evaluate_law(k.e, k.e_dot, c.t, F6_, K6, C6);
  e_ = k.e;
  e_dot_ = k.e_dot;
  const Vec3 F = k.R_force * F6_.head<3>(), M = k.R_force * F6_.tail<3>();
  const int r1 = a_.node->eq_index(), r2 = b_.node->eq_index();
  r.add(r1, F);
  r.add(r2, Vec3(-F));
  if (k.frame_moves) {
    r.add(r1 + 3, Vec3(k.d1.cross(F) + M));
    r.add(r2 + 3, Vec3(-k.f2.cross(F) - M));
  } else {
    // Node 1 takes I_hat (d x F), node 2 the rest (I - I_hat = I_hat^T).
    const Vec3 d_x_F = k.d.cross(F);
    r.add(r1 + 3, Vec3(k.f1.cross(F) + k.I_hat * d_x_F + M));
    r.add(r2 + 3, Vec3(-k.f2.cross(F) + k.I_hat.transpose() * d_x_F - M));
  }
}

// Linearisation (technical manual §9.2.2-9.2.4, written here over the node perturbations
// dx_k, theta_k, dv_k, dw_k; see deformable_kinematics.hpp for the assembly).
void DeformableJoint::jacobian(JacobianSink& J, const StepContext& c) {
  const Kinematics k = kinematics();
  Vec6 F6;
  Mat6 K6, C6;
  evaluate_law(k.e, k.e_dot, c.t, F6, K6, C6);
  const Mat3 I = Mat3::Identity();
  const Mat3 RmT = k.Rm.transpose();
  auto put = [](Lin3& L, int node, int what, const Mat3& m) { L.block<3, 3>(0, lin_col(node, what)) += m; };

  // Rotation of the law frame Rm.
  Lin3 th_m = Lin3::Zero();
  if (!k.frame_moves) {
    // the law frame is fixed during the step
  } else if (invariant_) {
    put(th_m, 0, kTh, k.I_hat.transpose());
    put(th_m, 1, kTh, k.I_hat);
  } else {
    put(th_m, 0, kTh, I);
  }
  // d = x2 + f2 - x1 - f1
  Lin3 dd = Lin3::Zero();
  put(dd, 0, kX, -I);
  put(dd, 0, kTh, skew(k.f1));
  put(dd, 1, kX, I);
  put(dd, 1, kTh, -skew(k.f2));
  // d~ = Rm^T d: d d~ = Rm^T (dd + d x theta_m)
  const Lin3 d_tilde = RmT * (dd + skew(k.d) * th_m);
  // theta: d theta = Gamma^-1 R1h^T (theta2 - theta1). The invariant joint's law sees the rotation
  // of the prediction, fixed in the step; like MBDyn, its Jacobian keeps the law's stiffness on
  // the relative rotation (with R1h and Gamma^-1 of the prediction), which the residual does not
  // have within the step but Newton needs (nothing else may hold the rotations).
  Lin3 rel = Lin3::Zero();
  put(rel, 0, kTh, -I);
  put(rel, 1, kTh, I);
  const Lin3 d_theta = k.Gamma_inv * (k.theta_frozen ? k.R_force : k.R1h).transpose() * rel;
  // u = d' - w1 x d, d~' = Rm^T u: d d~' = Rm^T (du + u x theta_m)
  const Vec3 u = k.d_dot - k.w1.cross(k.d);
  Lin3 du = Lin3::Zero();
  put(du, 0, kX, skew(k.w1));
  put(du, 0, kV, -I);
  put(du, 0, kW, skew(k.d1));
  put(du, 1, kX, -skew(k.w1));
  put(du, 1, kTh, Mat3((skew(k.w1) - skew(k.w2)) * skew(k.f2)));
  put(du, 1, kV, I);
  put(du, 1, kW, -skew(k.f2));
  const Lin3 d_tilde_dot = RmT * (du + skew(u) * th_m);
  // w = Rm^T (w2 - w1): d w = Rm^T ((w2 - w1) x theta_m + dw2 - dw1)
  Lin3 dw = skew(k.w2 - k.w1) * th_m;
  put(dw, 0, kW, -I);
  put(dw, 1, kW, I);
  const Lin3 d_omega = RmT * dw;

  Eigen::Matrix<double, 6, 24> de, de_dot;
  de << d_tilde, d_theta;
  de_dot << d_tilde_dot, d_omega;
  const Eigen::Matrix<double, 6, 24> dF6 = K6 * de + C6 * de_dot;
  const Vec3 F = k.R_force * F6.head<3>(), M = k.R_force * F6.tail<3>();
  const Lin3 dF = k.R_force * dF6.topRows<3>() - skew(F) * th_m;
  const Lin3 dM = k.R_force * dF6.bottomRows<3>() - skew(M) * th_m;
  Lin3 df2 = Lin3::Zero();
  put(df2, 1, kTh, -skew(k.f2));
  Lin3 moment1;
  Lin3 moment2 = -(skew(k.f2) * dF - skew(F) * df2) - dM;
  if (k.frame_moves) {
    // d1 = x2 + f2 - x1 (f1 rotates with node 1 and cancels).
    Lin3 dd1 = Lin3::Zero();
    put(dd1, 0, kX, -I);
    put(dd1, 1, kX, I);
    put(dd1, 1, kTh, -skew(k.f2));
    moment1 = skew(k.d1) * dF - skew(F) * dd1 + dM;
  } else {
    // f1 x F + I_hat (d x F) + M and -f2 x F + I_hat^T (d x F) - M, I_hat fixed in the step.
    Lin3 df1 = Lin3::Zero();
    put(df1, 0, kTh, -skew(k.f1));
    const Lin3 d_dxF = skew(k.d) * dF - skew(F) * dd;
    moment1 = skew(k.f1) * dF - skew(F) * df1 + k.I_hat * d_dxF + dM;
    moment2 += k.I_hat.transpose() * d_dxF;
  }

  const StructNode* nodes[2] = {a_.node, b_.node};
  const int r1 = a_.node->eq_index(), r2 = b_.node->eq_index();
  add_lin_jacobian(J, r1, nodes, c, dF);
  add_lin_jacobian(J, r1 + 3, nodes, c, moment1);
  add_lin_jacobian(J, r2, nodes, c, Lin3(-dF));
  add_lin_jacobian(J, r2 + 3, nodes, c, moment2);
}

void DeformableJoint::save_step_state() {
  if (law_.law1) law_.law1->save_step_state();
  if (law_.law3) law_.law3->save_step_state();
  if (law_.law6) law_.law6->save_step_state();
}

void DeformableJoint::restore_step_state() {
  if (law_.law1) law_.law1->restore_step_state();
  if (law_.law3) law_.law3->restore_step_state();
  if (law_.law6) law_.law6->restore_step_state();
}

void DeformableJoint::after_convergence(const StepContext& c) {
  const Kinematics k = kinematics();
  Mat6 K6, C6;
  evaluate_law(k.e, k.e_dot, c.t, F6_, K6, C6);
  e_ = k.e;
  e_dot_ = k.e_dot;
  switch (kind_) {
    case Kind::Hinge: law_.law3->after_convergence(); break;
    case Kind::Displacement: law_.law3->after_convergence(); break;
    case Kind::Full: law_.law6->after_convergence(); break;
    case Kind::Axial: law_.law1->after_convergence(); break;
  }
  // MBDyn writes the displacement joint's and the deformable joint's global force in node 1's
  // frame R1h, whatever the law frame (DeformableDispJoint::Output, DeformableJoint::Output); the
  // other kinds in the law frame. The rotation it writes is the current one.
  R_WJ_ = kind_ == Kind::Displacement || kind_ == Kind::Full ? k.R1h : k.Rm;
  theta_ = k.theta;
  d_R1h_ = k.R1h.transpose() * k.d;
  F_W_ = R_WJ_ * F6_.head<3>();
  M_W_ = R_WJ_ * F6_.tail<3>();
}

// Appendix C "Deformable hinge / displacement joint / joint / axial joint": the strains of the
// kind, the rotation in the `orientation description` format. The relative velocities are
// written whatever the law (MBDyn writes zeros for a law without viscosity).
void DeformableJoint::output_setup_extra(OutputSink& out, const std::string& base) {
  namespace nc = output::nc;
  if (kind_ == Kind::Axial) {
    nc_E_ = output::nc_declare(out, base, nc::joint_axial_Theta);
    nc_W_ = output::nc_declare(out, base, nc::joint_axial_Omega);
    return;
  }
  if (kind_ != Kind::Hinge) {
    nc_d_ = output::nc_declare(out, base, nc::joint_d);
    nc_dP_ = output::nc_declare(out, base, nc::joint_dPrime);
    nc_D_ = output::nc_declare(out, base, nc::joint_D);
    nc_DP_ = output::nc_declare(out, base, nc::joint_DPrime);
  }
  if (kind_ != Kind::Displacement) {
    nc_E_ = declare_orientation(out, base, orientation_output, "relative orientation, in joint reference frame");
    nc_W_ = output::nc_declare(out, base, nc::joint_Omega);
  }
}

void DeformableJoint::output_netcdf_extra(OutputSink& out) const {
  if (kind_ == Kind::Axial) {
    out.put(nc_E_, e_[5]);
    out.put(nc_W_, e_dot_[5]);
    return;
  }
  if (nc_d_ >= 0) {
    const Vec3 d = e_.head<3>(), d_dot = e_dot_.head<3>();
    out.put(nc_d_, d);
    out.put(nc_dP_, d_dot);
    out.put(nc_D_, Vec3(R_WJ_ * d));
    out.put(nc_DP_, Vec3(R_WJ_ * d_dot));
  }
  if (nc_E_ >= 0) {
    put_orientation(out, nc_E_, rot::rotvec_to_R(theta_), orientation_output);
    out.put(nc_W_, Vec3(e_dot_.tail<3>()));
  }
}

void DeformableJoint::output_extra(OutputSink& out, std::ostream& os) const {
  const bool visc = viscous();
  auto write_rotation = [&]() { write_orientation(out, os, rot::rotvec_to_R(theta_), orientation_output); };
  switch (kind_) {
    case Kind::Hinge:
      write_rotation();
      if (visc) out.write(os, Vec3(e_dot_.tail<3>()));
      break;
    case Kind::Displacement:
      out.write(os, Vec3(e_.head<3>()));
      if (visc) out.write(os, Vec3(e_dot_.head<3>()));
      break;
    case Kind::Full:
      out.write(os, Vec3(e_.head<3>()));
      write_rotation();
      if (visc) {
        out.write(os, Vec3(e_dot_.head<3>()));
        out.write(os, Vec3(e_dot_.tail<3>()));
      }
      break;
    case Kind::Axial:
      out.write(os, e_[5]);
      if (visc) out.write(os, e_dot_[5]);
      break;
  }
}

// ---- private data (input manual §8.12.11, 8.12.13-8.12.15) ---------------------------------------
// Each kind lists names mapped to an index into (e, e', F6): 0-5 strain, 6-11 rate, 12-17 force.
namespace {
struct Datum {
  const char* name;
  int index;
};
// vehj.cc, vehj2.cc, vehj3.cc, vehj4.cc (MBDyn's numbering; then the law's constitutiveLaw.* data).
constexpr Datum kHinge[] = {{"rx", 3}, {"ry", 4}, {"rz", 5}, {"wx", 9}, {"wy", 10}, {"wz", 11},
                            {"Mx", 15}, {"My", 16}, {"Mz", 17}};
constexpr Datum kDisplacement[] = {{"dx", 0}, {"dy", 1}, {"dz", 2}, {"vx", 6}, {"vy", 7}, {"vz", 8},
                                   {"Fx", 12}, {"Fy", 13}, {"Fz", 14}};
constexpr Datum kFull[] = {{"dx", 0}, {"dy", 1}, {"dz", 2}, {"rx", 3}, {"ry", 4}, {"rz", 5},
                           {"vx", 6}, {"vy", 7}, {"vz", 8}, {"wx", 9}, {"wy", 10}, {"wz", 11},
                           {"Fx", 12}, {"Fy", 13}, {"Fz", 14}, {"Mx", 15}, {"My", 16}, {"Mz", 17}};
constexpr Datum kAxial[] = {{"rz", 5}, {"wz", 11}, {"Mz", 17}};
/// What slot `index` of (e, e', F6) is.
constexpr const char* kMeaning[6] = {"relative displacement, frame of node 1's hinge",
                                     "relative rotation vector, frame of node 1's hinge",
                                     "relative velocity, frame of node 1",
                                     "relative angular velocity, frame of node 1's hinge",
                                     "force of the law, hinge frame",
                                     "moment of the law, hinge frame"};

std::pair<const Datum*, unsigned> data_of(DeformableJoint::Kind k) {
  using K = DeformableJoint::Kind;
  switch (k) {
    case K::Hinge: return {kHinge, std::size(kHinge)};
    case K::Displacement: return {kDisplacement, std::size(kDisplacement)};
    case K::Full: return {kFull, std::size(kFull)};
    case K::Axial: return {kAxial, std::size(kAxial)};
  }
  return {kFull, 0};
}
}  // namespace

parser::PrivateDataOwner::DatumInfo DeformableJoint::private_data_info(unsigned i) const {
  const auto [d, n] = data_of(kind_);
  if (i > n) {
    const unsigned k = i - n;
    return law_.law1 ? law_private_data_info(law_.law1.get(), k)
           : law_.law3 ? law_private_data_info(law_.law3.get(), k)
                       : law_private_data_info(law_.law6.get(), k);
  }
  if (i < 1) return {};
  return {d[i - 1].name, kMeaning[d[i - 1].index / 3]};
}

unsigned DeformableJoint::private_data_count() const {
  return data_of(kind_).second + law_private_data_count(law_.law1.get()) + law_private_data_count(law_.law3.get()) +
         law_private_data_count(law_.law6.get());
}

double DeformableJoint::private_data(unsigned i) const {
  const auto [d, n] = data_of(kind_);
  if (i > n) {
    const unsigned k = i - n;
    return law_.law1 ? law_private_data(law_.law1.get(), k)
           : law_.law3 ? law_private_data(law_.law3.get(), k)
                       : law_private_data(law_.law6.get(), k);
  }
  if (i < 1) return 0.0;
  const int k = d[i - 1].index;
  // MBDyn's d and r are R1h^T d and the current relative rotation (for the invariant joint too).
  if (kind_ == Kind::Full && k < 6) return k < 3 ? d_R1h_[k] : theta_[k - 3];
  return k < 6 ? e_[k] : k < 12 ? e_dot_[k - 6] : F6_[k - 12];
}

}  // namespace mbl::elements

#include "elements/joints/friction.hpp"

#include <algorithm>
#include <cmath>

namespace mbl::elements {
namespace {
/// MBDyn's sign: +1 at zero.
double sign(double x) { return x >= 0.0 ? 1.0 : -1.0; }
}  // namespace

// ---- modlugre ----------------------------------------------------------------------------------

double ModLugreFriction::fs(double v) const { return fs_->value(std::abs(v)) * sign(v); }
double ModLugreFriction::fsd(double v) const { return fs_->derivative(std::abs(v)) * sign(v); }

// alpha = 0 for |z| <= kappa z_ss, 1 beyond z_ss, a half sine between; 0 when z opposes v.
double ModLugreFriction::alpha(double z, double v) const {
  if (sign(v) != sign(z)) return 0.0;
  const double z_ss = fs(v) / sigma0_, z_ba = kappa_ * z_ss;
  if (std::abs(z) <= std::abs(z_ba)) return 0.0;
  if (std::abs(z) <= std::abs(z_ss))
    return 0.5 * std::sin(M_PI * sigma0_ * z / (fs(v) * (1.0 - kappa_)) - M_PI * (1.0 + kappa_) / (2.0 * (1.0 - kappa_))) +
           0.5;
  return 1.0;
}

double ModLugreFriction::alpha_z(double z, double v) const {
  if (sign(v) != sign(z)) return 0.0;
  const double z_ss = fs(v) / sigma0_, z_ba = kappa_ * z_ss;
  if (std::abs(z) <= std::abs(z_ba) || std::abs(z) > std::abs(z_ss)) return 0.0;
  const double k = M_PI * sigma0_ / (fs(v) * (1.0 - kappa_));
  return 0.5 * k * std::cos(k * z - M_PI * (1.0 + kappa_) / (2.0 * (1.0 - kappa_)));
}

double ModLugreFriction::alpha_v(double z, double v) const {
  if (sign(v) != sign(z)) return 0.0;
  const double z_ss = fs(v) / sigma0_, z_ba = kappa_ * z_ss;
  if (std::abs(z) <= std::abs(z_ba) || std::abs(z) > std::abs(z_ss)) return 0.0;
  const double f = fs(v);
  const double arg = M_PI * sigma0_ * z / (f * (1.0 - kappa_)) - M_PI * (1.0 + kappa_) / (2.0 * (1.0 - kappa_));
  return -0.5 * M_PI * std::cos(arg) * sigma0_ * z / (f * f * (1.0 - kappa_)) * fsd(v);
}

// State equation as MBDyn writes it: z' - v + alpha v z sigma0 / fs(v) (= ... |v| / fs(|v|)).
double ModLugreFriction::residual(ResidualSink& r, int row, double z, double zp, double v) {
  r.add(row, zp - v + alpha(z, v) * v * z / fs(v) * sigma0_);
  return coefficient(z, zp, v);
}

double ModLugreFriction::coefficient(double z, double zp, double v) const {
  return sigma0_ * z + sigma1_ * zp + sigma2_ * v;
}

LinearForm ModLugreFriction::jacobian(JacobianSink& J, int row, double z, double v, double dCoef,
                                      const LinearForm& dv) const {
  const double f = fs(v), a = alpha(z, v);
  J.add(row, row, -1.0 - dCoef * sigma0_ * v / f * (alpha_z(z, v) * z + a));
  const double dr_dv = -1.0 + sigma0_ * (alpha_v(z, v) * v * z / f + a * z / f - a * v * z / (f * f) * fsd(v));
  for (const auto& [col, c] : dv.terms) J.add(row, col, -dr_dv * c);
  LinearForm df;
  df.add(row, sigma0_ * dCoef + sigma1_);
  df.add(dv, sigma2_);
  return df;
}

// ---- discrete coulomb --------------------------------------------------------------------------

// The state is the friction coefficient. Sticking imposes v = 0 (the state then acts as the
// multiplier); once |f| exceeds fs(0) the joint slides with f = sign fs(v) + sigma2 v; while
// sliding, a reversal of v within the step (checked against the velocity of the previous
// switch, scaled by the velocity ratio) sticks again.
double DiscreteCoulombFriction::residual(ResidualSink& r, int row, double f, double, double v) {
  const double fs0 = fs_->value(0.0);
  transition_ = Transition::None;
  if (std::abs(f) - fs0 > 1e-6 * fs0) {
    if (status_ == Status::Stuck) transition_ = Transition::StuckToSliding;
    if (status_ == Status::Sticking) transition_ = Transition::StickingToSliding;
    status_ = Status::Sliding;
  }
  if (status_ == Status::Sliding && v * current_velocity_ < 0.0 &&
      (std::abs(v - current_velocity_) < std::abs(previous_switch_v_) || first_switch_)) {
    first_switch_ = false;
    status_ = Status::Sticking;
    transition_ = Transition::SlidingToSticking;
    previous_switch_v_ = velocity_ratio_ * (v - current_velocity_);
    saved_sliding_friction_ = f;
  }
  double coefficient = f;
  if (status_ == Status::Sliding) {
    if (transition_ == Transition::StuckToSliding) {
      sliding_sign_ = sign(f);
    } else if (transition_ == Transition::StickingToSliding) {
      sliding_sign_ = sign(saved_sliding_friction_);
    } else {
      sliding_sign_ = std::abs(v) > 0.0 && sign(v) == sign(current_velocity_) ? sign(v) : sign(f);
      if (std::abs(v) < std::abs(current_velocity_) && !first_iteration_) current_velocity_ = v;
    }
    coefficient = sliding_sign_ * fs_->value(v) + sigma2_ * v;
    r.add(row, f - coefficient);
  } else {
    r.add(row, v);
  }
  first_iteration_ = false;
  return coefficient;
}

double DiscreteCoulombFriction::coefficient(double f, double, double v) const {
  return status_ == Status::Sliding ? sliding_sign_ * fs_->value(v) + sigma2_ * v : f;
}

LinearForm DiscreteCoulombFriction::jacobian(JacobianSink& J, int row, double, double v, double,
                                             const LinearForm& dv) const {
  LinearForm df;
  if (status_ == Status::Sliding) {
    const double df_dv = sliding_sign_ * fs_->derivative(v) + sigma2_;
    J.add(row, row, -1.0);
    for (const auto& [col, c] : dv.terms) J.add(row, col, df_dv * c);
    df.add(dv, df_dv);
  } else {
    for (const auto& [col, c] : dv.terms) J.add(row, col, -c);
    df.add(row, 1.0);
  }
  return df;
}

void DiscreteCoulombFriction::after_convergence(double, double v) {
  current_velocity_ = v;
  previous_switch_v_ = v;
  transition_ = Transition::None;
  first_iteration_ = true;
  first_switch_ = true;
  if (status_ == Status::Sticking) status_ = Status::Stuck;
}

// ---- the joint's friction ----------------------------------------------------------------------

// §2.8.2: `simple` sh = f; `simple plane hinge` sh = f / sqrt(1 + f^2) (the friction angle of a
// pin in a loose hole).
// `screw joint`: see set_screw_pitch.
double JointFriction::shape(double f) const {
  switch (shape_) {
    case FrictionShape::Simple: return f;
    case FrictionShape::SimplePlaneHinge: return f / std::sqrt(1.0 + f * f);
    case FrictionShape::ScrewJoint: {
      const double k = shape_scale_, s = sec_half_thread_angle_, t = tan_pitch_;
      return k * f * s * (1.0 + t * t) / (f * s * t - 1.0);
    }
  }
  return f;
}

double JointFriction::shape_derivative(double f) const {
  switch (shape_) {
    case FrictionShape::Simple: return 1.0;
    case FrictionShape::SimplePlaneHinge: return std::pow(1.0 + f * f, -1.5);
    case FrictionShape::ScrewJoint: {
      const double k = shape_scale_, s = sec_half_thread_angle_, t = tan_pitch_;
      const double d = f * s * t - 1.0;
      return -k * s * (1.0 + t * t) / (d * d);
    }
  }
  return 1.0;
}

// As MBDyn, the secant of the half thread angle is the one given (the angle projected on the
// pitch plane is not used by the shape).
void JointFriction::set_screw_pitch(double pitch) {
  tan_pitch_ = pitch / (2.0 * M_PI * thread_.radius);
  radius_ = thread_.radius / std::cos(std::atan(tan_pitch_));
  shape_scale_ = thread_.radius / radius_;
}

double JointFriction::residual(ResidualSink& r, const StepContext& c, int row, double rate, double F_norm) {
  // Initial assembly: the state stays where it is (identity row), no friction load.
  if (c.initial_assembly) return 0.0;
  const double v = rate * radius_;
  f_ = model_->residual(r, row, (*c.y)[row], (*c.yp)[row], v);
  Q_ = shape(f_) * std::max(F_norm, preload_) * radius_;
  return Q_;
}

LinearForm JointFriction::jacobian(JacobianSink& J, const StepContext& c, int row, double rate, const LinearForm& drate,
                                   double F_norm, const LinearForm& dF_norm, double& Q) const {
  LinearForm dQ;
  Q = 0.0;
  if (c.initial_assembly) {
    J.add(row, row, 1.0);
    return dQ;
  }
  const double v = rate * radius_;
  LinearForm dv;
  dv.add(drate, radius_);
  const LinearForm df = model_->jacobian(J, row, (*c.y)[row], v, c.dCoef, dv);
  const double f = model_->coefficient((*c.y)[row], (*c.yp)[row], v);
  Q = shape(f) * std::max(F_norm, preload_) * radius_;
  dQ.add(df, shape_derivative(f) * std::max(F_norm, preload_) * radius_);
  // Below the preload the normal force is the constant preload.
  if (F_norm > preload_) dQ.add(dF_norm, shape(f) * radius_);
  return dQ;
}

void JointFriction::after_convergence(const StepContext& c, int row, double rate) {
  if (!c.initial_assembly) model_->after_convergence((*c.y)[row], rate * radius_);
}

LinearForm spin_rate_form(const StructNode& a, const StructNode& b, const Vec3& e, double dCoef) {
  const double h = dCoef;
  LinearForm d;
  d.add(a.dof_index() + 3, Vec3(e - h * e.cross(a.w_ref()) + h * e.cross(a.w_W() - b.w_W())));
  d.add(b.dof_index() + 3, Vec3(-(e - h * e.cross(b.w_ref()))));
  return d;
}

void add_friction_load(ResidualSink& r, int rows_a, int rows_b, const Vec3& e, double Q) {
  r.add(rows_a, Vec3(-Q * e));
  r.add(rows_b, Vec3(Q * e));
}

void add_friction_load_jacobian(JacobianSink& J, int rows_a, int rows_b, const Vec3& e, double Q, const LinearForm& dQ,
                                int theta_a, double dCoef) {
  for (const auto& [col, c] : dQ.terms) {
    J.add(rows_a, col, Vec3(c * e));
    J.add(rows_b, col, Vec3(-c * e));
  }
  // d(-Q e) = -Q dth x e = Q [e x] dth on node 1's rows; J = -d r.
  const Mat3 ex = skew(e);
  J.add(rows_a, theta_a, Mat3(-Q * dCoef * ex));
  J.add(rows_b, theta_a, Mat3(Q * dCoef * ex));
}

}  // namespace mbl::elements

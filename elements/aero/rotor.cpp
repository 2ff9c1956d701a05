#include "elements/aero/rotor.hpp"
#include "mbdyn-like/core/private_data_listing.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

#include "elements/aero/air_properties.hpp"
#include "mbdyn-like/core/model.hpp"

namespace mbl::elements::aero {
namespace {
constexpr double kTipThreshold = 1e-6;  // relative to the reference tip speed
constexpr double kEps = std::numeric_limits<double>::epsilon();
// Apparent masses of the dynamic inflow (Pitt and Peters, corrected M11).
constexpr double kM11 = 128. / (75. * std::numbers::pi), kM22 = -16. / (45. * std::numbers::pi), kM33 = kM22;
}  // namespace

Rotor::Rotor(unsigned label, RotorParams p) : InducedVelocity(label), p_(std::move(p)) {
  v_tip_ref_ = p_.omega_ref * p_.radius;
  area_ = std::numbers::pi * p_.radius * p_.radius;
}

void Rotor::setup(Model& m) {
  air_ = dynamic_cast<const AirProperties*>(m.find_element("air properties", 1));
  if (!air_) throw std::invalid_argument("the rotor needs the air properties card");
}

double Rotor::air_density_at_hub(double t) const {
  double rho = 0., sound = 0.;
  air_->properties(p_.rotor->x_W(), t, rho, sound);
  return rho;
}

void Rotor::add_load(unsigned element_label, const Vec3& F_W, const Vec3& M_W, const Vec3& x_W) {
  for (ResultantSet& set : p_.sets) set.add(element_label, F_W, M_W, x_W);
  // About the craft node: MBDyn's rotors reset their summed loads with the craft node's position
  // as pole (indvel.cc InducedVelocity::ResetForce, after Rotor::InitParam put the rotor's).
  F_W_ += F_W;
  M_W_ += M_W + (x_W - p_.craft->x_W()).cross(F_W);
}

void Rotor::residual(ResidualSink& r, const StepContext& c) {
  t_ = c.t;
  // Loads summed by the aerodynamic elements during the initial assembly stay for the first
  // regular evaluation (MBDyn's rotor takes no part in the initial assembly).
  if (c.initial_assembly) return;
  F_used_W_ = F_W_;
  M_used_W_ = M_W_;
  update(c.t, p_.model != RotorParams::Model::None);
  if (p_.model == RotorParams::Model::DynamicInflow) dynamic_inflow_residual(r, c);
  F_W_.setZero();
  M_W_.setZero();
  for (ResultantSet& set : p_.sets) set.reset();
}

void Rotor::initial_state(Vector& y, Vector& yp) const {
  if (p_.model != RotorParams::Model::DynamicInflow) return;
  y.segment<3>(first_index()) = Vec3(p_.v_const, p_.v_sine, p_.v_cosine);
  yp.segment<3>(first_index()).setZero();
}

void Rotor::dynamic_inflow_residual(ResidualSink& r, const StepContext& c) {
  const int i0 = first_index();
  v0_ = (*c.y)[i0], vs_ = (*c.y)[i0 + 1], vc_ = (*c.y)[i0 + 2];
  L11_ = L13_ = L22_ = L31_ = L33_ = 0.;
  const double rho = air_density_at_hub(c.t);
  double dim = rho * area_ * omega_ * p_.radius * p_.radius;
  double ct = 0., cl = 0., cm = 0.;
  if (dim > kEps) {
    const double lambda_c = lambda_ / (p_.hover_correction * p_.hover_correction);
    const double mu_c = mu_ / p_.forward_flight_correction;
    const double vt = std::sqrt(lambda_c * lambda_c + mu_c * mu_c);
    const double vm = vt > kTipThreshold * v_tip_ref_ ? (mu_c * mu_c + lambda_c * (lambda_c + v0_)) / vt : 0.;
    u_mean_ = v0_ * omega_ * p_.radius;
    // Moments in the wind frame: the disc frame turned by psi0, axis 1 toward the airstream.
    const Vec3 M_disc = R_W_disc_.transpose() * M_used_W_;
    const double c0 = std::cos(psi0_), s0 = std::sin(psi0_);
    const Vec3 M(c0 * M_disc.x() + s0 * M_disc.y(), c0 * M_disc.y() - s0 * M_disc.x(), M_disc.z());
    ct = R_W_disc_.col(2).dot(F_used_W_) / dim;
    dim *= p_.radius;
    cl = -M.x() / dim;
    cm = M.y() / dim;
    if (vt > kEps && vm > kEps) {
      const double l11 = .5 / vt, d = 15. / 64. * std::numbers::pi * std::tan(chi_ / 2.);
      const double l13 = d / vm, l31 = d / vt;
      const double cc = 2. * std::pow(std::cos(chi_ / 2.), 2);
      const double l22 = -4. / (cc * vm), l33 = -4. * (cc - 1.) / (cc * vm);
      const double det = l11 * l33 - l31 * l13;
      L11_ = omega_ * l33 / det;
      L31_ = -omega_ * l31 / det;
      L13_ = -omega_ * l13 / det;
      L33_ = omega_ * l11 / det;
      L22_ = omega_ / l22;
    }
  }
  const double v0p = (*c.yp)[i0], vsp = (*c.yp)[i0 + 1], vcp = (*c.yp)[i0 + 2];
  r.add(i0, ct - kM11 * v0p - L11_ * v0_ - L13_ * vc_);
  r.add(i0 + 1, cl - kM22 * vsp - L22_ * vs_);
  r.add(i0 + 2, cm - kM33 * vcp - L31_ * v0_ - L33_ * vc_);
}

// J = -(dr/dy' + dCoef dr/dy); the loads, summed in the previous evaluation, are held.
void Rotor::jacobian(JacobianSink& J, const StepContext& c) {
  if (p_.model != RotorParams::Model::DynamicInflow || c.initial_assembly) return;
  const int i0 = first_index();
  J.add(i0, i0, kM11 + c.dCoef * L11_);
  J.add(i0, i0 + 2, c.dCoef * L13_);
  J.add(i0 + 1, i0 + 1, kM22 + c.dCoef * L22_);
  J.add(i0 + 2, i0, c.dCoef * L31_);
  J.add(i0 + 2, i0 + 2, kM33 + c.dCoef * L33_);
}

void Rotor::output(OutputSink& out) const {
  if (!output_enabled()) return;
  std::ostream* os = out.text(OutputFile::Rot);
  if (!os) return;
  out.write_label(*os, label());
  out.write(*os, Vec3(R_W_disc_.transpose() * F_W_));
  out.write(*os, Vec3(R_W_disc_.transpose() * M_W_));
  for (double v : {u_mean_, speed_, std::atan2(sin_alpha_d_, cos_alpha_d_), mu_, lambda_, chi_, psi0_}) out.write(*os, v);
  *os << ' ' << (converged_ ? 1 : 0) << ' ' << iterations_;
  if (p_.model == RotorParams::Model::DynamicInflow)
    for (double v : {v0_, vs_, vc_}) out.write(*os, v);
  *os << '\n';
  // rotor.cc Rotor::Output: `<label>:<set> F M` after the rotor's line.
  for (std::size_t i = 0; i < p_.sets.size(); ++i) {
    out.write_label(*os, label());
    *os << ':' << i + 1;
    out.write(*os, p_.sets[i].force_out());
    out.write(*os, p_.sets[i].moment_out());
    *os << '\n';
  }
}

void Rotor::after_convergence(const StepContext& c) {
  u_mean_prev_ = u_mean_;
  // The delay read here applies from the next step on (MBDyn's one-step lag of the weight).
  if (p_.delay) weight_ = std::clamp(p_.delay->value(c.t), 0., 1.);
}

void Rotor::polar(const Vec3& x_W, double& r, double& psi) const {
  const Vec3 x = R_W_disc_.transpose() * (x_W - pole_W_);
  r = std::hypot(x.x(), x.y()) / p_.radius;
  psi = std::atan2(x.y(), x.x()) - psi0_;
}

void Rotor::update(double t, bool mean_velocity) {
  StructNode& rotor = *p_.rotor;
  R_W_disc_ = p_.craft->R_WN() * p_.R_craft_rotor;
  const Vec3 axis_W = R_W_disc_.col(2);
  // The pole of the disc coordinates is the craft node too: MBDyn's Rotor::GetPos takes the
  // resultant's pole, which ResetForce moved to the craft node after InitParam.
  pole_W_ = p_.craft->x_W();
  omega_ = (rotor.w_W() - p_.craft->w_W()).norm();
  // Airstream relative to the hub, in the disc frame.
  const Vec3 v_craft = R_W_disc_.transpose() * Vec3(air_->velocity(rotor.x_W(), t) - rotor.v_W());
  const double vv = v_craft.x() * v_craft.x() + v_craft.y() * v_craft.y(), v = std::sqrt(vv);
  psi0_ = std::atan2(v_craft.y(), v_craft.x());
  speed_ = std::sqrt(v_craft.z() * v_craft.z() + vv);
  if (speed_ > kTipThreshold * v_tip_ref_) {
    sin_alpha_d_ = -v_craft.z() / speed_;
    cos_alpha_d_ = v / speed_;
  } else {
    sin_alpha_d_ = 1.;
    cos_alpha_d_ = 0.;
  }
  if (!mean_velocity) return;
  const double rho = air_density_at_hub(t);
  if (rho <= kEps) return;
  const double T = axis_W.dot(F_used_W_);
  const double v_tip = omega_ * p_.radius;
  mu_ = 0.;
  lambda_ = 0.;
  if (v_tip > kTipThreshold * v_tip_ref_) mu_ = speed_ * cos_alpha_d_ / v_tip;
  if (std::abs(u_mean_ref_) < kEps && std::abs(T) > kEps)
    u_mean_ref_ = std::copysign(std::sqrt(std::abs(T) / (2 * rho * area_)), T);  // hover guess
  // Ground effect (Cheeseman and Bennett): U (1 - (R / 4z)^2), z >= R/4.
  double ground = 1.;
  if (p_.ground) {
    double z = p_.ground->R_WN().col(2).dot(rotor.x_W() - p_.ground->x_W()) / (p_.radius / 4.);
    if (z < .25) z = .25;
    ground -= 1. / (z * z);
  }
  converged_ = false;
  if (v_tip > kTipThreshold * v_tip_ref_) {
    const double ct = T / (rho * area_ * v_tip * v_tip);
    const double lambda0 = speed_ * sin_alpha_d_ / v_tip;
    double lambda_i = u_mean_ref_ / v_tip;
    for (bool retrying = false;;) {
      for (iterations_ = 0; iterations_ < p_.max_iterations; ++iterations_) {
        lambda_ = lambda0 + lambda_i;
        const double ref0 = mu_ * mu_ + lambda_ * lambda_, ref1 = 2. * std::sqrt(ref0), ref2 = ref1 * ref0;
        double f = 0.;
        if (ref1 > kEps) {
          f = lambda_i - ct / ref1;
          lambda_i -= p_.eta * f / (1. + (ct / ref2) * lambda_);
        }
        if (std::abs(f) <= p_.tolerance) {
          converged_ = true;
          break;
        }
      }
      // The induced velocity must have the thrust's sign: retry once from the opposite guess.
      if (lambda_i * ct < 0. && !retrying) {
        retrying = true;
        lambda_i = -lambda_i;
        continue;
      }
      break;
    }
    lambda_ = lambda0 + lambda_i;
    u_mean_ref_ = lambda_i * v_tip;
  }
  chi_ = std::abs(mu_) < kEps ? 0. : std::atan2(mu_, lambda_);
  if (v_tip > kTipThreshold * v_tip_ref_) {
    const double mu_c = mu_ / p_.forward_flight_correction;
    const double lambda_c = lambda_ / (p_.hover_correction * p_.hover_correction);
    const double ref = 2 * std::sqrt(mu_c * mu_c + lambda_c * lambda_c);
    const double ct = T / (rho * area_ * v_tip * v_tip);
    // An inflow faster than the tip makes little sense: keep the previous value then.
    u_mean_ = ref > std::abs(ct) ? (1. - weight_) * ground * v_tip * ct / ref + weight_ * u_mean_prev_ : u_mean_prev_;
  } else {
    u_mean_ = u_mean_prev_;
  }
}

Vec3 Rotor::velocity(const Vec3& x_W) const {
  const Vec3 axis_W = R_W_disc_.col(2);
  switch (p_.model) {
    case RotorParams::Model::None: return Vec3::Zero();
    case RotorParams::Model::Uniform: return axis_W * u_mean_prev_;
    case RotorParams::Model::Glauert: break;
    case RotorParams::Model::Mangler: return axis_W * (mangler_factor(x_W) * u_mean_prev_);
    case RotorParams::Model::DynamicInflow: {
      double r = 0., psi = 0.;
      polar(x_W, r, psi);
      return axis_W * ((v0_ + r * (vc_ * std::cos(psi) + vs_ * std::sin(psi))) * p_.radius * omega_);
    }
  }
  if (u_mean_prev_ == 0.) return Vec3::Zero();
  if (std::abs(lambda_) < 1.e-9) return axis_W * u_mean_prev_;
  double r = 0., psi = 0.;
  polar(x_W, r, psi);
  double k1 = 0., k2 = 0.;
  using G = RotorParams::GlauertType;
  switch (p_.glauert) {
    case G::Glauert: k1 = 4. / 3. * (1. - 1.8 * mu_ * mu_) * std::tan(chi_ / 2.); break;
    case G::Coleman: k1 = std::tan(chi_ / 2.); break;
    case G::Drees:
      k1 = 4. / 3. * (std::tan(chi_ / 2.) - 1.8 * lambda_ * mu_ / std::cos(chi_));
      k2 = -2. * mu_;
      break;
    case G::Payne: k1 = 4. / 3. * mu_ / (1.2 * lambda_ + mu_); break;
    case G::WhiteAndBlake: k1 = std::sqrt(2.) * std::sin(chi_); break;
    case G::PittAndPeters: k1 = 15. * std::numbers::pi / 32. * std::tan(chi_ / 2.); break;
    case G::Howlett: k1 = std::pow(std::sin(chi_), 2); break;
  }
  return axis_W * ((1. + r * (k1 * std::cos(psi) + k2 * std::sin(psi))) * u_mean_prev_);
}

// rotor.cc ManglerRotor::GetInducedVelocity: with r and psi of the point and the disc angle
// alpha_d, a = sqrt((1 - |sin alpha_d|) / (1 + |sin alpha_d|)), m = sqrt(1 - r^2) (0 outside the
// disc), the factor is 15/4 m r^2 - 4 sum_n c_n cos(n psi) over n = 1, 3 and the even n up to 10.
double Rotor::mangler_factor(const Vec3& x_W) const {
  if (u_mean_prev_ == 0.) return 0.;
  double r = 0., psi = 0.;
  polar(x_W, r, psi);
  const double r2 = r * r, m = 1. - r2 > 0. ? std::sqrt(1. - r2) : 0.;
  const double s = std::abs(sin_alpha_d_);
  double a = 1. + s;
  if (a > 1.e-9) a = (1. - s) / a;
  if (a > 0.) a = std::sqrt(a);
  constexpr double pi = std::numbers::pi;
  double factor = 15. / 4. * m * r2;
  factor -= 4. * (-15. / 256. * pi * (9. * r2 - 4.) * r * a) * std::cos(psi);
  factor -= 4. * (45. / 256. * pi * std::pow(a * r, 3)) * std::cos(3. * psi);
  for (int n = 2; n <= 10; n += 2) {
    const double c = std::pow(-1., n / 2 - 1) * 15. / 8. *
                     ((m + n) / (n * n - 1.) * (3. - 9. * r2 + n * n) + 3. * m) / (n * n - 9.) *
                     std::pow((1. - m) / (1. + m) * a, n / 2.);
    factor -= 4. * c * std::cos(n * psi);
  }
  return factor;
}

parser::PrivateDataOwner::DatumInfo Rotor::private_data_info(unsigned i) const {
  static const PrivateDataListing listing = [] {
    PrivateDataListing l;
    add_xyz(l, "T", "force summed on the rotor, global frame");
    return add_xyz(l, "M", "moment about the hub summed on the rotor, global frame");
  }();
  return listed(listing, i);
}

}  // namespace mbl::elements::aero

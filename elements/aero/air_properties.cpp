#include "elements/aero/air_properties.hpp"
#include "mbdyn-like/core/private_data_listing.hpp"

#include "elements/bodies/rigid_body_kinematics.hpp"
#include "mbdyn-like/core/model.hpp"

#include <cmath>

namespace mbl::elements::aero {

AirProperties::AirProperties(DriveCallerPtr density, double sound_celerity, std::function<Vec3(double)> air_speed_W)
    : Element(1), density_(std::move(density)), sound_celerity_(sound_celerity), air_speed_W_(std::move(air_speed_W)) {}

AirProperties::AirProperties(StandardAtmosphere atmosphere, std::function<Vec3(double)> air_speed_W)
    : Element(1), standard_(true), atmosphere_(std::move(atmosphere)), air_speed_W_(std::move(air_speed_W)) {}

void AirProperties::residual(ResidualSink&, const StepContext& c) {
  t_ = c.t;
  speed_W_ = air_speed_W_(c.t);
}

void AirProperties::properties(const Vec3& x_W, double t, double& rho, double& c) const {
  const State a = state(x_W, t);
  rho = a.rho;
  c = a.sound_celerity;
}

AirProperties::State AirProperties::state(const Vec3& x_W, double t) const {
  if (!standard_) return {density_->value(t), sound_celerity_, -1., -1.};
  // Manual eq. (8.1): troposphere below z1, constant temperature above (z2 is not used).
  const StandardAtmosphere& A = atmosphere_;
  const double z = x_W.z() + A.z0;
  const double rho0 = A.rho0->value(t);
  const double n = -A.g0 / (A.dT_dz * A.R);
  State s{};
  if (z < A.z1) {
    s.temperature = A.T0 + A.dT_dz * z;
    s.rho = rho0 * std::pow(s.temperature / A.T0, n - 1.);
    s.pressure = A.p0 * std::pow(s.temperature / A.T0, n);
  } else {
    s.temperature = A.T0 + A.dT_dz * A.z1;
    const double isothermal = std::exp(-A.g0 / (A.R * s.temperature) * (z - A.z1));
    s.rho = rho0 * std::pow(s.temperature / A.T0, n - 1.) * isothermal;
    s.pressure = A.p0 * std::pow(s.temperature / A.T0, n) * isothermal;
  }
  s.sound_celerity = std::sqrt(1.4 * A.R * s.temperature);
  return s;
}

void AirProperties::setup(Model& m) {
  Element::setup(m);
  for (const auto& e : m.elements())
    if (const auto* rbk = dynamic_cast<const RigidBodyKinematics*>(e.get())) moving_frame_ = rbk;
}

Vec3 AirProperties::velocity(const Vec3& x_W, double t) const {
  Vec3 v = air_speed_W_(t);
  for (const GustPtr& g : gusts_) {
    Vec3 v_gust_W;
    if (g->velocity(x_W, t, v_gust_W)) v += v_gust_W;
  }
  if (moving_frame_) v = moving_frame_->in_frame(v, t) - moving_frame_->transport_velocity(x_W, t);
  return v;
}

// gust.cc Gust1D::GetVelocity.
bool FrontGust::velocity(const Vec3& x_W, double t, Vec3& v_W) const {
  v_W = perturbation_W * profile->value(front_speed * t - front_W.dot(x_W));
  return true;
}

// windprof.cc ScalarFuncWindProfile::GetVelocity: no lower limit on z.
bool ScalarFunctionWindProfile::velocity(const Vec3& x_W, double, Vec3& v_W) const {
  v_W = R0_W.col(0) * f->value(elevation(x_W));
  return true;
}

// windprof.cc PowerLawWindProfile::GetVelocity.
bool PowerLawWindProfile::velocity(const Vec3& x_W, double t, Vec3& v_W) const {
  const double z = elevation(x_W);
  if (z <= 0.) return false;
  v_W = R0_W.col(0) * (v_ref->value(t) * std::pow(z / z_ref, exponent));
  return true;
}

// windprof.cc LogarithmicWindProfile::GetVelocity (no stability function).
bool LogarithmicWindProfile::velocity(const Vec3& x_W, double t, Vec3& v_W) const {
  const double z = elevation(x_W);
  if (z <= 0.) return false;
  v_W = R0_W.col(0) * (v_ref->value(t) * std::log(z / roughness) / std::log(z_ref / roughness));
  return true;
}

void AirProperties::output(OutputSink& out) const {
  if (!output_enabled()) return;
  std::ostream* os = out.text(OutputFile::Air);
  if (!os) return;
  double rho = 0., c = 0.;
  properties(Vec3::Zero(), t_, rho, c);
  out.write_label(*os, label());
  out.write(*os, rho);
  out.write(*os, c);
  out.write(*os, speed_W_);
  *os << '\n';
}

// aerodyn.cc AirProperties: the free-stream velocity and its norm.
parser::PrivateDataOwner::DatumInfo AirProperties::private_data_info(unsigned i) const {
  static const PrivateDataListing listing = [] {
    PrivateDataListing l;
    add_datum(l, "vxinf", "free-stream velocity x, global frame");
    add_datum(l, "vyinf", "free-stream velocity y, global frame");
    add_datum(l, "vzinf", "free-stream velocity z, global frame");
    return add_datum(l, "vinf", "free-stream speed");
  }();
  return listed(listing, i);
}

double AirProperties::private_data(unsigned i) const {
  if (i >= 1 && i <= 3) return speed_W_[i - 1];
  return i == 4 ? speed_W_.norm() : 0.0;
}

}  // namespace mbl::elements::aero

#include "elements/electric/motor.hpp"
#include "mbdyn-like/core/private_data_listing.hpp"

#include <cmath>
#include <numbers>

namespace mbl::elements::electric {
namespace {

/// A drive caller of an AD argument: its value, and its derivative along the argument's.
AD drive_of(const DriveCaller& d, const AD& x) {
  return AD(d.value(x.value()), x.derivatives() * (d.has_derivative() ? d.derivative(x.value()) : 0.0));
}

}  // namespace

double Motor::omega() const {
  return (p_.node1->R_WN() * p_.Rn_N1.col(2)).dot(p_.node2->w_W() - p_.node1->w_W());
}

double Motor::voltage() const { return p_.elec2->x() - p_.elec1->x(); }

double Motor::phi_mechanical() const {
  const Vec3 e1 = (p_.node1->R_WN() * p_.Rn_N1).transpose() * p_.node2->R_WN().col(0);
  return std::atan2(e1[1], e1[0]);
}

double Motor::phi_electric(double phi_m) const {
  const double phi = std::fmod(p_.terminal_pairs * phi_m, 2. * std::numbers::pi);
  return phi < 0. ? phi + 2. * std::numbers::pi : phi;
}

void Motor::initial_state(Vector& y, Vector& yp) const {
  y[first_index()] = p_.i0;
  yp[first_index()] =
      (voltage() - p_.gain * omega() - p_.resistance->value(std::abs(p_.i0)) * p_.i0) / p_.inductance;
}

void Motor::assemble(LocalAssembly& a, const StepContext&, bool record) {
  a.reserve(15);
  const auto k1 = a.kinematics(*p_.node1);
  const auto k2 = a.kinematics(*p_.node2);
  const AD V1 = scalar_node(a, *p_.elec1).x, V2 = scalar_node(a, *p_.elec2).x;
  const auto [i, ip] = a.scalar(first_index(), true);

  const Mat3AD R_motor = k1.R * p_.Rn_N1.cast<AD>();
  const Vec3AD e = R_motor.col(2);
  AD torque = p_.gain * i;
  if (p_.cogging_M0 || p_.cogging_M1) {
    const Vec3AD axis1 = R_motor.transpose() * k2.R.col(0);
    const AD phi_m = atan2(axis1[1], axis1[0]);
    AD phi_e = p_.terminal_pairs * phi_m;
    phi_e.value() = phi_electric(phi_m.value());
    if (p_.cogging_M0) torque += drive_of(*p_.cogging_M0, phi_e);
    if (p_.cogging_M1) torque += drive_of(*p_.cogging_M1, phi_e) * i;
  }
  const Vec3AD C = e * torque;
  const AD omega = e.dot(k2.w - k1.w);
  const AD abs_i = i.value() < 0. ? AD(-i) : i;
  const AD resistance = drive_of(*p_.resistance, abs_i);

  a.add(p_.node1->eq_index() + 3, Vec3AD(-C));
  a.add(p_.node2->eq_index() + 3, C);
  a.add(p_.elec1->first_index(), AD(-i));
  a.add(p_.elec2->first_index(), i);
  a.add(first_index(), AD(V2 - V1 - p_.gain * omega - p_.inductance * ip - resistance * i));

  if (record) i_ = i.value(), ip_ = ip.value(), torque_ = torque.value();
}

// motor.cc Motor.
parser::PrivateDataOwner::DatumInfo Motor::private_data_info(unsigned i) const {
  static const PrivateDataListing listing = [] {
    PrivateDataListing l;
    add_datum(l, "omega", "relative angular velocity about the axis");
    add_datum(l, "M", "torque");
    add_datum(l, "Pmech", "mechanical power");
    add_datum(l, "U", "voltage");
    add_datum(l, "i", "current");
    add_datum(l, "iP", "rate of the current");
    add_datum(l, "Pel", "electric power");
    add_datum(l, "Phimech", "mechanical angle");
    add_datum(l, "Phiel", "electric angle");
    add_datum(l, "M0", "torque coefficient M0");
    add_datum(l, "M1", "torque coefficient M1");
    return add_datum(l, "R", "resistance");
  }();
  return listed(listing, i);
}

double Motor::private_data(unsigned k) const {
  const double phi_e = phi_electric(phi_mechanical());
  switch (k) {
    case 1: return omega();
    case 2: return torque_;
    case 3: return omega() * torque_;
    case 4: return voltage();
    case 5: return i_;
    case 6: return ip_;
    case 7: return voltage() * i_;
    case 8: return phi_mechanical();
    case 9: return phi_e;
    case 10: return cogging(p_.cogging_M0, phi_e);
    case 11: return cogging(p_.cogging_M1, phi_e) * i_;
    case 12: return p_.resistance->value(std::abs(i_));
  }
  return 0.0;
}

}  // namespace mbl::elements::electric

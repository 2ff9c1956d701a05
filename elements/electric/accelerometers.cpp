#include "elements/electric/accelerometers.hpp"

namespace mbl::elements::electric {

void Accelerometer::initial_state(Vector& y, Vector& yp) const {
  const StructNode& n = *p_.node;
  const Vec3 d_W = n.R_WN() * p_.direction_N;
  y[first_index()] = kind_ == Kind::Rotational ? d_W.dot(n.w_W())
                                               : d_W.dot(n.v_W() + n.w_W().cross(n.R_WN() * p_.position_N));
  yp[first_index()] = 0.0;
}

void Accelerometer::assemble(LocalAssembly& a, const StepContext&, bool) {
  a.reserve(8);
  const auto k = a.kinematics(*p_.node);
  const auto [v, vp] = a.scalar(first_index(), true);
  const auto out = scalar_node(a, *p_.output);
  const Vec3AD d = k.R * p_.direction_N.cast<AD>();
  a.add(p_.output->first_index(), AD(vp - out.x));
  if (kind_ == Kind::Rotational) {
    a.add(first_index(), AD(d.dot(k.w) - v));
  } else {
    const Vec3AD f = k.R * p_.position_N.cast<AD>();
    a.add(first_index(), AD(d.dot(k.v + k.w.cross(f)) - v));
  }
}

void FilteredAccelerometer::initial_state(Vector& y, Vector&) const {
  const StructNode& n = *p_.measure.node;
  y[first_index()] = (n.R_WN() * p_.measure.direction_N).dot(n.v_W());
}

void FilteredAccelerometer::assemble(LocalAssembly& a, const StepContext&, bool) {
  a.reserve(10);
  const auto k = a.kinematics(*p_.measure.node);
  const auto [v, vp] = a.scalar(first_index(), true);
  const auto [y1, y1p] = a.scalar(first_index() + 1, true);
  const auto [y2, y2p] = a.scalar(first_index() + 2, true);
  const auto [z, zp] = scalar_node(a, *p_.measure.output);
  const double w = p_.omega, tau = p_.tau, csi = p_.csi;
  const Vec3AD d = k.R * p_.measure.direction_N.cast<AD>();
  a.add(first_index(), AD(d.dot(k.v) - v));
  a.add(first_index() + 1, AD(-y1p - w * w / tau * y2));
  a.add(first_index() + 2, AD(-y2p + z - (2. * csi * w + 1. / tau) * y2));
  a.add(p_.measure.output->first_index(), AD(-zp + y1 - w * (w + 2. * csi / tau) * y2 + p_.kappa * w * w * vp));
}

}  // namespace mbl::elements::electric

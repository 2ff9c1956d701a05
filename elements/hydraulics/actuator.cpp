#include "elements/hydraulics/actuator.hpp"

namespace mbl::elements::hydraulics {

void Actuator::initial_state(Vector& y, Vector& yp) const {
  y[first_index()] = y[p_.hyd1->first_index()];
  y[first_index() + 1] = y[p_.hyd2->first_index()];
  yp[first_index()] = yp[first_index() + 1] = 0.0;
}

void Actuator::assemble(LocalAssembly& a, const StepContext&, bool record) {
  a.reserve(16);
  const AD p1 = a.pressure(*p_.hyd1), p2 = a.pressure(*p_.hyd2);
  const auto [dp1, dp1p] = a.scalar(first_index(), true);
  const auto [dp2, dp2p] = a.scalar(first_index() + 1, true);
  const auto k1 = a.kinematics(*p_.node1);
  const auto k2 = a.kinematics(*p_.node2);

  const Vec3AD f1 = k1.R * p_.offset1_N.cast<AD>();
  const Vec3AD f2 = k2.R * p_.offset2_N.cast<AD>();
  const Vec3AD axis = k1.R * p_.axis_N1.cast<AD>();
  const AD force = p_.area1 * p1 - p_.area2 * p2;
  const Vec3AD F = axis * force;

  const AD density1 = p_.fluid1->density(p1), density2 = p_.fluid2->density(p2);
  const AD density_dp1 = p_.fluid1->density_dp(p1), density_dp2 = p_.fluid2->density_dp(p2);
  const Vec3AD dist = k2.x + f2 - k1.x - f1;
  const AD d = axis.dot(dist);
  const AD d_dot = axis.dot(k2.v + k2.w.cross(f2) - k1.v - k1.w.cross(f1)) + dist.dot(k1.w.cross(axis));
  const AD flow1 = p_.area1 * (density_dp1 * dp1p * d + density1 * d_dot);
  const AD flow2 = p_.area2 * (density_dp2 * dp2p * (p_.length - d) - density2 * d_dot);

  a.add(p_.node1->eq_index(), Vec3AD(-F));
  a.add(p_.node1->eq_index() + 3, Vec3AD(-f1.cross(F)));
  a.add(p_.node2->eq_index(), F);
  a.add(p_.node2->eq_index() + 3, Vec3AD(f2.cross(F)));
  a.add(p_.hyd1->first_index(), flow1);
  a.add(p_.hyd2->first_index(), flow2);
  a.add(first_index(), AD(p1 - dp1));
  a.add(first_index() + 1, AD(p2 - dp2));

  if (record) {
    flow1_ = flow1.value(), flow2_ = flow2.value();
    p1_ = dp1.value(), p2_ = dp2.value(), p1p_ = dp1p.value(), p2p_ = dp2p.value();
    volume1_ = p_.area1 * d.value(), volume2_ = p_.area2 * (p_.length - d.value());
    density1_ = density1.value(), density2_ = density2.value();
  }
}

void Actuator::output(OutputSink& out) const {
  write_hyd(out, {flow1_, flow2_, p1_, p2_, p1p_, p2p_, volume1_, volume2_, density1_, density2_});
}

}  // namespace mbl::elements::hydraulics

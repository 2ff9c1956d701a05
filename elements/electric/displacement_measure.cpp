#include "elements/electric/displacement_measure.hpp"

namespace mbl::elements::electric {

void DisplacementMeasure::initial_state(Vector& y, Vector& yp) const {
  const StructNode& n1 = *p_.node1;
  const StructNode& n2 = *p_.node2;
  const Vec3 f1_W = n1.R_WN() * p_.offset1_N, f2_W = n2.R_WN() * p_.offset2_N;
  y[p_.output->first_index()] = (n2.x_W() + f2_W - n1.x_W() - f1_W).norm();
  yp[p_.output->first_index()] = (n2.v_W() + n2.w_W().cross(f2_W) - n1.v_W() - n1.w_W().cross(f1_W)).norm();
}

void DisplacementMeasure::assemble(LocalAssembly& a, const StepContext&, bool) {
  a.reserve(13);
  const auto k1 = a.kinematics(*p_.node1);
  const auto k2 = a.kinematics(*p_.node2);
  const auto out = scalar_node(a, *p_.output);
  const Vec3AD d = k2.x + k2.R * p_.offset2_N.cast<AD>() - k1.x - k1.R * p_.offset1_N.cast<AD>();
  a.add(p_.output->first_index(), AD(d.norm() - out.x));
}

}  // namespace mbl::elements::electric

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
  // MBDyn's DispMeasure::AssJac (elec/displacement.cc) writes only the abstract node's own column
  // (dCoef): the distance is not linearised in the nodes' motion, and its Newton iterates follow
  // that matrix, so only the output unknown is seeded here.
  a.reserve(1);
  const auto out = scalar_node(a, *p_.output);
  const StructNode& n1 = *p_.node1;
  const StructNode& n2 = *p_.node2;
  const double distance = (n2.x_W() + n2.R_WN() * p_.offset2_N - n1.x_W() - n1.R_WN() * p_.offset1_N).norm();
  a.add(p_.output->first_index(), AD(a.constant(distance) - out.x));
}

}  // namespace mbl::elements::electric

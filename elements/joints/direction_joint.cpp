#include "elements/joints/direction_joint.hpp"

namespace mbl::elements {

void DirectionJoint::add_reaction_jacobian(JacobianSink& J, const StepContext& c, int rows, int lambda_col,
                                           double lambda) const {
  const Vec3 e = e_W();
  if (linear()) {
    J.add(rows, lambda_col, e);
    return;
  }
  J.add(rows + 3, lambda_col, e);
  J.add(rows + 3, node_.dof_index() + 3, Mat3(-c.dCoef * lambda * skew(e)));
}

void DirectionJoint::add_speed_jacobian(JacobianSink& J, const StepContext& c, int row, double sign) const {
  const Vec3 e = e_W();
  if (linear()) {
    J.add(row, node_.dof_index(), Eigen::RowVector3d(sign * e.transpose()));
    return;
  }
  const Eigen::RowVector3d d_speed =
      c.dCoef * e.cross(node_.w_W()).transpose() + e.transpose() * (Mat3::Identity() - c.dCoef * skew(node_.w_ref()));
  J.add(row, node_.dof_index() + 3, Eigen::RowVector3d(sign * d_speed));
}

}  // namespace mbl::elements

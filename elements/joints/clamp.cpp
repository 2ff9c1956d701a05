#include "elements/joints/clamp.hpp"
#include "mbdyn-like/core/private_data_listing.hpp"

#include <fmt/format.h>

#include "mbdyn-like/core/dof_description.hpp"
#include "mbdyn-like/core/rotations.hpp"

namespace mbl::elements {

// MBDyn's ClampJoint::DescribeDof/DescribeEq (struct/genj.cc).
void Clamp::describe_dofs(std::ostream& os, std::string_view prefix, int first, bool initial) const {
  describe_range(os, prefix, first, 3, "reaction forces [Fx,Fy,Fz]");
  describe_range(os, prefix, first + 3, 3, "reaction couples [mx,my,mz]");
  if (!initial) return;
  describe_range(os, prefix, first + 6, 3, "reaction force derivatives [FPx,FPy,FPz]");
  describe_range(os, prefix, first + 9, 3, "reaction couple derivatives [mPx,mPy,mPz]");
}

void Clamp::describe_equations(std::ostream& os, std::string_view prefix, int first, bool initial) const {
  describe_range(os, prefix, first, 3, "position constraints [Px=Px0,Py=Py0,Pz=Pz0]");
  describe_range(os, prefix, first + 3, 3, "orientation constraints [thetax=thetax0,thetay=thetay0,thetaz=thetaz0]");
  if (!initial) return;
  describe_range(os, prefix, first + 6, 3, "velocity constraints [vx=0,vy=0,vz=0]");
  describe_range(os, prefix, first + 9, 3, "angular velocity constraints [wx=0,wy=0,wz=0]");
}

Clamp::Clamp(unsigned label, StructNode& node, const Vec3& x0_W, const Mat3& R0_W)
    : Joint(label), node_(node), x0_W_(x0_W), R0_W_(R0_W) {
  R_WJ_ = R0_W;
}

void Clamp::residual(ResidualSink& r, const StepContext& c) {
  const int row = first_index();
  r.add(node_.eq_index(), Vec3(-lambda3(c, 0)));
  r.add(node_.eq_index() + 3, Vec3(-lambda3(c, 3)));
  r.add(row, Vec3((node_.x_W() - x0_W_) / c.dCoef));
  r.add(row + 3, Vec3(rot::R_to_rotvec(node_.R_WN() * R0_W_.transpose()) / c.dCoef));
  // Private data (bind, element drives, plugins) read the reaction of the current iterate.
  F_W_ = lambda3(c, 0);
  M_W_ = lambda3(c, 3);
}

// (9.15), with Gamma^-1(theta_c) ~ I since theta_c = 0 at convergence.
void Clamp::jacobian(JacobianSink& J, const StepContext&) {
  const int row = first_index();
  const Mat3 I = Mat3::Identity();
  J.add(node_.eq_index(), row, I);
  J.add(node_.eq_index() + 3, row + 3, I);
  J.add(row, node_.dof_index(), Mat3(-I));
  J.add(row + 3, node_.dof_index() + 3, Mat3(-I));
}

// genj.cc ClampJoint::SetValue: the multipliers start from the `initial state` reaction.
void Clamp::initial_state(Vector& y, Vector&) const {
  y.segment<3>(first_index()) = initial_F_;
  y.segment<3>(first_index() + 3) = initial_M_;
}

void Clamp::after_convergence(const StepContext& c) {
  F_W_ = lambda3(c, 0);
  M_W_ = lambda3(c, 3);
}

std::string Clamp::log_line() const {
  // MBDyn writes both sides as attached to the node with no offset (every real .log shows
  // zeros and identities, whatever the clamped position and orientation).
  return fmt::format("clamp: {0} {1} 0 0 0 1 0 0 0 1 0 0 0 1 {1} 0 0 0 1 0 0 0 1 0 0 0 1", label(), node_.label());
}

double Clamp::private_data(unsigned i) const {
  if (i < 1 || i > 6) return 0.0;
  return (i <= 3 ? F_W_ : M_W_)[(i - 1) % 3];
}

parser::PrivateDataOwner::DatumInfo Clamp::private_data_info(unsigned i) const {
  static const PrivateDataListing listing = [] {
    PrivateDataListing l;
    add_xyz(l, "F", "reaction force, global frame");
    return add_xyz(l, "M", "reaction moment, global frame");
  }();
  return listed(listing, i);
}

}  // namespace mbl::elements

#pragma once
// The `invariant angular` wrapper (input manual §2.10.42; 3D): refers a 3D law of the relative
// rotation vector theta of a deformable hinge to the intermediate orientation R_xi = exp(xi theta x)
// (xi = 0: node 1, 1: node 2, 1/2: the invariant deformable hinge):
//   F = R_xi f(theta, R_xi^T theta').
#include <memory>

#include "elements/joints/deformable_kinematics.hpp"
#include "elements/laws/wrapper_laws.hpp"
#include "mbdyn-like/core/rotations.hpp"

namespace mbl::laws {

class InvariantAngularLaw final : public SingleWrapperLaw<InvariantAngularLaw, 3> {
 public:
  InvariantAngularLaw(double xi, std::unique_ptr<ConstitutiveLaw<3>> law)
      : SingleWrapperLaw<InvariantAngularLaw, 3>(std::move(law)), xi_(xi) {}
  // A perturbation d theta rotates R_xi by (Gamma(xi theta) xi d theta) x: F gains
  // -F x Gamma xi d theta, and the re-oriented rate R^T theta' gains R^T theta' x Gamma xi d theta
  // (the term MBDyn's Jacobian leaves out, §2.10.42's note).
  void update(const Vec3& eps, const Vec3& eps_dot, double t) override {
    const Vec3 phi = xi_ * eps;
    const Mat3 R = rot::rotvec_to_R(phi);
    const Mat3 dphi = xi_ * elements::rotvec_gamma(phi);
    auto& law = *law_;
    law.update(eps, R.transpose() * eps_dot, t);
    F_ = R * law.force();
    F_eps_dot_ = R * law.damping() * R.transpose();
    F_eps_ = R * law.stiffness() - skew(F_) * dphi + F_eps_dot_ * skew(eps_dot) * dphi;
  }

 private:
  double xi_;
};

}  // namespace mbl::laws

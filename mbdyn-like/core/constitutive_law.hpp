#pragma once
// Constitutive laws (manual §2.10): generalised force F(eps, eps') with its stiffness dF/deps and
// damping dF/deps', for dimension 1 (rods, axial), 3 (deformable hinge/displacement) and 6
// (deformable joint, beams). Implementations live in elements/laws.
#include <Eigen/Core>
#include <memory>
#include <string>

namespace mbl {

template <int N>
class ConstitutiveLaw {
 public:
  using VecN = Eigen::Matrix<double, N, 1>;
  using MatN = Eigen::Matrix<double, N, N>;
  virtual ~ConstitutiveLaw() = default;

  /// Evaluates the law at strain eps and strain rate eps_dot (time t for time-varying laws).
  virtual void update(const VecN& eps, const VecN& eps_dot, double t) = 0;
  const VecN& force() const { return F_; }
  const MatN& stiffness() const { return F_eps_; }     ///< dF/d eps
  const MatN& damping() const { return F_eps_dot_; }   ///< dF/d eps'
  /// Laws with memory advance once per converged step.
  virtual void after_convergence() {}
  virtual bool is_viscous() const { return false; }
  /// A fresh, unshared copy (a named law used by several elements).
  virtual std::unique_ptr<ConstitutiveLaw> clone() const = 0;
  virtual std::string describe() const { return {}; }

 protected:
  VecN F_ = VecN::Zero();
  MatN F_eps_ = MatN::Zero();
  MatN F_eps_dot_ = MatN::Zero();
};

using ConstitutiveLaw1D = ConstitutiveLaw<1>;
using ConstitutiveLaw3D = ConstitutiveLaw<3>;
using ConstitutiveLaw6D = ConstitutiveLaw<6>;

}  // namespace mbl

#pragma once
// Constitutive laws (manual §2.10): generalised force F(eps, eps') with its stiffness dF/deps and
// damping dF/deps', for dimension 1 (rods, axial), 3 (deformable hinge/displacement) and 6
// (deformable joint, beams). Implementations live in elements/laws.
#include <Eigen/Core>
#include <memory>
#include <string>
#include <string_view>

namespace mbl {

/// An output item of a law: name (private data "constitutiveLaw.<name>"), NetCDF units and
/// description.
struct LawOutputItem {
  std::string_view name, units, description;
};

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
  /// The memory as a step begins, and back to it when the step is abandoned (element.hpp);
  /// the owning element forwards the calls.
  virtual void save_step_state() {}
  virtual void restore_step_state() {}
  virtual bool is_viscous() const { return false; }
  /// A fresh, unshared copy (a named law used by several elements).
  virtual std::unique_ptr<ConstitutiveLaw> clone() const = 0;
  virtual std::string describe() const { return {}; }
  /// Values the law appends to its element's output and offers as the element's private data
  /// "constitutiveLaw.<name>" (MBDyn's OutputAppend, e.g. the shock absorber's gas pressure).
  virtual int output_count() const { return 0; }
  virtual LawOutputItem output_item(int) const { return {}; }
  virtual double output_value(int) const { return 0.0; }
  /// How many of the output items (the first ones) are also the law's private data: all of a
  /// law's own; a wrapper's none (MBDyn's array, bistop, axial and drive caller wrappers do not
  /// forward their laws' private data: they keep SimulationEntity's 0).
  virtual int private_data_count() const { return output_count(); }
  /// How many of the output items (the first ones) the NetCDF output also has: all, but for a law
  /// whose OutputAppend writes text only (MBDyn's tdclw).
  virtual int netcdf_output_count() const { return output_count(); }

 protected:
  VecN F_ = VecN::Zero();
  MatN F_eps_ = MatN::Zero();
  MatN F_eps_dot_ = MatN::Zero();
};

using ConstitutiveLaw1D = ConstitutiveLaw<1>;
using ConstitutiveLaw3D = ConstitutiveLaw<3>;
using ConstitutiveLaw6D = ConstitutiveLaw<6>;

}  // namespace mbl

#pragma once
// Elements that write their residual once, over the scalar type AD (forward automatic
// differentiation); the Jacobian is the derivative of that same residual along the Newton update,
// in the convention of assembly.hpp: J = -(dr/dy' + dCoef dr/dy). A differential unknown moves y
// by dCoef and y' by 1 per unit of update, an algebraic one moves y by 1; a structural node's
// rotation moves by dCoef d (global frame) and its angular velocity by d - dCoef w_ref x d
// (technical manual §5.1). Used by the hydraulic, electric and thermal elements.
#include <Eigen/Core>
#include <unsupported/Eigen/AutoDiff>

#include <vector>

#include "mbdyn-like/core/element.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements {

using AD = Eigen::AutoDiffScalar<Eigen::VectorXd>;
using Vec3AD = Eigen::Matrix<AD, 3, 1>;
using Mat3AD = Eigen::Matrix<AD, 3, 3>;

/// The unknowns one element reads, as AD values whose derivatives are the columns of its local
/// Jacobian; collects its residual rows and, when asked, their Jacobian rows.
class LocalAssembly {
 public:
  LocalAssembly(const StepContext& c, ResidualSink* r, JacobianSink* J) : c_(c), r_(r), J_(J) {}

  struct Scalar {
    AD x, xp;
  };
  /// A scalar unknown at column `index` (its derivative is meaningful when differential).
  Scalar scalar(int index, bool differential);

  struct Kinematics {
    Vec3AD x, v, w;
    Mat3AD R;
  };
  /// Position, orientation, velocity and angular velocity of a structural node.
  Kinematics kinematics(const StructNode& n);

  /// Adds `v` to row `row` of the residual (and its derivatives to the Jacobian).
  void add(int row, const AD& v);
  void add(int row, const Vec3AD& v) {
    for (int i = 0; i < 3; ++i) add(row + i, v[i]);
  }
  /// Number of columns; every seeded unknown must be declared before the first AD operation.
  void reserve(int n) { n_ = n; }
  /// A constant (no derivative) of the right size.
  AD constant(double v) const { return AD(v, Eigen::VectorXd::Zero(n_)); }

 private:
  AD seeded(double value, int k, double d);

  const StepContext& c_;
  ResidualSink* r_;
  JacobianSink* J_;
  int n_ = 0;
  std::vector<int> columns_;
};

/// An element whose assemble() writes residual and Jacobian at once through `Assembly` (a
/// LocalAssembly or a family's extension of it).
template <class Assembly>
class AssembledElement : public Element {
 public:
  using Element::Element;
  void residual(ResidualSink& r, const StepContext& c) override {
    Assembly a(c, &r, nullptr);
    assemble(a, c, true);
  }
  void jacobian(JacobianSink& J, const StepContext& c) override {
    Assembly a(c, nullptr, &J);
    assemble(a, c, false);
  }

 protected:
  /// Writes the element's equations; `record` is set on residual evaluations (the values kept for
  /// output are those of the last residual, as MBDyn's).
  virtual void assemble(Assembly& a, const StepContext& c, bool record) = 0;
};

}  // namespace mbl::elements

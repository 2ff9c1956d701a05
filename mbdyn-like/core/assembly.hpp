#pragma once
// The views through which nodes and elements add their contributions to the global residual and
// Jacobian, at indices taken from the DOF numbering (node.dof_index(), element.first_index()).
//
// Sign convention (technical manual ch. 5): contributions are MBDyn's residual r = -f and the
// Jacobian J = df/dy' + dCoef df/dy = -(dr/dy' + dCoef dr/dy). For example a force F applied to
// a node adds +F to the node's equilibrium rows of r; a linear spring F = -K x adds
// +K * dCoef to J on the position columns.
#include "integrators/problem.hpp"
#include "integrators/sparse_matrix.hpp"
#include "mbdyn-like/core/types.hpp"

namespace mbl {

using integrators::DofOrder;
using integrators::SparseMatrix;

class ResidualSink {
 public:
  ResidualSink(Vector& r, Vector* abs_r) : r_(r), abs_r_(abs_r) {}
  void add(int row, double v) {
    r_[row] += v;
    if (abs_r_) (*abs_r_)[row] += std::abs(v);
  }
  template <class Derived>
  void add(int row, const Eigen::MatrixBase<Derived>& v) {
    for (int i = 0; i < v.size(); ++i) add(row + i, v[i]);
  }

 private:
  Vector& r_;
  Vector* abs_r_;
};

class JacobianSink {
 public:
  explicit JacobianSink(SparseMatrix& J) : J_(&J) {}
  /// One thread's share of a parallel assembly (Model::jacobian).
  explicit JacobianSink(SparseMatrix::Lane& lane) : lane_(&lane) {}
  void add(int row, int col, double v) {
    if (lane_) lane_->add(row, col, v);
    else J_->add(row, col, v);
  }
  template <class Derived>
  void add(int row, int col, const Eigen::MatrixBase<Derived>& m) {
    if (lane_) lane_->add_block(row, col, m);
    else J_->add_block(row, col, m);
  }

 private:
  SparseMatrix* J_ = nullptr;
  SparseMatrix::Lane* lane_ = nullptr;
};

/// What every residual/Jacobian call can read: the time, the integrator coefficient and the
/// global state (elements with their own unknowns read them at first_index()).
struct StepContext {
  double t = 0.0;
  double dCoef = 1.0;
  const Vector* y = nullptr;
  const Vector* yp = nullptr;
  /// The initial assembly's position/velocity problems (elements with internal unknowns may write
  /// their constraints on the nodes only).
  bool initial_assembly = false;
  /// The inverse-dynamics phase (technical manual §6.3): joints that have a Jacobian of their own
  /// for it (MBDyn's inverse-dynamics AssJac) use it.
  bool inverse_dynamics = false;
};

}  // namespace mbl

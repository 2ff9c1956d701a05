#pragma once
// Phases that solve a problem of their own over the model's numbering (initial assembly, inverse
// dynamics) evaluate the regular residual and Jacobian of a chosen set of elements.
#include <vector>

#include "integrators/sparse_matrix.hpp"
#include "mbdyn-like/core/element.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl {

/// The participants' residual alone, over the model's numbering, at the state of the last update.
inline void participants_residual(const std::vector<Element*>& parts, const StepContext& c, int n, Vector& r,
                                  Vector* abs_r = nullptr) {
  r.setZero(n);
  if (abs_r) abs_r->setZero(n);
  ResidualSink sink(r, abs_r);
  for (Element* e : parts) e->residual(sink, c);
}

inline void participants_jacobian(const std::vector<Element*>& parts, const StepContext& c,
                                  integrators::SparseMatrix& J) {
  J.zero();
  JacobianSink sink(J);
  for (Element* e : parts) e->jacobian(sink, c);
}

/// Which unknowns (or equations) of the model's numbering take part in a phase's subproblem: built
/// once per phase, the numbering being fixed.
class DofMask {
 public:
  explicit DofMask(int n) : on_(n, 0) {}
  /// The node's kinematic unknowns (position, orientation), or with `equations` its equilibrium rows.
  void add_kinematics(const StructNode& node, bool equations = false) {
    const int first = equations ? node.eq_index() : node.dof_index();
    for (int k = 0; k < node.kinematic_dof_count(); ++k) on_[first + k] = 1;
  }
  /// The element's own unknowns (the same indices as its equations), but those `except` marks.
  void add_own(const Element& e, const std::vector<char>* except = nullptr) {
    for (int k = 0; k < e.dof_count(); ++k)
      if (!except || !(*except)[e.first_index() + k]) on_[e.first_index() + k] = 1;
  }
  bool operator[](int i) const { return on_[i] != 0; }
  int size() const { return static_cast<int>(on_.size()); }

 private:
  std::vector<char> on_;
};

/// Calls f(row, col, value) for every stored entry of J.
template <class F>
void for_each_entry(integrators::SparseMatrix& J, F&& f) {
  const std::vector<int>& cp = J.col_ptr();
  const std::vector<int>& ri = J.row_idx();
  const std::vector<double>& v = J.values();
  for (int col = 0; col + 1 < static_cast<int>(cp.size()); ++col)
    for (int k = cp[col]; k < cp[col + 1]; ++k) f(ri[k], col, v[k]);
}

}  // namespace mbl

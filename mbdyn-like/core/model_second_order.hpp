#pragma once
// The model's second-order form (integrators/second_order_problem.hpp), extracted from the same
// first-order residual every element assembles (docs/seeds.md "The second-order view"); no
// element knows which family runs it.
//
// With MBDyn's formulation the dynamic nodes carry momenta: the momentum definitions read
// p(q, v) - beta = 0 (p linear in v: bodies add m v + w x s, s x v + J w) and the equilibrium
// F(q, v, t) - Phi_q^T lambda - beta' (- v x beta) = 0. Substituting beta = p(q, v) and
// beta' = dp/dt = p(q, a) + (d p / d q)[v] gives M a = Q - Phi_q^T lambda:
//   - p(q, w) is the momentum-definition residual with velocities w and beta = 0, so
//     M's column j is p(q, e_j);
//   - dp/dt is the central difference of p(q (+) e v, v + e a) along the exponential curve;
//   - the equilibrium rows with beta, beta' so set give r = Q - M a - Phi_q^T lambda;
//   - the constraint rows at dCoef = 1 give Phi (they assemble Phi / dCoef) and, from the
//     Jacobian at dCoef = 1, -Phi_q (the dCoef cancels there; dtheta = dCoef dg').
// Every unknown of an element that is algebraic is taken as a holonomic constraint multiplier.
#include <vector>

#include "integrators/second_order_problem.hpp"
#include "integrators/sparse_matrix.hpp"
#include "mbdyn-like/core/types.hpp"

namespace mbl {

class Model;
class StructNode;

class ModelSecondOrder : public integrators::SecondOrderProblem {
 public:
  /// Throws std::invalid_argument naming a node or element the second-order form cannot express
  /// (non-structural nodes, modal nodes, elements with differential unknowns).
  explicit ModelSecondOrder(Model& model);

  int velocity_size() const override { return 6 * static_cast<int>(nodes_.size()); }
  int constraint_size() const override { return static_cast<int>(constraint_dofs_.size()); }
  void set_configuration(const Vector& dq) override;
  void commit_configuration() override;
  void evaluate(double t, const Vector& v, const Vector& a, const Vector& lambda, Vector& r,
                Vector& phi) override;
  /// One residual assembly: the constraint rows need neither momenta nor their derivatives.
  void constraint_values(double t, const Vector& v, const Vector& lambda, Vector& phi) override;
  void mass(integrators::Matrix& M) override;
  void constraint_jacobian(double t, integrators::Matrix& B) override;
  void from_first_order(const Vector& y, const Vector& yp, Vector& v, Vector& lambda) override;
  void increment_to_first_order(const Vector& dq, Vector& dy) const override;
  void to_first_order(double t, const Vector& v, const Vector& a, const Vector& lambda,
                      Vector& y, Vector& yp) override;

 private:
  /// Writes the current configuration with velocities v, multipliers lambda and (dynamic
  /// nodes) momenta p, p' into y_, yp_ and updates the model.
  void place(double t, const Vector& v, const Vector& lambda, const Vector* p, const Vector* pdot);
  /// p(q, w) at the current configuration (zero rows for static nodes).
  Vector momentum(double t, const Vector& w);
  /// Phi from the constraint rows of the last residual r_.
  void constraint_rows(Vector& phi) const;

  Model& model_;
  std::vector<StructNode*> nodes_;  ///< structural nodes with unknowns, in input order
  std::vector<int> constraint_dofs_;
  std::vector<Vec3> x_base_, x_;
  std::vector<Mat3> R_base_, R_;
  Vector y_, yp_, r_;
  integrators::SparseMatrix J_;
};

}  // namespace mbl

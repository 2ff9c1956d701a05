#pragma once
// Finite-difference check of a Problem's Jacobian (the harness every element test uses).
// The Newton update perturbs y' by h e_i and y by dCoef h e_i (differential) or y by h e_i
// (algebraic); the Jacobian J = df/dy' + dCoef df/dy must equal -(r(+h) - r(-h)) / (2h).
// Rotations: call it at the reference state of a Newton iteration (g = 0, g' = 0, the node's
// angular velocity carried by w_ref), where MBDyn's linearisation d omega = d g' - w_ref x d g
// is exact.
#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include "integrators/problem.hpp"
#include "integrators/sparse_matrix.hpp"

namespace mbl::test_support {

struct JacobianCheck {
  double max_error = 0.0;  ///< max |J - J_fd| / (1 + |J_fd|)
  int row = -1, col = -1;
  double analytic = 0.0, numeric = 0.0;
  std::string str() const {
    return "row " + std::to_string(row) + " col " + std::to_string(col) + ": analytic " +
           std::to_string(analytic) + " numeric " + std::to_string(numeric);
  }
};

/// `known_deviation` (optional) takes out of the analytic Jacobian what it holds on purpose
/// besides the derivative (MBDyn's own terms, which an element reproduces), before the comparison.
inline JacobianCheck check_jacobian(integrators::Problem& p, double t, double dCoef,
                                    const Eigen::VectorXd& y, const Eigen::VectorXd& yp,
                                    double h = 1e-6,
                                    const std::function<void(Eigen::MatrixXd&)>& known_deviation = {}) {
  const int n = p.size();
  integrators::SparseMatrix J(n);
  p.update(t, y, yp);
  J.zero();
  p.jacobian(t, dCoef, J);
  Eigen::MatrixXd Ja = J.to_dense();
  if (known_deviation) known_deviation(Ja);
  JacobianCheck out;
  Eigen::VectorXd rp(n), rm(n);
  for (int i = 0; i < n; ++i) {
    const double dy = p.dof_order(i) == integrators::DofOrder::Differential ? dCoef * h : h;
    const double dyp = p.dof_order(i) == integrators::DofOrder::Differential ? h : 0.0;
    Eigen::VectorXd y1 = y, yp1 = yp;
    y1[i] += dy;
    yp1[i] += dyp;
    p.update(t, y1, yp1);
    p.residual(t, dCoef, rp, nullptr);
    y1[i] -= 2 * dy;
    yp1[i] -= 2 * dyp;
    p.update(t, y1, yp1);
    p.residual(t, dCoef, rm, nullptr);
    for (int k = 0; k < n; ++k) {
      const double num = -(rp[k] - rm[k]) / (2 * h);
      const double err = std::abs(Ja(k, i) - num) / (1.0 + std::abs(num));
      if (err > out.max_error) out = {err, k, i, Ja(k, i), num};
    }
  }
  p.update(t, y, yp);
  return out;
}

}  // namespace mbl::test_support

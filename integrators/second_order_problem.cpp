#include "integrators/second_order_problem.hpp"

#include <algorithm>
#include <cmath>

namespace mbl::integrators {

void SecondOrderProblem::dynamics_matrix(double t, const Vector& dq, const Vector& v,
                                         const Vector& a, const Vector& lambda, double c_a,
                                         double c_v, double c_q, Matrix& T) {
  const int n = velocity_size();
  Vector r0, r1, phi;
  set_configuration(dq);
  if (c_v == 0.0 && c_q == 0.0) {
    // r depends on a only through -M a: T = c_a M (the half-implicit matrix, seed 003 eq. 12),
    // without n evaluations.
    mass(T);
    T *= c_a;
    return;
  }
  evaluate(t, v, a, lambda, r0, phi);
  T.resize(n, n);
  // One increment d of the accelerations moves a by c_a d, v by c_v d and dq by c_q d.
  const double d = 1e-7 * std::max(1.0, a.size() ? a.lpNorm<Eigen::Infinity>() : 0.0);
  Vector dq1 = dq, v1 = v, a1 = a;
  for (int j = 0; j < n; ++j) {
    dq1[j] += c_q * d;
    v1[j] += c_v * d;
    a1[j] += c_a * d;
    set_configuration(dq1);
    evaluate(t, v1, a1, lambda, r1, phi);
    T.col(j) = -(r1 - r0) / d;
    dq1[j] = dq[j];
    v1[j] = v[j];
    a1[j] = a[j];
  }
  set_configuration(dq);
}

}  // namespace mbl::integrators

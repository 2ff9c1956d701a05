#include "elements/joints/axis_constraints.hpp"

namespace mbl::elements {

namespace {
Vec3 moment_of(const Mat3& Ra, const Mat3& Rb, const std::vector<AxisPair>& pairs, const double* lambda) {
  Vec3 m = Vec3::Zero();
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const AxisPair& p = pairs[k];
    m += p.sign * Vec3(Ra.col(p.axis_a)).cross(Vec3(Rb.col(p.axis_b))) * lambda[k];
  }
  return m;
}
}  // namespace

Vec3 axis_pairs_moment(const Attachment& a, const Attachment& b, const std::vector<AxisPair>& pairs,
                       const double* lambda) {
  return moment_of(a.R_WH(), b.R_WH(), pairs, lambda);
}

void add_axis_pairs_residual(ResidualSink& r, const StepContext& c, const Attachment& a,
                             const Attachment& b, const std::vector<AxisPair>& pairs, int row_c,
                             const double* lambda) {
  const Mat3 Ra = a.R_WH(), Rb = b.R_WH();
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const AxisPair& p = pairs[k];
    r.add(row_c + int(k), p.sign * Ra.col(p.axis_a).dot(Rb.col(p.axis_b)) / c.dCoef);
  }
  const Vec3 m_b = moment_of(Ra, Rb, pairs, lambda);
  if (!a.grounded()) r.add(a.node->eq_index() + 3, Vec3(-m_b));
  if (!b.grounded()) r.add(b.node->eq_index() + 3, m_b);
}

// f = -r: f_a = sum g lambda, f_b = -f_a; d(u x w) = w x u x theta_a - u x w x theta_b.
void add_axis_pairs_jacobian(JacobianSink& J, const StepContext& c, const Attachment& a,
                             const Attachment& b, const std::vector<AxisPair>& pairs, int row_c,
                             const double* lambda) {
  const Mat3 Ra = a.jac_R_WH(c), Rb = b.jac_R_WH(c);  // as MBDyn (jacobian_R_WN)
  Mat3 df_dth_a = Mat3::Zero(), df_dth_b = Mat3::Zero();
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const AxisPair& p = pairs[k];
    const Vec3 u = Ra.col(p.axis_a), w = Rb.col(p.axis_b);
    const Vec3 g = p.sign * u.cross(w);
    df_dth_a += c.dCoef * p.sign * lambda[k] * skew(w) * skew(u);
    df_dth_b -= c.dCoef * p.sign * lambda[k] * skew(u) * skew(w);
    const int row = row_c + int(k);
    for (const auto& [att, s] : {std::pair{&a, 1.0}, std::pair{&b, -1.0}}) {
      if (att->grounded()) continue;
      J.add(att->node->eq_index() + 3, row, Vec3(s * g));
      J.add(row, att->node->dof_index() + 3, Eigen::RowVector3d(-s * g.transpose()));
    }
  }
  for (const auto& [att, s] : {std::pair{&a, 1.0}, std::pair{&b, -1.0}}) {
    if (att->grounded()) continue;
    const int eq = att->node->eq_index() + 3;
    if (!a.grounded()) J.add(eq, a.node->dof_index() + 3, Mat3(s * df_dth_a));
    if (!b.grounded()) J.add(eq, b.node->dof_index() + 3, Mat3(s * df_dth_b));
  }
}

}  // namespace mbl::elements

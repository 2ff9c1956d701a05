#include "elements/misc/local_assembly.hpp"
#include "mbdyn-like/core/rotations.hpp"

namespace mbl::elements {

AD LocalAssembly::seeded(double value, int k, double d) {
  return AD(value, Eigen::VectorXd::Unit(n_, k) * d);
}

LocalAssembly::Scalar LocalAssembly::scalar(int index, bool differential) {
  const int k = static_cast<int>(columns_.size());
  columns_.push_back(index);
  if (differential) return {seeded((*c_.y)[index], k, c_.dCoef), seeded((*c_.yp)[index], k, 1.0)};
  return {seeded((*c_.y)[index], k, 1.0), AD(0.0, Eigen::VectorXd::Zero(n_))};
}

LocalAssembly::Kinematics LocalAssembly::kinematics(const StructNode& n) {
  Kinematics out;
  const int k0 = static_cast<int>(columns_.size());
  for (int i = 0; i < 6; ++i) columns_.push_back(n.dof_index() + i);
  const double dCoef = c_.dCoef;
  for (int i = 0; i < 3; ++i) {
    out.x[i] = seeded(n.x_W()[i], k0 + i, dCoef);
    out.v[i] = seeded(n.v_W()[i], k0 + i, 1.0);
  }
  // R = (I + [theta x]) R_WN, theta = dCoef d; w = w_W + d - dCoef w_ref x d.
  const Mat3& R = n.R_WN();
  for (int r = 0; r < 3; ++r)
    for (int col = 0; col < 3; ++col) out.R(r, col) = AD(R(r, col), Eigen::VectorXd::Zero(n_));
  for (int i = 0; i < 3; ++i) {
    const Vec3 e = Vec3::Unit(i);
    const Mat3 dR = dCoef * (skew(e) * R);
    const Vec3 dw = e - dCoef * n.w_ref().cross(e);
    for (int r = 0; r < 3; ++r) {
      for (int col = 0; col < 3; ++col) out.R(r, col).derivatives()[k0 + 3 + i] = dR(r, col);
      if (i == 0) out.w[r] = AD(n.w_W()[r], Eigen::VectorXd::Zero(n_));
      out.w[r].derivatives()[k0 + 3 + i] = dw[r];
    }
  }
  return out;
}

void LocalAssembly::add(int row, const AD& v) {
  if (r_) r_->add(row, v.value());
  if (J_) {
    const auto& d = v.derivatives();
    for (int k = 0; k < d.size() && k < static_cast<int>(columns_.size()); ++k)
      if (d[k] != 0.0) J_->add(row, columns_[k], -d[k]);
  }
}

}  // namespace mbl::elements

#include "elements/shells/traction_load.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace mbl::elements {
namespace {

/// The columns |n| e1, n x e1, n of the surface's frame scaled by the area element, n = a1 x a2.
Mat3 scaled_surface_frame(const Vec3& a1, const Vec3& a2) {
  const Vec3 n = a1.cross(a2);
  const double L = a1.norm();
  Mat3 Q;
  Q << n.norm() / L * a1, n.cross(a1) / L, n;
  return Q;
}

}  // namespace

TractionLoad::TractionLoad(unsigned label, const SurfaceShape& shape, std::vector<StructNode*> nodes,
                           std::vector<std::function<Vec3(double)>> tractions, const std::vector<Mat3>& R_WF,
                           Frame frame)
    : SurfaceLoad(label, shape, std::move(nodes)), tractions_(std::move(tractions)), frame_(frame),
      t_nodal_(shape.nodes, Vec3::Zero()) {
  if (static_cast<int>(tractions_.size()) != shape_.nodes || R_WF.size() != shape_.points.size())
    throw std::invalid_argument(fmt::format("surface traction {}: expected {} tractions and {} orientations",
                                            label, shape_.nodes, shape_.points.size()));
  // The frames of the input configuration, as MBDyn takes them when it builds the element.
  for (std::size_t i = 0; i < shape_.points.size(); ++i) {
    const auto [a1, a2] = tangents(shape_.points[i], true);
    const double dA0 = a1.cross(a2).norm();
    if (dA0 == 0.0 || a1.norm() == 0.0)
      throw std::invalid_argument(fmt::format("surface traction {}: degenerate surface at quadrature point {}", label, i));
    const Mat3 Q0 = scaled_surface_frame(a1, a2) / dA0;  // orthonormal
    R_point_.push_back(frame_ == Frame::Relative ? Mat3(Q0.transpose() * R_WF[i]) : Mat3(dA0 * R_WF[i]));
  }
}

Vec3 TractionLoad::point_traction(std::size_t i, double w) const {
  Vec3 t = Vec3::Zero();
  for (int k = 0; k < shape_.nodes; ++k) t += H_[k] * t_nodal_[k];
  return w * R_point_[i] * t;
}

const std::vector<Vec3>& TractionLoad::nodal_forces(double t) {
  for (int k = 0; k < shape_.nodes; ++k) t_nodal_[k] = tractions_[k](t);
  for (Vec3& f : F_) f.setZero();
  for (std::size_t i = 0; i < shape_.points.size(); ++i) {
    const auto [a1, a2] = tangents(shape_.points[i], frame_ == Frame::Absolute);
    const Vec3 c = point_traction(i, shape_.points[i].w);
    const Vec3 f = frame_ == Frame::Relative ? Vec3(scaled_surface_frame(a1, a2) * c) : c;
    for (int k = 0; k < shape_.nodes; ++k) F_[k] += H_[k] * f;
  }
  return F_;
}

void TractionLoad::jacobian(JacobianSink& J, const StepContext& c) {
  if (frame_ == Frame::Absolute) return;  // a dead load
  for (int k = 0; k < shape_.nodes; ++k) t_nodal_[k] = tractions_[k](c.t);
  for (std::size_t i = 0; i < shape_.points.size(); ++i) {
    const auto [a1, a2] = tangents(shape_.points[i]);
    const Vec3 t = point_traction(i, shape_.points[i].w);
    // f = t1 |n| a1 / L + t2 (n x a1) / L + t3 n, with n = a1 x a2, L = |a1|, and
    // dn = A1 da1 + A2 da2 (A1 = -skew(a2), A2 = skew(a1)).
    const Vec3 n = a1.cross(a2);
    const double L = a1.norm(), n_norm = n.norm();
    const Vec3 e1 = a1 / L, e3 = n / n_norm;
    const Mat3 A1 = -skew(a2), A2 = skew(a1);
    const Mat3 dfdn = t[0] / L * a1 * e3.transpose() - t[1] / L * skew(a1) + t[2] * Mat3::Identity();
    const Mat3 df_da1_direct = t[0] / L * n_norm * (Mat3::Identity() - e1 * e1.transpose()) +
                               t[1] / L * (skew(n) - n.cross(a1) * e1.transpose() / L);
    add_tangent_jacobian(J, c, Mat3(dfdn * A1 + df_da1_direct), Mat3(dfdn * A2));
  }
}

}  // namespace mbl::elements

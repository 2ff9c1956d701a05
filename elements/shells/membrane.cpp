#include "elements/shells/membrane.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "elements/misc/quadrature.hpp"
#include "elements/shells/bilinear.hpp"

namespace mbl::elements {

using bilinear::shape_d;

Membrane4::Membrane4(unsigned label, std::array<StructNode*, 4> nodes, MembraneLaw law)
    : Element(label), nodes_(nodes), law_(law) {
  const double g = quadrature::gauss(2)[1].x;  // 1/sqrt(3)
  // Gauss points in MBDyn's order (the .pla columns follow it).
  const double gp[4][2] = {{-g, -g}, {g, -g}, {g, g}, {-g, g}};
  for (int i = 0; i < 4; ++i) {
    gauss_[i].xi1 = gp[i][0];
    gauss_[i].xi2 = gp[i][1];
  }
  for (int i = 0; i < 4; ++i) flux_[i] = law_.prestress;
}

namespace {

/// Tangents dx/dxi_j at (xi1, xi2) of the nodes' positions x.
std::array<Vec3, 2> tangents(const std::array<Vec3, 4>& x, double xi1, double xi2) {
  std::array<Vec3, 2> a{Vec3::Zero(), Vec3::Zero()};
  for (int n = 0; n < 4; ++n)
    for (int j = 0; j < 2; ++j) a[j] += shape_d(n, j, xi1, xi2) * x[n];
  return a;
}

/// S_ab = t_a . dx/dxi_b: the in-plane Jacobian of the natural coordinates in frame t.
Eigen::Matrix2d in_plane_jacobian(const Mat3& t, const std::array<Vec3, 2>& a) {
  Eigen::Matrix2d S;
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 2; ++c) S(r, c) = t.col(r).dot(a[c]);
  return S;
}

}  // namespace

void Membrane4::setup(Model&) {
  std::array<Vec3, 4> x0;
  for (int n = 0; n < 4; ++n) x0[n] = nodes_[n]->x_W();
  const auto a0 = tangents(x0, 0.0, 0.0);
  if (!(a0[0].cross(a0[1]).norm() > 1e-12 * a0[0].squaredNorm()))
    throw std::invalid_argument(fmt::format("membrane {}: degenerate geometry", label()));
  // EAS transformation at the centre (technical manual §11.5.4, membrane strains only).
  const Eigen::Matrix2d S0 = in_plane_jacobian(bilinear::surface_frame(a0[0], a0[1]), a0);
  const double alpha0 = S0.determinant();
  Mat3 M0;
  M0 << S0(0, 0) * S0(0, 0), S0(0, 1) * S0(0, 1), S0(0, 1) * S0(0, 0),  //
      S0(1, 0) * S0(1, 0), S0(1, 1) * S0(1, 1), S0(1, 1) * S0(1, 0),    //
      S0(0, 0) * S0(1, 0), S0(0, 1) * S0(1, 1), S0(0, 0) * S0(1, 1) + S0(0, 1) * S0(1, 0);
  const Mat3 M0_invT = M0.inverse().transpose();
  for (Point& p : gauss_) {
    const auto a = tangents(x0, p.xi1, p.xi2);
    const Eigen::Matrix2d S = in_plane_jacobian(bilinear::surface_frame(a[0], a[1]), a);
    p.alpha = S.determinant();
    const Eigen::Matrix2d Sinv = S.inverse();
    for (int n = 0; n < 4; ++n)
      for (int k = 0; k < 2; ++k)
        p.dL_ds[n][k] = shape_d(n, 0, p.xi1, p.xi2) * Sinv(0, k) + shape_d(n, 1, p.xi1, p.xi2) * Sinv(1, k);
    Mat3x7 H = Mat3x7::Zero();
    const double t = p.xi1 * p.xi2;
    H(0, 0) = p.xi1;
    H(0, 1) = t;
    H(1, 2) = p.xi2;
    H(1, 3) = t;
    H(2, 4) = p.xi1;
    H(2, 5) = t;
    H(2, 6) = p.xi2;
    p.P = alpha0 / p.alpha * M0_invT * H;
    Mat3x12 B;
    std::array<Vec3, 2> F;
    p.eps0.setZero();
    strains(p, p.eps0, B, F);
  }
}

void Membrane4::strains(const Point& p, Vec3& eps, Mat3x12& B, std::array<Vec3, 2>& F) const {
  F = {Vec3::Zero(), Vec3::Zero()};
  for (int n = 0; n < 4; ++n)
    for (int k = 0; k < 2; ++k) F[k] += p.dL_ds[n][k] * nodes_[n]->x_W();
  eps = Vec3(0.5 * (F[0].squaredNorm() - 1.0), 0.5 * (F[1].squaredNorm() - 1.0), F[0].dot(F[1])) - p.eps0;
  for (int n = 0; n < 4; ++n) {
    const double L1 = p.dL_ds[n][0], L2 = p.dL_ds[n][1];
    B.block<1, 3>(0, 3 * n) = L1 * F[0].transpose();
    B.block<1, 3>(1, 3 * n) = L2 * F[1].transpose();
    B.block<1, 3>(2, 3 * n) = (L2 * F[0] + L1 * F[1]).transpose();
  }
}

Membrane4::Vec7 Membrane4::beta(const StepContext& c) const {
  if (!c.y || first_index() < 0) return Vec7::Zero();
  return c.y->segment<7>(first_index());
}

void Membrane4::residual(ResidualSink& r, const StepContext& c) {
  const Vec7 b = beta(c);
  Eigen::Matrix<double, 12, 1> f_q = Eigen::Matrix<double, 12, 1>::Zero();
  Vec7 f_b = Vec7::Zero();
  for (int g = 0; g < 4; ++g) {
    const Point& p = gauss_[g];
    Vec3 eps;
    Mat3x12 B;
    std::array<Vec3, 2> F;
    strains(p, eps, B, F);
    flux_[g] = law_.D * (eps + p.P * b) + law_.prestress;
    f_q += B.transpose() * flux_[g] * p.alpha;
    f_b += p.P.transpose() * flux_[g] * p.alpha;
  }
  for (int n = 0; n < 4; ++n) r.add(nodes_[n]->eq_index(), Vec3(-f_q.segment<3>(3 * n)));
  r.add(first_index(), Vec7(-f_b));
}

void Membrane4::jacobian(JacobianSink& J, const StepContext& c) {
  const Vec7 b = beta(c);
  Eigen::Matrix<double, 12, 12> K_qq = Eigen::Matrix<double, 12, 12>::Zero();
  Eigen::Matrix<double, 12, 7> K_qb = Eigen::Matrix<double, 12, 7>::Zero();
  Eigen::Matrix<double, 7, 12> K_bq = Eigen::Matrix<double, 7, 12>::Zero();
  Eigen::Matrix<double, 7, 7> K_bb = Eigen::Matrix<double, 7, 7>::Zero();
  for (const Point& p : gauss_) {
    Vec3 eps;
    Mat3x12 B;
    std::array<Vec3, 2> F;
    strains(p, eps, B, F);
    const Vec3 n = law_.D * (eps + p.P * b) + law_.prestress;
    K_qq += B.transpose() * law_.D * B * p.alpha;
    K_qb += B.transpose() * law_.D * p.P * p.alpha;
    K_bq += p.P.transpose() * law_.D * B * p.alpha;
    K_bb += p.P.transpose() * law_.D * p.P * p.alpha;
    // Geometric stiffness: d B^T n / dx, the same on the three components.
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        const double k = p.dL_ds[i][0] * n[0] * p.dL_ds[j][0] + p.dL_ds[i][1] * n[1] * p.dL_ds[j][1] +
                         n[2] * (p.dL_ds[i][0] * p.dL_ds[j][1] + p.dL_ds[i][1] * p.dL_ds[j][0]);
        K_qq.block<3, 3>(3 * i, 3 * j) += k * p.alpha * Mat3::Identity();
      }
  }
  const int ib = first_index();
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j)
      J.add(nodes_[i]->eq_index(), nodes_[j]->dof_index(), Mat3(c.dCoef * K_qq.block<3, 3>(3 * i, 3 * j)));
    J.add(nodes_[i]->eq_index(), ib, Mat3x7(K_qb.middleRows<3>(3 * i)));
    J.add(ib, nodes_[i]->dof_index(), Eigen::Matrix<double, 7, 3>(c.dCoef * K_bq.middleCols<3>(3 * i)));
  }
  J.add(ib, ib, K_bb);
}

void Membrane4::output(OutputSink& out) const {
  if (!output_enabled()) return;
  std::ostream* os = out.text(OutputFile::Pla);
  if (!os) return;
  out.write_label(*os, label());
  for (const Vec3& n : flux_) out.write(*os, n);
  *os << '\n';
}

std::string Membrane4::log_line() const {
  return fmt::format("membrane4: {} {} {} {} {}", label(), nodes_[0]->label(), nodes_[1]->label(),
                     nodes_[2]->label(), nodes_[3]->label());
}

}  // namespace mbl::elements

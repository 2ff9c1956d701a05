#include "elements/solids/solid.hpp"
#include "elements/solids/tensor3.hpp"

#include <fmt/format.h>

#include <Eigen/Core>
#include <unsupported/Eigen/AutoDiff>

#include <stdexcept>

#include "mbdyn-like/core/gravity_field.hpp"
#include "mbdyn-like/core/model.hpp"

namespace mbl::elements {

using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6x9 = Eigen::Matrix<double, 6, 9>;
using Vec18 = Eigen::Matrix<double, 18, 1>;
using AD18 = Eigen::AutoDiffScalar<Vec18>;
using Mat3AD = Eigen::Matrix<AD18, 3, 3>;

/// At one point: eps (8.91) and eps*' (8.92-8.93) with their derivatives for vec(F) and vec(F')
/// (row-major: index 3 a + b for F(a, b)).
struct Solid::Kinematics {
  Mat3 F, Fdot;
  Vec6 eps, eps_dot;
  Mat6x9 deps_dF, deps_dot_dF, deps_dot_dFdot;
};

namespace {

/// Voigt vector of a symmetric tensor with doubled shears (the strain convention of 8.91).
template <class M>
Eigen::Matrix<typename M::Scalar, 6, 1> strain_voigt(const M& G) {
  Eigen::Matrix<typename M::Scalar, 6, 1> e;
  e << G(0, 0), G(1, 1), G(2, 2), 2.0 * G(0, 1), 2.0 * G(1, 2), 2.0 * G(2, 0);
  return e;
}

/// The symmetric stress tensor of sigma = (S11, S22, S33, S12, S23, S31) (8.90).
Mat3 stress_tensor(const Vec6& s) {
  Mat3 S;
  S << s[0], s[3], s[5], s[3], s[1], s[4], s[5], s[4], s[2];
  return S;
}


}  // namespace

Solid::Solid(unsigned label, SolidParams p) : Element(label), p_(std::move(p)) {}

void Solid::setup(Model& model) {
  model_ = &model;
  const solid::Shape& shape = *p_.shape;
  const int n = shape.node_count();
  Eigen::MatrixX3d X(n, 3);  // reference configuration: the nodes' input positions
  for (int i = 0; i < n; ++i) X.row(i) = p_.nodes[i]->x_W().transpose();
  const Eigen::VectorXd rho = Eigen::Map<const Eigen::VectorXd>(p_.density.data(), n);
  Eigen::VectorXd N;
  Eigen::MatrixX3d dN;
  auto jacobian0 = [&](const solid::Vec3& xi) {
    shape.evaluate(xi, N, dN);
    const Mat3 J0 = X.transpose() * dN;  // dX/dxi
    const double det = J0.determinant();
    if (!(det > 0.0))
      throw std::invalid_argument(fmt::format(
          "{} {}: the element is inverted or degenerate at its integration point ({}, {}, {}) (det J = {:g}); check the node order of figure 8.13",
          shape.keyword, label(), xi[0], xi[1], xi[2], det));
    return J0;
  };
  points_.clear();
  for (std::size_t g = 0; g < shape.stiffness.points.size(); ++g) {
    const Mat3 J0 = jacobian0(shape.stiffness.points[g]);
    Point pt;
    pt.b = dN * J0.inverse();
    pt.dV0 = shape.stiffness.weights[g] * J0.determinant();
    points_.push_back(std::move(pt));
  }
  total_mass_ = 0.0;
  M_ = Eigen::MatrixXd::Zero(n, n);
  for (std::size_t g = 0; g < shape.mass.points.size(); ++g) {
    const Mat3 J0 = jacobian0(shape.mass.points[g]);
    const double dm = N.dot(rho) * shape.mass.weights[g] * J0.determinant();  // rho x weight x det J0
    if (!p_.lumped_mass) M_ += dm * N * N.transpose();
    total_mass_ += dm;
  }
  if (p_.lumped_mass) {
    // MBDyn's diagonal mass: the sum of rho N_k^2 over the lumped rule's points.
    for (std::size_t g = 0; g < shape.lumped_mass.points.size(); ++g) {
      const Mat3 J0 = jacobian0(shape.lumped_mass.points[g]);
      const double dm = N.dot(rho) * shape.lumped_mass.weights[g] * J0.determinant();
      for (int k = 0; k < n; ++k) M_(k, k) += dm * N[k] * N[k];
    }
  }
  if (inertial())
    for (const StructNode* node : p_.nodes)
      if (!node->is_dynamic())
        throw std::invalid_argument(fmt::format(
            "{} {}: node {} is static; a dynamic solid needs dynamic (displacement) nodes, or `static` in the card",
            shape.keyword, label(), node->label()));
}

bool Solid::inertial() const { return !p_.is_static; }

void Solid::initial_state(Vector& y, Vector&) const {
  if (!inertial()) return;
  const int n = p_.shape->node_count();
  for (int i = 0; i < n; ++i) {
    Vec3 p = Vec3::Zero();
    for (int j = 0; j < n; ++j) p += M_(i, j) * p_.nodes[j]->initial().v_W;
    y.segment<3>(p_.nodes[i]->momentum_dof_index()) += p;
  }
}

/// eps (8.91) and eps*' (8.92-8.93) of F and F', on doubles or on automatic-differentiation scalars.
template <class Scalar>
void strains(const Eigen::Matrix<Scalar, 3, 3>& F, const Eigen::Matrix<Scalar, 3, 3>& Fd,
             Eigen::Matrix<Scalar, 6, 1>& eps, Eigen::Matrix<Scalar, 6, 1>& eps_dot) {
  using M3 = Eigen::Matrix<Scalar, 3, 3>;
  const M3 C = F.transpose() * F;
  M3 G = 0.5 * C;
  for (int a = 0; a < 3; ++a) G(a, a) -= 0.5;
  const M3 Gdot = 0.5 * (F.transpose() * Fd + Fd.transpose() * F);
  Scalar detC;
  const M3 Cinv = solid::inverse3(C, detC);
  using std::sqrt;
  const M3 Gstar = (Cinv * Gdot * Cinv) * sqrt(detC);  // det F = sqrt(det C) > 0
  eps = strain_voigt(G);
  eps_dot = strain_voigt(Gstar);
}

void Solid::deformation(const Point& p, Mat3& F, Mat3& Fdot) const {
  F.setZero();
  Fdot.setZero();
  for (int i = 0; i < p_.shape->node_count(); ++i) {
    F += p_.nodes[i]->x_W() * p.b.row(i);
    Fdot += p_.nodes[i]->v_W() * p.b.row(i);
  }
}

void Solid::kinematics(const Point& p, Kinematics& k) const {
  deformation(p, k.F, k.Fdot);
  Mat3AD F, Fd;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) {
      F(a, b) = AD18(k.F(a, b), 18, 3 * a + b);
      Fd(a, b) = AD18(k.Fdot(a, b), 18, 9 + 3 * a + b);
    }
  Eigen::Matrix<AD18, 6, 1> e, ed;
  strains(F, Fd, e, ed);
  for (int r = 0; r < 6; ++r) {
    k.eps[r] = e[r].value();
    k.eps_dot[r] = ed[r].value();
    k.deps_dF.row(r) = e[r].derivatives().head<9>().transpose();
    k.deps_dot_dF.row(r) = ed[r].derivatives().head<9>().transpose();
    k.deps_dot_dFdot.row(r) = ed[r].derivatives().tail<9>().transpose();
  }
}

void Solid::residual(ResidualSink& r, const StepContext& c) {
  const int n = p_.shape->node_count();
  Eigen::MatrixX3d f = Eigen::MatrixX3d::Zero(n, 3);  // internal forces, one row per node
  Mat3 F, Fdot;
  Vec6 eps, eps_dot;
  for (std::size_t g = 0; g < points_.size(); ++g) {
    Point& pt = points_[g];
    // The residual needs the strains only: no derivatives here (jacobian() takes them).
    deformation(pt, F, Fdot);
    strains(F, Fdot, eps, eps_dot);
    ConstitutiveLaw6D& law = *p_.laws[g];
    law.update(eps, eps_dot, c.t);
    pt.sigma = law.force();
    const Mat3 P = F * stress_tensor(pt.sigma);  // first Piola-Kirchhoff
    f += pt.dV0 * pt.b * P.transpose();
  }
  for (int i = 0; i < n; ++i) r.add(p_.nodes[i]->eq_index(), Vec3(-f.row(i).transpose()));
  if (const GravityField* field = model_->gravity()) {
    // f_i = sum_j M_ij g(x_j): the integral of rho N_i g for uniform gravity with the consistent
    // mass, and the lumped masses' weights with `lumped mass` (a free body falls undeformed).
    for (int j = 0; j < n; ++j) {
      const Vec3 g = field->acceleration(p_.nodes[j]->x_W(), c.t);
      for (int i = 0; i < n; ++i)
        if (M_(i, j) != 0.0) r.add(p_.nodes[i]->eq_index(), Vec3(M_(i, j) * g));
    }
  }
  if (inertial())
    for (int i = 0; i < n; ++i) {
      Vec3 p = Vec3::Zero();
      for (int j = 0; j < n; ++j) p += M_(i, j) * p_.nodes[j]->v_W();
      r.add(p_.nodes[i]->momentum_eq_index(), p);
    }
}

// With r_i = -f_i: J = -(dr/dv + dCoef dr/dx) = df/dv + dCoef df/dx. For f_i = sum F S b_i dV0,
// df_i = (dF S + F dS) b_i dV0 with dS = D deps + D' deps*' and dF = sum_j dx_j b_j^T.
void Solid::jacobian(JacobianSink& J, const StepContext& c) {
  const int n = p_.shape->node_count();
  Kinematics k;
  // Per node pair: stiffness and damping blocks (kept between calls: no allocation per Jacobian).
  std::vector<Mat3>& K = K_pairs_;
  std::vector<Mat3>& Cv = C_pairs_;
  K.assign(std::size_t(n * n), Mat3::Zero());
  Cv.assign(std::size_t(n * n), Mat3::Zero());
  for (std::size_t g = 0; g < points_.size(); ++g) {
    const Point& pt = points_[g];
    kinematics(pt, k);
    ConstitutiveLaw6D& law = *p_.laws[g];
    law.update(k.eps, k.eps_dot, c.t);
    const Mat3 S = stress_tensor(law.force());
    const Eigen::Matrix<double, 6, 9> dsigma_dF = law.stiffness() * k.deps_dF + law.damping() * k.deps_dot_dF;
    const Eigen::Matrix<double, 6, 9> dsigma_dFdot = law.damping() * k.deps_dot_dFdot;
    for (int i = 0; i < n; ++i) {
      const Vec3 bi = pt.b.row(i).transpose();
      // d f_i / d sigma: f_i(a) = sum_{b,d} F(a, b) S(b, d) b_i(d), S from sigma (8.90).
      Eigen::Matrix<double, 3, 6> df_dsigma;
      for (int a = 0; a < 3; ++a) {
        df_dsigma(a, 0) = k.F(a, 0) * bi[0];
        df_dsigma(a, 1) = k.F(a, 1) * bi[1];
        df_dsigma(a, 2) = k.F(a, 2) * bi[2];
        df_dsigma(a, 3) = k.F(a, 0) * bi[1] + k.F(a, 1) * bi[0];
        df_dsigma(a, 4) = k.F(a, 1) * bi[2] + k.F(a, 2) * bi[1];
        df_dsigma(a, 5) = k.F(a, 2) * bi[0] + k.F(a, 0) * bi[2];
      }
      const Eigen::Matrix<double, 3, 9> A = df_dsigma * dsigma_dF;
      const Eigen::Matrix<double, 3, 9> B = df_dsigma * dsigma_dFdot;
      const Vec3 Sbi = S * bi;
      for (int j = 0; j < n; ++j) {
        const Vec3 bj = pt.b.row(j).transpose();
        // dF(a, b) / dx_j(c) = delta_ac b_j(b): columns 3 a + b of A against b_j.
        Mat3 Kij = Sbi.dot(bj) * Mat3::Identity(), Cij;
        for (int cc = 0; cc < 3; ++cc) {
          Kij.col(cc) += A.middleCols<3>(3 * cc) * bj;
          Cij.col(cc) = B.middleCols<3>(3 * cc) * bj;
        }
        K[i * n + j] += pt.dV0 * Kij;
        Cv[i * n + j] += pt.dV0 * Cij;
      }
    }
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      J.add(p_.nodes[i]->eq_index(), p_.nodes[j]->dof_index(), Mat3(Cv[i * n + j] + c.dCoef * K[i * n + j]));
  if (const GravityField* field = model_->gravity()) {
    for (int j = 0; j < n; ++j) {
      const Mat3 dg = field->gradient(p_.nodes[j]->x_W(), c.t);
      if (dg.isZero(0.0)) continue;
      for (int i = 0; i < n; ++i)
        if (M_(i, j) != 0.0) J.add(p_.nodes[i]->eq_index(), p_.nodes[j]->dof_index(), Mat3(-c.dCoef * M_(i, j) * dg));
    }
  }
  if (inertial())
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (M_(i, j) != 0.0)
          J.add(p_.nodes[i]->momentum_eq_index(), p_.nodes[j]->dof_index(), Mat3(-M_(i, j) * Mat3::Identity()));
}

void Solid::after_convergence(const StepContext&) {
  for (auto& law : p_.laws) law->after_convergence();
}


double Solid::private_data(unsigned i) const {
  if (i != 1 || !inertial()) return 0.0;
  const int n = p_.shape->node_count();
  double E = 0.0;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) E += 0.5 * M_(a, b) * p_.nodes[a]->v_W().dot(p_.nodes[b]->v_W());
  return E;
}

std::string Solid::log_line() const {
  std::string s = fmt::format("{}: {}", p_.shape->keyword, label());
  for (const StructNode* node : p_.nodes) s += fmt::format(" {}", node->label());
  return s;
}

}  // namespace mbl::elements

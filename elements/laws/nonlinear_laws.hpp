#pragma once
// Nonlinear elastic and viscoelastic laws of the input manual §2.10: log elastic, inverse square
// elastic, isotropic hardening elastic, contact elastic, linear (visco)elastic generic axial
// torsion coupling, turbulent viscoelastic. Each gives its exact derivatives (where MBDyn's
// Jacobian drops a term, e.g. the coupling's dF/d eps_1, the converged answers are the same).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "elements/laws/law_traits.hpp"

namespace mbl::laws {

/// f = k log(1 + eps) (§2.10.6; 1D). As MBDyn, 1 + eps is kept above machine epsilon.
class LogElasticLaw final : public ClonableLaw<LogElasticLaw, 1> {
 public:
  explicit LogElasticLaw(double k) : k_(k) {}
  void update(const VecN& eps, const VecN&, double) override {
    const double stretch = std::max(1.0 + eps[0], std::numeric_limits<double>::epsilon());
    F_[0] = k_ * std::log(stretch);
    F_eps_(0, 0) = k_ / stretch;
  }

 private:
  double k_;
};

/// f = k / (l0 (1 + eps))^2 (§2.10.5, eq. 2.64; 1D).
class InverseSquareElasticLaw final : public ClonableLaw<InverseSquareElasticLaw, 1> {
 public:
  InverseSquareElasticLaw(double k, double l0) : k_(k), l0_(l0) {}
  void update(const VecN& eps, const VecN&, double) override {
    const double d = l0_ * (1.0 + eps[0]);
    F_[0] = k_ / (d * d);
    F_eps_(0, 0) = -2.0 * k_ * l0_ / (d * d * d);
  }

 private:
  double k_, l0_;
};

/// f = k (beta + alpha |eps|^2) / (1 + alpha |eps|^2) eps (§2.10.9), alpha = 3 / eps_ref^2,
/// beta = k_linear / k: slope k_linear at eps = 0, k for large strains. The strain norm makes the
/// 3D/6D law isotropic: K = g I + 2 g' eps eps^T with g(s) the scalar factor, s = |eps|^2.
template <int N>
class IsotropicHardeningLaw final : public ClonableLaw<IsotropicHardeningLaw<N>, N> {
 public:
  using VecN = typename ConstitutiveLaw<N>::VecN;
  using MatN = typename ConstitutiveLaw<N>::MatN;
  IsotropicHardeningLaw(double k, double eps_ref, double k_linear)
      : k_(k), alpha_(3.0 / (eps_ref * eps_ref)), beta_(k_linear / k) {}
  void update(const VecN& eps, const VecN&, double) override {
    const double s = eps.squaredNorm(), den = 1.0 + alpha_ * s;
    const double g = k_ * (beta_ + alpha_ * s) / den;
    const double dg_ds = k_ * alpha_ * (1.0 - beta_) / (den * den);
    this->F_ = g * eps;
    this->F_eps_ = g * MatN::Identity() + 2.0 * dg_ds * eps * eps.transpose();
  }

 private:
  double k_, alpha_, beta_;
};

/// Contact (1D, and component 3 of 3D; MBDyn's `contact elastic`): no force in extension; in
/// compression f = k (1 - (1 + eps)^-gamma), which stiffens without bound as eps -> -1.
template <int N>
class ContactElasticLaw final : public ClonableLaw<ContactElasticLaw<N>, N> {
 public:
  using VecN = typename ConstitutiveLaw<N>::VecN;
  ContactElasticLaw(double k, double gamma) : k_(k), gamma_(gamma) {}
  void update(const VecN& eps, const VecN&, double) override {
    const int i = N - 1;
    const double e = eps[i];
    this->F_.setZero();
    this->F_eps_.setZero();
    if (e >= 0.0) return;
    this->F_[i] = k_ * (1.0 - std::pow(1.0 + e, -gamma_));
    this->F_eps_(i, i) = gamma_ * k_ * std::pow(1.0 + e, -gamma_ - 1.0);
  }

 private:
  double k_, gamma_;
};

/// F = K(eps_1) eps + C eps' (§2.10.3, 2.10.17; 6D, beams): the torsional stiffness K_44 =
/// GJ + c eps_1 grows with the axial strain eps_1 (eq. 2.62).
class AxialTorsionCouplingLaw final : public ClonableLaw<AxialTorsionCouplingLaw, 6> {
 public:
  AxialTorsionCouplingLaw(const MatN& K, const MatN& C, double coupling) : K_(K), coupling_(coupling) {
    F_eps_dot_ = C;
  }
  void update(const VecN& eps, const VecN& eps_dot, double) override {
    MatN K = K_;
    K(3, 3) += coupling_ * eps[0];
    F_ = K * eps + F_eps_dot_ * eps_dot;
    F_eps_ = K;
    F_eps_(3, 0) += coupling_ * eps[3];
  }
  bool is_viscous() const override { return !F_eps_dot_.isZero(0.0); }

 private:
  MatN K_;
  double coupling_;
};

/// f = k eps + c(eps') eps' (§2.10.20; 1D): c = c_linear when |eps'| < threshold, else the
/// parabolic c_p |eps'| (f grows with eps'^2). Without threshold the law is always parabolic;
/// c_linear defaults to c_p threshold (continuous force).
class TurbulentViscoElasticLaw final : public ClonableLaw<TurbulentViscoElasticLaw, 1> {
 public:
  TurbulentViscoElasticLaw(double k, double c_parabolic, double threshold, double c_linear)
      : c_parabolic_(c_parabolic), threshold_(threshold), c_linear_(c_linear) {
    F_eps_(0, 0) = k;
  }
  void update(const VecN& eps, const VecN& eps_dot, double) override {
    const double ed = eps_dot[0], a = std::abs(ed);
    const bool linear = a < threshold_;
    F_[0] = F_eps_(0, 0) * eps[0] + (linear ? c_linear_ : c_parabolic_ * a) * ed;
    F_eps_dot_(0, 0) = linear ? c_linear_ : 2.0 * c_parabolic_ * a;
  }
  bool is_viscous() const override { return true; }

 private:
  double c_parabolic_, threshold_, c_linear_;
};

}  // namespace mbl::laws

#pragma once
// The constitutive laws proper (input manual §2.10.1-2.10.21): F(eps, eps') with its stiffness
// dF/deps and damping dF/deps'. Wrappers (array, prestress, drive caller, bistop, axial) are in
// wrapper_laws.hpp; the card readers in law_reader.cpp.
#include <memory>
#include <string>
#include <vector>

#include "elements/drives/scalar_function.hpp"
#include "elements/laws/law_traits.hpp"
#include "mbdyn-like/core/drive_caller.hpp"

namespace mbl::laws {

/// Implements clone() for a law with value semantics.
template <class Derived, int N>
class ClonableLaw : public ConstitutiveLaw<N> {
 public:
  std::unique_ptr<ConstitutiveLaw<N>> clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived&>(*this));
  }
};

/// F = K eps + C eps' (§2.10.1-2.10.2, 2.10.12-2.10.15: linear elastic, viscous and
/// viscoelastic, isotropic or generic; the isotropic forms have K = k I, C = c I).
template <int N>
class LinearViscoElasticLaw final : public ClonableLaw<LinearViscoElasticLaw<N>, N> {
 public:
  using MatN = typename ConstitutiveLaw<N>::MatN;
  using VecN = typename ConstitutiveLaw<N>::VecN;
  LinearViscoElasticLaw(const MatN& K, const MatN& C) {
    this->F_eps_ = K;
    this->F_eps_dot_ = C;
  }
  void update(const VecN& eps, const VecN& eps_dot, double) override {
    this->F_ = this->F_eps_ * eps + this->F_eps_dot_ * eps_dot;
  }
  bool is_viscous() const override { return !this->F_eps_dot_.isZero(0.0); }
  std::string describe() const override { return "linear viscoelastic generic"; }
};

/// F = K a(t) eps + C b(t) eps' (§2.10.16, linear time variant viscoelastic generic).
template <int N>
class TimeVariantViscoElasticLaw final : public ClonableLaw<TimeVariantViscoElasticLaw<N>, N> {
 public:
  using MatN = typename ConstitutiveLaw<N>::MatN;
  using VecN = typename ConstitutiveLaw<N>::VecN;
  TimeVariantViscoElasticLaw(const MatN& K, DriveCallerPtr k_scale, const MatN& C, DriveCallerPtr c_scale)
      : K_(K), C_(C), k_scale_(std::move(k_scale)), c_scale_(std::move(c_scale)) {}
  void update(const VecN& eps, const VecN& eps_dot, double t) override {
    this->F_eps_ = K_ * k_scale_->value(t);
    this->F_eps_dot_ = C_ * c_scale_->value(t);
    this->F_ = this->F_eps_ * eps + this->F_eps_dot_ * eps_dot;
  }
  bool is_viscous() const override { return !C_.isZero(0.0); }

 private:
  MatN K_, C_;
  DriveCallerPtr k_scale_, c_scale_;
};

/// Per component f_i = k1_i e_i + k2_i |e_i| e_i + k3_i e_i^3, plus C eps' (§2.10.4, 2.10.18:
/// cubic elastic/viscoelastic generic; 1D and 3D).
template <int N>
class CubicViscoElasticLaw final : public ClonableLaw<CubicViscoElasticLaw<N>, N> {
 public:
  using MatN = typename ConstitutiveLaw<N>::MatN;
  using VecN = typename ConstitutiveLaw<N>::VecN;
  CubicViscoElasticLaw(const VecN& k1, const VecN& k2, const VecN& k3, const MatN& C)
      : k1_(k1), k2_(k2), k3_(k3) {
    this->F_eps_dot_ = C;
  }
  void update(const VecN& eps, const VecN& eps_dot, double) override {
    this->F_eps_.setZero();
    for (int i = 0; i < N; ++i) {
      const double e = eps[i], a = std::abs(e);
      this->F_[i] = k1_[i] * e + k2_[i] * a * e + k3_[i] * e * e * e;
      this->F_eps_(i, i) = k1_[i] + 2.0 * k2_[i] * a + 3.0 * k3_[i] * e * e;
    }
    this->F_ += this->F_eps_dot_ * eps_dot;
  }
  bool is_viscous() const override { return !this->F_eps_dot_.isZero(0.0); }

 private:
  VecN k1_, k2_, k3_;
};

/// Double linear elastic/viscoelastic (§2.10.8, 2.10.19): stiffness k1 and damping c inside
/// [lower, upper]; outside, k2 above and k3 below (k3 = k2 unless `third stiffness`), damping c2
/// (= c unless `second damping`). The force is continuous at the bounds. In 3D the law is
/// isotropic (k1, c) except component 3, which is the double linear one.
template <int N>
class DoubleLinearLaw final : public ClonableLaw<DoubleLinearLaw<N>, N> {
 public:
  using VecN = typename ConstitutiveLaw<N>::VecN;
  struct Params {
    double k1 = 0.0, upper = 0.0, lower = 0.0, k2 = 0.0, k3 = 0.0, c = 0.0, c2 = 0.0;
  };
  explicit DoubleLinearLaw(const Params& p) : p_(p) {}
  void update(const VecN& eps, const VecN& eps_dot, double) override {
    this->F_eps_.setZero();
    this->F_eps_dot_.setZero();
    for (int i = 0; i < N - 1; ++i) {
      this->F_eps_(i, i) = p_.k1;
      this->F_eps_dot_(i, i) = p_.c;
      this->F_[i] = p_.k1 * eps[i] + p_.c * eps_dot[i];
    }
    const int k = N - 1;
    const double e = eps[k];
    double f, K, C = p_.c2;
    if (e > p_.upper) {
      f = p_.k1 * p_.upper + p_.k2 * (e - p_.upper), K = p_.k2;
    } else if (e < p_.lower) {
      f = p_.k1 * p_.lower + p_.k3 * (e - p_.lower), K = p_.k3;
    } else {
      f = p_.k1 * e, K = p_.k1, C = p_.c;
    }
    this->F_[k] = f + C * eps_dot[k];
    this->F_eps_(k, k) = K;
    this->F_eps_dot_(k, k) = C;
  }
  bool is_viscous() const override { return p_.c != 0.0 || p_.c2 != 0.0; }

 private:
  Params p_;
};

/// f_i = fun_i(e_i) (§2.10.10-2.10.11, scalar function elastic isotropic/orthotropic); a null
/// function gives no force in that direction.
template <int N>
class ScalarFunctionElasticLaw final : public ClonableLaw<ScalarFunctionElasticLaw<N>, N> {
 public:
  using VecN = typename ConstitutiveLaw<N>::VecN;
  explicit ScalarFunctionElasticLaw(std::vector<drives::ScalarFunctionPtr> f) : f_(std::move(f)) {}
  void update(const VecN& eps, const VecN&, double) override {
    this->F_.setZero();
    this->F_eps_.setZero();
    for (int i = 0; i < N; ++i) {
      if (!f_[i]) continue;
      this->F_[i] = f_[i]->value(eps[i]);
      this->F_eps_(i, i) = f_[i]->derivative(eps[i], 1);
    }
  }

 private:
  std::vector<drives::ScalarFunctionPtr> f_;
};

}  // namespace mbl::laws

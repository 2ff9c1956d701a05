// Constitutive laws of the solid elements (input manual §2.10.31-2.10.33), 6D, on the
// Green-Lagrange strain eps and the scaled strain rate eps*' of eq. 8.92, giving the second
// Piola-Kirchhoff stress (Voigt forms 8.90-8.91):
//   hookean linear elastic / viscoelastic isotropic (eq. 2.76),
//   neo hookean elastic / viscoelastic (eqs. 2.79-2.85),
//   mooney rivlin elastic (eqs. 2.86-2.93),
//   bilinear isotropic hardening (eqs. 2.94-2.95).
// The hyperelastic stiffness dS/deps comes from forward automatic differentiation of S(eps); the
// viscous part is beta times the initial stiffness on eps*' (the manual: damping proportional to
// the initial stiffness).
#include <Eigen/Core>
#include <unsupported/Eigen/AutoDiff>

#include <array>
#include <cmath>

#include <fmt/format.h>

#include "elements/laws/elastic_laws.hpp"
#include "elements/laws/keyed_input.hpp"
#include "elements/laws/law_reader.hpp"
#include "elements/laws/law_traits.hpp"
#include "elements/solids/tensor3.hpp"
#include "parser/card_reader.hpp"
#include "parser/errors.hpp"

namespace mbl::laws {
namespace {

using parser::CardReader;
using Vec6 = ConstitutiveLaw6D::VecN;
using Mat6 = ConstitutiveLaw6D::MatN;
using AD6 = Eigen::AutoDiffScalar<Vec6>;
using Mat3AD = Eigen::Matrix<AD6, 3, 3>;

/// Lame's constants of (E, nu) (eqs. 2.77-2.78).
struct Lame {
  double mu, lambda;
};
Lame lame(double E, double nu) { return {E / (2.0 * (1.0 + nu)), E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu))}; }

/// The isotropic elasticity matrix of Hooke's law on (eps, sigma) of eqs. 8.90-8.91.
Mat6 hooke(const Lame& l) {
  Mat6 D = Mat6::Zero();
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) D(i, j) = l.lambda;
    D(i, i) += 2.0 * l.mu;
    D(i + 3, i + 3) = l.mu;
  }
  return D;
}

/// Right Cauchy-Green tensor C = I + 2 G of the Voigt strain.
Mat3AD cauchy_green(const Vec6& eps) {
  std::array<AD6, 6> e;
  for (int k = 0; k < 6; ++k) e[k] = AD6(eps[k], 6, k);
  Mat3AD C;
  C(0, 0) = 1.0 + 2.0 * e[0];
  C(1, 1) = 1.0 + 2.0 * e[1];
  C(2, 2) = 1.0 + 2.0 * e[2];
  C(0, 1) = C(1, 0) = e[3];
  C(1, 2) = C(2, 1) = e[4];
  C(2, 0) = C(0, 2) = e[5];
  return C;
}


/// A hyperelastic law S(C) with viscous part beta D0 eps*'.
template <class Stress>
class HyperelasticLaw final : public ClonableLaw<HyperelasticLaw<Stress>, 6> {
 public:
  HyperelasticLaw(Stress stress, const Mat6& D0, double beta, std::string name)
      : stress_(std::move(stress)), name_(std::move(name)) {
    this->F_eps_dot_ = beta * D0;
  }
  void update(const Vec6& eps, const Vec6& eps_dot, double) override {
    const Mat3AD S = stress_(cauchy_green(eps));
    const AD6 s[6] = {S(0, 0), S(1, 1), S(2, 2), S(0, 1), S(1, 2), S(2, 0)};
    for (int k = 0; k < 6; ++k) {
      this->F_[k] = s[k].value();
      this->F_eps_.row(k) = s[k].derivatives().transpose();
    }
    this->F_ += this->F_eps_dot_ * eps_dot;
  }
  bool is_viscous() const override { return !this->F_eps_dot_.isZero(0.0); }
  std::string describe() const override { return name_; }

 private:
  Stress stress_;
  std::string name_;
};

/// `bilinear isotropic hardening` (§2.10.34): small-strain von Mises plasticity with linear
/// isotropic hardening (plastic modulus E_P = E E_T / (E - E_T), eq. 2.95) on the Green-Lagrange
/// strain, by the radial return of Bathe, Finite Element Procedures (2014) §6.6.3, as MBDyn does:
/// the deviatoric strain less the plastic strain of the last converged step gives the trial
/// deviatoric stress 2 G e''; past the yield stress of that step, the equivalent stress and the
/// plastic strain increment follow in closed form. The plastic strain and the yield stress are
/// the law's internal states, kept at each converged step; dS/deps is the consistent tangent (by
/// forward automatic differentiation of the return).
class BilinearIsotropicHardeningLaw final : public ClonableLaw<BilinearIsotropicHardeningLaw, 6> {
 public:
  BilinearIsotropicHardeningLaw(double E, double nu, double E_T, double sigma_y0)
      : kappa_(E / (3.0 * (1.0 - 2.0 * nu))), a_E_((1.0 + nu) / E), E_P_(E * E_T / (E - E_T)),
        sigma_y_prev_(sigma_y0), sigma_y_(sigma_y0) {}

  void update(const Vec6& eps, const Vec6&, double) override {
    std::array<AD6, 6> e;
    for (int k = 0; k < 6; ++k) e[k] = AD6(eps[k], 6, k);
    const AD6 e_mean = (e[0] + e[1] + e[2]) / 3.0;
    // Deviatoric strain tensor (engineering shears halved) less the plastic strain.
    Mat3AD e_el;
    for (int i = 0; i < 3; ++i) e_el(i, i) = e[i] - e_mean - e_P_prev_(i, i);
    e_el(0, 1) = e_el(1, 0) = 0.5 * e[3] - e_P_prev_(0, 1);
    e_el(1, 2) = e_el(2, 1) = 0.5 * e[4] - e_P_prev_(1, 2);
    e_el(2, 0) = e_el(0, 2) = 0.5 * e[5] - e_P_prev_(2, 0);
    const Mat3AD S_trial = e_el / a_E_;
    AD6 sum_sq = e_el.cwiseProduct(e_el).sum();
    const AD6 d = sum_sq.value() > 0.0 ? AD6(sqrt(1.5 * sum_sq)) : AD6(0.0, Vec6::Zero());  // equivalent strain
    Mat3AD S = S_trial;
    e_P_ = e_P_prev_;
    sigma_y_ = sigma_y_prev_;
    if (d.value() / a_E_ > sigma_y_prev_) {  // the trial equivalent stress is past the yield stress
      const AD6 sigma_bar = (2.0 * E_P_ * d + 3.0 * sigma_y_prev_) / (2.0 * E_P_ * a_E_ + 3.0);
      const AD6 lambda = d / sigma_bar - a_E_;
      const Mat3AD de_P = S_trial * AD6(a_E_ * lambda / (a_E_ + lambda));
      S = S_trial - de_P / a_E_;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) e_P_(i, j) += de_P(i, j).value();
      sigma_y_ = sigma_bar.value();
    }
    const AD6 p = 3.0 * kappa_ * e_mean;
    const AD6 s[6] = {S(0, 0) + p, S(1, 1) + p, S(2, 2) + p, S(0, 1), S(1, 2), S(2, 0)};
    for (int k = 0; k < 6; ++k) {
      this->F_[k] = s[k].value();
      this->F_eps_.row(k) = s[k].derivatives().transpose();
    }
  }

  void after_convergence() override {
    e_P_prev_ = e_P_;
    sigma_y_prev_ = sigma_y_;
  }
  void save_step_state() override {
    saved_e_P_prev_ = e_P_prev_;
    saved_sigma_y_prev_ = sigma_y_prev_;
  }
  void restore_step_state() override {
    e_P_prev_ = saved_e_P_prev_;
    sigma_y_prev_ = saved_sigma_y_prev_;
  }
  std::string describe() const override { return "bilinear isotropic hardening"; }

 private:
  double kappa_, a_E_, E_P_;
  Mat3 e_P_prev_ = Mat3::Zero(), e_P_ = Mat3::Zero();  ///< plastic strain: last converged, last update
  double sigma_y_prev_, sigma_y_;                     ///< yield stress: last converged, last update
  Mat3 saved_e_P_prev_ = Mat3::Zero();
  double saved_sigma_y_prev_ = 0.0;
};

using LawPtr6 = std::unique_ptr<ConstitutiveLaw6D>;

/// `nu, <nu>` in [0, 0.5): the displacement-based solids cannot take the incompressible limit.
double keyed_poisson(CardReader& in) {
  return keyed(in, "nu", "Poisson's ratio", [](double v) { return v >= 0.0 && v < 0.5; }, "a Poisson's ratio in [0, 0.5)");
}

/// `hookean linear {elastic | viscoelastic} isotropic, E, <E>, nu, <nu> [, beta, <beta>]` (eq. 2.76).
LawPtr6 read_hookean(CardReader& in, bool viscous) {
  const double E = keyed_positive(in, "E", "Young's modulus");
  const double nu = keyed_poisson(in);
  const double beta = viscous ? keyed(in, "beta", "damping coefficient") : 0.0;
  const Mat6 D = hooke(lame(E, nu));
  return std::make_unique<LinearViscoElasticLaw<6>>(D, Mat6(beta * D));
}

/// `neo hookean {elastic | viscoelastic}, E, <E>, nu, <nu> [, beta, <beta>]` (eq. 2.79):
/// S = mu I + (lambda (III_C - sqrt III_C) - mu) C^-1.
LawPtr6 read_neo_hookean(CardReader& in, bool viscous) {
  const double E = keyed_positive(in, "E", "Young's modulus");
  const double nu = keyed_poisson(in);
  const double beta = viscous ? keyed(in, "beta", "damping coefficient") : 0.0;
  const Lame l = lame(E, nu);
  auto stress = [l](const Mat3AD& C) {
    AD6 III;
    const Mat3AD Cinv = elements::solid::inverse3(C, III);
    Mat3AD S = (l.lambda * (III - sqrt(III)) - l.mu) * Cinv;
    for (int i = 0; i < 3; ++i) S(i, i) += l.mu;
    return S;
  };
  return std::make_unique<HyperelasticLaw<decltype(stress)>>(stress, hooke(l), beta,
                                                            viscous ? "neo hookean viscoelastic" : "neo hookean elastic");
}

/// `mooney rivlin elastic, {C1, <C1>, C2, <C2>, kappa, <kappa> | E, <E>, nu, <nu> [, delta, <delta>]}`
/// (eqs. 2.86-2.90): S = 2 {C1 III^-1/3 I + C2 III^-2/3 (I_C I - C)
///   + [kappa/2 (III - sqrt III) - C1/3 I_C III^-1/3 - 2/3 C2 II_C III^-2/3] C^-1}.
LawPtr6 read_mooney_rivlin(CardReader& in) {
  double C1 = 0.0, C2 = 0.0, kappa = 0.0;
  if (in.keyword_is("C1")) {
    C1 = parser::checked_real(in, [](double v) { return v > 0.0; }, "a positive C1");
    C2 = keyed(in, "C2", "C2");
    kappa = keyed_positive(in, "kappa", "bulk modulus");
  } else {
    const double E = keyed_positive(in, "E", "Young's modulus");
    const double nu = keyed_poisson(in);
    const double delta = in.keyword_is("delta") ? in.real() : 0.0;
    C1 = E / (2.0 * (1.0 + nu)) / (2.0 * (1.0 + delta));
    C2 = delta * C1;
    kappa = E / (3.0 * (1.0 - 2.0 * nu));
  }
  auto stress = [C1, C2, kappa](const Mat3AD& C) {
    AD6 III;
    const Mat3AD Cinv = elements::solid::inverse3(C, III);
    const AD6 I1 = C(0, 0) + C(1, 1) + C(2, 2);
    const AD6 trCC = (C * C).trace();
    const AD6 I2 = 0.5 * (I1 * I1 - trCC);
    const AD6 III13 = pow(III, -1.0 / 3.0), III23 = pow(III, -2.0 / 3.0);
    const AD6 vol = 0.5 * kappa * (III - sqrt(III)) - C1 / 3.0 * I1 * III13 - 2.0 / 3.0 * C2 * I2 * III23;
    Mat3AD S = 2.0 * (vol * Cinv - C2 * III23 * C);
    for (int i = 0; i < 3; ++i) S(i, i) += 2.0 * (C1 * III13 + C2 * III23 * I1);
    return S;
  };
  // The initial stiffness (for the strain-rate part, none here): shear modulus 2 (C1 + C2).
  const double mu = 2.0 * (C1 + C2);
  return std::make_unique<HyperelasticLaw<decltype(stress)>>(stress, hooke({mu, kappa - 2.0 * mu / 3.0}), 0.0,
                                                            "mooney rivlin elastic");
}

/// `bilinear isotropic hardening, E, <E>, nu, <nu>, ET, <ET>, sigmayv, <sigmayv>` (§2.10.34).
LawPtr6 read_bilinear_isotropic_hardening(CardReader& in) {
  const double E = keyed_positive(in, "E", "Young's modulus");
  const double nu = keyed_poisson(in);
  const double E_T = keyed(in, "ET", "plastic tangent modulus", [E](double v) { return v >= 0.0 && v < E; },
                           "a plastic tangent modulus in [0, E)");
  const double sigma_y0 = keyed_positive(in, "sigmayv", "initial yield stress");
  return std::make_unique<BilinearIsotropicHardeningLaw>(E, nu, E_T, sigma_y0);
}

const bool registered = [] {
  auto& r = LawRegistry<6>::instance();
  r.add("hookean linear elastic isotropic", [](CardReader& in, BuildContext&) { return read_hookean(in, false); });
  r.add("hookean linear viscoelastic isotropic", [](CardReader& in, BuildContext&) { return read_hookean(in, true); });
  r.add("neo hookean elastic", [](CardReader& in, BuildContext&) { return read_neo_hookean(in, false); });
  r.add("neo hookean viscoelastic", [](CardReader& in, BuildContext&) { return read_neo_hookean(in, true); });
  r.add("mooney rivlin elastic", [](CardReader& in, BuildContext&) { return read_mooney_rivlin(in); });
  r.add("bilinear isotropic hardening", [](CardReader& in, BuildContext&) { return read_bilinear_isotropic_hardening(in); });
  return true;
}();

}  // namespace
}  // namespace mbl::laws

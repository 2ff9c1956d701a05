#pragma once
// Linear laws with a nonlinear scalar function per component (input manual §2.10.29-2.10.30):
// `nlsf` (an added force f_i(eps_i)) and `nlp` (an added coefficient k_i(eps_i)), each in an
// elastic, viscous and viscoelastic variant.
#include <string>
#include <vector>

#include "elements/drives/scalar_function.hpp"
#include "elements/laws/law_traits.hpp"

namespace mbl::laws {

/// The data of an nlsf/nlp law: K0 eps + C0 eps' plus one optional scalar function per component
/// for the elastic and for the viscous part. MBDyn types the law by what was given: elastic if K0
/// is not null or an elastic function is given, viscous likewise, elastic if neither.
template <int N>
struct ScalarFunctionLawData {
  using MatN = typename ConstitutiveLaw<N>::MatN;
  MatN K0 = MatN::Zero(), C0 = MatN::Zero();
  std::vector<drives::ScalarFunctionPtr> elastic_f = std::vector<drives::ScalarFunctionPtr>(N);
  std::vector<drives::ScalarFunctionPtr> viscous_f = std::vector<drives::ScalarFunctionPtr>(N);
  bool elastic = false, viscous = false;
};

/// nlsf (eq. 2.70): f_i = K0_ij eps_j + f'_i(eps_i) + C0_ij eps'_j + f''_i(eps'_i); as MBDyn does,
/// in 3D and 6D the viscous functions f'' act only when the law is also elastic.
/// nlp (eq. 2.73): f_i = K0_ij eps_j + k'_i(eps_i) eps_i + C0_ij eps'_j + k''_i(eps_i) eps'_i; both
/// coefficients are functions of the strain, so k'' also adds to the stiffness.
template <int N>
class ScalarFunctionLaw final : public ClonableLaw<ScalarFunctionLaw<N>, N> {
 public:
  using VecN = typename ConstitutiveLaw<N>::VecN;
  using MatN = typename ConstitutiveLaw<N>::MatN;
  enum class Kind { Nlsf, Nlp };
  ScalarFunctionLaw(Kind kind, ScalarFunctionLawData<N> d) : kind_(kind), d_(std::move(d)) {}
  void update(const VecN& eps, const VecN& eps_dot, double) override {
    this->F_eps_ = d_.elastic ? d_.K0 : MatN::Zero();
    this->F_eps_dot_ = d_.viscous ? d_.C0 : MatN::Zero();
    this->F_ = this->F_eps_ * eps + this->F_eps_dot_ * eps_dot;
    for (int i = 0; i < N; ++i) {
      if (kind_ == Kind::Nlsf) add_nlsf(i, eps[i], eps_dot[i]);
      else add_nlp(i, eps[i], eps_dot[i]);
    }
  }
  bool is_viscous() const override { return d_.viscous; }
  std::string describe() const override { return kind_ == Kind::Nlsf ? "nlsf" : "nlp"; }

 private:
  void add_nlsf(int i, double e, double ed) {
    if (d_.elastic && d_.elastic_f[i]) {
      this->F_[i] += d_.elastic_f[i]->value(e);
      this->F_eps_(i, i) += d_.elastic_f[i]->derivative(e, 1);
    }
    const bool viscous_functions = N == 1 ? d_.viscous : d_.elastic;
    if (viscous_functions && d_.viscous_f[i]) {
      this->F_[i] += d_.viscous_f[i]->value(ed);
      this->F_eps_dot_(i, i) += d_.viscous_f[i]->derivative(ed, 1);
    }
  }
  void add_nlp(int i, double e, double ed) {
    if (d_.elastic && d_.elastic_f[i]) {
      const double k = d_.elastic_f[i]->value(e), dk = d_.elastic_f[i]->derivative(e, 1);
      this->F_[i] += k * e;
      this->F_eps_(i, i) += k + dk * e;
    }
    if (d_.viscous && d_.viscous_f[i]) {
      const double c = d_.viscous_f[i]->value(e), dc = d_.viscous_f[i]->derivative(e, 1);
      this->F_[i] += c * ed;
      this->F_eps_(i, i) += dc * ed;
      this->F_eps_dot_(i, i) += c;
    }
  }

  Kind kind_;
  ScalarFunctionLawData<N> d_;
};

}  // namespace mbl::laws

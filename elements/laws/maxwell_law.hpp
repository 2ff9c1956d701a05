#pragma once
// Linear viscoelastic Maxwell laws (input manual §2.10.35, "generalized Maxwell" or Wiechert
// model; `maxwell 1` is the Zener model of one branch): a spring E0 in parallel with branches of a
// spring E1_i in series with a dashpot eta1_i, all shaped by the matrix C:
//   F = C (E0 eps + sum_i E1_i (eps - epsv_i)),     epsv_i' = E1_i / eta1_i C (eps - epsv_i).
// As MBDyn does, the viscous strains epsv_i are internal states advanced by implicit Euler over
// the time since the last converged step, dt = t - t_prev:
//   (I / dt + E1_i / eta1_i C) epsv_i = E1_i / eta1_i C eps + epsv_i(t_prev) / dt,
// so that dF/deps = (E0 + sum_i E1_i) C - sum_i E1_i^2 / eta1_i C A_i^-1 C with A_i the matrix on
// the left; at dt = 0 (the initial time) epsv_i keeps its last value. The law does not depend on
// eps' (an eigenanalysis sees a purely elastic law, as the manual says).
#include <Eigen/LU>
#include <optional>
#include <tuple>
#include <vector>

#include "elements/laws/law_traits.hpp"

namespace mbl::laws {

template <int N>
class LinearViscoelasticMaxwellLaw final : public ClonableLaw<LinearViscoelasticMaxwellLaw<N>, N> {
 public:
  using MatN = typename ConstitutiveLaw<N>::MatN;
  using VecN = typename ConstitutiveLaw<N>::VecN;
  struct Branch {
    double E1, eta1;
    VecN epsv_prev = VecN::Zero();  ///< at the last converged step
    VecN epsv = VecN::Zero();       ///< at the last update
  };

  LinearViscoelasticMaxwellLaw(double E0, std::vector<Branch> branches, const MatN& C)
      : E0_(E0), branches_(std::move(branches)), C_(C) {}

  void update(const VecN& eps, const VecN& /*eps_dot*/, double t) override {
    if (!t_prev_) t_prev_ = t;  // the first evaluation is at the initial time
    t_ = t;
    const double dt = t - *t_prev_;
    double E_sum = E0_;
    VecN sigma = E0_ * eps;
    this->F_eps_.setZero();
    for (Branch& b : branches_) {
      E_sum += b.E1;
      if (dt != 0.0) {
        const double rate = b.E1 / b.eta1;
        const MatN A = MatN::Identity() / dt + rate * C_;
        const Eigen::PartialPivLU<MatN> lu(A);
        b.epsv = lu.solve(VecN(rate * C_ * eps + b.epsv_prev / dt));
        this->F_eps_ -= b.E1 * rate * C_ * lu.solve(C_);
      } else {
        b.epsv = b.epsv_prev;
      }
      sigma += b.E1 * (eps - b.epsv);
    }
    this->F_eps_ += E_sum * C_;
    this->F_ = C_ * sigma;
  }

  void after_convergence() override {
    t_prev_ = t_;
    for (Branch& b : branches_) b.epsv_prev = b.epsv;
  }
  void save_step_state() override { saved_ = {t_prev_, branches_}; }
  void restore_step_state() override { std::tie(t_prev_, branches_) = saved_; }

  std::string describe() const override {
    return branches_.size() == 1 ? "linear viscoelastic maxwell 1" : "linear viscoelastic maxwell n";
  }

 private:
  double E0_;
  std::vector<Branch> branches_;
  MatN C_;
  std::optional<double> t_prev_;
  double t_ = 0.0;
  std::tuple<std::optional<double>, std::vector<Branch>> saved_;
};

}  // namespace mbl::laws

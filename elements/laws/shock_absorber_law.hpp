#pragma once
// The `shock absorber` law (input manual §2.10.23; 1D): a landing-gear oleo-pneumatic strut.
// Gas spring F_e = -A0 p, p = p0 (1 + c_int eps)^-gamma (polytropic compression of the gas volume
// l0 (1 + c_int eps) A0), with penalty stops outside [eps_min, eps_max]; hydraulic damping
// F_v = 1/2 rho A_f (A_f / (A c_d))^2 eps' |eps'| through the metering area A(eps) (another one
// for eps' < 0 with `negative`) plus the orifice area A(eps'); `friction` scales the gas force by
// 1 - a tanh(eps' / eps'_ref). Output items (§2.10.23): p, A, Fe, Fv.
#include <array>

#include "elements/laws/law_traits.hpp"
#include "mbdyn-like/core/drive_caller.hpp"

namespace mbl::laws {

class ShockAbsorberLaw final : public ClonableLaw<ShockAbsorberLaw, 1> {
 public:
  struct Params {
    double p0 = 0.0, A0 = 0.0, c_int = 0.0, gamma = 0.0;
    double eps_max = 0.0, eps_min = -0.5;
    double penalty = 1e9, penalty_rate = 0.0;
    DriveCallerPtr metering, metering_negative, orifice;  // functions of eps, eps, eps'
    double fluid_area = 0.0, fluid_density = 0.0, drag = 0.0;
    double eps_dot_ref = 1.0, friction = 0.0;
  };
  explicit ShockAbsorberLaw(Params p) : p_(std::move(p)) { items_[0] = p_.p0; }
  void update(const VecN& eps, const VecN& eps_dot, double t) override;
  bool is_viscous() const override { return true; }
  int output_count() const override { return 4; }
  LawOutputItem output_item(int i) const override;
  double output_value(int i) const override { return items_[i]; }

 private:
  Params p_;
  std::array<double, 4> items_{};  // p, A, Fe, Fv
};

}  // namespace mbl::laws

#pragma once
// Discrete control (input manual §8.7.2), `control` form: a linear discrete controller
//   u_c(k) = sum_{i=1..p} B_i u(k-i) + sum_{j=1..q} A_j y(k-j)
// whose outputs u_c are added, as abstract forces, to the equations of the input dofs. Every
// `num_iter` converged steps the element samples the measures y (scaled node dofs or drives) and
// the inputs u (the input dofs' values), pushes them into its histories and computes the next
// u_c, which it applies from the following step on (MBDyn 2024, elec/discctrl.cc: zero histories
// at start, the latest sample multiplied by A_1, B_1). The `identification` and `adaptive
// control` forms are not implemented.
#include <Eigen/Core>
#include <vector>
#include <tuple>

#include "elements/genels/state_space.hpp"
#include "mbdyn-like/core/drive_caller.hpp"
#include "mbdyn-like/core/element.hpp"

namespace mbl::elements::electric {

/// A measure y: a node dof (its value, or derivative if differential) or a drive, times `scale`.
struct ControlMeasure {
  GenelInput value;
  DriveCallerPtr scale;
};

struct DiscreteControlParams {
  std::vector<ControlMeasure> outputs;  ///< y
  std::vector<NodeDof> inputs;          ///< u: their equations receive u_c
  int order_A = 1, order_B = 1;
  int update_every = 1;                 ///< converged steps between samples
  /// A = [A_1 ... A_q] (inputs x q outputs), B = [B_1 ... B_p] (inputs x p inputs).
  Eigen::MatrixXd A, B;
};

class DiscreteControl final : public Element {
 public:
  DiscreteControl(unsigned label, DiscreteControlParams p);
  std::string_view kind() const override { return "electric"; }
  std::string_view type_name() const override { return "discrete control"; }
  void residual(ResidualSink& r, const StepContext& c) override;
  // The control forces are explicit (sampled) values: no Jacobian, as MBDyn's.
  void jacobian(JacobianSink&, const StepContext&) override {}
  void after_convergence(const StepContext& c) override;
  /// The samples and the control computed from them, as the step began (core/element.hpp).
  void save_step_state() override {
    saved_ = {y_history_, u_history_, u_next_, u_applied_, new_sample_, steps_since_sample_};
  }
  void restore_step_state() override {
    std::tie(y_history_, u_history_, u_next_, u_applied_, new_sample_, steps_since_sample_) = saved_;
  }

  unsigned private_data_index(std::string_view name) const override;
  DatumInfo private_data_info(unsigned i) const override {
    if (i < 1 || i > private_data_count()) return {};
    return {"u[" + std::to_string(i) + "]", "control input applied"};
  }
  unsigned private_data_count() const override { return unsigned(p_.inputs.size()); }
  double private_data(unsigned i) const override { return i >= 1 && i <= u_applied_.size() ? u_applied_[i - 1] : 0.0; }

 private:
  DiscreteControlParams p_;
  Eigen::VectorXd y_history_, u_history_;  ///< newest sample first: [y(k-1); y(k-2); ...]
  Eigen::VectorXd u_next_;                 ///< computed at the last sample
  std::vector<double> u_applied_;          ///< applied in the current step
  bool new_sample_ = true;
  int steps_since_sample_ = 0;
  std::tuple<Eigen::VectorXd, Eigen::VectorXd, Eigen::VectorXd, std::vector<double>, bool, int> saved_;
};

}  // namespace mbl::elements::electric

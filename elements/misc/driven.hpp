#pragma once
// Driven element (input manual §8.20.2): wraps another element and switches it on and off with
// a drive. While the drive is nonzero the wrapped element contributes as usual; while it is zero
// the element's own unknowns get the trivial equations y = 0 (r = -y, J = 1 on the diagonal) and
// nothing else, and its output is skipped. The activation is decided once per time point, at the
// first residual after the prediction (so `model::` functions in hints see the predicted state);
// on each switch to active the hints re-read parts of the wrapped element.
#include <functional>
#include <tuple>
#include <memory>
#include <vector>

#include "mbdyn-like/core/drive_caller.hpp"
#include "mbdyn-like/core/element.hpp"

namespace mbl::elements {

class Driven final : public Element {
 public:
  /// A hint applied to the wrapped element when it becomes active (built by the reader).
  using Hint = std::function<void(Element& inner)>;
  enum class InitialState { FromDrive, Active, Inactive };

  Driven(unsigned label, std::unique_ptr<Element> inner, DriveCallerPtr drive, std::vector<Hint> hints,
         InitialState initial);

  Element& inner() { return *inner_; }
  const Element& inner() const { return *inner_; }
  bool active() const { return active_; }

  std::string_view kind() const override { return inner_->kind(); }
  std::string_view type_name() const override { return inner_->type_name(); }
  void setup(Model& m) override;

  int dof_count() const override { return inner_->dof_count(); }
  DofOrder dof_order(int i) const override { return inner_->dof_order(i); }
  void initial_state(Vector& y, Vector& yp) const override;

  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;
  void after_predict(const StepContext& c) override;
  /// The wrapped element's, while active (inactive rows hold no constraint).
  bool constraint_time_derivative(double t, Eigen::Ref<Vector> phi_t) const override {
    return active_ && inner_->constraint_time_derivative(t, phi_t);
  }
  /// Inactive: none (the rows only hold the unknowns at zero).
  bool inverse_dynamics_rates(int order, double t, Eigen::Ref<Vector> rhs) const override {
    if (active_) return inner_->inverse_dynamics_rates(order, t, rhs);
    rhs.setZero();
    return true;
  }
  /// The activity as the step began, and the wrapped element's memory (core/element.hpp).
  void save_step_state() override {
    saved_ = {active_, pending_, was_active_, stepping_};
    inner_->save_step_state();
  }
  void restore_step_state() override {
    std::tie(active_, pending_, was_active_, stepping_) = saved_;
    inner_->restore_step_state();
  }

  void output_setup(OutputSink& out) override;
  void output(OutputSink& out) const override;
  std::string log_line() const override { return inner_->log_line(); }

  unsigned private_data_index(std::string_view name) const override { return inner_->private_data_index(name); }
  unsigned private_data_count() const override { return inner_->private_data_count(); }
  DatumInfo private_data_info(unsigned i) const override { return inner_->private_data_info(i); }
  /// An inactive element reports zero, as MBDyn's DrivenElem.
  double private_data(unsigned i) const override { return active_ ? inner_->private_data(i) : 0.0; }

 private:
  /// The model numbers the wrapper; the wrapped element uses the same indices.
  void sync_indices() const;
  /// Evaluates the drive at `t` and applies the hints on activation.
  void update_activation(double t);
  /// The drive's verdict at t (the `initial state` before the first step).
  bool drive_on(double t) const;

  std::unique_ptr<Element> inner_;
  DriveCallerPtr drive_;
  std::vector<Hint> hints_;
  InitialState initial_;
  bool active_ = true;
  bool pending_ = false;   ///< a step was predicted and not yet assembled
  bool was_active_ = true;  ///< the activity at the end of the previous step
  bool stepping_ = false;  ///< a step was predicted: `initial state` no longer applies
  int nc_activation_ = -1;
  std::tuple<bool, bool, bool, bool> saved_{true, false, true, false};
};

}  // namespace mbl::elements

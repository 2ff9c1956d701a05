#pragma once
// Parameter node (input manual §6.4): a scalar node without unknowns, a placeholder whose value
// is set from outside — a constant `value`, or, when bound to an element by a `bind` card
// (§8.20.1), one private datum of that element, read whenever the node is read.
#include "mbdyn-like/core/node.hpp"

namespace mbl::elements {

class ParameterNode final : public Node {
 public:
  ParameterNode(unsigned label, double value) : Node(label), value_(value) {}

  std::string_view kind() const override { return "parameter"; }
  int dof_count() const override { return 0; }
  DofOrder dof_order(int) const override { return DofOrder::Algebraic; }
  void initial_state(Vector&, Vector&) const override {}
  void update(const Vector&, const Vector&) override {}

  /// Binds the node to private datum `index` (1-based) of `owner` (`bind` card).
  void bind(const parser::PrivateDataOwner& owner, unsigned index) {
    owner_ = &owner;
    index_ = index;
  }
  bool bound() const { return owner_ != nullptr; }
  /// `[beam] strain gage, <y>, <z>` (MBDyn's StrainGageParam, j2p.h): bound to the first datum
  /// ("pI.ex" or "pII.ex") of a beam's evaluation point, the node is the axial strain of the
  /// section fibre at (y, z): ex + z ky - y kz.
  void set_strain_gage(double y, double z) {
    gage_ = true;
    gage_y_ = y;
    gage_z_ = z;
  }
  bool strain_gage() const { return gage_; }
  double value() const {
    if (!owner_) return value_;
    const double ex = owner_->private_data(index_);
    if (!gage_) return ex;
    return ex + gage_z_ * owner_->private_data(index_ + 4) - gage_y_ * owner_->private_data(index_ + 5);
  }

  void output(OutputSink& out) const override;

  // scalarnode.cc ScalarAlgebraicNode: "x".
  unsigned private_data_count() const override { return 1; }
  DatumInfo private_data_info(unsigned i) const override {
    return i == 1 ? DatumInfo{"x", "value (of the bound datum when bound)"} : DatumInfo{};
  }
  double private_data(unsigned i) const override { return i == 1 ? value() : 0.0; }

 private:
  double value_;
  const parser::PrivateDataOwner* owner_ = nullptr;
  unsigned index_ = 0;
  bool gage_ = false;
  double gage_y_ = 0.0, gage_z_ = 0.0;
};

/// `parameter: <label>, sample and hold, <scalar dof>, <period>` (input manual §6.4; MBDyn's
/// SampleAndHold, sah.cc): holds the value of a scalar dof (a node's private datum "x", or a
/// structural node's "X[i]") sampled every `period`. As MBDyn's it starts from the value at the
/// initial time (SetValue) and samples in the updates after Newton corrections (Update, not
/// AfterPredict), at the first one whose time reaches the next sample time, which then advances
/// by one period.
class SampleAndHoldNode final : public Node {
 public:
  SampleAndHoldNode(unsigned label, const parser::PrivateDataOwner& source, unsigned index, double period,
                    const double& time)
      : Node(label), source_(source), index_(index), period_(period), time_(time) {}

  std::string_view kind() const override { return "parameter"; }
  int dof_count() const override { return 0; }
  DofOrder dof_order(int) const override { return DofOrder::Algebraic; }
  void initial_state(Vector&, Vector&) const override {
    held_ = source_.private_data(index_);
    next_sample_ = time_ + period_;
  }
  void after_predict(Vector&, Vector&) override { predicted_ = true; }
  void update(const Vector&, const Vector&) override {
    if (predicted_) {  // the update of the prediction itself
      predicted_ = false;
      return;
    }
    if (time_ >= next_sample_) {
      held_ = source_.private_data(index_);
      next_sample_ += period_;
    }
  }
  double value() const { return held_; }

  void output(OutputSink& out) const override;

  unsigned private_data_count() const override { return 1; }
  DatumInfo private_data_info(unsigned i) const override {
    return i == 1 ? DatumInfo{"x", "held value"} : DatumInfo{};
  }
  double private_data(unsigned i) const override { return i == 1 ? held_ : 0.0; }

 private:
  const parser::PrivateDataOwner& source_;
  unsigned index_;
  double period_;
  const double& time_;  ///< the model's current time
  mutable double held_ = 0.0, next_sample_ = 0.0;
  bool predicted_ = false;
};

}  // namespace mbl::elements

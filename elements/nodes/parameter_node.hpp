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
  double value() const { return owner_ ? owner_->private_data(index_) : value_; }

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
};

}  // namespace mbl::elements

#pragma once
// Hydraulic (pressure) node (input manual §6.3): one algebraic scalar unknown, the pressure; its
// equation is the mass flow balance the hydraulic elements (and genels, abstract forces) write
// at first_index(). Output: .prs, `label pressure`.
#include "mbdyn-like/core/node.hpp"

namespace mbl::elements::hydraulics {

class PressureNode final : public Node {
 public:
  PressureNode(unsigned label, double p0) : Node(label), p0_(p0), p_(p0) {}

  std::string_view kind() const override { return "hydraulic"; }
  int dof_count() const override { return 1; }
  DofOrder dof_order(int) const override { return DofOrder::Algebraic; }
  void initial_state(Vector& y, Vector&) const override { y[first_index()] = p0_; }
  void update(const Vector& y, const Vector&) override { p_ = y[first_index()]; }

  double initial_pressure() const { return p0_; }
  double pressure() const { return p_; }

  void output(OutputSink& out) const override;

  // scalarnode.cc ScalarAlgebraicNode (MBDyn's PressureNode): "x".
  unsigned private_data_count() const override { return 1; }
  DatumInfo private_data_info(unsigned i) const override { return i == 1 ? DatumInfo{"x", "pressure"} : DatumInfo{}; }
  double private_data(unsigned i) const override { return i == 1 ? p_ : 0.0; }

 private:
  double p0_;
  double p_;
};

}  // namespace mbl::elements::hydraulics

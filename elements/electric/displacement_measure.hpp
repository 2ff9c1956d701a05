#pragma once
// Displacement measure (input manual §8.7.3): the distance of two points of two structural nodes,
// x = |x_b + o_b - x_a - o_a|, written into the equation of an abstract node (residual x - X).
// It starts the node at that distance and at the norm of the points' relative velocity (MBDyn
// 2024, elec/displacement.cc).
#include "elements/electric/electric_element.hpp"

namespace mbl::elements::electric {

struct DisplacementMeasureParams {
  const StructNode* node1 = nullptr;
  Vec3 offset1_N = Vec3::Zero();  ///< node 1 frame
  const StructNode* node2 = nullptr;
  Vec3 offset2_N = Vec3::Zero();  ///< node 2 frame
  const AbstractNode* output = nullptr;
};

class DisplacementMeasure final : public ElectricElement {
 public:
  DisplacementMeasure(unsigned label, DisplacementMeasureParams p) : ElectricElement(label), p_(p) {}
  std::string_view type_name() const override { return "displacement"; }
  void initial_state(Vector& y, Vector& yp) const override;

 protected:
  void assemble(LocalAssembly& a, const StepContext& c, bool record) override;

 private:
  DisplacementMeasureParams p_;
};

}  // namespace mbl::elements::electric

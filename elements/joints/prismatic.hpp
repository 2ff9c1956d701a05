#pragma once
// Prismatic joint (input manual §8.12.37): the frames of the two attachments stay parallel,
// the relative position is free. Three constraints on the hinge axes, multipliers M:
//   e2_a . e3_b = 0,  e3_a . e1_b = 0,  e1_a . e2_b = 0;
// node a gets -sum (e_i,a x e_j,b) M_k, node b the opposite. Output as MBDyn: f = F = 0,
// m = M (the multipliers), M global = R_a M.
#include "elements/joints/joint.hpp"

namespace mbl::elements {

class Prismatic final : public Joint {
 public:
  Prismatic(unsigned label, const Attachment& a, const Attachment& b);
  std::string_view type_name() const override { return "Prismatic"; }  // MBDyn's NetCDF type (prismj.cc)
  /// Appendix E.2.19: "prismatic: <label> <node 1> 0 0 0 <R1> <node 2> 0 0 0 <R2>".
  std::string log_line() const override {
    return fmt::format("prismatic: {} {} {}", label(), log_text(a_), log_text(b_));
  }
  int dof_count() const override { return 3; }
  int initial_dof_count() const override { return 6; }  // prismj.h
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;

 private:
  Attachment a_, b_;
};

}  // namespace mbl::elements

#pragma once
// Clamp (technical manual §9.1.2): imposes the position x0 and orientation R0 of a node.
//   d_c = x - x0 = 0,  theta_c = ax(exp^-1(R R0^T)) = 0;  f = lambda, m = mu.
#include "elements/joints/joint.hpp"

namespace mbl::elements {

class Clamp final : public Joint {
 public:
  Clamp(unsigned label, StructNode& node, const Vec3& x0_W, const Mat3& R0_W);
  std::string_view type_name() const override { return "Clamp"; }
  int dof_count() const override { return 6; }
  int initial_dof_count() const override { return 12; }  // genj.h ClampJoint
  void describe_dofs(std::ostream& os, std::string_view prefix, int first, bool initial) const override;
  void describe_equations(std::ostream& os, std::string_view prefix, int first, bool initial) const override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  bool concurrent_jacobian() const override { return true; }
  void after_convergence(const StepContext& c) override;
  std::string log_line() const override;
  InitialReaction initial_reaction_form() const override { return InitialReaction::ForceMoment; }
  void initial_state(Vector& y, Vector& yp) const override;
  // genj.cc ClampJoint: Fx..Fz, Mx..Mz, the reaction in the global frame.
  double private_data(unsigned i) const override;
  DatumInfo private_data_info(unsigned i) const override;

 private:
  StructNode& node_;
  Vec3 x0_W_;
  Mat3 R0_W_;
};

}  // namespace mbl::elements

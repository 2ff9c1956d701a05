#pragma once
// Joints that tie displacement-only nodes (3 dofs) to a 6-dof node (input manual §8.12.32 and the
// rigid body displacement joint after §8.12.33; MBDyn's offdispjad.cc, rbdispjad.cc):
//
// offset displacement joint (RBE2): node 2 follows the rigid motion of node 1,
//     Phi = x_1 + R_1 o_1 - x_2 = 0,  o_1 = R_1^T (X_2 - x_1) in the input configuration;
// rigid body displacement joint (RBE3): the master follows the weighted mean rigid motion of the
// slaves, a_j = R_m o_j, Delta_j = x_m - x_j,
//     Phi_t = sum w_j (Delta_j + a_j) = 0,   Phi_r = sum w_j a_j x Delta_j = 0,
// weights scaled by alpha / sum(weights) (alpha: N^2 / sum |o_j|^2 unless given).
// Multipliers mu as the other holonomic joints: r_q -= Phi_q^T mu, r_c = Phi / dCoef. Reported
// reaction: F = Phi_x^T mu, M = Phi_theta^T mu of the 6-dof node (global; local in its frame),
// private data Fx..Mz (local) and fx..mz (global) as MBDyn's.
#include <vector>

#include "elements/joints/joint.hpp"

namespace mbl::elements {

/// Private data of both: "Fx".."Mz" local (node frame), "fx".."mz" global.
class NodeReactionJoint : public Joint {
 public:
  using Joint::Joint;
  DatumInfo private_data_info(unsigned i) const override;
  unsigned private_data_count() const override { return 12; }
  double private_data(unsigned i) const override;
};

class OffsetDisplacementJoint final : public NodeReactionJoint {
 public:
  OffsetDisplacementJoint(unsigned label, StructNode& node1, const Vec3& o1_N, StructNode& node2);
  std::string_view type_name() const override { return "Offset displacement joint"; }
  int dof_count() const override { return 3; }
  int initial_dof_count() const override { return 6; }  // offdispjad.cc
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;
  std::string log_line() const override;

 private:
  StructNode& n1_;
  StructNode& n2_;
  Vec3 o1_N_;
};

struct RigidBodySlave {
  StructNode* node = nullptr;
  Vec3 o_M = Vec3::Zero();  ///< offset from the master, in the master's frame
  double weight = 1.0;      ///< scaled (alpha / sum of the weights given)
};

class RigidBodyDisplacementJoint final : public NodeReactionJoint {
 public:
  RigidBodyDisplacementJoint(unsigned label, StructNode& master, std::vector<RigidBodySlave> slaves);
  std::string_view type_name() const override { return "Rigid body displacement joint"; }
  int dof_count() const override { return 6; }
  int initial_dof_count() const override { return 12; }  // rbdispjad.cc
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;
  std::string log_line() const override;

 private:
  StructNode& master_;
  std::vector<RigidBodySlave> slaves_;
};

}  // namespace mbl::elements

#pragma once
// Modal joint (input manual §8.12.31; technical manual "modal element"): a flexible body whose
// displacements are a few modes q of a FEM model, in the floating frame of a modal node (or of
// a fixed frame when clamped). Interface multibody nodes are clamped, with an offset, to FEM
// nodes.
//
// Own unknowns (first_index()): q (N), qP (N), then per interface node the reaction force F
// (global) and moment M (interface node frame). Equations:
//   q' - qP = 0;
//   M qP' + C qP + K q = (inertia coupling with the modal node) + g-terms
//                        + sum_i PHIt_i^T R^T F_i + PHIr_i^T R^T R2_i M_i;
//   x + R (u_i + PHIt_i q) - x2_i - R2_i o_i = 0,  VecRot(R2_i^T R (I + [PHIr_i q x])) = 0.
// With a modal node, the joint also writes the node's rows: v - x' = 0, w - omega = 0 and the
// rigid-body equilibrium with the inertia invariants (Inv1..Inv11, modal_body.hpp), gyroscopic
// and centrifugal terms included, as MBDyn's Modal::AssRes does.
#include <string>
#include <vector>

#include "elements/joints/modal/modal_body.hpp"
#include "mbdyn-like/core/element.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl {
class GravityField;
}

namespace mbl::elements {

class ModalJoint final : public Element {
 public:
  struct Interface {
    std::string fem_label;
    StructNode* node = nullptr;
    Vec3 offset_N = Vec3::Zero();   ///< from the multibody node to the FEM node, node frame
    Vec3 x_fem = Vec3::Zero();      ///< the FEM node, from the FEM origin
    Eigen::Matrix3Xd phi_t, phi_r;  ///< 3 x N shapes of the FEM node
    bool output = false;
  };

  /// `modal_node` null: clamped at x0, R0.
  ModalJoint(unsigned label, ModalBody body, StructNode* modal_node, const Vec3& x0, const Mat3& R0,
             std::vector<Interface> interfaces);

  std::string_view kind() const override { return "joint"; }
  std::string_view type_name() const override { return "Modal"; }
  void setup(Model& model) override;

  int dof_count() const override { return 2 * modes() + 6 * static_cast<int>(interfaces_.size()); }
  int initial_dof_count() const override { return 2 * modes() + 12 * static_cast<int>(interfaces_.size()); }  // modal.cc
  DofOrder dof_order(int i) const override { return i < 2 * modes() ? DofOrder::Differential : DofOrder::Algebraic; }
  void initial_state(Vector& y, Vector& yp) const override;
  /// modal.cc Modal::DescribeDof/DescribeEq.
  void describe_dofs(std::ostream& os, std::string_view prefix, int first, bool initial) const override;
  void describe_equations(std::ostream& os, std::string_view prefix, int first, bool initial) const override;

  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;

  /// The Jacobian of the steps: MBDyn's (Modal::AssJac, which leaves out the derivatives of the
  /// inertia coupling with the modal coordinates and of some reaction terms, so that Newton
  /// converges linearly as in MBDyn, and its Newton-Krylov solver sees the same preconditioner),
  /// or the exact derivative of the residual. The initial assembly always uses the exact one.
  enum class Linearisation { Mbdyn, Exact };
  void set_linearisation(Linearisation l) { linearisation_ = l; }
  void after_convergence(const StepContext& c) override;
  void after_predict(const StepContext& c) override;

  void output_setup(OutputSink& out) override;
  void output(OutputSink& out) const override;
  std::string log_line() const override;

  // Private data (manual §8.12.31): q[<m>], qP[<m>], qPP[<m>] (m a mode number, or #index);
  // x[<n>,<i>], xP, xPP (position, velocity, acceleration of FEM node n) and w[<n>,<i>], wP
  // (its angular velocity and acceleration), global.
  unsigned private_data_index(std::string_view name) const override;
  unsigned private_data_count() const override {
    return 3 * static_cast<unsigned>(modes()) + 18 * static_cast<unsigned>(body_.node_labels.size());
  }
  double private_data(unsigned i) const override;
  DatumInfo private_data_info(unsigned i) const override;

  int modes() const { return body_.modes(); }
  const ModalBody& body() const { return body_; }
  StructNode* modal_node() const { return modal_node_; }
  /// Modal coordinates, rates and accelerations of the last update.
  const Eigen::VectorXd& q() const { return q_; }
  const Eigen::VectorXd& qp() const { return qp_; }
  const Eigen::VectorXd& qpp() const { return qpp_; }
  /// Row of the modal equilibrium of mode index j (0-based): modal forces add here.
  int modal_equation(int j) const { return first_index() + modes() + j; }
  /// Frame of the FEM model: the modal node's, or the clamped one.
  Mat3 R_WF() const { return modal_node_ ? modal_node_->R_WN() : R0_; }
  Vec3 x_WF() const { return modal_node_ ? modal_node_->x_W() : x0_; }

  template <class T>
  struct State;

 private:
  template <class T>
  void evaluate(const State<T>& s, const StepContext& c, std::vector<T>& r) const;
  State<double> current_state(const StepContext& c) const;
  void mbdyn_jacobian(JacobianSink& sink, const StepContext& c) const;
  /// Global indices of the local rows / columns (modal node, own unknowns, interface nodes),
  /// into rows_ / cols_: built once per numbering of the unknowns (the nodes are numbered with
  /// the elements, so the joint's own first index tells a new numbering).
  void update_local_indices() const;

  ModalBody body_;
  StructNode* modal_node_;
  Vec3 x0_;
  Mat3 R0_;
  std::vector<Interface> interfaces_;
  Linearisation linearisation_ = Linearisation::Mbdyn;
  const Model* model_ = nullptr;  ///< for the gravity field (set up by the gravity element)
  Eigen::VectorXd q_, qp_, qpp_;
  std::vector<Vec3> F_, M_;
  /// MBDyn's modal node refreshes its accelerations in Update() only, which the prediction does
  /// not call: the first residual of a step sees the modal node's accelerations of the previous
  /// step (ModalNode::Update, DataManager::AfterPredict). Kept until the unknowns move from their
  /// predicted values (vp_pred_, wp_pred_).
  struct StaleAccelerations {
    bool active = false, predicted_seen = false;
    Vec3 vp, wp, vp_pred, wp_pred;
  } stale_;
  /// Work space of the assemblies, kept between calls: the local rows' and columns' global
  /// indices, MBDyn's Jacobian in the local numbering.
  mutable std::vector<int> rows_, cols_;
  mutable int indexed_from_ = -1;  ///< first_index() when rows_ / cols_ were built
  mutable Eigen::MatrixXd mbdyn_J_;
};

}  // namespace mbl::elements

#pragma once
// Surface tractions `tractionq4`, `tractionq8`, `tractionq8r`, `tractionq9`, `tractiont6` (input
// manual §8.17.2, table 8.5): a traction vector t (force per unit area), interpolated from nodal
// template drives with the shape functions H_k, acts on the surface along a direction of its own.
// At each quadrature point i, in the input frame R_f,i of the card's `orientation` (one per point,
// identity by default):
//   absolute: f_i = w_i dA0_i R_f,i t(r_i), with dA0 = |a1 x a2| of the input configuration: a
//             dead load;
//   relative: f_i = w_i dA_i Q_i Q0_i^T R_f,i t(r_i), with Q = [e1, e3 x e1, e3] the surface's
//             frame (e1 along a1 = dx/dr, e3 along a1 x a2) and dA = |a1 x a2|: the traction
//             turns and stretches with the surface, as a pressure does.
// The nodal forces are F_k = sum_i H_k(r_i) f_i; the relative traction's Jacobian is exact.
#include <functional>
#include <vector>

#include "elements/shells/pressure_load.hpp"

namespace mbl::elements {

class TractionLoad final : public SurfaceLoad {
 public:
  enum class Frame { Relative, Absolute };
  /// `tractions`: one per node, global vectors of time; `R_WF`: one per quadrature point.
  TractionLoad(unsigned label, const SurfaceShape& shape, std::vector<StructNode*> nodes,
               std::vector<std::function<Vec3(double)>> tractions, const std::vector<Mat3>& R_WF, Frame frame);

  void jacobian(JacobianSink& J, const StepContext& c) override;
  std::string log_line() const override { return log_line_nodes(); }  // MBDyn lists no drives

 private:
  const std::vector<Vec3>& nodal_forces(double t) override;
  /// w_i times the traction at the quadrature point whose shape functions are in H_, expressed in
  /// the point's surface frame (relative) or in the global frame scaled by dA0 (absolute).
  Vec3 point_traction(std::size_t i, double w) const;

  std::vector<std::function<Vec3(double)>> tractions_;
  Frame frame_;
  /// Per quadrature point: Q0^T R_f (relative) or dA0 R_f (absolute).
  std::vector<Mat3> R_point_;
  std::vector<Vec3> t_nodal_;  ///< the nodal tractions at the time of the evaluation
};

}  // namespace mbl::elements

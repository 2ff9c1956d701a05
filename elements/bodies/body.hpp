#pragma once
// Rigid body (input manual "body"; technical manual §8.1.1): mass m, centre of mass offset b_N
// and inertia J_cm_N about the centre of mass, both in the node frame N. Contributes the momentum
// definitions beta = m v + w x s, gamma = s x v + J w (s = m R b_N, J = R (J_cm + m b x b x^T) R^T)
// and the weight to a dynamic node; only the weight to a static node.
#include "mbdyn-like/core/element.hpp"
#include "mbdyn-like/core/gravity_field.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements {

struct BodyParams {
  double mass = 0.0;
  Vec3 b_N = Vec3::Zero();         ///< centre of mass, from the node, in the node frame
  Mat3 J_cm_N = Mat3::Zero();      ///< inertia about the centre of mass, in the node frame
};

/// Condenses several masses into one (the `condense` form of the card).
BodyParams condense(const std::vector<BodyParams>& parts);

/// Private data of bodies (body.cc Body, Mass; input manual §8.4): "E" kinetic energy, "V"
/// potential energy, "m" mass.
parser::PrivateDataOwner::DatumInfo body_private_data_info(unsigned i);

/// Jacobian of the momentum rows of a rigid mass on a dynamic node (technical manual 8.4):
/// beta = m v + w x s, gamma = s x v + J w, with s = m b and J about the node, all in W, and
/// d omega = d g' - dCoef w_ref x d g' (§5.1).
void add_rigid_momentum_jacobian(JacobianSink& J, const StepContext& c, const StructNode& node, double m,
                                 const Vec3& s, const Mat3& inertia_W);

class Body final : public Element {
 public:
  Body(unsigned label, StructNode& node, const BodyParams& p);

  std::string_view kind() const override { return "body"; }
  std::string_view type_name() const override { return "Body"; }

  void setup(Model& m) override;
  void initial_state(Vector& y, Vector& yp) const override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  /// The gravity field is read in the Jacobian too.
  bool concurrent_jacobian() const override;
  std::string log_line() const override;

  // Private data: "E" kinetic energy, "V" potential energy (uniform gravity), "m" mass.
  unsigned private_data_count() const override { return 3; }
  DatumInfo private_data_info(unsigned i) const override { return body_private_data_info(i); }
  double private_data(unsigned i) const override;

  const StructNode& node() const { return node_; }
  const BodyParams& params() const { return p_; }
  /// s = m R b (static moment) and J about the node, both in W, at the current orientation.
  Vec3 s_W() const { return p_.mass * (node_.R_WN() * p_.b_N); }
  Mat3 J_W() const { return node_.R_WN() * J_node_N_ * node_.R_WN().transpose(); }

 private:

  StructNode& node_;
  BodyParams p_;
  Mat3 J_node_N_;  ///< inertia about the node: J_cm + m b x b x^T
  const Model* model_ = nullptr;  ///< for the gravity field (the gravity card may come later)
  const GravityField* gravity() const;
  double t_ = 0.0;
};

}  // namespace mbl::elements

#pragma once
// Variable mass body (input manual §8.4 `variable mass`, technical manual §8.1.1 "Variable
// Mass"): mass m(t), centre of mass b(t) (node frame) and inertia about the centre of mass
// J_cm(t) = J_vm(t) + J_vg(t) (node frame) given by differentiable drives. With
// v_cm = v + w x R b + R b', the body defines the node momenta
//   beta = m v_cm,   gamma = R J_cm R^T w + R b x beta          (8.16, 8.20)
// and, since only the change of geometry is kept in the inertia forces, adds to the node
// equilibrium the mass-loss terms m' v_cm (force) and R b x m' v_cm + R J_vm' R^T w
// + m R b' x v (moment), eqs. (8.19), (8.24), (8.26). As in MBDyn the Jacobian is that of a body
// with the current (frozen) inertia properties, plus the exact m' dv term.
#include "elements/drives/template_drive.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/element.hpp"
#include "mbdyn-like/core/gravity_field.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements {

class VariableMassBody final : public Element {
 public:
  struct Params {
    DriveCallerPtr mass;
    drives::TplDriveCallerPtr<Vec3> b_N;    ///< centre of mass offset, node frame
    drives::TplDriveCallerPtr<Mat3> J_vm_N; ///< variable-mass part of J_cm, node frame
    drives::TplDriveCallerPtr<Mat3> J_vg_N; ///< variable-geometry part of J_cm, node frame
  };
  VariableMassBody(unsigned label, StructNode& node, Params p);

  std::string_view kind() const override { return "body"; }
  std::string_view type_name() const override { return "VariableBody"; }
  void setup(Model& m) override { model_ = &m; }
  void initial_state(Vector& y, Vector& yp) const override;
  std::string log_line() const override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;

  unsigned private_data_count() const override { return 3; }
  DatumInfo private_data_info(unsigned i) const override;
  double private_data(unsigned i) const override;

  const StructNode& node() const { return node_; }
  /// Inertia properties at time t: mass, offset and J about the centre of mass (node frame).
  double mass(double t) const { return p_.mass->value(t); }
  Vec3 b_N(double t) const { return p_.b_N->value(t); }
  Mat3 J_cm_N(double t) const { return p_.J_vm_N->value(t) + p_.J_vg_N->value(t); }
  double time() const { return t_; }

 private:
  const GravityField* gravity() const;
  StructNode& node_;
  Params p_;
  Model* model_ = nullptr;
  double t_ = 0.0;
};

/// Reads `<mass drive>, <b tpl drive>, <J_vm tpl drive>, <J_vg tpl drive>` after `variable mass`.
void read_variable_mass_body(parser::CardReader& in, BuildContext& ctx, unsigned label, StructNode& node);

}  // namespace mbl::elements

#pragma once
// `external modal` force (input manual §8.8.12): a peer process computes the generalized forces of
// a modal joint's modes (`modal` part) and/or a force and moment on its modal node, or on a
// `reference node` (`rigid` part), from their motion, through a communicator (§8.8.9,
// external_link.hpp). The records are MBDyn's (its modalext.cc, modaledge.cc):
// - file: motion `x`, `R` (row by row), `v`, `w` (one line each, rigid part), then per mode
//   `q q'` (modal part); loads `f m` (6 values, rigid part) then one value per mode;
// - socket (libmbc modal protocol): negotiation u32 MBC_MODAL | MBC_REF_NODE (rigid part), u32
//   number of modes (0 without a modal joint); motion x (3), R (9, column-major), v, w (rigid
//   part), q (n), q' (n) (modal part); loads f, m (rigid part), one value per mode;
// - EDGE (rigid or modal, one part per element): rigid `body_dynamics,N,0,0,3` with `VRELV,R,1,3,0`
//   (R^T (v - air speed)), `VRELM,R,1,3,0` (R^T w) and `OMGMAN,R,3,3,0` (R by columns); the peer
//   answers `body_forces,R,1,6,0` / f m (global, moment about the node); modal
//   `modal_state,N,0,0,2` with `modal_coordinate,R,<n>,1,0` / q and `modal_velocity,R,<n>,1,0` /
//   q'; the peer answers `modal_force_flow,R,<n>,1,0` / one value per mode.
// Loads enter as given: f, m on the node's force and moment equations, the modal forces on the
// modal equations of the joint. They are data from the peer: no Jacobian contribution.
//
// `external modal mapping` (§8.8.13; MBDyn's modalmappingext.cc) is the same exchange (socket or
// EDGE), with the modal coordinates of a set of structural nodes instead of a modal joint's:
// q = H x, q' = H x', x = per node [x - x0, ax(R R0^T)], x' = per node [v, w] (ax: the axial
// vector of the skew part, MBDyn's MatR2LinParam); with a `reference node` r, relative to it and
// in its frame: [R_r^T (x - x_r) - x0, ax(R_r^T R R0^T)], [R_r^T (v - v_r - w_r x (x - x_r)),
// R_r^T (w - w_r)], x0 and R0 taken likewise from the input configuration. (As MBDyn, the
// reference node's motion is that of the `rigid` part: with `type, modal`, r stays at the origin
// in the kinematics sent, while x0 and R0 are relative to it.) The peer's modal forces p come back
// as nodal forces and moments H^T p (rotated by R_r with a reference node); the reference node
// takes the peer's rigid-body force and moment (rotated unless `rotate rigid body forces, no`)
// minus the resultant of the nodal loads about it (`use rigid body forces`, default with a
// reference node). .frc: `label@ref F0 M0 F1 M1 F2 M2` (rigid part), `label.<i> p q q'` per mode,
// `label#node F M x(6) x'(6)` per node (modal part).
#include <optional>

#include "elements/forces/external_force_element.hpp"
#include "elements/forces/mapping_matrix.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements {

class ModalJoint;
namespace aero {
class AirProperties;
}

struct ExternalModalParams {
  ExternalCommunicator communicator;
  const ModalJoint* joint = nullptr;  ///< null with a `reference node`
  const StructNode* node = nullptr;   ///< the joint's modal node or the reference node (may be null)
  bool rigid = false, modal = false;  ///< the parts exchanged (`type`)
  /// `external modal mapping`: the nodes whose motion H maps to the modes (`node`: the
  /// reference node, or null).
  struct Mapping {
    MappingMatrix H;  ///< modes x (6 x nodes)
    std::vector<const StructNode*> nodes;
    bool use_reference_forces = false, rotate_reference_forces = true;
  };
  std::optional<Mapping> mapping;
};

class ExternalModalForce final : public ExternalForceElement {
 public:
  ExternalModalForce(unsigned label, ExternalModalParams p);
  std::string_view type_name() const override {
    return p_.mapping ? "external modal mapping" : "external modal";
  }
  void setup(Model& m) override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void output(OutputSink& out) const override;

  // ExternalPeer
  std::array<std::uint32_t, 2> negotiation() const override;
  std::uint32_t negotiation_mask() const override;
  void write_motion(std::ostream& os, ExternalCommunicator::Kind kind) const override;
  void append_motion_bytes(std::vector<char>& record) const override;
  void read_loads(std::istream& is, ExternalCommunicator::Kind kind) override;
  std::size_t load_bytes() const override;
  void read_loads(std::span<const char> record) override;

  /// The generalized forces received, one per mode of the joint.
  const std::vector<double>& modal_forces() const { return f_modal_; }

 private:
  int modes() const;
  double q(int j) const;
  double qp(int j) const;
  void read_edge_loads(std::istream& is);
  /// Mapping: q_, qp_ from the nodes' motion (before each motion sent).
  void map_motion() const;
  /// Mapping: the nodal loads from the modal forces (after each loads received).
  void map_loads();
  void mapped_residual(ResidualSink& r);
  void mapped_output(OutputSink& out, std::ostream& os) const;

  ExternalModalParams p_;
  const aero::AirProperties* air_ = nullptr;
  Vec3 F_ = Vec3::Zero(), M_ = Vec3::Zero();  ///< received for the node (F0, M0 of a mapping)
  std::vector<double> f_modal_;
  // mapping
  std::vector<Vec3> x0_;  ///< the nodes' initial positions (relative to the reference node)
  std::vector<Mat3> R0_;  ///< and orientations
  mutable std::vector<double> x_, xp_, q_, qp_;  ///< 6 per node; per mode
  std::vector<double> f_nodes_;                  ///< H^T p, 6 per node
  std::vector<Vec3> F_node_, M_node_;            ///< global
  ReferenceNodeLoads reference_loads_;  ///< F1, M1, F2, M2 (F0, M0: F_, M_)
};

}  // namespace mbl::elements

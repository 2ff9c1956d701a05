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
#include "elements/forces/external_link.hpp"
#include "mbdyn-like/core/element.hpp"
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
};

class ExternalModalForce final : public Element, private ExternalPeer {
 public:
  ExternalModalForce(unsigned label, ExternalModalParams p);
  std::string_view kind() const override { return "force"; }
  std::string_view type_name() const override { return "external modal"; }
  void setup(Model& m) override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink&, const StepContext&) override {}
  void after_predict(const StepContext& c) override;
  void after_convergence(const StepContext& c) override;
  void output(OutputSink& out) const override;

  // ExternalPeer (public for the tests of the record formats)
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

  ExternalModalParams p_;
  ExternalLink link_;
  const aero::AirProperties* air_ = nullptr;
  const StepContext* context_ = nullptr;  ///< the state the motion is read from, during an exchange
  Vec3 F_ = Vec3::Zero(), M_ = Vec3::Zero();
  std::vector<double> f_modal_;
};

}  // namespace mbl::elements

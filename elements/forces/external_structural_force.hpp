#pragma once
// `external structural` force (input manual §8.8.10) with the socket communicator (§8.8.9): a
// peer process computes forces and moments on a set of points (node + offset) from their motion.
// The exchange is MBDyn's libmbc "nodal" protocol (libmbc/mbc.h), native byte order:
//   negotiation: peer -> MBDyn  u8 ES_NEGOTIATION(7), u32 flags (MBC_NODAL | rotation | labels |
//                accelerations), u32 number of points; MBDyn -> peer  u8 ES_OK(8) or ES_ABORT(5);
//   motion:      MBDyn -> peer  u8 command, then [u32 labels (padded to an even count)] x (3n),
//                orientation (R column-major 9n | rotation vector 3n | Euler 123 in degrees 3n |
//                none), v (3n), [w (3n)], [accelerations (3n), [angular accelerations (3n)]];
//   forces:      peer -> MBDyn  u8 command: ES_REGULAR_DATA(2) or ES_REGULAR_DATA_AND_GOTO_NEXT_STEP
//                (6) followed by [u32 labels] f (3n) [m (3n)], or ES_GOTO_NEXT_STEP(4) (the peer
//                converged: the last forces stay), or ES_ABORT(5) (the run ends).
// Tight coupling (as MBDyn): the predicted motion is sent after the prediction, the forces are
// received at each residual, the new motion is sent before the next one, until the peer reports
// convergence. Forces are global, moments about the point; the point's force acts on the node
// with the moment f x F added. They are data from the peer: no Jacobian contribution.
#include <memory>
#include <vector>

#include "elements/input/socket_channel.hpp"
#include "mbdyn-like/core/element.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements {

struct ExternalStructuralParams {
  enum class Orientation : std::uint32_t { None = 0x0000, Vector = 0x0100, Matrix = 0x0200, Euler123 = 0x0400 };
  struct Point {
    const StructNode* node = nullptr;
    unsigned label = 0;  ///< the point's label in the exchange (the node's unless `label, l`)
    Vec3 offset_N = Vec3::Zero();
  };
  SocketAddress address;
  bool create = false;
  bool send_after_predict = true;
  bool labels = false;
  bool sorted = true;
  bool accelerations = false;
  Orientation orientation = Orientation::Matrix;
  std::vector<Point> points;
};

class ExternalStructuralForce final : public Element {
 public:
  ExternalStructuralForce(unsigned label, ExternalStructuralParams p);
  /// Tells the peer the simulation ended (ES_ABORT), as MBDyn does.
  ~ExternalStructuralForce() override;
  std::string_view kind() const override { return "force"; }
  std::string_view type_name() const override { return "external structural"; }
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink&, const StepContext&) override {}
  void after_predict(const StepContext& c) override;
  void after_convergence(const StepContext& c) override;
  void output(OutputSink& out) const override;
  std::string log_line() const override;

  /// The flags word of the negotiation (MBC_NODAL | orientation | labels | accelerations).
  std::uint32_t negotiation_flags() const;
  /// The motion record of the points as the peer receives it (after the command byte).
  std::vector<char> motion_record() const;

 private:
  void start();
  void send_motion();
  void receive_forces();
  ExternalStructuralParams p_;
  SocketChannel channel_;
  bool started_ = false;
  bool exchanging_ = false;  ///< between the prediction and the peer's convergence
  bool motion_sent_ = false;
  std::vector<Vec3> force_W_, moment_W_;
};

}  // namespace mbl::elements

// libFuzzer target: arbitrary bytes as what the peer of an external force sends on its socket
// (input manual §8.8.9; libmbc's nodal and modal protocols): the negotiation, the command bytes
// and the loads records, malformed, truncated, oversized or not-a-number. The first byte chooses
// the card (structural: labels, unsorted, reference node, orientation; modal: rigid part) and the
// coupling; the rest is written into one end of a socketpair whose other end the link reads, in
// this process, for a few steps of MBDyn's exchange schedule. EvaluationError and the peer's stop
// are the only acceptable failures; loads that reach the element must be finite.
#include <sys/socket.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>

#include "elements/forces/external_modal_force.hpp"
#include "elements/forces/external_structural_force.hpp"
#include "mbdyn-like/core/model.hpp"
#include "parser/math/math_parser.hpp"
#include "tests/fuzz/targets/fuzz_targets.hpp"
#include "tests/support/frc_text_sink.hpp"

namespace {

using namespace mbl;
using namespace mbl::elements;

/// The .frc line of the element: what the loads it holds print as.
using FrcText = test_support::FrcTextSink;

/// Hands the link's exchanges to the element's record coder, and checks what it decoded.
template <class Force>
class Peer final : public ExternalPeer {
 public:
  explicit Peer(Force& f) : f_(f) {}
  std::array<std::uint32_t, 2> negotiation() const override { return f_.negotiation(); }
  std::uint32_t negotiation_mask() const override { return f_.negotiation_mask(); }
  void negotiated(std::uint32_t flags) override {
    if constexpr (requires { f_.negotiated(flags); }) f_.negotiated(flags);  // the modal force keeps none
  }
  void write_motion(std::ostream& os, ExternalCommunicator::Kind kind) const override { f_.write_motion(os, kind); }
  void append_motion_bytes(std::vector<char>& record) const override { f_.append_motion_bytes(record); }
  void read_loads(std::istream& is, ExternalCommunicator::Kind kind) override { f_.read_loads(is, kind); }
  std::size_t load_bytes() const override { return f_.load_bytes(); }
  void read_loads(std::span<const char> record) override {
    f_.read_loads(record);
    FrcText out;
    f_.output(out);
    const std::string text = out.frc.str();
    if (text.find("nan") != std::string::npos || text.find("inf") != std::string::npos) std::abort();
  }

 private:
  Force& f_;
};

template <class Force>
void exchange(Force& force, const ExternalCommunicator& c, int fd) {
  auto channel = std::make_unique<SocketChannel>(SocketAddress{}, c.create, "fuzz");
  channel->adopt(fd);
  ExternalLink link(c, "external force (fuzz)", std::move(channel));
  Peer<Force> peer(force);
  try {
    for (int step = 0; step < 4; ++step) {
      link.after_predict(peer);
      for (int iteration = 0; iteration < 3; ++iteration) link.before_residual(peer);
      link.after_convergence(peer);
    }
  } catch (const EvaluationError&) {
  } catch (const math::StopRequest&) {
  }
}

}  // namespace

int mbl::fuzz::extforce_one_input(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t choice = data[0];
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) return 0;
  // The peer's bytes are all there before the link reads; then the peer is gone (EOF).
  for (std::size_t at = 1; at < size;) {
    const ssize_t n = ::write(fds[1], data + at, size - at);
    if (n <= 0) break;
    at += std::size_t(n);
  }
  ::close(fds[1]);

  Model model;
  StructNode::InitialConditions ic;
  auto* n1 = static_cast<StructNode*>(&model.add_node(std::make_unique<StructNode>(1, StructNode::Type::Dynamic, ic)));
  ic.x_W = Vec3(1.0, 0.5, -0.2);
  auto* n2 = static_cast<StructNode*>(&model.add_node(std::make_unique<StructNode>(2, StructNode::Type::Dynamic, ic)));
  model.setup_elements();
  model.number_dofs();
  Vector y, yp;
  model.initial_state(y, yp);
  model.update(0.0, y, yp);

  ExternalCommunicator c;
  c.kind = ExternalCommunicator::Kind::Socket;
  c.create = (choice & 0x01) != 0;
  static constexpr int kCouplings[4] = {ExternalCommunicator::kLoose, ExternalCommunicator::kStaggered, 1, 2};
  c.coupling = kCouplings[(choice >> 1) & 0x03];
  c.send_after_predict = (choice & 0x08) == 0;
  if (choice & 0x80) {
    ExternalModalParams p;
    p.node = n1;
    p.rigid = true;
    ExternalModalForce force(6, std::move(p));
    exchange(force, c, fds[0]);
  } else {
    ExternalStructuralParams p;
    p.labels = (choice & 0x10) != 0;
    p.sorted = !p.labels || (choice & 0x20) == 0;
    if (choice & 0x40) p.reference = n1;
    p.orientation = (choice & 0x20) ? ExternalStructuralParams::Orientation::None
                                    : ExternalStructuralParams::Orientation::Matrix;
    p.points = {{n1, 10, Vec3(0.1, 0.0, 0.0)}, {n2, 20, Vec3::Zero()}, {n2, 30, Vec3(0.0, 0.2, 0.0)}};
    ExternalStructuralForce force(5, std::move(p));
    exchange(force, c, fds[0]);
  }
  return 0;
}

#pragma once
// Stream output elements (input manual §8.14.1 `stream output`, §8.14.3 `stream motion output`):
// after each converged step (every `output every` steps; and once at the initial time unless
// `no send first`) they send the peer one record of native doubles:
//   values: the channel values in order;
//   motion: per node, in order, the position (3), the orientation matrix row-major (9) or its
//   transpose (9), the velocity (3), the angular velocity (3), as the output flags ask.
// They add nothing to the residual.
#include <string>
#include <vector>

#include "elements/input/socket_channel.hpp"
#include "elements/input/stream_echo.hpp"
#include "mbdyn-like/core/drive_caller.hpp"
#include "mbdyn-like/core/element.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements {

struct StreamOutputParams {
  std::string stream_name;  ///< RTAI's mailbox name; only shown in the .log
  SocketAddress address;
  bool create = false;
  bool send_after_predict = false;
  bool send_first = true;
  bool non_blocking = false;
  bool abort_if_broken = false;
  int output_every = 1;
  StreamEchoParams echo;  ///< no path: no echo
  // content: values ...
  std::vector<DriveCallerPtr> values;
  // ... or motion
  enum Flag : unsigned { Position = 1, Orientation = 2, OrientationTranspose = 4, Velocity = 8, AngularVelocity = 16 };
  unsigned motion_flags = 0;  ///< 0: values
  std::vector<const StructNode*> nodes;
};

class StreamOutput final : public Element {
 public:
  StreamOutput(unsigned label, StreamOutputParams p);
  std::string_view kind() const override { return "output element"; }
  std::string_view type_name() const override { return "stream"; }
  void residual(ResidualSink&, const StepContext&) override {}
  void jacobian(JacobianSink&, const StepContext&) override {}
  void after_convergence(const StepContext& c) override;
  void after_predict(const StepContext& c) override;
  bool netcdf_listed() const override { return false; }  // MBDyn writes nothing for them
  std::string log_line() const override;
  /// The record sent at time t (also what the echo file shows).
  std::vector<double> record(double t) const;
  /// The number of values of a record.
  std::size_t channel_count() const;

 private:
  void exchange(double t);
  StreamOutputParams p_;
  SocketChannel channel_;
  int counter_ = -1;  ///< -1: the initial time comes next
  StreamEcho echo_;
};

}  // namespace mbl::elements

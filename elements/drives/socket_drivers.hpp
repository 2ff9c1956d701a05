#pragma once
// File drivers fed by a peer process through a socket (input manual §7.1.3 `socket`, §7.1.5
// `stream`). They serve their peer before each time step (a StepObserver, as MBDyn's
// DriveHandler::ServePending); until a peer writes, the channels keep their initial values.
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "elements/drives/file_driver.hpp"
#include "elements/input/socket_channel.hpp"
#include "elements/input/stream_echo.hpp"
#include "mbdyn-like/core/step_observer.hpp"
#include "parser/card_reader.hpp"

namespace mbl::drives {

/// §7.1.3: MBDyn listens (non-blocking); a peer that connects writes, in text,
///   [user: <name>\n password: <pw>\n] label: <channel>\n { value: <v>\n | inc: yes|no\n |
///   imp: yes|no\n } .\n
/// `value` sets the channel (adds to it in incremental mode; in impulsive mode the channel is
/// reset to zero after one step).
class SocketFileDriver final : public FileDriver, public StepObserver {
 public:
  SocketFileDriver(unsigned label, int channels, std::vector<double> initial_values,
                   elements::SocketAddress address);
  int channels() const override { return int(values_.size()); }
  double value(int column, double) const override { return values_[std::size_t(column - 1)]; }
  double derivative(int, double) const override { return 0.0; }
  void before_step(double t) override { serve_pending(); }
  /// Accepts and serves every peer that connected since the last call.
  void serve_pending();
  const elements::SocketAddress& address() const { return channel_.address(); }

 private:
  /// One connection's text commands; false (with a message) when they are malformed.
  bool serve(std::FILE* peer);
  std::vector<double> values_;
  std::vector<bool> incremental_, impulsive_;
  elements::SocketChannel channel_;
  bool listening_ = false, unavailable_ = false;
};

/// §7.1.5: MBDyn receives `channels` native doubles per record from its peer, at the initial time
/// (unless `receive first, no`) and then every `input every` steps, blocking until they arrive.
class StreamFileDriver final : public FileDriver, public StepObserver {
 public:
  struct Params {
    int channels = 0;
    std::vector<double> initial_values;  ///< empty: zeros
    elements::SocketAddress address;
    bool create = false;
    int input_every = 1;
    bool receive_first = true;
    bool non_blocking = false;
    double timeout = 0.0;  ///< seconds per read; 0: none
    elements::StreamEchoParams echo;  ///< no path: no echo
  };
  StreamFileDriver(unsigned label, Params p);
  int channels() const override { return p_.channels; }
  /// The first evaluation (initial assembly or derivatives) waits for the peer and receives the
  /// first record, as MBDyn does at the initial time.
  double value(int column, double t) const override;
  double derivative(int, double) const override { return 0.0; }
  void before_step(double t) override;
  const Params& params() const { return p_; }

 private:
  void start(double t) const;
  void serve(double t) const;
  Params p_;
  mutable std::vector<double> values_;
  mutable std::unique_ptr<elements::SocketChannel> channel_;
  mutable int counter_ = 0;
  mutable bool started_ = false;
  mutable elements::StreamEcho echo_;
};

/// `socket, ...` and `stream, ...` after `file: <label>,`; not_implemented for options whose
/// wire format is not supported (authentication other than `noauth`, content modifiers).
std::shared_ptr<SocketFileDriver> read_socket_driver(parser::CardReader& in, unsigned label);
std::shared_ptr<StreamFileDriver> read_stream_driver(parser::CardReader& in, unsigned label);

}  // namespace mbl::drives

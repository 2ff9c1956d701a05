#pragma once
// One POSIX stream socket to a peer process, as MBDyn's communication cards use them (socket and
// stream file drivers §7.1.3/§7.1.5, stream output elements §8.14, external forces §8.8.9):
// either MBDyn creates the socket (`create, yes`: it listens and a peer connects) or it connects to
// the peer's (`create, no`), in the local (`local`/`path`) or the inet (`port`, `host`) namespace.
// Sockets open when first used, i.e. when the simulation starts, never while the deck is read.
#include <cstddef>
#include <string>

namespace mbl::elements {

struct SocketAddress {
  bool local = false;
  std::string path;  ///< local namespace
  std::string host;  ///< inet: the interface listened on (create) or the peer (connect)
  int port = 0;
  /// "local socket \"/tmp/x.sock\"" or "inet port 9011 (host 127.0.0.1)"
  std::string describe() const;
};

class SocketChannel {
 public:
  /// `who` names the card in messages ("stream output 1").
  SocketChannel(SocketAddress address, bool create, std::string who);
  ~SocketChannel();
  SocketChannel(const SocketChannel&) = delete;
  SocketChannel& operator=(const SocketChannel&) = delete;

  const SocketAddress& address() const { return address_; }
  /// Creates the listening socket (create = yes). Throws std::runtime_error (bind failed, ...).
  void listen(bool nonblocking);
  /// A peer that connected since the last call, or -1 (listening socket in non-blocking mode).
  /// The caller owns the descriptor.
  int accept_pending();
  /// Makes the connection: waits for a peer to connect (create = yes; as MBDyn, for ever, saying
  /// so on stderr) or connects to the peer's socket (create = no; retries for 60 s as MBDyn).
  /// Throws std::runtime_error when that fails.
  void connect();
  bool connected() const { return fd_ >= 0; }
  /// Uses `fd`, an already connected stream socket (one end of a socketpair: the in-process
  /// fuzzing of the protocols, tests/fuzz/targets/fuzz_extforce.cpp); the channel owns it.
  void adopt(int fd);
  /// Reads exactly n bytes; false when the peer closed the connection (the channel is then
  /// abandoned, as MBDyn's). Throws std::runtime_error on other errors.
  bool receive(void* data, std::size_t n);
  /// Whether data (or the peer's close) arrives within `seconds` (0: already there).
  bool ready(double seconds);
  /// Writes n bytes; false when the peer is gone (no SIGPIPE is raised).
  bool send(const void* data, std::size_t n);
  /// After the peer closed: no further exchange (MBDyn's "abandoned").
  bool abandoned() const { return abandoned_; }
  void abandon();

 private:
  SocketAddress address_;
  bool create_;
  std::string who_;
  int listen_fd_ = -1;
  int fd_ = -1;
  bool abandoned_ = false;
};

}  // namespace mbl::elements

#pragma once
// The socket options of the stream file driver (input manual §7.1.5), the stream output elements
// (§8.14.1) and the socket communicator of the external forces (§8.8.9), read once for all three
// in the order MBDyn 2024 reads them (its socketstreamdrive.cc, socketstream_out_elem.cc,
// extsocket.cc):
//   [create, {yes | no},] [{local | path}, "<path>",] [port, <port>,] [host, "<host>",]
//   [socket type, {tcp | udp},]
// The cards differ only in what SocketRules says.
#include <optional>
#include <string>

#include "elements/input/socket_channel.hpp"
#include "parser/card_reader.hpp"

namespace mbl::elements {

struct SocketOptions {
  SocketAddress address;
  bool create = false;
  bool udp = false;  ///< `socket type, udp`
};

struct SocketRules {
  int default_port = 0;           ///< of an inet socket without `port`; 0: `port` is required
  bool connect_needs_host = false;  ///< an inet socket MBDyn connects to needs `host` (else 127.0.0.1)
  bool udp_creates = true;        ///< without `create`, `socket type, udp` means `create, yes`
  bool udp_create = true;         ///< the `create` that `socket type, udp` requires
  std::string_view udp_feature;   ///< reported not implemented when udp is accepted
};

/// `<port>`: 1 to 65535 (MBDyn stores it in 16 bits).
int read_port(parser::CardReader& in);
/// `"<path>"` of a local socket, `~` expanded as MBDyn's GetFileName does: as given (from the
/// working directory) when we `create` the socket, else found as a data file (resolve_path).
std::string read_socket_path(parser::CardReader& in, bool create);
/// The options above; nullopt when the card was reported not implemented (udp: sockets are
/// streams only), its rest skipped.
std::optional<SocketOptions> read_socket_options(parser::CardReader& in, const SocketRules& rules);

}  // namespace mbl::elements

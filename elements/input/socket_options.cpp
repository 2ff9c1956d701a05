#include "elements/input/socket_options.hpp"

#include <fmt/format.h>

#include "elements/input/file_path.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {

int read_port(parser::CardReader& in) {
  return int(parser::checked_integer(in, [](std::int64_t p) { return p >= 1 && p <= 65535; },
                                     "a port number from 1 to 65535"));
}

std::string read_socket_path(parser::CardReader& in, bool create) {
  const parser::SourceLocation at = in.location();
  // A socket we create is bound where MBDyn binds it, whatever files lie next to the deck.
  const std::string name = parser::read_file_name(in);
  return create ? name : resolve_path(at, name);
}

std::optional<SocketOptions> read_socket_options(parser::CardReader& in, const SocketRules& rules) {
  SocketOptions s;
  const bool create_given = in.keyword_is("create");
  if (create_given) s.create = in.boolean();
  const parser::SourceLocation address_at = in.location();
  if (in.keyword_is("local") || in.keyword_is("path")) {
    s.address.local = true;
    s.address.path = read_socket_path(in, s.create);  // udp may settle create later: not implemented
  }
  s.address.port = rules.default_port;
  if (const parser::SourceLocation at = in.location(); in.keyword_is("port")) {
    if (s.address.local) throw parser::InputError(at, "a local socket has no port");
    s.address.port = read_port(in);
  }
  const parser::SourceLocation host_at = in.location();
  const bool host_given = in.keyword_is("host");
  if (host_given) {
    if (s.address.local) throw parser::InputError(host_at, "a local socket has no host");
    s.address.host = in.string();
  }
  if (!s.address.local && s.address.port == 0)
    throw parser::InputError(address_at, "expected `path, \"<path>\"` or `port, <port>`");
  const parser::SourceLocation type_at = in.location();
  const bool type_given = in.keyword_is("socket type");
  if (type_given) {
    s.udp = in.keyword_is("udp");
    if (!s.udp && !in.keyword_is("tcp")) in.fail_expected("`tcp` or `udp`");
  }
  // `create` is settled (udp may imply it) before asking whether MBDyn connects.
  if (s.udp && !create_given && rules.udp_creates) s.create = true;
  if (rules.connect_needs_host && !host_given && !s.address.local && !s.create) {
    constexpr std::string_view host = "`host, \"<host>\"` (MBDyn connects to the peer's socket)";
    if (type_given) parser::fail_expected(host_at, host, "`socket type`");
    in.fail_expected(host);
  }
  if (!s.udp) return s;
  if (s.create != rules.udp_create)
    throw parser::InputError(type_at, fmt::format("`socket type, udp` needs `create, {}`", rules.udp_create ? "yes" : "no"));
  in.not_implemented(rules.udp_feature, type_at);
  return std::nullopt;
}

}  // namespace mbl::elements

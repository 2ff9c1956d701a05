#include "elements/drives/socket_drivers.hpp"
#include "parser/console.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include <cstring>
#include <iostream>
#include <stdexcept>

#include "elements/drives/drive_registry.hpp"
#include "elements/input/socket_options.hpp"
#include "parser/errors.hpp"

namespace mbl::drives {

namespace {

constexpr int socket_driver_default_port = 9011;  // §7.1.3
constexpr int stream_driver_default_port = 9012;  // MBDyn's socketstreamdrive.cc (the manual says 9011)

std::string who(unsigned label) { return fmt::format("file driver {}", label); }

/// One text line without its end of line; false at the end of the stream.
bool read_line(std::FILE* f, std::string& line) {
  line.clear();
  for (int c; (c = std::fgetc(f)) != EOF;) {
    if (c == '\n') {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return true;
    }
    line.push_back(char(c));
  }
  return !line.empty();
}

/// The text after `key:` (case-insensitive key, blanks skipped), or nullopt.
std::optional<std::string> field(const std::string& line, std::string_view key) {
  if (line.size() < key.size() || strncasecmp(line.c_str(), key.data(), key.size()) != 0)
    return std::nullopt;
  const auto start = line.find_first_not_of(" \t", key.size());
  return start == std::string::npos ? std::string() : line.substr(start);
}

std::optional<bool> yes_no(const std::string& text) {
  if (strncasecmp(text.c_str(), "yes", 3) == 0) return true;
  if (strncasecmp(text.c_str(), "no", 2) == 0) return false;
  return std::nullopt;
}

}  // namespace

// ---- socket (§7.1.3) ---------------------------------------------------------------------------

SocketFileDriver::SocketFileDriver(unsigned label, int channels, std::vector<double> initial_values,
                                   elements::SocketAddress address)
    : FileDriver(label),
      values_(initial_values.empty() ? std::vector<double>(std::size_t(channels), 0.0)
                                     : std::move(initial_values)),
      incremental_(std::size_t(channels), false), impulsive_(std::size_t(channels), false),
      channel_(std::move(address), true, who(label)) {}

void SocketFileDriver::serve_pending() {
  if (unavailable_) return;
  if (!listening_) {
    try {
      channel_.listen(true);
    } catch (const std::runtime_error& e) {
      // With no peer to write, the channels keep their initial values: the run goes on (MBDyn
      // would stop here; another run on this machine holds the address).
      console_note() << fmt::format("warning: {}; its channels keep their initial values\n", e.what());
      unavailable_ = true;
      return;
    }
    listening_ = true;
    console_note() << fmt::format("{}: listening on {}; its channels keep their values until a peer "
                             "writes\n",
                             who(label()), channel_.address().describe());
  }
  // An impulsive value lasts one step.
  for (std::size_t i = 0; i < values_.size(); ++i)
    if (impulsive_[i]) values_[i] = 0.0;
  for (int fd; (fd = channel_.accept_pending()) >= 0;) {
    std::FILE* peer = ::fdopen(fd, "r");
    if (!peer) {
      ::close(fd);
      continue;
    }
    if (!serve(peer)) console_note() << fmt::format("{}: corrupted stream from a peer\n", who(label()));
    std::fclose(peer);
  }
}

bool SocketFileDriver::serve(std::FILE* peer) {
  std::string line;
  if (!read_line(peer, line)) return false;
  // Credentials are accepted as they come: the driver authenticates with `noauth` only.
  if (field(line, "user:")) {
    if (!read_line(peer, line)) return false;
    if (field(line, "password:") && !read_line(peer, line)) return false;
  }
  const auto label_text = field(line, "label:");
  if (!label_text) return false;
  char* end = nullptr;
  const long channel = std::strtol(label_text->c_str(), &end, 10);
  if (end == label_text->c_str() || channel < 1 || channel > channels()) return false;
  const auto c = std::size_t(channel - 1);
  while (read_line(peer, line)) {
    if (!line.empty() && line[0] == '.') return true;
    if (const auto v = field(line, "value:")) {
      const double x = std::strtod(v->c_str(), &end);
      if (end == v->c_str()) return false;
      values_[c] = incremental_[c] ? values_[c] + x : x;
    } else if (const auto inc = field(line, "inc:")) {
      const auto b = yes_no(*inc);
      if (!b) return false;
      incremental_[c] = *b;
    } else if (const auto imp = field(line, "imp:")) {
      const auto b = yes_no(*imp);
      if (!b) return false;
      impulsive_[c] = *b;
    }
  }
  return false;  // no closing "."
}

std::shared_ptr<SocketFileDriver> read_socket_driver(parser::CardReader& in, unsigned label) {
  const int channels = int(read_count(in, 1, "the number of channels"));
  std::vector<double> initial;
  if (in.keyword_is("initial values"))
    for (int i = 0; i < channels; ++i) initial.push_back(in.real());
  elements::SocketAddress address;
  address.port = socket_driver_default_port;
  if (in.keyword_is("local")) {
    address.local = true;
    address.path = elements::read_socket_path(in, true);  // the driver listens on it
  } else {
    if (in.keyword_is("port")) address.port = elements::read_port(in);
    // Authentication (MBDyn's ReadAuthMethod): peers are trusted (`noauth`) only.
    if (in.keyword_is("password") || in.keyword_is("pam") || in.keyword_is("sasl") ||
        in.keyword_is("pwdb")) {
      in.not_implemented("socket file driver authentication other than `noauth`");
      return nullptr;
    }
    if (!in.keyword_is("noauth")) in.fail_expected("an authentication method (`noauth`)");
  }
  return std::make_shared<SocketFileDriver>(label, channels, std::move(initial), std::move(address));
}

// ---- stream (§7.1.5) ---------------------------------------------------------------------------

StreamFileDriver::StreamFileDriver(unsigned label, Params p)
    : FileDriver(label), p_(std::move(p)),
      values_(p_.initial_values.empty() ? std::vector<double>(std::size_t(p_.channels), 0.0)
                                        : p_.initial_values),
      // As MBDyn's: the first serve reads (the initial time), then every `input every` serves;
      // without `receive first` the first read comes `input every` steps later.
      counter_(p_.receive_first ? p_.input_every - 1 : -1) {}

double StreamFileDriver::value(int column, double t) const {
  if (!started_) start(t);
  return values_[std::size_t(column - 1)];
}

void StreamFileDriver::before_step(double t) {
  if (!started_) start(t);
  serve(t);
}

void StreamFileDriver::start(double t) const {
  started_ = true;
  channel_ = std::make_unique<elements::SocketChannel>(p_.address, p_.create, who(label()));
  try {
    channel_->connect();
  } catch (const std::runtime_error& e) {
    throw EvaluationError(e.what());
  }
  if (!p_.echo.path.empty() && !echo_.open(p_.echo, "SocketStreamDrive", label(), values_.size(), true))
    throw EvaluationError(fmt::format("{}: cannot open the echo file \"{}\"", who(label()), p_.echo.path));
  serve(t);  // the initial time
}

void StreamFileDriver::serve(double t) const {
  if (channel_->abandoned()) return;
  if (++counter_ != p_.input_every) return;
  counter_ = 0;
  std::vector<double> record(values_.size());
  // Wait at most the timeout (non blocking: not at all) for the record to arrive.
  if (p_.timeout > 0.0 || p_.non_blocking) {
    if (!channel_->ready(p_.non_blocking ? 0.0 : p_.timeout)) {
      if (p_.non_blocking) return;  // nothing yet: keep the values
      throw EvaluationError(fmt::format("{}: no data from the peer within the timeout of {} s",
                                        who(label()), p_.timeout));
    }
  }
  try {
    if (!channel_->receive(record.data(), record.size() * sizeof(double))) return;
  } catch (const std::runtime_error& e) {
    throw EvaluationError(e.what());
  }
  values_ = record;
  echo_.write(values_, t);
}

std::shared_ptr<StreamFileDriver> read_stream_driver(parser::CardReader& in, unsigned label) {
  StreamFileDriver::Params p;
  if (!in.keyword_is("name") && !in.keyword_is("stream drive name"))
    in.fail_expected("`stream drive name, \"<name>\"`");
  (void)in.string();  // only RTAI mailboxes use the name
  // MBDyn receives: over udp it creates the socket.
  const auto socket = elements::read_socket_options(
      in, {.default_port = stream_driver_default_port, .udp_creates = true, .udp_create = true,
           .udp_feature = "stream file driver over udp"});
  if (!socket) return nullptr;
  p.address = socket->address;
  p.create = socket->create;
  for (;;) {
    if (in.keyword_is("no signal") || in.keyword_is("signal") || in.keyword_is("blocking"))
      continue;  // reads raise no SIGPIPE; blocking is the default
    if (in.keyword_is("non blocking")) {
      p.non_blocking = true;
      continue;
    }
    break;
  }
  if (in.keyword_is("input every")) p.input_every = int(read_count(in, 1, "a number of steps"));
  if (in.keyword_is("receive first")) p.receive_first = in.boolean();
  if (in.keyword_is("timeout")) {
    const parser::SourceLocation at = in.location();
    p.timeout = in.real();
    if (p.timeout < 0.0) throw parser::InputError(at, fmt::format("expected a timeout >= 0, found {}", p.timeout));
  }
  if (in.keyword_is("echo")) p.echo = elements::read_stream_echo(in);
  p.channels = int(read_count(in, 1, "the number of channels"));
  if (in.keyword_is("initial values"))
    for (int i = 0; i < p.channels; ++i) p.initial_values.push_back(in.real());
  if (in.keyword_is("modifier")) {
    if (!in.keyword_is("copy")) {
      in.not_implemented("stream file driver content modifier `copy cast`");
      return nullptr;
    }
  }
  return std::make_shared<StreamFileDriver>(label, std::move(p));
}

}  // namespace mbl::drives

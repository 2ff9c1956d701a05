#include "elements/input/socket_channel.hpp"
#include "parser/console.hpp"

#include "mbdyn-like/core/interruption.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <poll.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <thread>

namespace mbl::elements {

std::string SocketAddress::describe() const {
  if (local) return fmt::format("local socket \"{}\"", path);
  return fmt::format("inet port {} (host {})", port, host.empty() ? "any" : host);
}

namespace {

std::string errno_text() { return std::strerror(errno); }

/// A wait cut short by a signal: gives up when it asked the run to stop (never returns true).
bool interrupted(const std::string& who) {
  if (interruption_signal()) throw Interruption(fmt::format("{}: interrupted while waiting for the peer", who));
  return false;
}

/// The socket address of `a`; inet hosts are resolved (an empty host is any interface).
struct RawAddress {
  sockaddr_storage storage{};
  socklen_t length = 0;
  int family = AF_INET;
};

RawAddress raw_address(const SocketAddress& a, bool listening, const std::string& who) {
  RawAddress r;
  if (a.local) {
    auto* un = reinterpret_cast<sockaddr_un*>(&r.storage);
    if (a.path.size() >= sizeof(un->sun_path))
      throw std::runtime_error(fmt::format("{}: socket path \"{}\" is too long", who, a.path));
    un->sun_family = AF_UNIX;
    std::memcpy(un->sun_path, a.path.c_str(), a.path.size() + 1);
    r.length = socklen_t(offsetof(sockaddr_un, sun_path) + a.path.size() + 1);
    r.family = AF_UNIX;
    return r;
  }
  auto* in = reinterpret_cast<sockaddr_in*>(&r.storage);
  in->sin_family = AF_INET;
  in->sin_port = htons(std::uint16_t(a.port));
  r.length = sizeof(sockaddr_in);
  const std::string host = a.host.empty() && !listening ? "127.0.0.1" : a.host;
  if (host.empty()) {
    in->sin_addr.s_addr = htonl(INADDR_ANY);
  } else if (inet_pton(AF_INET, host.c_str(), &in->sin_addr) != 1) {
    addrinfo hints{};
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (getaddrinfo(host.c_str(), nullptr, &hints, &found) != 0 || !found)
      throw std::runtime_error(fmt::format("{}: cannot resolve host \"{}\"", who, host));
    in->sin_addr = reinterpret_cast<sockaddr_in*>(found->ai_addr)->sin_addr;
    freeaddrinfo(found);
  }
  return r;
}

void set_nonblocking(int fd, bool on) {
  const int flags = fcntl(fd, F_GETFL, 0);
  fcntl(fd, F_SETFL, on ? (flags | O_NONBLOCK) : (flags & ~O_NONBLOCK));
}

}  // namespace

SocketChannel::SocketChannel(SocketAddress address, bool create, std::string who)
    : address_(std::move(address)), create_(create), who_(std::move(who)) {}

SocketChannel::~SocketChannel() {
  if (fd_ >= 0) ::close(fd_);
  if (listen_fd_ >= 0) {
    ::close(listen_fd_);
    if (address_.local) ::unlink(address_.path.c_str());
  }
}

void SocketChannel::listen(bool nonblocking) {
  if (listen_fd_ >= 0) return;
  const RawAddress a = raw_address(address_, true, who_);
  const int fd = ::socket(a.family, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error(fmt::format("{}: socket failed ({})", who_, errno_text()));
  if (address_.local) {
    ::unlink(address_.path.c_str());  // a socket file left by an earlier run
  } else {
    const int yes = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  }
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&a.storage), a.length) != 0) {
    const std::string why = errno_text();
    ::close(fd);
    throw std::runtime_error(fmt::format("{}: cannot listen on {}: bind failed ({})", who_,
                                         address_.describe(), why));
  }
  if (::listen(fd, 1) != 0) {
    const std::string why = errno_text();
    ::close(fd);
    throw std::runtime_error(fmt::format("{}: listen failed ({})", who_, why));
  }
  set_nonblocking(fd, nonblocking);
  listen_fd_ = fd;
}

int SocketChannel::accept_pending() {
  if (listen_fd_ < 0) return -1;
  const int fd = ::accept(listen_fd_, nullptr, nullptr);
  if (fd >= 0) set_nonblocking(fd, false);
  return fd;
}

void SocketChannel::connect() {
  if (fd_ >= 0 || abandoned_) return;
  if (create_) {
    listen(false);
    console_note() << fmt::format("{}: waiting for a peer to connect on {}\n", who_, address_.describe());
    do fd_ = ::accept(listen_fd_, nullptr, nullptr);
    while (fd_ < 0 && errno == EINTR && !interrupted(who_));
    if (fd_ < 0) throw std::runtime_error(fmt::format("{}: accept failed ({})", who_, errno_text()));
    console_note() << fmt::format("{}: peer connected\n", who_);
    return;
  }
  // MBDyn retries for 60 s, then gives up.
  const RawAddress a = raw_address(address_, false, who_);
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  console_note() << fmt::format("{}: connecting to the peer's {}\n", who_, address_.describe());
  for (;;) {
    const int fd = ::socket(a.family, SOCK_STREAM, 0);
    if (fd < 0) throw std::runtime_error(fmt::format("{}: socket failed ({})", who_, errno_text()));
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&a.storage), a.length) == 0) {
      fd_ = fd;
      return;
    }
    ::close(fd);
    if (std::chrono::steady_clock::now() > give_up)
      throw std::runtime_error(fmt::format("{}: no peer accepted a connection on {} within 60 s",
                                           who_, address_.describe()));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

void SocketChannel::adopt(int fd) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
  abandoned_ = false;
}

void SocketChannel::abandon() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  abandoned_ = true;
}

bool SocketChannel::receive(void* data, std::size_t n) {
  connect();
  if (abandoned_) return false;
  auto* p = static_cast<char*>(data);
  while (n > 0) {
    const ssize_t got = ::recv(fd_, p, n, MSG_WAITALL);
    if (got == 0 || (got < 0 && errno == ECONNRESET)) {
      console_note() << fmt::format("{}: communication closed by the peer; abandoning\n", who_);
      abandon();
      return false;
    }
    if (got < 0) {
      if (errno == EINTR && !interrupted(who_)) continue;
      throw std::runtime_error(fmt::format("{}: recv failed ({})", who_, errno_text()));
    }
    p += got;
    n -= std::size_t(got);
  }
  return true;
}

bool SocketChannel::ready(double seconds) {
  connect();
  if (abandoned_) return true;
  pollfd p{fd_, POLLIN, 0};
  int n;
  do n = ::poll(&p, 1, int(seconds * 1000.0));
  while (n < 0 && errno == EINTR && !interrupted(who_));
  return n > 0;
}

bool SocketChannel::send(const void* data, std::size_t n) {
  connect();
  if (abandoned_) return false;
  const auto* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t sent = ::send(fd_, p, n, MSG_NOSIGNAL);
    if (sent < 0) {
      if (errno == EINTR) continue;
      console_note() << fmt::format("{}: send failed ({}); abandoning\n", who_, errno_text());
      abandon();
      return false;
    }
    p += sent;
    n -= std::size_t(sent);
  }
  return true;
}

}  // namespace mbl::elements

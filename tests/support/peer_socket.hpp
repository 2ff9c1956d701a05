#pragma once
// The peer side of the program's local sockets in tests (stream elements, external forces):
// connecting, reading whole records, and libmbc's command bytes (libmbc/mbc.h).
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>

namespace mbl::test {

constexpr std::uint8_t ES_REGULAR_DATA = 2, ES_GOTO_NEXT_STEP = 4, ES_ABORT = 5, ES_NEGOTIATION = 7, ES_OK = 8;

/// A client of a local socket; retries while the program is not listening yet.
inline int connect_local(const std::string& path) {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::strncpy(a.sun_path, path.c_str(), sizeof(a.sun_path) - 1);
  for (int attempt = 0; attempt < 3000; ++attempt) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) return fd;
    ::close(fd);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return -1;
}

inline bool receive_exactly(int fd, void* data, std::size_t n) { return ::recv(fd, data, n, MSG_WAITALL) == ssize_t(n); }

}  // namespace mbl::test

#pragma once
// A modal peer of the external modal (mapping) force's socket communicator, written from our
// reading of libmbc's modal protocol (MBDyn's libraries/libmbc/mbc.c: mbc_modal_init, whose rigid
// part is mbc_rigid_init with an orientation matrix and no labels):
//
// negotiation: u8 ES_NEGOTIATION, u32 MBC_MODAL | [MBC_REF_NODE], u32 number of modes; answer
// u8 ES_OK / ES_ABORT.
// kinematics (after u8 ES_REGULAR_DATA), native doubles: [rigid: x, R (column-major), v, omega],
//   q[modes], q'[modes];
// dynamics (after u8 ES_REGULAR_DATA, or ES_GOTO_NEXT_STEP alone on convergence):
//   [rigid: F, M], p[modes].
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

#include "support/peer_socket.hpp"

namespace mbl::test {

struct MbcModalMotion {
  std::vector<double> rigid;  ///< x, R (column-major), v, omega (18 values) with the rigid part
  std::vector<double> q, qp;
};

class MbcModalPeer {
 public:
  MbcModalPeer(bool rigid, std::uint32_t modes) : rigid_(rigid), modes_(modes) {}

  bool connect_and_negotiate(const std::string& path) {
    fd_ = connect_local(path);
    if (fd_ < 0) return false;
    const std::uint8_t request = ES_NEGOTIATION;
    const std::uint32_t words[2] = {0x0001u | (rigid_ ? 0x0004u : 0u), modes_};
    if (::send(fd_, &request, 1, 0) != 1 || ::send(fd_, words, sizeof words, 0) != ssize_t(sizeof words)) return false;
    std::uint8_t answer = 0;
    return receive_exactly(fd_, &answer, 1) && answer == ES_OK;
  }

  /// Reads the next command; false on ES_ABORT or a closed socket.
  bool get_motion(MbcModalMotion& m) {
    std::uint8_t cmd = 0;
    if (!receive_exactly(fd_, &cmd, 1) || cmd != ES_REGULAR_DATA) return false;
    m.rigid.resize(rigid_ ? 18 : 0);
    m.q.resize(modes_);
    m.qp.resize(modes_);
    return take(m.rigid) && take(m.q) && take(m.qp);
  }

  bool put_forces(const double F[3], const double M[3], const std::vector<double>& p) {
    std::vector<char> out(1, char(ES_REGULAR_DATA));
    auto put = [&](const void* d, std::size_t n) {
      const char* c = static_cast<const char*>(d);
      out.insert(out.end(), c, c + n);
    };
    if (rigid_) {
      put(F, 3 * sizeof(double));
      put(M, 3 * sizeof(double));
    }
    put(p.data(), modes_ * sizeof(double));
    return ::send(fd_, out.data(), out.size(), 0) == ssize_t(out.size());
  }

  bool converged() {
    const std::uint8_t next = ES_GOTO_NEXT_STEP;
    return ::send(fd_, &next, 1, 0) == 1;
  }

  ~MbcModalPeer() {
    if (fd_ >= 0) ::close(fd_);
  }

 private:
  bool take(std::vector<double>& v) { return v.empty() || receive_exactly(fd_, v.data(), v.size() * sizeof(double)); }
  bool rigid_;
  std::uint32_t modes_;
  int fd_ = -1;
};

}  // namespace mbl::test

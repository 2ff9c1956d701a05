#pragma once
// A nodal peer of the external structural force's socket communicator, written from our reading
// of libmbc's protocol (MBDyn's libraries/libmbc/mbc.h and mbc.c: mbc_rigid_init, mbc_nodal_init):
//
// negotiation: u8 ES_NEGOTIATION, u32 flags, u32 number of nodes; answer u8 ES_OK / ES_ABORT.
// flags: MBC_NODAL | MBC_REF_NODE? | MBC_ACCELS? | MBC_LABELS? | rotation (THETA 0x100, MAT
// 0x200, EULER_123 0x400) | the reference node's rotation shifted by 4 (0 = the nodes').
//
// kinematics (after u8 ES_REGULAR_DATA), native doubles:
//   reference node: [u32 label, u32 0], x, rotation (reference format: its own, else the nodes',
//     else THETA; R column-major), v, omega, [a, omega'];
//   nodes: [N u32 labels, padded to even], x[N], rotation[N], v[N], [omega[N]], [a[N], [omega'[N]]]
//   (omega and omega' only with a rotation).
// dynamics (after u8 ES_REGULAR_DATA, or ES_GOTO_NEXT_STEP alone on convergence):
//   reference node: [u32 label, u32 0], F, M; nodes: [labels], F[N], [M[N] with a rotation].
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "support/peer_socket.hpp"

namespace mbl::test {

struct MbcNodalFlags {
  bool reference = false;
  std::uint32_t rotation = 0;            ///< 0, 0x100 (theta), 0x200 (matrix), 0x400 (Euler 123)
  std::uint32_t reference_rotation = 0;  ///< 0: the nodes' (libmbc's default)
  bool labels = false;
  bool accelerations = false;
  std::uint32_t nodes = 1;

  std::uint32_t word() const {
    return 0x0002u | (reference ? 0x0004u : 0u) | (accelerations ? 0x0008u : 0u) | (labels ? 0x0010u : 0u) |
           rotation | (reference_rotation << 4);
  }
  static std::size_t rotation_size(std::uint32_t r) { return r == 0x200 ? 9 : r == 0 ? 0 : 3; }
  /// The reference node's rotation format as libmbc lays it out.
  std::uint32_t reference_format() const {
    return reference_rotation ? reference_rotation : rotation ? rotation : 0x100;
  }
};

/// One kinematics record, decoded.
struct MbcNodalMotion {
  std::uint32_t reference_label = 0;
  std::vector<double> reference;  ///< x, rotation, v, omega, [a, omega'] of the reference node
  std::vector<std::uint32_t> labels;
  std::vector<double> x, rotation, v, omega, a, omegap;  ///< nodes, 3 (or 9) per node
};

class MbcNodalPeer {
 public:
  explicit MbcNodalPeer(MbcNodalFlags f) : f_(f) {}

  /// Connects to `path` (the program created it) and negotiates; true on ES_OK.
  bool connect_and_negotiate(const std::string& path) {
    fd_ = connect_local(path);
    if (fd_ < 0) return false;
    const std::uint8_t request = ES_NEGOTIATION;
    const std::uint32_t words[2] = {f_.word(), f_.nodes};
    if (::send(fd_, &request, 1, 0) != 1 || ::send(fd_, words, sizeof words, 0) != ssize_t(sizeof words)) return false;
    std::uint8_t answer = 0;
    return receive_exactly(fd_, &answer, 1) && answer == ES_OK;
  }

  /// Reads the next command; returns false on ES_ABORT or a closed socket; fills `m`.
  bool get_motion(MbcNodalMotion& m) {
    std::uint8_t cmd = 0;
    if (!receive_exactly(fd_, &cmd, 1) || cmd != ES_REGULAR_DATA) return false;
    const std::size_t N = f_.nodes, rs = MbcNodalFlags::rotation_size(f_.rotation);
    if (f_.reference) {
      if (f_.labels) {
        std::uint32_t l[2];
        if (!receive_exactly(fd_, l, sizeof l)) return false;
        m.reference_label = l[0];
      }
      m.reference.resize(3 + MbcNodalFlags::rotation_size(f_.reference_format()) + 6 + (f_.accelerations ? 6 : 0));
      if (!take(m.reference)) return false;
    }
    if (f_.labels) {
      m.labels.resize(N + N % 2);
      if (!receive_exactly(fd_, m.labels.data(), m.labels.size() * sizeof(std::uint32_t))) return false;
      m.labels.resize(N);
    }
    m.x.resize(3 * N);
    m.rotation.resize(rs * N);
    m.v.resize(3 * N);
    m.omega.resize(rs ? 3 * N : 0);
    m.a.resize(f_.accelerations ? 3 * N : 0);
    m.omegap.resize(f_.accelerations && rs ? 3 * N : 0);
    return take(m.x) && take(m.rotation) && take(m.v) && take(m.omega) && take(m.a) && take(m.omegap);
  }

  /// Sends forces (and moments with a rotation) for the nodes, and F, M for the reference node.
  bool put_forces(const std::vector<std::uint32_t>& labels, const std::vector<double>& f,
                  const std::vector<double>& m, const double F_ref[3], const double M_ref[3],
                  std::uint32_t reference_label) {
    std::vector<char> out(1, char(ES_REGULAR_DATA));
    auto put = [&](const void* p, std::size_t n) {
      const char* c = static_cast<const char*>(p);
      out.insert(out.end(), c, c + n);
    };
    if (f_.reference) {
      if (f_.labels) {
        const std::uint32_t l[2] = {reference_label, 0};
        put(l, sizeof l);
      }
      put(F_ref, 3 * sizeof(double));
      put(M_ref, 3 * sizeof(double));
    }
    if (f_.labels) {
      std::vector<std::uint32_t> l(labels);
      l.resize(f_.nodes + f_.nodes % 2, 0);
      put(l.data(), l.size() * sizeof(std::uint32_t));
    }
    put(f.data(), 3 * f_.nodes * sizeof(double));
    if (f_.rotation) put(m.data(), 3 * f_.nodes * sizeof(double));
    return ::send(fd_, out.data(), out.size(), 0) == ssize_t(out.size());
  }

  bool converged() {
    const std::uint8_t next = ES_GOTO_NEXT_STEP;
    return ::send(fd_, &next, 1, 0) == 1;
  }

  ~MbcNodalPeer() {
    if (fd_ >= 0) ::close(fd_);
  }

 private:
  bool take(std::vector<double>& v) {
    return v.empty() || receive_exactly(fd_, v.data(), v.size() * sizeof(double));
  }
  MbcNodalFlags f_;
  int fd_ = -1;
};

}  // namespace mbl::test

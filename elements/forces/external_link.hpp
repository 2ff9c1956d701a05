#pragma once
// The link of an external force (input manual §8.8.9) with its peer process: the communicator
// (file, EDGE or socket) and MBDyn's coupling schedule (its extforce.cc, extedge.cc):
//   - start (before the derivatives phase): the socket negotiation; below tight coupling the
//     initial motion is sent;
//   - after the prediction: the predicted motion is sent (`send after predict`, loose and tight);
//   - at each residual assembly: the loads are received (tight: after each sent motion; loose and
//     staggered: at the first assembly of the step); between two assemblies of one step (MBDyn's
//     update after each Newton correction) the new motion is sent (tight: every `coupling`-th
//     correction);
//   - after convergence: the motion is sent (staggered and `send after predict, no`).
// Tight coupling ends a step when the peer says it converged (EDGE flag 4, socket
// ES_GOTO_NEXT_STEP / ES_REGULAR_DATA_AND_GOTO_NEXT_STEP; the file communicator always does). Our
// Newton does not wait for it: when it converges first, the exchange goes on (motion, loads)
// until the peer converges, and the step ends with the peer's last loads.
//
// File communicator: motion written to `<output>.tmp` then renamed to `<output>` (with
// `no clobber`, only once the peer removed the previous one); loads read from `<input>` (waited
// for; removed after reading with `unlink`).
// EDGE communicator: one data file both ways and a flag file "UPDATE,N,0,0,1\nFLAG,I,1,1,0\n<d>",
// d: 0 peer initialising, 1 busy, 2 ready (MBDyn may read loads and write motion), 3 MBDyn wrote
// the motion, 4 the peer converged (go to the next step), 5 the peer quits. MBDyn writes the
// motion when the flag is 2 or 4, then sets 3; it reads loads when the flag is 2.
// Waits are those of MBDyn: for ever while the peer is busy or a file is missing (MBDyn sleeps
// `sleep time` between looks; we look every 2 ms at most, which changes no result); a flag file
// that stays malformed fails after 10 retries. SIGINT/SIGTERM twice kills a waiting program.
#include <array>
#include <cstdint>
#include <fstream>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "elements/input/socket_channel.hpp"
#include "mbdyn-like/core/types.hpp"

namespace mbl::elements {

struct ExternalCommunicator {
  enum class Kind { File, Edge, Socket } kind = Kind::File;
  // file
  std::string input_file, output_file;
  bool unlink_input = false, no_clobber = false;
  // EDGE
  std::string flag_file, data_file;
  // socket
  SocketAddress address;
  bool create = false;
  // common parameters
  double sleep_s = 1.0;   ///< file and EDGE: at least 1 s (MBDyn's minimum); socket: 0
  int precision = 6;      ///< digits of the text files (MBDyn's default; 0: the stream's)
  static constexpr int kNone = -2, kStaggered = -1, kLoose = 0;
  int coupling = kLoose;  ///< MBDyn's iCoupling: none, staggered, loose, or tight every n >= 1 iterations
  bool send_after_predict = true;
};

/// The element's side of the exchange: what it sends and what it receives, per communicator.
/// libmbc's negotiation flags (MBDyn's libraries/libmbc/mbc.h, read).
enum : std::uint32_t {
  MBC_MODAL = 0x0001, MBC_NODAL = 0x0002, MBC_MODAL_NODAL_MASK = 0x0003,
  MBC_REF_NODE = 0x0004, MBC_ACCELS = 0x0008, MBC_LABELS = 0x0010,
  MBC_ROT_THETA = 0x0100, MBC_ROT_MAT = 0x0200, MBC_ROT_EULER_123 = 0x0400, MBC_ROT_MASK = 0x0700,
  /// The reference node's rotation format (a MBC_ROT_* shifted by 4): libmbc's peers set it,
  /// MBDyn's StructExtForce/ExtModalForce never compare it.
  MBC_REF_NODE_ROT_MASK = MBC_ROT_MASK << 4,
};

class ExternalPeer {
 public:
  virtual ~ExternalPeer() = default;
  /// The libmbc negotiation words (flags, number of points or modes) of the socket communicator.
  virtual std::array<std::uint32_t, 2> negotiation() const = 0;
  /// The flag bits that must agree with the peer's (MBDyn's CheckProblemsMatch: nodal: kind,
  /// reference node, rotation format, labels, accelerations; modal: kind and reference node);
  /// the count must always agree.
  virtual std::uint32_t negotiation_mask() const = 0;
  /// The flags agreed on (the peer's when it asked, ours when we asked): a peer may choose
  /// details MBDyn does not compare, e.g. its reference node's rotation format.
  virtual void negotiated(std::uint32_t flags) { (void)flags; }
  /// The motion as text (file: MBDyn's stream format; EDGE: its EDGE format).
  virtual void write_motion(std::ostream& os, ExternalCommunicator::Kind kind) const = 0;
  /// Appends the motion record of the socket communicator to `record` (after the command byte;
  /// the link keeps the buffer across exchanges).
  virtual void append_motion_bytes(std::vector<char>& record) const = 0;
  /// Reads the loads from text (file or EDGE); throws EvaluationError on malformed data.
  virtual void read_loads(std::istream& is, ExternalCommunicator::Kind kind) = 0;
  /// Size of the socket loads record, and its decoding.
  virtual std::size_t load_bytes() const = 0;
  virtual void read_loads(std::span<const char> record) = 0;
};

/// The loads of an external force's reference node (MBDyn's strext.cc, strmappingext.cc,
/// modalmappingext.cc): F0, M0 as the peer sent them; F2, M2 the resultant of the other loads
/// about the reference node (global); F1, M1 applied to it: F0, M0 (rotated by its R unless the
/// card says not to) minus F2, M2.
struct ReferenceNodeLoads {
  Vec3 F0 = Vec3::Zero(), M0 = Vec3::Zero(), F1 = Vec3::Zero(), M1 = Vec3::Zero(), F2 = Vec3::Zero(),
       M2 = Vec3::Zero();
  void clear_resultant() {
    F2.setZero();
    M2.setZero();
  }
  /// Adds a load F, M applied at `arm` from the reference node.
  void add(const Vec3& F, const Vec3& M, const Vec3& arm) {
    F2 += F;
    M2 += M + arm.cross(F);
  }
  void share(const Mat3& R_reference, bool rotate) {
    F1 = (rotate ? Vec3(R_reference * F0) : F0) - F2;
    M1 = (rotate ? Vec3(R_reference * M0) : M0) - M2;
  }
  /// F0, M0, F1, M1, F2, M2: the order of MBDyn's .frc line.
  std::array<const Vec3*, 6> columns() const { return {&F0, &M0, &F1, &M1, &F2, &M2}; }
};

/// Throws EvaluationError when a load the peer sent is NaN or infinite: it would reach the
/// residual and fail the step as "not a number", far from its cause. `who` names the card,
/// `what` the value ("force of point 20").
void require_finite_load(double v, std::string_view who, std::string_view what);

/// The fields of a line of an EDGE file: separated by blanks and at most one comma.
std::vector<std::string> edge_fields(const std::string& line);
/// Whether `fields` are `name` (any case) followed by `rest`.
bool edge_header_is(const std::vector<std::string>& fields, std::string_view name, std::vector<std::string_view> rest);
/// Writes `values` as EDGE does: six a line.
void write_edge_values(std::ostream& os, const std::vector<double>& values);

class ExternalLink {
 public:
  ExternalLink(ExternalCommunicator c, std::string who);
  /// A socket link over a channel already connected (the protocol's fuzz target).
  ExternalLink(ExternalCommunicator c, std::string who, std::unique_ptr<SocketChannel> channel);
  /// Tells the peer the simulation ended, as MBDyn does (socket: ES_ABORT; EDGE: flag 5 when the
  /// peer waits for MBDyn).
  ~ExternalLink();
  ExternalLink(const ExternalLink&) = delete;
  ExternalLink& operator=(const ExternalLink&) = delete;

  const ExternalCommunicator& communicator() const { return c_; }
  /// Whether the loads enter the residual (not under `coupling, none`).
  bool applies_loads() const { return c_.coupling != ExternalCommunicator::kNone; }

  void after_predict(ExternalPeer& peer);
  /// The exchanges before a residual assembly (not during the initial assembly).
  void before_residual(ExternalPeer& peer);
  void after_convergence(ExternalPeer& peer);
  /// The vote of a tightly coupled link on the Newton convergence (MBDyn's ExtForce Converged
  /// member, registered above loose coupling): not converged from the prediction until the peer
  /// answers that it has converged (or has gone); loose links always agree.
  bool converged() const {
    return !tight() || !predicted_ || peer_converged_ || peer_quit_ || (socket_ && socket_->abandoned());
  }

 private:
  enum class SendWhen { FirstTime, Regular, AfterConvergence };
  bool tight() const { return c_.coupling >= 1; }
  void start(ExternalPeer& peer);
  void negotiate(ExternalPeer& peer);
  void update(ExternalPeer& peer);
  void send(ExternalPeer& peer, SendWhen when);
  void receive(ExternalPeer& peer);
  // communicator primitives (MBDyn's ExtFileHandler Send_pre/post, Recv_pre/post)
  bool send_begin(SendWhen when);
  void send_end(SendWhen when);
  bool receive_begin();
  bool receive_end();
  // EDGE flag file
  /// The flag's command; waits while the file is missing (else -1).
  int read_flag(bool wait);
  void write_flag(int flag);
  void pause();
  void say_waiting(const std::string& what);

  ExternalCommunicator c_;
  std::string who_;
  std::unique_ptr<SocketChannel> socket_;
  std::ofstream out_;
  std::ifstream in_;
  std::vector<char> socket_out_, socket_in_;  ///< socket records, kept across exchanges
  bool started_ = false;
  bool predicted_ = false;      ///< a step's prediction was made: later assemblies follow corrections
  bool assembled_ = false;      ///< an assembly of this step happened (the next one follows a correction)
  bool first_send_ = true, first_recv_ = true;
  int coupling_counter_ = 0;
  bool read_loads_ = true;      ///< EDGE and socket: the peer has not converged in this step
  bool last_read_ = false;      ///< socket: ES_REGULAR_DATA_AND_GOTO_NEXT_STEP received
  bool peer_converged_ = false;
  bool peer_quit_ = false;
  bool said_waiting_ = false;
};

}  // namespace mbl::elements

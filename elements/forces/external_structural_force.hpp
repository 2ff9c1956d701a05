#pragma once
// `external structural` force (input manual §8.8.10): a peer process computes forces and moments
// on a set of points (node + offset) from their motion, exchanged through a communicator (§8.8.9,
// external_link.hpp). The records are MBDyn's (its strext.cc, stredge.cc):
// - point motion: x + R f, R, v + w x R f, w [, a + wp x R f + w x w x R f, wp]; with a
//   `reference node` r, relative to it and in its frame: R_r^T (x - x_r), R_r^T R,
//   R_r^T (v - v_r - w_r x (x - x_r)), R_r^T (w - w_r) [, accelerations likewise];
// - file: text lines `# reference node` / [label] x_r [R_r] v_r [w_r] [a_r [wp_r]], then
//   `# regular nodes` / per point [node label] x [R (row by row) | rotation vector | Euler 123
//   angles in degrees] v [w] [a [wp]]; the peer answers [[label] f_r [m_r]] then per point
//   [label] f [m] (any order with `sorted, no`, recognised by the label);
// - socket (libmbc nodal protocol, native byte order): negotiation u32 flags (MBC_NODAL |
//   orientation | reference node | labels | accelerations), u32 points; motion [u32 label, 0]
//   reference record, then [u32 labels padded to an even count] x (3n), orientation (R
//   column-major 9n | 3n | none), v (3n), [w (3n)], [a (3n), [wp (3n)]]; loads [u32 label, 0]
//   f_r [m_r], then [labels] f (3n) [m (3n)];
// - EDGE: `ext_model, N, 0, 0, 3`, `grid_idents, IF, 1, n, 0` (point labels, 6 a line),
//   `str_coordinates, RF, 3, n, 0` and `velocity, RF, 3, n, 0` (all x, then y, then z, 6 a
//   line); the peer answers `grid_idents` and `force, RF, 3, n, 0` (no moments).
// Loads are global (in the reference node's frame with one), moments about the point; the point's
// force acts on its node with the moment f x F added (without `orientation, none` only). With a
// reference node and `use reference node forces` (default) the reference node takes the peer's
// reference force (rotated to the global frame unless `rotate reference node forces, no`) minus
// the resultant of the points' forces. They are data from the peer: no Jacobian contribution.
// Output (.frc, strext.cc StructExtForce::Output): `<label>#<reference>` with the reference
// node's loads, `<label>@<point>` f m per point, and with `kinematics` (output forced on)
// `<label>.<point>` x R v w per point: the motion as exchanged (relative to the reference node
// with one), R in the card's orientation format (`none` as Euler 123 degrees, the matrix row
// by row). The exchange is the same with or without it.
#include <memory>
#include <vector>

#include "elements/forces/external_force_element.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements {

/// The motion of a point rigidly offset by `offset_N` (node frame) from `node`, as MBDyn's
/// external structural forces send it (strext.cc, strmappingext.cc): global, or, with a
/// `reference` node r, relative to it and in its frame (see above).
struct ExternalPointMotion {
  Vec3 x, v, w, a, wp;
  Mat3 R;
};
ExternalPointMotion external_point_motion(const StructNode& node, const Vec3& offset_N, const StructNode* reference);
/// The reference node's own motion (global).
ExternalPointMotion external_reference_motion(const StructNode& reference);
/// libmbc's rigid record of the reference node's motion (mbc_rigid_init): [u32 label, u32 0], x,
/// the rotation in `format` (a MBC_ROT_*; R column-major), v, omega, [a, omega'].
void append_reference_motion(std::vector<char>& buf, const StructNode& reference, std::uint32_t format, bool labels,
                             bool accelerations);
/// libmbc's rigid loads record, [u32 label, u32 0], F, M: its size, and its reading at `at`
/// (the label checked; `who` names the card in the error); returns the end of the record.
std::size_t reference_load_bytes(bool labels);
const char* read_reference_loads(const char* at, const StructNode& reference, bool labels, Vec3& F, Vec3& M,
                                 std::string_view who);

struct ExternalStructuralParams {
  enum class Orientation : std::uint32_t { None = 0x0000, Vector = 0x0100, Matrix = 0x0200, Euler123 = 0x0400 };
  struct Point {
    const StructNode* node = nullptr;
    unsigned label = 0;  ///< the point's label in the exchange (the node's unless `label, l`)
    Vec3 offset_N = Vec3::Zero();
  };
  ExternalCommunicator communicator;
  const StructNode* reference = nullptr;
  bool use_reference_forces = true;
  bool rotate_reference_forces = true;
  bool labels = false;
  bool sorted = true;
  bool accelerations = false;
  Orientation orientation = Orientation::Matrix;
  std::vector<Point> points;
  /// `kinematics` after `output`: a `<label>.<point>` line per point in the .frc file.
  bool kinematics_output = false;
};

class ExternalStructuralForce final : public ExternalForceElement {
 public:
  ExternalStructuralForce(unsigned label, ExternalStructuralParams p);
  std::string_view type_name() const override { return "external structural"; }
  void residual(ResidualSink& r, const StepContext& c) override;
  void output(OutputSink& out) const override;
  /// `kinematics`: the points' motion in the .frc file too, output on.
  void enable_kinematics_output() { p_.kinematics_output = true, set_output_enabled(true); }
  std::string log_line() const override;

  // ExternalPeer
  std::array<std::uint32_t, 2> negotiation() const override;
  std::uint32_t negotiation_mask() const override;
  void write_motion(std::ostream& os, ExternalCommunicator::Kind kind) const override;
  void append_motion_bytes(std::vector<char>& record) const override;
  void read_loads(std::istream& is, ExternalCommunicator::Kind kind) override;
  std::size_t load_bytes() const override;
  void read_loads(std::span<const char> record) override;
  void negotiated(std::uint32_t flags) override;

 private:
  /// The index of the point of `label` (the number of points when none).
  std::size_t point_of_label(unsigned label) const;
  /// The motion of a point as exchanged.
  using Motion = ExternalPointMotion;
  Motion motion(std::size_t point) const;
  Motion reference_motion() const;
  /// Every point's motion, in a buffer kept across exchanges.
  const std::vector<Motion>& motions() const;
  bool rotations() const { return p_.orientation != ExternalStructuralParams::Orientation::None; }
  /// The reference node's rotation format on the socket, as libmbc lays it out (mbc_rigid_init):
  /// the negotiated reference-node rotation, else the points', else the orientation vector.
  ExternalStructuralParams::Orientation reference_orientation_ = ExternalStructuralParams::Orientation::Vector;
  void write_edge_motion(std::ostream& os) const;
  void read_edge_loads(std::istream& is);
  void read_text_loads(std::istream& is);

  ExternalStructuralParams p_;
  mutable std::vector<Motion> motions_;  ///< motions() (no allocation per exchange)
  std::vector<Vec3> force_, moment_;  ///< as received (the reference node's frame with one)
  ReferenceNodeLoads reference_loads_;
};

}  // namespace mbl::elements

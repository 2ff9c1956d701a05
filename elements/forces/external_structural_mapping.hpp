#pragma once
// `external structural mapping` force (input manual §8.8.11; MBDyn's strmappingext.cc): a peer
// process computes forces on its own points (the mapped points) from their motion, which a
// constant matrix H derives from the motion of our points (node + offset, or the two points h1,
// h2 along the normal of a `membrane` of a displacement node):
//   x_peer = H x, x'_peer = H x', [x''_peer = H x'']; our forces f = H^T f_peer (eq. 8.66-8.68).
// Without `mapped points number` H is the identity. Points carry no orientation: only positions,
// velocities [and accelerations] go out, only forces come back. With a `reference node` r the
// points' motion is relative to r and in its frame (as the external structural force's), the
// peer's forces are in r's frame, and r takes the peer's own force and moment (rotated to the
// global frame unless `rotate reference node forces, no`) minus the resultant of the points'
// forces (`use reference node forces`, default).
//
// MBDyn exchanges these through a socket only (its file and EDGE records for the card are empty);
// the socket records follow libmbc's nodal protocol, as its peers expect (mbc.c):
//   negotiation: u32 MBC_NODAL | reference rotation << 4 | [MBC_REF_NODE] | [MBC_LABELS] |
//     [MBC_ACCELS] (the points' rotation bits 0), u32 number of mapped points;
//   motion: [reference: [u32 label, 0], x_r, R_r (`orientation`: matrix by default, column-major;
//     vector; Euler 123 in degrees), v_r, w_r, [a_r, w'_r]], [mapped labels, padded to an even
//     count], x_peer (3m), x'_peer (3m), [x''_peer (3m)];
//   loads: [reference: [u32 label, 0], F_r, M_r], [mapped labels, checked in order], f_peer (3m).
// MBDyn's own element writes a single word for the reference label and unpadded labels, and its
// check of the labels it receives always fails; libmbc's layout is the one its peers speak.
// .frc: `label#ref F0 M0 F1 M1 F2 M2` (received, applied to the reference node, resultant of the
// nodes' loads about it; with a reference node), then `label@node F M` per node (global, the
// moment of the offset points' forces about the node). No Jacobian contribution (data from the
// peer), as MBDyn.
#include <array>
#include <optional>
#include <vector>

#include "elements/forces/external_force_element.hpp"
#include "elements/forces/mapping_matrix.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements {

struct ExternalMappingParams {
  struct Point {
    unsigned label = 0;              ///< the point's label (`labels, yes`)
    Vec3 offset_N = Vec3::Zero();    ///< node + offset (rotating nodes; zero for displacement nodes)
    double membrane_h = 0.0;         ///< `membrane`: the distance along the membrane's normal
  };
  struct NodePoints {
    const StructNode* node = nullptr;
    std::vector<Point> points;
    /// `membrane`: the nodes whose (x1 - x0) x (x3 - x2) is the normal (displacement nodes).
    std::array<const StructNode*, 4> membrane{};
  };
  ExternalCommunicator communicator;
  const StructNode* reference = nullptr;
  bool use_reference_forces = true;
  bool rotate_reference_forces = true;
  bool labels = false;
  bool accelerations = false;
  std::uint32_t reference_orientation = 0;  ///< MBC_ROT_* (MBC_ROT_MAT by default with a reference node)
  std::vector<NodePoints> nodes;
  std::optional<MappingMatrix> mapping;     ///< none: the identity
  std::vector<std::uint32_t> mapped_labels;  ///< with `labels, yes` and a mapping
  std::size_t point_count() const;
};

class ExternalStructuralMappingForce final : public ExternalForceElement {
 public:
  ExternalStructuralMappingForce(unsigned label, ExternalMappingParams p);
  std::string_view type_name() const override { return "external structural mapping"; }
  void residual(ResidualSink& r, const StepContext& c) override;
  void output(OutputSink& out) const override;

  // ExternalPeer
  std::array<std::uint32_t, 2> negotiation() const override;
  std::uint32_t negotiation_mask() const override;
  void write_motion(std::ostream& os, ExternalCommunicator::Kind kind) const override;
  void append_motion_bytes(std::vector<char>& record) const override;
  void read_loads(std::istream& is, ExternalCommunicator::Kind kind) override;
  std::size_t load_bytes() const override;
  void read_loads(std::span<const char> record) override;

  /// Our points' forces (global), after the last loads received.
  const std::vector<Vec3>& point_forces() const { return f_point_; }

 private:
  std::size_t exchanged_points() const { return p_.mapping ? std::size_t(p_.mapping->rows() / 3) : p_.point_count(); }
  /// The points' motion (x, x', x'' stacked, 3 per point), as sent before mapping.
  void point_motion() const;

  ExternalMappingParams p_;
  std::vector<std::uint32_t> exchanged_labels_;
  mutable std::vector<double> x_, xp_, xpp_, q_, qp_, qpp_;  ///< kept across exchanges
  std::vector<double> f_peer_, f_;                          ///< received; mapped back (H^T)
  std::vector<Vec3> f_point_;                               ///< per point, global
  std::vector<Vec3> F_node_, M_node_;                       ///< per node, global
  ReferenceNodeLoads reference_loads_;
};

}  // namespace mbl::elements

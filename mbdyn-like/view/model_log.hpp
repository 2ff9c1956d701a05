#pragma once
// The model as the .log file describes it (input manual appendix E: one "<keyword>: <label> ..."
// line per entity), for `mbdyn-like view`: structural nodes (dummy ones are those missing from the
// "struct displacement node labels" list, E.3.5), bodies, beams, shells and membranes, joints
// with the points they attach to, aerodynamic surfaces, and the structural node numbering the
// eigenvectors use (E.3.3).
#include <array>
#include <map>
#include <string>
#include <vector>

namespace mbl::view {

struct LogNode {
  std::string label;
  std::array<double, 3> x0{};       ///< initial position
  std::string orientation;          ///< euler123|euler313|euler321|phi|mat; "" for displacement nodes
  bool dummy = false;
  bool relative_frame = false;
};

/// A point fixed to a node: the node's index in ModelLog::nodes and the offset in the node frame.
struct NodePoint {
  int node = -1;
  std::array<double, 3> offset_N{};
};

struct LogElement {
  std::string kind;   ///< the .log keyword ("body", "beam3", "revolutehinge", ...)
  std::string label;
  std::vector<NodePoint> points;   ///< bodies: the centre of mass; beams, shells: their nodes
  double mass = 0.0;               ///< bodies
  /// Points fixed in the global frame (a pin's ground point: `totalpinjoint`, `drivedisplacementpin`).
  std::vector<std::array<double, 3>> ground;
  /// Aerodynamic surfaces: per node, trailing and leading edge (node frame), as pairs of points.
  std::vector<std::array<NodePoint, 2>> edges;
};

struct ModelLog {
  std::vector<LogNode> nodes;
  std::map<std::string, int> node_index;  ///< label -> index in nodes
  std::vector<LogElement> bodies, beams, surfaces, joints, aero;
  /// Non-dummy structural nodes in the eigenvectors' numbering: label -> 0-based first row
  /// ("struct displacement node labels" / "struct displacement node dofs").
  std::map<std::string, long> first_dof;
};

/// Reads <path>; throws std::runtime_error when it cannot be opened. Lines of unknown keywords
/// whose first datum is not a structural node label are skipped.
ModelLog read_model_log(const std::string& path);

}  // namespace mbl::view

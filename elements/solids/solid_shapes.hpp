#pragma once
// Isoparametric shapes and integration rules of MBDyn's solid elements (input manual §8.16,
// tables 8.2-8.3, node orders of figures 8.13a-e and 8.14). A shape is given by the natural
// coordinates of its nodes; the shape functions follow from the node's kind:
//   hexahedra: trilinear (8 nodes), serendipity (20) or triquadratic Lagrange (27),
//   pentahedron15: quadratic triangle x quadratic line (serendipity wedge),
//   tetrahedron10: quadratic in the volume coordinates.
#include <Eigen/Core>
#include <string_view>
#include <vector>

namespace mbl::elements::solid {

using Vec3 = Eigen::Vector3d;

struct Rule {
  std::vector<Vec3> points;
  std::vector<double> weights;
};

enum class Family { Hexahedron, Pentahedron, Tetrahedron };

struct Shape {
  std::string_view keyword;  ///< as the card spells it
  Family family;
  int order;                 ///< 1 (hexahedron8) or 2
  std::vector<Vec3> nodes;   ///< natural coordinates of the nodes, in the card's order
  Rule stiffness, mass, lumped_mass;

  int node_count() const { return static_cast<int>(nodes.size()); }
  /// Shape functions N (n) and their natural derivatives dN (n x 3) at xi.
  void evaluate(const Vec3& xi, Eigen::VectorXd& N, Eigen::MatrixX3d& dN) const;
};

/// The displacement-based solid of `keyword` (hexahedron8, hexahedron20, hexahedron20r,
/// hexahedron27, pentahedron15, tetrahedron10); nullptr for any other name.
const Shape* find_shape(std::string_view keyword);

}  // namespace mbl::elements::solid

#include "elements/solids/solid_shapes.hpp"

#include <Eigen/Core>
#include <unsupported/Eigen/AutoDiff>

#include <array>
#include <span>

#include "elements/misc/quadrature.hpp"

namespace mbl::elements::solid {
namespace {

using AD = Eigen::AutoDiffScalar<Eigen::Vector3d>;

std::vector<Vec3> coordinates(const std::vector<double>& r, const std::vector<double>& s, const std::vector<double>& t) {
  std::vector<Vec3> x(r.size());
  for (std::size_t i = 0; i < r.size(); ++i) x[i] = Vec3(r[i], s[i], t[i]);
  return x;
}

AD shape_function(const Shape& s, int i, const std::array<AD, 3>& xi) {
  const Vec3& n = s.nodes[i];
  const AD &r = xi[0], &u = xi[1], &t = xi[2];
  switch (s.family) {
    case Family::Hexahedron: {
      if (s.node_count() == 8) return (1.0 + r * n[0]) * (1.0 + u * n[1]) * (1.0 + t * n[2]) / 8.0;
      if (s.node_count() == 27) {
        using quadrature::lagrange_quadratic;
        return lagrange_quadratic(r, n[0]) * lagrange_quadratic(u, n[1]) * lagrange_quadratic(t, n[2]);
      }
      // Serendipity: corner nodes, and mid-edge nodes (one natural coordinate zero).
      const AD a = 1.0 + r * n[0], b = 1.0 + u * n[1], c = 1.0 + t * n[2];
      if (n[0] == 0.0) return (1.0 - r * r) * b * c / 4.0;
      if (n[1] == 0.0) return a * (1.0 - u * u) * c / 4.0;
      if (n[2] == 0.0) return a * b * (1.0 - t * t) / 4.0;
      return a * b * c * (r * n[0] + u * n[1] + t * n[2] - 2.0) / 8.0;
    }
    case Family::Pentahedron: {
      // Triangle coordinates L = (1 - r - s, r, s) of the point and of the node.
      const std::array<AD, 3> L = {1.0 - r - u, r, u};
      const std::array<double, 3> Ln = {1.0 - n[0] - n[1], n[0], n[1]};
      int ones = 0, a = -1, b = -1;
      for (int k = 0; k < 3; ++k) {
        if (Ln[k] > 0.75) {
          ++ones;
          a = k;
        } else if (Ln[k] > 0.25) {
          (a < 0 ? a : b) = k;
        }
      }
      if (n[2] == 0.0) return L[a] * (1.0 - t * t);  // mid-height node over a corner
      const AD line = 1.0 + t * n[2];
      if (ones == 1) return 0.5 * L[a] * (2.0 * L[a] - 1.0) * line - 0.5 * L[a] * (1.0 - t * t);
      return 2.0 * L[a] * L[b] * line;
    }
    case Family::Tetrahedron: {
      const std::array<AD, 4> L = {1.0 - r - u - t, r, u, t};
      const std::array<double, 4> Ln = {1.0 - n[0] - n[1] - n[2], n[0], n[1], n[2]};
      int a = -1, b = -1;
      for (int k = 0; k < 4; ++k) {
        if (Ln[k] > 0.75) return L[k] * (2.0 * L[k] - 1.0);  // corner
        if (Ln[k] > 0.25) (a < 0 ? a : b) = k;
      }
      return 4.0 * L[a] * L[b];
    }
  }
  return AD(0.0);
}

Rule gauss_hexahedron(int n) {
  const std::span<const quadrature::Point1D> g = quadrature::gauss(n);
  Rule rule;
  for (const quadrature::Point1D& a : g)
    for (const quadrature::Point1D& b : g)
      for (const quadrature::Point1D& c : g) {
        rule.points.emplace_back(a.x, b.x, c.x);
        rule.weights.push_back(a.w * b.w * c.w);
      }
  return rule;
}

/// MBDyn's lumped-mass rules of the hexahedra: the nodal points -1, 1 (weights 1) or -1, 0, 1
/// (weights 2/3 each) in each direction.
Rule lumped_hexahedron(int n) {
  Rule rule;
  const std::vector<double> p = n == 2 ? std::vector<double>{-1.0, 1.0} : std::vector<double>{-1.0, 0.0, 1.0};
  const double w = n == 2 ? 1.0 : 2.0 / 3.0;
  for (double a : p)
    for (double b : p)
      for (double c : p) {
        rule.points.emplace_back(a, b, c);
        rule.weights.push_back(w * w * w);
      }
  return rule;
}

/// Degree-5 seven-point triangle rule (weights summing to the area 1/2) times the three-point
/// Gauss rule through the thickness: 21 points (table 8.2).
Rule pentahedron_rule() {
  Rule rule;
  for (const quadrature::TrianglePoint& q : quadrature::triangle7())
    for (const quadrature::Point1D& g : quadrature::gauss(3)) {
      rule.points.emplace_back(q.r, q.s, g.x);
      rule.weights.push_back(q.w * g.w);
    }
  return rule;
}

/// Five-point tetrahedron rule (degree 3; weights summing to the volume 1/6): table 8.2.
Rule tetrahedron_rule() {
  Rule rule;
  rule.points.emplace_back(0.25, 0.25, 0.25);
  rule.weights.push_back(-2.0 / 15.0);
  const double a = 1.0 / 6.0, b = 0.5;
  for (const Vec3& p : {Vec3(a, a, a), Vec3(b, a, a), Vec3(a, b, a), Vec3(a, a, b)}) {
    rule.points.push_back(p);
    rule.weights.push_back(3.0 / 40.0);
  }
  return rule;
}

std::vector<Shape> make_shapes() {
  std::vector<Shape> shapes;
  const Rule g2 = gauss_hexahedron(2), g3 = gauss_hexahedron(3);
  shapes.push_back({"hexahedron8", Family::Hexahedron, 1,
                    coordinates({1, -1, -1, 1, 1, -1, -1, 1}, {1, 1, -1, -1, 1, 1, -1, -1}, {1, 1, 1, 1, -1, -1, -1, -1}),
                    g2, g2, lumped_hexahedron(2)});
  shapes.push_back({"hexahedron20", Family::Hexahedron, 2,
                    coordinates({1, -1, -1, 1, 1, -1, -1, 1, 0, -1, 0, 1, 0, -1, 0, 1, 1, -1, -1, 1},
                                {1, 1, -1, -1, 1, 1, -1, -1, 1, 0, -1, 0, 1, 0, -1, 0, 1, 1, -1, -1},
                                {1, 1, 1, 1, -1, -1, -1, -1, 1, 1, 1, 1, -1, -1, -1, -1, 0, 0, 0, 0}),
                    g3, g3, lumped_hexahedron(3)});
  // Reduced integration: 2x2x2 for the stiffness, 3x3x3 for the mass (table 8.2).
  shapes.push_back({"hexahedron20r", Family::Hexahedron, 2,
                    coordinates({-1, 1, 1, -1, -1, 1, 1, -1, 0, 1, 0, -1, 0, 1, 0, -1, -1, 1, 1, -1},
                                {-1, -1, 1, 1, -1, -1, 1, 1, -1, 0, 1, 0, -1, 0, 1, 0, -1, -1, 1, 1},
                                {-1, -1, -1, -1, 1, 1, 1, 1, -1, -1, -1, -1, 1, 1, 1, 1, 0, 0, 0, 0}),
                    g2, g3, lumped_hexahedron(3)});
  shapes.push_back(
      {"hexahedron27", Family::Hexahedron, 2,
       coordinates({-1, 1, 1, -1, -1, 1, 1, -1, 0, 1, 0, -1, -1, 1, 1, -1, 0, 1, 0, -1, 0, 0, 1, 0, -1, 0, 0},
                   {-1, -1, 1, 1, -1, -1, 1, 1, -1, 0, 1, 0, -1, -1, 1, 1, -1, 0, 1, 0, 0, -1, 0, 1, 0, 0, 0},
                   {-1, -1, -1, -1, 1, 1, 1, 1, -1, -1, -1, -1, 0, 0, 0, 0, 1, 1, 1, 1, -1, 0, 0, 0, 0, 1, 0}),
       g3, g3, lumped_hexahedron(3)});
  const Rule penta = pentahedron_rule();
  shapes.push_back({"pentahedron15", Family::Pentahedron, 2,
                    coordinates({0, 1, 0, 0, 1, 0, .5, .5, 0, .5, .5, 0, 0, 1, 0}, {0, 0, 1, 0, 0, 1, 0, .5, .5, 0, .5, .5, 0, 0, 1},
                                {-1, -1, -1, 1, 1, 1, -1, -1, -1, 1, 1, 1, 0, 0, 0}),
                    penta, penta, penta});
  const Rule tet = tetrahedron_rule();
  shapes.push_back({"tetrahedron10", Family::Tetrahedron, 2,
                    coordinates({0, 0, 0, 1, 0, 0, 0, .5, .5, .5}, {1, 0, 0, 0, .5, 0, .5, .5, 0, 0}, {0, 1, 0, 0, .5, .5, 0, 0, .5, 0}),
                    tet, tet, tet});
  return shapes;
}

}  // namespace

void Shape::evaluate(const Vec3& xi, Eigen::VectorXd& N, Eigen::MatrixX3d& dN) const {
  const int n = node_count();
  N.resize(n);
  dN.resize(n, 3);
  const std::array<AD, 3> x = {AD(xi[0], 3, 0), AD(xi[1], 3, 1), AD(xi[2], 3, 2)};
  for (int i = 0; i < n; ++i) {
    const AD v = shape_function(*this, i, x);
    N[i] = v.value();
    dN.row(i) = v.derivatives().transpose();
  }
}

const Shape* find_shape(std::string_view keyword) {
  static const std::vector<Shape> shapes = make_shapes();
  for (const Shape& s : shapes)
    if (s.keyword == keyword) return &s;
  return nullptr;
}

}  // namespace mbl::elements::solid

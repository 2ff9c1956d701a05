#include "elements/shells/pressure_load.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "elements/misc/quadrature.hpp"
#include "elements/nodes/abstract_node.hpp"
#include "elements/shells/bilinear.hpp"

namespace mbl::elements {
namespace {

using Point = SurfaceShape::Point;

/// Gauss n x n on the quadrilateral.
std::vector<Point> gauss(int n) {
  std::vector<Point> p;
  for (const auto& [r, wr] : quadrature::gauss(n))
    for (const auto& [s, ws] : quadrature::gauss(n)) p.push_back({r, s, wr * ws});
  return p;
}

/// Serendipity quadrilateral on the corner and mid-side nodes at (ri, si).
SurfaceShape serendipity(const char* name, std::vector<double> ri, std::vector<double> si) {
  SurfaceShape sh;
  sh.log_name = name;
  sh.nodes = static_cast<int>(ri.size());
  sh.eval = [ri, si](double r, double s, double* H, double* H_r, double* H_s) {
    for (std::size_t k = 0; k < ri.size(); ++k) {
      const double a = ri[k], b = si[k];
      if (a != 0.0 && b != 0.0) {  // corner: (1 + r a)(1 + s b)(r a + s b - 1) / 4
        const double u = 1.0 + r * a, v = 1.0 + s * b, w = r * a + s * b - 1.0;
        H[k] = 0.25 * u * v * w;
        H_r[k] = 0.25 * a * v * (w + u);
        H_s[k] = 0.25 * b * u * (w + v);
      } else if (a == 0.0) {  // mid-side on s = b: (1 - r^2)(1 + s b) / 2
        H[k] = 0.5 * (1.0 - r * r) * (1.0 + s * b);
        H_r[k] = -r * (1.0 + s * b);
        H_s[k] = 0.5 * (1.0 - r * r) * b;
      } else {  // mid-side on r = a
        H[k] = 0.5 * (1.0 + r * a) * (1.0 - s * s);
        H_r[k] = 0.5 * a * (1.0 - s * s);
        H_s[k] = -s * (1.0 + r * a);
      }
    }
  };
  sh.points = gauss(3);
  return sh;
}

}  // namespace

const SurfaceShape& SurfaceShape::quadrangle4() {
  static const SurfaceShape sh = [] {
    // Figure 8.16a: counterclockwise from (1, 1), as the shells' bilinear element.
    SurfaceShape s;
    s.log_name = "quadrangle4";
    s.nodes = 4;
    s.eval = [](double r, double q, double* H, double* H_r, double* H_s) {
      for (int k = 0; k < 4; ++k) {
        H[k] = bilinear::shape(k, r, q);
        H_r[k] = bilinear::shape_d(k, 0, r, q);
        H_s[k] = bilinear::shape_d(k, 1, r, q);
      }
    };
    s.points = gauss(2);
    return s;
  }();
  return sh;
}

const SurfaceShape& SurfaceShape::quadrangle8() {
  static const SurfaceShape sh = serendipity("quadrangle8", {1, -1, -1, 1, 0, -1, 0, 1}, {1, 1, -1, -1, 1, 0, -1, 0});
  return sh;
}

const SurfaceShape& SurfaceShape::quadrangle8r() {
  static const SurfaceShape sh = serendipity("quadrangle8r", {-1, 1, 1, -1, 0, 1, 0, -1}, {-1, -1, 1, 1, -1, 0, 1, 0});
  return sh;
}

const SurfaceShape& SurfaceShape::quadrangle9() {
  static const SurfaceShape sh = [] {
    static constexpr double ri[] = {-1, 1, 1, -1, 0, 1, 0, -1, 0}, si[] = {-1, -1, 1, 1, -1, 0, 1, 0, 0};
    SurfaceShape s;
    s.log_name = "quadrangle9";
    s.nodes = 9;
    s.eval = [](double r, double q, double* H, double* H_r, double* H_s) {
      for (int k = 0; k < 9; ++k) {
        const double lr = quadrature::lagrange_quadratic(r, ri[k]), ls = quadrature::lagrange_quadratic(q, si[k]);
        H[k] = lr * ls;
        H_r[k] = quadrature::lagrange_quadratic_d(r, ri[k]) * ls;
        H_s[k] = lr * quadrature::lagrange_quadratic_d(q, si[k]);
      }
    };
    s.points = gauss(3);
    return s;
  }();
  return sh;
}

const SurfaceShape& SurfaceShape::triangle6() {
  static const SurfaceShape sh = [] {
    SurfaceShape s;
    s.log_name = "triangle6";
    s.nodes = 6;
    // Figure 8.16e: corners (0,0), (1,0), (0,1), then the mid-sides 1-2, 2-3, 3-1.
    s.eval = [](double r, double q, double* H, double* H_r, double* H_s) {
      const double L[3] = {1.0 - r - q, r, q};
      const double dL_r[3] = {-1.0, 1.0, 0.0}, dL_s[3] = {-1.0, 0.0, 1.0};
      for (int k = 0; k < 3; ++k) {
        H[k] = L[k] * (2.0 * L[k] - 1.0);
        H_r[k] = (4.0 * L[k] - 1.0) * dL_r[k];
        H_s[k] = (4.0 * L[k] - 1.0) * dL_s[k];
        const int a = k, b = (k + 1) % 3;
        H[3 + k] = 4.0 * L[a] * L[b];
        H_r[3 + k] = 4.0 * (dL_r[a] * L[b] + L[a] * dL_r[b]);
        H_s[3 + k] = 4.0 * (dL_s[a] * L[b] + L[a] * dL_s[b]);
      }
    };
    for (const auto& [r, q, w] : quadrature::triangle7()) s.points.push_back({r, q, w});
    return s;
  }();
  return sh;
}

SurfaceLoad::SurfaceLoad(unsigned label, const SurfaceShape& shape, std::vector<StructNode*> nodes)
    : Element(label), shape_(shape), nodes_(std::move(nodes)), H_(shape.nodes), H_r_(shape.nodes), H_s_(shape.nodes),
      F_(shape.nodes, Vec3::Zero()) {
  if (static_cast<int>(nodes_.size()) != shape_.nodes)
    throw std::invalid_argument(fmt::format("surface load {}: expected {} nodes", label, shape_.nodes));
}

SurfaceLoad::Tangents SurfaceLoad::tangents(const Point& q, bool x_ref) {
  Tangents a{Vec3::Zero(), Vec3::Zero()};
  shape_.eval(q.r, q.s, H_.data(), H_r_.data(), H_s_.data());
  for (int k = 0; k < shape_.nodes; ++k) {
    const Vec3& x = x_ref ? nodes_[k]->initial().x_W : nodes_[k]->x_W();
    a.a1 += H_r_[k] * x;
    a.a2 += H_s_[k] * x;
  }
  return a;
}

void SurfaceLoad::residual(ResidualSink& r, const StepContext& c) {
  const std::vector<Vec3>& F = nodal_forces(c.t);
  for (int k = 0; k < shape_.nodes; ++k) r.add(nodes_[k]->eq_index(), F[k]);
}

void SurfaceLoad::add_tangent_jacobian(JacobianSink& J, const StepContext& c, const Mat3& df_da1,
                                       const Mat3& df_da2) const {
  // J = -dr/dy' - dCoef dr/dy: positions move by dCoef times the update.
  for (int m = 0; m < shape_.nodes; ++m) {
    const Mat3 df_dx = H_r_[m] * df_da1 + H_s_[m] * df_da2;
    for (int k = 0; k < shape_.nodes; ++k)
      J.add(nodes_[k]->eq_index(), nodes_[m]->dof_index(), Mat3(-c.dCoef * H_[k] * df_dx));
  }
}

void SurfaceLoad::after_convergence(const StepContext& c) {
  F_total_W_.setZero();
  for (const Vec3& f : nodal_forces(c.t)) F_total_W_ += f;
}

void SurfaceLoad::output(OutputSink& out) const {
  if (!output_enabled()) return;
  if (std::ostream* os = out.text(OutputFile::Prl)) {
    out.write_label(*os, label());
    out.write(*os, F_total_W_);
    *os << '\n';
  }
}

std::string SurfaceLoad::log_line_nodes() const {
  std::string line = fmt::format("{}: {}", shape_.log_name, label());
  for (const StructNode* n : nodes_) line += fmt::format(" {}", n->label());
  return line;
}

PressureLoad::PressureLoad(unsigned label, const SurfaceShape& shape, std::vector<StructNode*> nodes,
                           std::vector<DriveCallerPtr> drives, std::vector<AbstractNode*> pressure_nodes)
    : SurfaceLoad(label, shape, std::move(nodes)), drives_(std::move(drives)),
      pressure_nodes_(std::move(pressure_nodes)), p_(shape.nodes) {
  if (static_cast<int>(drives_.size() + pressure_nodes_.size()) != shape_.nodes)
    throw std::invalid_argument(fmt::format("surface load {}: expected {} pressures", label, shape_.nodes));
}

void PressureLoad::update_nodal_pressures(double t) {
  std::size_t k = 0;
  for (const auto& d : drives_) p_[k++] = d->value(t);
  for (const AbstractNode* n : pressure_nodes_) p_[k++] = n->x();
}

double PressureLoad::pressure() const {
  double p = 0.0;
  for (int k = 0; k < shape_.nodes; ++k) p += H_[k] * p_[k];
  return p;
}

const std::vector<Vec3>& PressureLoad::nodal_forces(double t) {
  update_nodal_pressures(t);
  for (Vec3& f : F_) f.setZero();
  for (const Point& q : shape_.points) {
    const auto [a1, a2] = tangents(q);
    const Vec3 f = -q.w * pressure() * a1.cross(a2);  // against the normal (§8.17.1)
    for (int k = 0; k < shape_.nodes; ++k) F_[k] += H_[k] * f;
  }
  return F_;
}

void PressureLoad::jacobian(JacobianSink& J, const StepContext& c) {
  const int n = shape_.nodes;
  update_nodal_pressures(c.t);
  for (const Point& q : shape_.points) {
    const auto [a1, a2] = tangents(q);
    const double wp = q.w * pressure();
    // f = -w p (a1 x a2): d(a1 x a2) = skew(a1) da2 - skew(a2) da1.
    add_tangent_jacobian(J, c, Mat3(wp * skew(a2)), Mat3(-wp * skew(a1)));
    const Vec3 normal = a1.cross(a2);
    for (std::size_t m = 0; m < pressure_nodes_.size(); ++m) {
      const AbstractNode& pn = *pressure_nodes_[m];
      const double coef = pn.differential() ? c.dCoef : 1.0;
      for (int k = 0; k < n; ++k)
        J.add(nodes_[k]->eq_index(), pn.first_index(), Vec3(q.w * H_[k] * H_[m] * coef * normal));
    }
  }
}

std::string PressureLoad::log_line() const {
  // "<element>: <label> <nodes> <pressure sources>": drive callers have no label (MBDyn writes 0).
  std::string line = log_line_nodes();
  for (std::size_t k = 0; k < drives_.size(); ++k) line += " 0";
  for (const AbstractNode* n : pressure_nodes_) line += fmt::format(" {}", n->label());
  return line;
}

}  // namespace mbl::elements

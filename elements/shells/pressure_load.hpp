#pragma once
// Pressure surface loads `pressureq4`, `pressureq8`, `pressureq8r`, `pressureq9`, `pressuret6`
// (input manual §8.17.1, table 8.5, figure 8.16): a pressure p, interpolated from nodal values
// (drives or abstract nodes) with the surface's shape functions H_k, acts against the surface
// normal of the current configuration:
//     F_k = - sum_i w_i p(r_i) H_k(r_i) (dx/dr x dx/ds)(r_i)
// on the position equations of the structural (or displacement-only) nodes. The Jacobian is
// exact: d(a1 x a2) = skew(a1) da2 - skew(a2) da1 (the follower part) and, for pressures from
// abstract nodes, dF_k/dp_n = -sum_i w_i H_k H_n (a1 x a2).
#include <functional>
#include <string>
#include <vector>

#include "mbdyn-like/core/drive_caller.hpp"
#include "mbdyn-like/core/element.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements {

class AbstractNode;

/// A surface element's interpolation: node count, shape functions and quadrature (natural
/// coordinates r, s), as MBDyn names the element in the .log.
struct SurfaceShape {
  const char* log_name = "";  ///< "quadrangle4", ...
  int nodes = 0;
  /// H_k(r, s) and dH_k/dr, dH_k/ds for k < nodes.
  std::function<void(double r, double s, double* H, double* H_r, double* H_s)> eval;
  struct Point {
    double r, s, w;
  };
  std::vector<Point> points;

  static const SurfaceShape& quadrangle4();   ///< Gauss 2x2
  static const SurfaceShape& quadrangle8();   ///< serendipity, Gauss 3x3
  static const SurfaceShape& quadrangle8r();  ///< serendipity (figure 8.16c order), Gauss 3x3
  static const SurfaceShape& quadrangle9();   ///< Lagrange, Gauss 3x3
  static const SurfaceShape& triangle6();     ///< quadratic triangle, 7-point degree-5 rule
};

/// What the pressure and traction loads share (§8.17): the surface's nodes and shape, the shape
/// functions and tangents at the quadrature points, the nodal forces F_k = sum_i H_k(r_i) f_i of
/// the point forces f_i, their Jacobian on the nodes' positions, MBDyn's total force and .log line.
class SurfaceLoad : public Element {
 public:
  SurfaceLoad(unsigned label, const SurfaceShape& shape, std::vector<StructNode*> nodes);

  std::string_view kind() const override { return "surface load"; }
  std::string_view type_name() const override { return shape_.log_name; }
  bool netcdf_listed() const override { return false; }  // MBDyn writes no NetCDF for surface loads

  void residual(ResidualSink& r, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;
  /// .prl: the label and the total force, as MBDyn's surface loads.
  void output(OutputSink& out) const override;

  /// Sum of the nodal forces after the last converged step (MBDyn's Ftot).
  const Vec3& total_force_W() const { return F_total_W_; }

 protected:
  /// Tangents a1 = dx/dr, a2 = dx/ds at quadrature point q in the current configuration (x_ref:
  /// the input one); the shape functions there go to H_, H_r_, H_s_.
  struct Tangents {
    Vec3 a1, a2;
  };
  Tangents tangents(const SurfaceShape::Point& q, bool x_ref = false);
  /// Nodal forces at time t in the current configuration, into F_.
  virtual const std::vector<Vec3>& nodal_forces(double t) = 0;
  /// J(k, m) += -dCoef H_k (df_da1 H_r,m + df_da2 H_s,m): the point force f(a1, a2) at the
  /// quadrature point whose shape functions are in H_, H_r_, H_s_, spread on the nodes.
  void add_tangent_jacobian(JacobianSink& J, const StepContext& c, const Mat3& df_da1, const Mat3& df_da2) const;
  /// "<element>: <label> <nodes>", the start of MBDyn's .log line.
  std::string log_line_nodes() const;

  const SurfaceShape& shape_;
  std::vector<StructNode*> nodes_;
  /// Work buffers of the evaluations, one entry per node (sized once).
  std::vector<double> H_, H_r_, H_s_;
  std::vector<Vec3> F_;

 private:
  Vec3 F_total_W_ = Vec3::Zero();
};

class PressureLoad final : public SurfaceLoad {
 public:
  /// The nodal pressures come from `drives` (one per node) or from the abstract `pressure_nodes`.
  PressureLoad(unsigned label, const SurfaceShape& shape, std::vector<StructNode*> nodes,
               std::vector<DriveCallerPtr> drives, std::vector<AbstractNode*> pressure_nodes);

  void jacobian(JacobianSink& J, const StepContext& c) override;
  std::string log_line() const override;

 private:
  /// The nodal pressures at t, into p_.
  void update_nodal_pressures(double t);
  /// Pressure at the quadrature point whose shape functions are in H_.
  double pressure() const;
  const std::vector<Vec3>& nodal_forces(double t) override;

  std::vector<DriveCallerPtr> drives_;
  std::vector<AbstractNode*> pressure_nodes_;
  std::vector<double> p_;
};

}  // namespace mbl::elements

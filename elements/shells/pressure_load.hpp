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

class PressureLoad final : public Element {
 public:
  /// The nodal pressures come from `drives` (one per node) or from the abstract `pressure_nodes`.
  PressureLoad(unsigned label, const SurfaceShape& shape, std::vector<StructNode*> nodes,
               std::vector<DriveCallerPtr> drives, std::vector<AbstractNode*> pressure_nodes);

  std::string_view kind() const override { return "surface load"; }
  std::string_view type_name() const override { return shape_.log_name; }
  bool netcdf_listed() const override { return false; }  // MBDyn writes no NetCDF for surface loads

  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;
  std::string log_line() const override;

  /// Sum of the nodal forces after the last converged step (MBDyn's Ftot).
  const Vec3& total_force_W() const { return F_total_W_; }

 private:
  /// Tangents a1 = dx/dr, a2 = dx/ds and pressure at a quadrature point, from the nodal
  /// pressures in p_; the shape functions there go to H_, H_r_, H_s_.
  struct Sample {
    Vec3 a1, a2;
    double p;
  };
  Sample sample(const SurfaceShape::Point& q);
  /// The nodal pressures at t, into p_.
  void update_nodal_pressures(double t);
  /// Nodal forces at the nodes' current positions, into F_.
  const std::vector<Vec3>& nodal_forces(double t);

  const SurfaceShape& shape_;
  std::vector<StructNode*> nodes_;
  std::vector<DriveCallerPtr> drives_;
  std::vector<AbstractNode*> pressure_nodes_;
  Vec3 F_total_W_ = Vec3::Zero();
  /// Work buffers of the evaluations, one entry per node (sized once).
  std::vector<double> p_, H_, H_r_, H_s_;
  std::vector<Vec3> F_;
};

}  // namespace mbl::elements

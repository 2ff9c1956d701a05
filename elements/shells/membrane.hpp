#pragma once
// Four-node membrane `membrane4eas` (input manual §8.15.2): displacement-only kinematics (3-dof
// or 6-dof structural nodes, positions only), Green-Lagrange membrane strains in the arc-length
// coordinates of the initial surface, enhanced by 7 EAS parameters beta (the element's own
// algebraic unknowns), 2x2 Gauss integration.
//
// At Gauss point i, with L_n,k the shape-function derivatives w.r.t. the local arc lengths of the
// initial configuration (frame T_0i from the surface tangents) and F_k = sum_n L_n,k x_n:
//     eps = (F_1.F_1 - 1)/2, (F_2.F_2 - 1)/2, F_1.F_2   minus its initial value,   + P_i beta
//     n   = D eps + prestress                                             (eq. 8.85)
// with P_i = alpha_0/alpha_i M_0^-T H(xi) the EAS interpolation (technical manual §11.5.4, the
// membrane's three strains), alpha = det of the arc-length/natural Jacobian. Residual:
// -sum B^T n alpha_i on the nodes, -sum P^T n alpha_i on beta; the Jacobian is exact
// (material B^T D B plus the geometric part of the Green-Lagrange strains).
#include <array>
#include <string>

#include "mbdyn-like/core/element.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements {

/// The membrane's linear elastic law: fluxes (n_11, n_22, n_12) = D eps + prestress.
struct MembraneLaw {
  Mat3 D = Mat3::Zero();
  Vec3 prestress = Vec3::Zero();
};

class Membrane4 : public Element {
 public:
  using Vec7 = Eigen::Matrix<double, 7, 1>;
  using Mat3x7 = Eigen::Matrix<double, 3, 7>;
  using Mat3x12 = Eigen::Matrix<double, 3, 12>;

  /// Nodes in the order of figure 8.12 (counterclockwise from xi = (+1, +1)).
  Membrane4(unsigned label, std::array<StructNode*, 4> nodes, MembraneLaw law);

  std::string_view kind() const override { return "plate"; }
  std::string_view type_name() const override { return "Membrane4EAS"; }
  int dof_count() const override { return 7; }
  int initial_dof_count() const override { return 0; }  // MBDyn's EAS shells and membranes (shelleas.h, membraneeas.h)
  bool netcdf_listed() const override { return false; }  // MBDyn's membranes write no NetCDF

  void setup(Model&) override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  std::string log_line() const override;
  /// The .pla line (MBDyn's Membrane4EAS::Output): label, then the 3 fluxes of each Gauss point.
  void output(OutputSink& out) const override;

  /// Fluxes (n_11, n_22, n_12) at Gauss point g after the last residual.
  const Vec3& gauss_flux(int g) const { return flux_[g]; }

 private:
  struct Point {
    double xi1 = 0.0, xi2 = 0.0;
    std::array<std::array<double, 2>, 4> dL_ds{};  ///< dL_n / ds_k
    double alpha = 0.0;
    Vec3 eps0 = Vec3::Zero();
    Mat3x7 P = Mat3x7::Zero();
  };
  /// Green-Lagrange strains (without enhancement) at a point and their derivative B.
  void strains(const Point& p, Vec3& eps, Mat3x12& B, std::array<Vec3, 2>& F) const;
  Vec7 beta(const StepContext& c) const;

  std::array<StructNode*, 4> nodes_;
  MembraneLaw law_;
  std::array<Point, 4> gauss_;
  std::array<Vec3, 4> flux_{};
};

}  // namespace mbl::elements

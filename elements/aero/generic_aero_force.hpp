#pragma once
// Generic aerodynamic force (input manual §8.1.3): force and moment on one structural node from
// coefficient tables in the angle of attack alpha and the sideslip beta, scaled by the dynamic
// pressure q = rho |v|^2 / 2 (and by a reference surface and length when the coefficients are
// non-dimensional). The airstream velocity at the reference point, in the body frame
// R = R_n R_h (axis 1 nose, 2 right, 3 down), gives the angles (eq. 8.9 or, with `alpha first`,
// 8.10); the tables are bilinear inside their range and, outside it, hold the edge value faded
// by (1 + cos(angle_max x)) / 2 towards +-angle_max (MBDyn's genfm.cc). The loads
// f_n = R f_a, m_n = R m_a + (R_n o) x f_n (eq. 8.11) act on the node; as in MBDyn there is no
// Jacobian and no load during the initial assembly.
#include <array>
#include <istream>
#include <vector>

#include "mbdyn-like/core/element.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements::aero {

class AirProperties;

/// The coefficient tables: alpha and beta points (rad, ascending) and, per (beta, alpha), the
/// force and moment coefficients (fx, fy, fz, mx, my, mz)/q.
struct GenericAeroData {
  std::vector<double> alpha, beta;
  std::vector<std::vector<std::array<double, 6>>> coef;  ///< [beta][alpha]

  /// Coefficients at (alpha, beta); angle_max: (alpha_max, beta_max) of the convention.
  std::array<double, 6> at(double a, double b, double alpha_max, double beta_max) const;
};

/// Reads the file format of §8.1.3 (comment lines with '#' or '%', then "n_alpha n_beta", then
/// n_alpha n_beta lines "alpha beta fx fy fz mx my mz", alpha fastest). Angles are multiplied
/// by angle_scale, forces by length_scale^2 and moments by length_scale^3. Throws
/// std::runtime_error.
GenericAeroData read_generic_aero_data(std::istream& in, double angle_scale, double length_scale);

struct GenericAeroForceParams {
  Vec3 o_N = Vec3::Zero();        ///< reference point offset (node frame)
  Mat3 R_h = Mat3::Identity();    ///< body frame relative to the node
  double surface = 1., length = 1.;
  bool alpha_first = false;
  GenericAeroData data;
};

class GenericAeroForce final : public Element {
 public:
  GenericAeroForce(unsigned label, StructNode& node, GenericAeroForceParams p);

  std::string_view kind() const override { return "aerodynamic"; }
  std::string_view type_name() const override { return "GenericAerodynamicForce"; }
  void setup(Model& m) override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink&, const StepContext&) override {}
  /// .aer line: label, alpha and beta (deg), f_a, m_a (body frame), f_n, m_n (global).
  void output(OutputSink& out) const override;

  /// Fx..Fz, Mx..Mz (global, about the node), fx..fz, mx..mz (body frame), alpha, beta (rad).
  DatumInfo private_data_info(unsigned i) const override;
  unsigned private_data_count() const override { return 14; }
  double private_data(unsigned i) const override;

 private:
  StructNode& node_;
  GenericAeroForceParams p_;
  const AirProperties* air_ = nullptr;
  Vec3 f_a_ = Vec3::Zero(), m_a_ = Vec3::Zero(), F_W_ = Vec3::Zero(), M_W_ = Vec3::Zero();
  double alpha_ = 0., beta_ = 0.;
};

}  // namespace mbl::elements::aero

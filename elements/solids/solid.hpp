#pragma once
// Displacement-based solid elements (input manual §8.16): hexahedron8, hexahedron20,
// hexahedron20r, hexahedron27, pentahedron15, tetrahedron10 on structural displacement nodes, in
// the Total Lagrangian formulation. At each integration point, with b_i = dN_i/dX (the shape
// derivatives in the reference configuration X of the nodes at input),
//     F = sum_i x_i b_i^T,   G = (F^T F - I)/2,   eps = (G11, G22, G33, 2G12, 2G23, 2G31)   (8.91-8.96)
//     eps*' of G*' = C^-1 G' C^-1 det F                                                      (8.92-8.93)
//     sigma = (S11, S22, S33, S12, S23, S31) = law(eps, eps*')                              (8.89-8.90)
// and the nodal internal forces are f_i = integral of F S b_i dV0. Dynamic elements add the
// consistent mass matrix (or, with `lumped mass`, MBDyn's diagonal sum of rho N_i^2 over the
// lumped rule) to the nodes' momenta; gravity loads the nodes with M g. The element has no
// unknowns of its own.
#include <memory>
#include <string>
#include <vector>

#include "elements/solids/solid_shapes.hpp"
#include "mbdyn-like/core/constitutive_law.hpp"
#include "mbdyn-like/core/element.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements {

struct SolidParams {
  const solid::Shape* shape = nullptr;
  std::vector<StructNode*> nodes;
  std::vector<double> density;                               ///< per node
  std::vector<std::unique_ptr<ConstitutiveLaw6D>> laws;      ///< per stiffness point
  bool is_static = false;
  bool lumped_mass = false;
};

class Solid : public Element {
 public:
  Solid(unsigned label, SolidParams p);

  std::string_view kind() const override { return "solid"; }
  std::string_view type_name() const override { return p_.shape->keyword; }
  bool netcdf_listed() const override { return false; }

  void setup(Model& model) override;
  /// Adds the momenta M v of the nodes' initial velocities (as bodies do: the nodes' momentum
  /// unknowns start from what the inertial elements on them carry).
  void initial_state(Vector& y, Vector& yp) const override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;
  void save_step_state() override {
    for (auto& law : p_.laws) law->save_step_state();
  }
  void restore_step_state() override {
    for (auto& law : p_.laws) law->restore_step_state();
  }
  std::string log_line() const override;

  /// "E": kinetic energy (zero for static elements).
  // solid.cc SolidElem: "E", the kinetic energy.
  unsigned private_data_count() const override { return 1; }
  DatumInfo private_data_info(unsigned i) const override { return i == 1 ? DatumInfo{"E", "kinetic energy"} : DatumInfo{}; }
  double private_data(unsigned i) const override;

  /// The second Piola-Kirchhoff stress (Voigt) at stiffness point k after the last residual.
  const Eigen::Matrix<double, 6, 1>& stress(int k) const { return points_[k].sigma; }
  /// Total mass (integral of the density).
  double mass() const { return total_mass_; }

 private:
  struct Point {
    Eigen::MatrixX3d b;     ///< dN/dX, n x 3
    double dV0 = 0.0;       ///< weight x det J0
    Eigen::Matrix<double, 6, 1> sigma = Eigen::Matrix<double, 6, 1>::Zero();
  };
  /// Strains, strain rates and their derivatives for F (vec, row-major) and F'.
  struct Kinematics;
  /// F and F' at a stiffness point.
  void deformation(const Point& p, Mat3& F, Mat3& Fdot) const;
  /// F, F', the strains and their derivatives for F and F' (the Jacobian's needs).
  void kinematics(const Point& p, Kinematics& k) const;
  bool inertial() const;

  SolidParams p_;
  const Model* model_ = nullptr;
  std::vector<Point> points_;
  double total_mass_ = 0.0;             ///< the mass rule's sum of rho x weight x det J0
  Eigen::MatrixXd M_;                   ///< mass matrix (n x n, acting on each component)
  std::vector<Mat3> K_pairs_, C_pairs_;  ///< jacobian(): blocks per node pair (reused storage)
};

}  // namespace mbl::elements

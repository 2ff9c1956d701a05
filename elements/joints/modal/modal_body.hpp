#pragma once
// The flexible body of a modal joint: the modes selected from a FEM file, the generalized
// matrices and the inertia invariants of the floating frame of reference (technical manual,
// "modal element"; input manual §8.12.31 and appendix A.1).
//
// Invariants, with m_i, J_i the lumped mass and rotary inertia of FEM node i at u_i and PHIt_ij,
// PHIr_ij its translation and rotation in mode j:
//   Inv1 = sum m_i                          (mass)
//   Inv2 = sum m_i u_i                      (static moment)
//   Inv3_j = sum m_i PHIt_ij                Inv4_j = sum m_i u_i x PHIt_ij + J_i PHIr_ij
//   Inv5_jk = sum m_i PHIt_ij x PHIt_ik     Inv7 = sum J_i - m_i [u_i x][u_i x]
//   Inv8_j = -sum m_i [u_i x][PHIt_ij x]    Inv9_jk = sum m_i [PHIt_ij x][PHIt_ik x]
//   Inv10_j = sum [PHIr_ij x] J_i           Inv11_j = sum J_i PHIr_ij
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "elements/joints/modal/fem_file.hpp"

namespace mbl::elements {

struct ModalBody {
  std::vector<int> mode_numbers;  ///< 1-based mode numbers in the FEM file
  int modes() const { return static_cast<int>(mode_numbers.size()); }
  Eigen::MatrixXd M, K, C;        ///< generalized mass, stiffness, damping
  double mass = 0.0;              ///< Inv1
  Vec3 S = Vec3::Zero();          ///< Inv2, about the FEM origin
  Mat3 J = Mat3::Zero();          ///< Inv7, about the FEM origin
  /// Inv3 (3 x N), Inv4 (3 x N), Inv5 (3 x N^2, column j N + k), Inv8 (3 x 3N, block j),
  /// Inv9 (3 x 3N^2, block j N + k), Inv10 (3 x 3N), Inv11 (3 x N); empty when unused.
  Eigen::MatrixXd inv3, inv4, inv5, inv8, inv9, inv10, inv11;
  std::vector<std::string> node_labels;
  Eigen::Matrix3Xd x_nodes;                 ///< FEM node positions, from the origin
  std::vector<Eigen::Matrix3Xd> shape_t, shape_r;  ///< per selected mode, 3 x nodes
  Eigen::VectorXd q0, qp0;                  ///< initial modal coordinates and rates
};

enum class ModalDamping { FromFile, None, Rayleigh, SingleFactor, Diag };

struct ModalBodyOptions {
  std::vector<int> modes;  ///< 1-based mode numbers to use
  ModalDamping damping = ModalDamping::FromFile;
  double rayleigh_mass = 0.0, rayleigh_stiffness = 0.0;  ///< C = alpha M + beta K
  double damping_factor = 0.0;                           ///< single factor damping
  std::vector<double> damping_factors;                   ///< diag damping, per selected mode
  std::optional<std::string> origin_node;                ///< `origin node`
  std::optional<Vec3> origin_position;                   ///< `origin position`
  bool use_invariant_9 = false;
};

/// Selects the modes, moves the origin and computes the invariants as MBDyn does: from the
/// lumped masses (record group 11) when given, the rigid-body ones replaced by record group 12
/// when that is given too. Throws std::invalid_argument for an unknown origin node.
ModalBody build_modal_body(const FemFile& fem, const ModalBodyOptions& options);

}  // namespace mbl::elements

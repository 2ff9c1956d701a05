#pragma once
// The FEM file of the modal joint (input manual appendix A.1): a component reduced by a
// finite-element code (or by hand) to a few shapes, read record group by record group. Every
// error names the FEM file's line and column, like a deck error.
#include <array>
#include <memory>
#include <ostream>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "mbdyn-like/core/types.hpp"
#include "parser/source.hpp"

namespace mbl::elements {

/// The contents of a FEM file, all modes as in the file (NMODES = normal + attached +
/// constraint - rejected; rejected modes, listed first in record group 8, are dropped).
struct FemFile {
  std::shared_ptr<const parser::SourceFile> file;
  int node_count = 0;
  int mode_count = 0;
  std::vector<std::string> node_labels;   ///< record group 2
  Eigen::VectorXd q0, qp0;                ///< record groups 3, 4 (zero when absent)
  Eigen::Matrix3Xd x_nodes;               ///< record groups 5-7, FEM frame
  /// Record group 8: for each mode, the 6 x node_count shape (translations over rotations).
  std::vector<Eigen::Matrix<double, 6, Eigen::Dynamic>> shapes;
  Eigen::MatrixXd M, K;                   ///< record groups 9, 10 (row by row)
  std::optional<Eigen::MatrixXd> C;       ///< record group 13
  /// Record group 11: lumped mass and diagonal rotary inertia of each node.
  std::optional<Eigen::VectorXd> node_mass;
  Eigen::Matrix3Xd node_J;
  /// Record group 12: total mass, centre of mass and inertia about it, FEM frame.
  struct RigidInertia {
    double mass = 0.0;
    Vec3 x_cg = Vec3::Zero();
    Mat3 J_cg = Mat3::Zero();
  };
  std::optional<RigidInertia> rigid;
  /// Record groups 14-18: invariants given in the file (3 x N, 3 x N, 3 x 3N, 3 x N^2, 3 x 9N^2
  /// with the column layout of the manual).
  std::optional<Eigen::MatrixXd> inv3, inv4, inv8, inv5, inv9;
};

/// Matrix entries below these magnitudes are dropped (`mass|damping|stiffness threshold`).
struct FemThresholds {
  double mass = 0.0, damping = 0.0, stiffness = 0.0;
};

/// Reads a FEM file held in `file` (its text); throws parser::InputError at the offending line.
FemFile parse_fem_file(std::shared_ptr<const parser::SourceFile> file, const FemThresholds& thresholds = {});

/// Writes the data of the selected `modes` (1-based) back in the FEM file format, as MBDyn's
/// `echo` does (before any origin shift; `precision` significant digits, scientific).
void write_fem_echo(std::ostream& os, const FemFile& fem, const std::vector<int>& modes, int precision);

/// Loads `path` and parses it; `where` is the deck location that names it (errors in the FEM
/// file show it as the place that included the file).
FemFile read_fem_file(const std::string& path, const parser::SourceLocation& where,
                      const FemThresholds& thresholds = {});

}  // namespace mbl::elements

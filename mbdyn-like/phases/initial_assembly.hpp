#pragma once
// MBDyn's initial assembly phase (technical manual §6.1; input manual §5.2): before the
// derivatives phase, the input configuration and velocities are corrected by the least amount
// that makes them comply with the constraints. Each structural node is held near its input state
// by penalty springs (its position stiffness on x and on the CGR parameters of R R0^T, its
// velocity stiffness on v and omega), and the problem is solved in two parts (eqs. 6.11-6.12):
//   positions:   K (q - q0) + Phi_q^T lambda = 0,   Phi(q, t0) = 0          (Newton)
//   velocities:  C (v - v0) + G^T mu = 0,           G v + c0 = 0            (linear)
// where G stacks Phi_q (time derivative of the holonomic constraints, c0 = Phi_t) and the rows A
// of the non-holonomic constraints A v + b = 0 (c0 = b). Our elements have no dedicated
// initial-assembly equations: the regular residual and Jacobian of the participating elements
// are evaluated with dCoef = 1, so that constraint rows hold Phi and the node rows -Phi_q^T
// lambda (see mbdyn-like/core/assembly.hpp).
#include <iosfwd>
#include <string>
#include <vector>

#include "integrators/problem.hpp"
#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/model/settings.hpp"
#include "mbdyn-like/phases/participants.hpp"

namespace mbl {

struct AssemblyReport {
  bool performed = false;  ///< false: skipped (card, or no element takes part)
  bool converged = true;
  /// Newton solves of the position problem, at least 1 when only the velocities were corrected
  /// (MBDyn counts one coupled iteration).
  int iterations = 0;
  double error = 0.0;  ///< last convergence test value
  std::string message;  ///< why it failed
};

/// True if element `e` takes part in the initial assembly: joints that own constraint unknowns,
/// plus the kinds named by `use: ... in assembly`; joints without unknowns (rods, deformable
/// joints) only with `initial assembly of deformable and force elements`.
bool takes_part_in_assembly(const Element& e, const RunSettings& s);

/// The penalty springs of one structural node (technical manual eq. 6.9a-b).
struct AssemblySpring {
  StructNode* node = nullptr;
  double position_stiffness = 1.0;
  double velocity_stiffness = 1.0;
  bool omega_rotates = false;
  StructNode::InitialConditions input;  ///< the configuration given in the deck
};

/// Springs for every structural node that owns unknowns, with the per-node `assembly` options
/// overriding the control-data defaults.
std::vector<AssemblySpring> assembly_springs(const Model& model, const RunSettings& s);

/// The position/orientation problem (eq. 6.11) over the model's own numbering: node equilibrium
/// rows get the springs and the participants' reactions, participants' holonomic constraint
/// rows get Phi; every other unknown (momenta, multipliers of non-holonomic constraints,
/// non-structural nodes) gets an identity equation, so it does not move. All unknowns are
/// differential; the Newton update is y += d with dCoef = 1, and after_predict() moves the
/// rotation increments into the nodes' reference orientation (the nodes must not have a
/// converged history yet: the phase runs before the integrator starts).
class AssemblyPositionProblem final : public integrators::Problem {
 public:
  /// `velocity_rows`: participants' own equations that are non-holonomic (excluded here).
  AssemblyPositionProblem(Model& model, std::vector<Element*> participants, std::vector<AssemblySpring> springs,
                          const std::vector<char>& velocity_rows);

  int size() const override { return model_.size(); }
  integrators::DofOrder dof_order(int) const override { return integrators::DofOrder::Differential; }
  void update(double t, const Vector& y, const Vector& yp) override;
  void residual(double t, double dCoef, Vector& r, Vector* abs_r) override;
  void jacobian(double t, double dCoef, integrators::SparseMatrix& J) override;
  void after_convergence(double, Vector&, Vector&) override {}
  void rebase_history(std::span<Vector>, std::span<Vector>) override {}
  void after_predict(double t, Vector& y, Vector& yp) override;

  /// Whether unknown i moves in this problem (node positions/orientations, holonomic multipliers).
  bool active(int i) const { return col_active_[i]; }
  /// Whether equation i is a holonomic constraint Phi = 0 of a participant.
  bool constraint_row(int i) const { return constraint_row_[i]; }

 private:
  Model& model_;
  std::vector<Element*> participants_;
  std::vector<AssemblySpring> springs_;
  DofMask row_active_, col_active_, constraint_row_;
  std::vector<int> identity_col_;  ///< for inactive rows: the unknown their identity equation fixes
  integrators::SparseMatrix scratch_;
  Vector r_full_, abs_full_;
  const Vector* y_ = nullptr;
  const Vector* yp_ = nullptr;
};

/// Runs the phase on a numbered model at time s.initial_time and writes the assembled x, R, v,
/// omega back as the nodes' initial conditions (StructNode::set_initial), so that
/// Model::initial_state then starts from them. Never throws on divergence.
AssemblyReport run_initial_assembly(Model& model, const RunSettings& s, std::ostream& log);

}  // namespace mbl

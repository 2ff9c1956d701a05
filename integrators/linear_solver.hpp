#pragma once
// Linear solvers for the Newton iteration: J * x = b with J assembled in a SparseMatrix.
// Two back-ends: SuiteSparse KLU (the default; symbolic analysis kept while the matrix pattern
// is unchanged) and a dense Eigen LU for tiny systems. MBDyn's `linear solver:` card names
// (input manual §4.1.1 "Linear Solver") are mapped onto these by make_linear_solver().
#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "integrators/sparse_matrix.hpp"

namespace mbl::integrators {

/// Outcome of a factorisation. `singular_index` is the (0-based) unknown/column index whose
/// pivot vanished, -1 when unknown.
struct FactorStatus {
  bool ok = true;
  int singular_index = -1;
  std::string message;
};

class LinearSolver {
 public:
  virtual ~LinearSolver() = default;
  virtual std::string_view name() const = 0;
  /// Factors J (numeric values of its current pattern). Never throws on a singular matrix.
  virtual FactorStatus factor(SparseMatrix& J) = 0;
  /// Solves with the last successful factorisation; rhs in, solution out.
  virtual void solve(Eigen::VectorXd& rhs_in_solution_out) = 0;
  /// Drops the factorisation (and the symbolic analysis).
  virtual void reset() = 0;
  bool has_factorization() const { return factored_; }

  std::uint64_t symbolic_analyses() const { return n_symbolic_; }
  std::uint64_t numeric_factorizations() const { return n_numeric_; }
  std::uint64_t solves() const { return n_solves_; }

 protected:
  bool factored_ = false;
  std::uint64_t n_symbolic_ = 0, n_numeric_ = 0, n_solves_ = 0;
};

/// SuiteSparse KLU: klu_analyze once per matrix pattern (SparseMatrix::pattern_version()),
/// klu_factor for the first numeric factorisation, then refactorisations with the same pivot
/// order (KluRefactorPlan: klu_refactor's arithmetic; falls back to a fresh klu_factor when the
/// reused pivots become poor).
class KluSolver final : public LinearSolver {
 public:
  /// pivot_tolerance: KLU's partial-pivoting threshold (MBDyn's `pivot factor`, default 0.1).
  explicit KluSolver(double pivot_tolerance = 0.1, int row_scaling = 2);
  ~KluSolver() override;
  KluSolver(const KluSolver&) = delete;
  KluSolver& operator=(const KluSolver&) = delete;
  std::string_view name() const override { return "klu"; }
  FactorStatus factor(SparseMatrix& J) override;
  void solve(Eigen::VectorXd& x) override;
  void reset() override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Dense LU (Eigen). PartialPivLU is the fast path; FullPivLU is rank revealing.
class DenseSolver final : public LinearSolver {
 public:
  enum class Pivoting { Partial, Full };
  explicit DenseSolver(Pivoting p = Pivoting::Partial);
  ~DenseSolver() override;
  std::string_view name() const override { return "dense"; }
  FactorStatus factor(SparseMatrix& J) override;
  void solve(Eigen::VectorXd& x) override;
  void reset() override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Data of MBDyn's `linear solver:` card, already tokenised by the reader (manual §4.1.1).
struct LinearSolverSpec {
  std::string name = "klu";              ///< naive, umfpack, klu, y12, lapack, superlu, ...
  std::string storage = {};              ///< map | cc | dir | grad (ignored: one storage)
  std::string ordering = {};             ///< colamd | mmdata | amd | given | metis
  int threads = 1;                       ///< mt / multithread
  std::optional<int> workspace_size = {};  ///< ignored (KLU allocates dynamically)
  std::optional<double> pivot_factor = {};  ///< KLU pivot tolerance
  std::optional<double> drop_tolerance = {};  ///< ignored (no incomplete factorisation)
  std::optional<int> block_size = {};  ///< ignored
  std::string scale = {};                ///< no | always | once | row max | row sum | ...
};

struct LinearSolverChoice {
  std::unique_ptr<LinearSolver> solver;
  /// Informational, e.g. "linear solver umfpack mapped to klu"; empty when the mapping is exact.
  std::string message;
};

/// Maps MBDyn's linear solver names onto ours. Throws std::invalid_argument for an unknown name.
LinearSolverChoice make_linear_solver(const LinearSolverSpec& spec);

}  // namespace mbl::integrators

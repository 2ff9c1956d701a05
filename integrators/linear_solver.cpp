#include "integrators/linear_solver.hpp"

#include "integrators/klu_refactor.hpp"

#include <klu.h>

#include <Eigen/LU>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>
#include <vector>

namespace mbl::integrators {

namespace {
/// The failure both back-ends report for a zero pivot at 0-based unknown `col`.
FactorStatus zero_pivot(int col) {
  return {false, col, fmt::format("singular matrix: zero pivot for unknown {}", col + 1)};
}
}  // namespace

// ---- KLU ---------------------------------------------------------------------------------------

struct KluSolver::Impl {
  klu_common common{};
  klu_symbolic* symbolic = nullptr;
  klu_numeric* numeric = nullptr;
  KluRefactorPlan refactor_plan;  ///< of `numeric`, built after each klu_factor
  std::uint64_t analysed_version = ~std::uint64_t{0};
  int n = -1;

  void free_numeric() {
    if (numeric) klu_free_numeric(&numeric, &common);
    numeric = nullptr;
    refactor_plan.clear();
  }
  void free_symbolic() {
    free_numeric();
    if (symbolic) klu_free_symbolic(&symbolic, &common);
    symbolic = nullptr;
    analysed_version = ~std::uint64_t{0};
  }
};

KluSolver::KluSolver(double pivot_tolerance, int row_scaling) : impl_(std::make_unique<Impl>()) {
  klu_defaults(&impl_->common);
  impl_->common.tol = pivot_tolerance;
  impl_->common.scale = row_scaling;
  // Stop at the first zero pivot; KLU then reports the offending column in singular_col.
  impl_->common.halt_if_singular = 1;
}

KluSolver::~KluSolver() { impl_->free_symbolic(); }

void KluSolver::reset() {
  impl_->free_symbolic();
  factored_ = false;
}

FactorStatus KluSolver::factor(SparseMatrix& J) {
  Impl& k = *impl_;
  factored_ = false;
  // The matrix's own compressed arrays (KLU only reads them, through non-const pointers): the
  // symbolic analysis stays valid while the pattern version is the analysed one.
  int* const ap = const_cast<int*>(J.col_ptr().data());
  int* const ai = const_cast<int*>(J.row_idx().data());
  double* const ax = const_cast<double*>(J.values().data());
  const int n = J.size();
  if (n == 0) {
    factored_ = true;
    return {};
  }
  const bool new_pattern = k.symbolic == nullptr || k.analysed_version != J.pattern_version() ||
                           k.n != n;
  if (new_pattern) {
    k.free_symbolic();
    k.n = n;
    k.symbolic = klu_analyze(n, ap, ai, &k.common);
    if (!k.symbolic) {
      return {false, -1, fmt::format("KLU symbolic analysis failed (status {})", k.common.status)};
    }
    k.analysed_version = J.pattern_version();
    ++n_symbolic_;
  }
  auto singular = [&]() -> FactorStatus {
    int col = k.common.singular_col;
    if (col < 0 || col >= n) col = -1;
    k.free_numeric();
    return col >= 0 ? zero_pivot(col) : FactorStatus{false, -1, "singular matrix"};
  };
  bool done = false;
  if (k.numeric && !new_pattern) {
    // Same pattern, same pivot order: klu_refactor's arithmetic through the recorded plan, then
    // verify the reused pivots are sane.
    if (k.refactor_plan.refactor(ai, ax, *k.numeric)) {
      klu_rcond(k.symbolic, k.numeric, &k.common);
      if (std::isfinite(k.common.rcond) && k.common.rcond > 1e-12) done = true;
    }
    if (!done) k.free_numeric();
  }
  if (!done) {
    k.free_numeric();
    k.numeric = klu_factor(ap, ai, ax, k.symbolic, &k.common);
    if (!k.numeric || k.common.status == KLU_SINGULAR) return singular();
    if (k.common.status != KLU_OK) {
      k.free_numeric();
      return {false, -1, fmt::format("KLU factorisation failed (status {})", k.common.status)};
    }
    klu_rcond(k.symbolic, k.numeric, &k.common);
    if (!(k.common.rcond > 0.0) || !std::isfinite(k.common.rcond)) return singular();
    k.refactor_plan.build(n, ap, ai, *k.symbolic, *k.numeric, k.common.scale);
  }
  ++n_numeric_;
  factored_ = true;
  return {};
}

void KluSolver::solve(Eigen::VectorXd& x) {
  if (!factored_) throw std::logic_error("KluSolver::solve without a factorisation");
  ++n_solves_;
  if (x.size() == 0) return;
  klu_solve(impl_->symbolic, impl_->numeric, static_cast<int>(x.size()), 1, x.data(),
            &impl_->common);
}

// ---- Dense -------------------------------------------------------------------------------------

struct DenseSolver::Impl {
  Pivoting pivoting;
  Eigen::PartialPivLU<Eigen::MatrixXd> partial;
  Eigen::FullPivLU<Eigen::MatrixXd> full;
};

DenseSolver::DenseSolver(Pivoting p) : impl_(std::make_unique<Impl>()) { impl_->pivoting = p; }
DenseSolver::~DenseSolver() = default;
void DenseSolver::reset() { factored_ = false; }

FactorStatus DenseSolver::factor(SparseMatrix& J) {
  factored_ = false;
  const Eigen::MatrixXd A = J.to_dense();
  const int n = J.size();
  ++n_symbolic_;  // a dense "analysis" is trivial but counted for symmetry with KLU
  const double scale = n > 0 ? A.cwiseAbs().maxCoeff() : 0.0;
  if (n > 0 && !(scale > 0.0)) return zero_pivot(0);
  if (impl_->pivoting == Pivoting::Full) {
    impl_->full.compute(A);
    impl_->full.setThreshold(1e-14);
    if (n > 0 && !impl_->full.isInvertible()) {
      return zero_pivot(impl_->full.permutationQ().indices()[impl_->full.rank()]);
    }
  } else {
    impl_->partial.compute(A);
    const auto& lu = impl_->partial.matrixLU();
    for (int k = 0; k < n; ++k) {
      if (!(std::abs(lu(k, k)) > 1e-14 * scale)) return zero_pivot(k);
    }
  }
  ++n_numeric_;
  factored_ = true;
  return {};
}

void DenseSolver::solve(Eigen::VectorXd& x) {
  if (!factored_) throw std::logic_error("DenseSolver::solve without a factorisation");
  ++n_solves_;
  if (x.size() == 0) return;
  if (impl_->pivoting == Pivoting::Full)
    x = impl_->full.solve(x);
  else
    x = impl_->partial.solve(x);
}

// ---- factory -----------------------------------------------------------------------------------

namespace {
std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}
}  // namespace

LinearSolverChoice make_linear_solver(const LinearSolverSpec& spec) {
  const std::string name = lower(spec.name);
  // Sparse direct solvers of MBDyn: all become KLU (same answers, one well-tested back-end).
  static const char* const sparse_names[] = {"naive",  "umfpack", "klu",     "y12",
                                             "superlu", "taucs",  "pardiso", "pardiso_64",
                                             "watson", "pastix",  "spqr",    "aztecoo",
                                             "amesos", "siconos sparse", "harwell", "meschach"};
  // Dense solvers of MBDyn.
  static const char* const dense_names[] = {"lapack", "qr", "siconos dense"};
  std::vector<std::string> notes;
  LinearSolverChoice out;
  if (std::find(std::begin(dense_names), std::end(dense_names), name) != std::end(dense_names)) {
    out.solver = std::make_unique<DenseSolver>(name == "qr" ? DenseSolver::Pivoting::Full
                                                            : DenseSolver::Pivoting::Partial);
    notes.push_back(fmt::format("linear solver {} mapped to dense LU", spec.name));
  } else if (std::find(std::begin(sparse_names), std::end(sparse_names), name) !=
             std::end(sparse_names)) {
    const double tol = spec.pivot_factor.value_or(0.1);
    if (!(tol >= 0.0 && tol <= 1.0))
      throw std::invalid_argument(
          fmt::format("linear solver pivot factor must be in [0, 1], found {}", tol));
    const std::string sc = lower(spec.scale);
    int row_scaling = 2;  // KLU's row-max scaling only steers pivoting; the solution is unscaled
    if (sc == "row sum" || sc == "column sum") row_scaling = 1;
    out.solver = std::make_unique<KluSolver>(tol, row_scaling);
    if (name != "klu") notes.push_back(fmt::format("linear solver {} mapped to klu", spec.name));
  } else {
    throw std::invalid_argument(fmt::format(
        "unknown linear solver \"{}\" (expected naive, umfpack, klu, y12, lapack, superlu, taucs, "
        "pardiso, pardiso_64, watson, pastix, qr, spqr, aztecoo, amesos, siconos dense, siconos "
        "sparse)",
        spec.name));
  }
  if (spec.threads > 1) notes.push_back(fmt::format("{} threads ignored (serial solver)", spec.threads));
  if (spec.workspace_size) notes.push_back("workspace size ignored (dynamic allocation)");
  if (spec.drop_tolerance && *spec.drop_tolerance != 0.0)
    notes.push_back("drop tolerance ignored (complete factorisation)");
  if (spec.block_size) notes.push_back("block size ignored");
  if (!spec.ordering.empty() && lower(spec.ordering) != "colamd" && lower(spec.ordering) != "amd")
    notes.push_back(fmt::format("ordering {} replaced by KLU's AMD", spec.ordering));
  for (std::size_t i = 0; i < notes.size(); ++i) out.message += (i ? "; " : "") + notes[i];
  return out;
}

}  // namespace mbl::integrators

#pragma once
// A numeric refactorisation specialised to one KLU factorisation: the pattern, the BTF blocks,
// the pivot order and the L and U patterns that klu_factor found are turned once into flat
// programs (where each entry of A goes, which columns of L update which column), and later
// matrices of the same pattern are factorised into the same klu_numeric, so klu_solve and
// klu_rcond work on it unchanged.
// Every value is computed with the operations of klu_refactor in the same order (row scale as
// klu_scale, A / Rs, the left-looking updates X[i] -= L(i,j) U(j,k) in the order of U's pattern,
// L(:,k) = X / U(k,k)), so the factors are KLU's bit for bit; what is saved is KLU's per-entry
// bookkeeping (permutation look-ups, the off-diagonal test, a branching |a| in klu_scale) and the
// divisions are done two at a time (IEEE division is exact-rounded either way).
#include <klu.h>

#include <vector>

namespace mbl::integrators {

class KluRefactorPlan {
 public:
  /// Records the programs of `numeric` (just made by klu_factor from `symbolic` and the matrix
  /// Ap, Ai). `scale` is KLU's Common.scale of that factorisation (0, 1 row sum, 2 row max;
  /// negative: none).
  void build(int n, const int* ap, const int* ai, const klu_symbolic& symbolic,
             const klu_numeric& numeric, int scale);
  bool built() const { return n_ > 0; }
  void clear() { *this = KluRefactorPlan{}; }

  /// Refactorises the values `ax` of the matrix (row indices `ai`, same pattern as at build) into
  /// `numeric`. Returns false on a zero pivot (the factors are then incomplete: refactor afresh
  /// with klu_factor).
  bool refactor(const int* ai, const double* ax, klu_numeric& numeric);

 private:
  int n_ = 0;
  int scale_ = 2;
  int nnz_ = 0;
  // Off-diagonal BTF entries: Offx[q] = A[off_src_[q]] / Rs[row].
  std::vector<int> off_src_;
  // Entries inside the diagonal blocks, column by column in pivot order: X[in_dst_] = A[in_src_]
  // / Rs[row] (X block-local); column k's entries are in_begin_[k] .. in_begin_[k + 1].
  std::vector<int> in_src_, in_dst_, in_begin_;
  // Factor layout of each (global, pivot-order) column inside KLU's LUbx.
  struct Column {
    const int* ui;
    double* ux;
    int ulen;
    const int* li;
    double* lx;
    int llen;
    int block_begin;  ///< k1 of its block; the column is singleton when its block has one column
    bool singleton;
  };
  std::vector<Column> col_;
  std::vector<double> rs_;  ///< row scale in the original row order
  // Row-max scaling (scale 2) row by row: the entries of row i are by_row_[row_begin_[i] ..
  // row_begin_[i + 1]) (a maximum does not depend on the order it is taken in).
  std::vector<int> by_row_, row_begin_;
  std::vector<double> x_;   ///< dense work column (block-local)
};

}  // namespace mbl::integrators

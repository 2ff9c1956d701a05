#pragma once
// Square sparse matrix assembled by adding entries, with a pattern that is discovered on the
// first assemblies and then kept: later assemblies only add into existing slots, so the linear
// solver can keep its symbolic analysis. An entry outside the pattern grows it and bumps
// pattern_version().
// Assemblies repeat the same sequence of adds (same elements, same blocks): the slot of each add
// of the last assembly is kept (the trace), so an add that follows the trace costs one
// comparison instead of a binary search in its column; an add off the trace re-records it from
// there on. The values, and so the results, are those of the binary search.
#include <Eigen/Core>
#include <cstdint>
#include <vector>

namespace mbl::integrators {

class SparseMatrix {
 public:
  explicit SparseMatrix(int n = 0) { resize(n); }
  void resize(int n);
  int size() const { return n_; }

  /// Sets every stored value to zero, keeping the pattern; an assembly starts here.
  void zero();
  /// Adds v at (row, col); an entry outside the pattern grows it, even if v is 0.
  void add(int row, int col, double v) { add_entry(row, col, v, true); }
  /// Adds a dense block with its top-left corner at (row, col); its zero entries outside the
  /// pattern are left out.
  template <class Derived>
  void add_block(int row, int col, const Eigen::MatrixBase<Derived>& m) {
    for (int j = 0; j < m.cols(); ++j)
      for (int i = 0; i < m.rows(); ++i) add_entry(row + i, col + j, m(i, j), false);
  }
  /// Adds a block whose rows go to `rows[i]` and columns to `cols[j]` (global indices).
  void add_scattered(const std::vector<int>& rows, const std::vector<int>& cols,
                     const Eigen::MatrixXd& m);

  /// Compressed-column view (valid until the next add outside the pattern).
  const std::vector<int>& col_ptr();
  const std::vector<int>& row_idx();
  const std::vector<double>& values();
  /// Incremented whenever the pattern changes.
  std::uint64_t pattern_version() const { return version_; }
  std::size_t nonzeros() const;

  double coeff(int row, int col) const;  ///< 0 when absent (tests, debugging)
  Eigen::MatrixXd to_dense() const;
  Eigen::VectorXd multiply(const Eigen::VectorXd& x) const;
  /// J^T x into `out` (the line search's gradient of 1/2 |r|^2 is -J^T r).
  void multiply_transposed(const Eigen::VectorXd& x, Eigen::VectorXd& out) const;

 private:
  /// `grow_on_zero`: a zero outside the pattern still becomes an entry (add()).
  void add_entry(int row, int col, double v, bool grow_on_zero) {
    if (cursor_ < trace_.size()) {
      const TraceEntry& t = trace_[cursor_];
      if (t.row == row && t.col == col) {
        ++cursor_;
        if (t.slot >= 0) {
          values_[std::size_t(t.slot)] += v;
          return;
        }
        if (v == 0.0) return;  // a zero left out last time too
        --cursor_;
      }
    }
    add_searched(row, col, v, grow_on_zero);
  }
  void add_searched(int row, int col, double v, bool grow_on_zero);
  void compress();
  int n_ = 0;
  // Compressed storage (the kept pattern).
  std::vector<int> col_ptr_, row_idx_;
  std::vector<double> values_;
  // Entries added outside the pattern since the last compress().
  struct Pending { int row, col; double v; };
  std::vector<Pending> pending_;
  std::uint64_t version_ = 0;
  /// The adds of the current and last assembly: slot in values_, -1 for a zero left out.
  struct TraceEntry { int row, col, slot; };
  std::vector<TraceEntry> trace_;
  std::size_t cursor_ = 0;
  bool tracing_ = false;  ///< from zero() until an add grows the pattern
};

}  // namespace mbl::integrators

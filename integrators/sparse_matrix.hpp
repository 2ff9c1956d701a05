#pragma once
// Square sparse matrix assembled by adding entries, with a pattern that is discovered on the
// first assemblies and then kept: later assemblies only add into existing slots, so the linear
// solver can keep its symbolic analysis. An entry outside the pattern grows it and bumps
// pattern_version().
// Assemblies repeat the same sequence of adds (same elements, same blocks): the slot of each add
// of the last assembly is kept (the trace), so an add that follows the trace costs one
// comparison instead of a binary search in its column (a block's column whose rows are consecutive
// slots is one entry of the trace); an add off the trace re-records it from there on. The values, and so the results, are those of the binary search.
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
    const int rows = int(m.rows());
    for (int j = 0; j < m.cols(); ++j) {
      // A column of the block whose rows are consecutive slots is one trace entry (a run).
      if (cursor_ < trace_.size()) {
        const TraceEntry& t = trace_[cursor_];
        if (t.row == row && t.col == col + j && t.count == rows && rows > 1) {
          ++cursor_;
          double* v = values_.data() + t.slot;
          for (int i = 0; i < rows; ++i) v[i] += m(i, j);
          continue;
        }
      }
      const bool entries_traced = cursor_ < trace_.size() && trace_[cursor_].row == row &&
                                  trace_[cursor_].col == col + j && trace_[cursor_].count == 1;
      if (!entries_traced && rows > 1 && add_run_searched(row, col + j, rows, [&](int i) { return m(i, j); }))
        continue;
      for (int i = 0; i < rows; ++i) add_entry(row + i, col + j, m(i, j), false);
    }
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
      if (t.row == row && t.col == col && t.count == 1) {
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
  /// Adds rows [row, row + count) of a block column when they are consecutive slots of the
  /// pattern (and records the run); false, with nothing added, otherwise.
  template <class Value>
  bool add_run_searched(int row, int col, int count, const Value& value) {
    const int slot = run_slot(row, col, count);
    if (slot < 0) return false;
    if (tracing_) {
      trace_.resize(cursor_);
      trace_.push_back({row, col, slot, count});
      ++cursor_;
    }
    for (int i = 0; i < count; ++i) values_[std::size_t(slot + i)] += value(i);
    return true;
  }
  /// Slot of (row, col) when rows row .. row + count - 1 of column col are all in the pattern, else -1.
  int run_slot(int row, int col, int count) const;
  void compress();
  int n_ = 0;
  // Compressed storage (the kept pattern).
  std::vector<int> col_ptr_, row_idx_;
  std::vector<double> values_;
  // Entries added outside the pattern since the last compress().
  struct Pending { int row, col; double v; };
  std::vector<Pending> pending_;
  std::uint64_t version_ = 0;
  /// The adds of the current and last assembly: slot in values_, -1 for a zero left out; `count`
  /// consecutive rows from there (a block column), 1 for a single entry.
  struct TraceEntry { int row, col, slot, count; };
  std::vector<TraceEntry> trace_;
  std::size_t cursor_ = 0;
  bool tracing_ = false;  ///< from zero() until an add grows the pattern
};

}  // namespace mbl::integrators

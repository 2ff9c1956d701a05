#pragma once
// Square sparse matrix assembled by adding entries, with a pattern that is discovered on the
// first assemblies and then kept: later assemblies only add into existing slots (binary search
// in the column), so the linear solver can keep its symbolic analysis. An entry outside the
// pattern grows it and bumps pattern_version().
#include <Eigen/Core>
#include <cstdint>
#include <vector>

namespace mbl::integrators {

class SparseMatrix {
 public:
  explicit SparseMatrix(int n = 0) { resize(n); }
  void resize(int n);
  int size() const { return n_; }

  /// Sets every stored value to zero, keeping the pattern.
  void zero();
  void add(int row, int col, double v);
  /// Adds a dense block with its top-left corner at (row, col).
  template <class Derived>
  void add_block(int row, int col, const Eigen::MatrixBase<Derived>& m) {
    for (int j = 0; j < m.cols(); ++j)
      for (int i = 0; i < m.rows(); ++i)
        if (m(i, j) != 0.0) add(row + i, col + j, m(i, j));
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
  void compress();
  int n_ = 0;
  // Compressed storage (the kept pattern).
  std::vector<int> col_ptr_, row_idx_;
  std::vector<double> values_;
  // Entries added outside the pattern since the last compress().
  struct Pending { int row, col; double v; };
  std::vector<Pending> pending_;
  std::uint64_t version_ = 0;
};

}  // namespace mbl::integrators

#pragma once
// The constant mapping matrix H of the `external structural mapping` and `external modal
// mapping` forces (input manual §8.8.11, §8.8.13): the peer's coordinates are H times ours
// (positions, velocities), our loads H^T times the peer's (eq. 8.66-8.68). Read as MBDyn's
// ReadSparseMappingMatrix (modalmappingext.cc) reads it:
//   { full | sparse } mapping file [, threshold, t] [, transpose (full only)] , "<file>"
// The file may start with lines beginning with '#'. `sparse`: `row col value` triplets, 1-based
// (a repeated position keeps the last value); `full`: rows x cols values row by row (with
// `transpose`, cols x rows). Values whose magnitude is not above the threshold are dropped.
// Products follow MBDyn's SpMapMatrixHandler: columns in order, rows in order within a column.
#include <span>
#include <vector>

namespace mbl::parser {
class CardReader;
}

namespace mbl::elements {

class MappingMatrix {
 public:
  struct Entry {
    int row, col;  ///< 0-based
    double value;
  };
  MappingMatrix() = default;
  /// `entries` sorted by column, then row (no repeated position).
  MappingMatrix(int rows, int cols, std::vector<Entry> entries);

  int rows() const { return rows_; }
  int cols() const { return cols_; }
  const std::vector<Entry>& entries() const { return entries_; }
  /// out = H x (out has rows(), x cols() values).
  void multiply(std::span<const double> x, std::span<double> out) const;
  /// out = H^T p (out has cols(), p rows() values).
  void multiply_transposed(std::span<const double> p, std::span<double> out) const;

 private:
  int rows_ = 0, cols_ = 0;
  std::vector<Entry> entries_;
};

/// Reads the mapping clause at the card's next argument. `rows` < 0: the number of rows comes from
/// the file (sparse: its largest row index; full: the number of values over `cols`). File
/// problems are input errors at the file name. A relative name is taken from the deck's folder
/// when the file is there, else from the working directory (as MBDyn opens it).
MappingMatrix read_mapping_matrix(parser::CardReader& in, int rows, int cols);

}  // namespace mbl::elements

#pragma once
// Square sparse matrix assembled by adding entries, with a pattern that is discovered on the
// first assemblies and then kept: later assemblies only add into existing slots, so the linear
// solver can keep its symbolic analysis. An entry outside the pattern grows it and bumps
// pattern_version().
// Assemblies repeat the same sequence of adds (same elements, same blocks): the slot of each add
// of the last assembly is kept (the trace), so an add that follows the trace costs one
// comparison instead of a binary search in its column (a block's column is one entry of the trace:
// its rows in the pattern are consecutive slots, the others zeros left out); an add off the trace
// re-records it from there on. The values, and so the results, are those of the binary search.
// An assembly that follows the trace can also be cut into segments added by several threads at
// once (Lane), with every slot receiving its terms in the serial order.
#include <Eigen/Core>
#include <algorithm>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <utility>
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
  void add(int row, int col, double v) {
    ++adds_;
    add_entry(row, col, v, true);
  }
  /// Adds a dense block with its top-left corner at (row, col); its zero entries outside the
  /// pattern are left out.
  template <class Derived>
  void add_block(int row, int col, const Eigen::MatrixBase<Derived>& m) {
    const int rows = int(m.rows());
    adds_ += std::size_t(rows > 1 ? m.cols() : m.size());
    for (int j = 0; j < m.cols(); ++j) {
      // A column of the block is one trace entry (a run).
      if (cursor_ < trace_.size()) {
        const TraceEntry& t = trace_[cursor_];
        if (t.row == row && t.col == col + j && t.count == rows && rows > 1 &&
            add_traced_run(t, [&](int i) { return m(i, j); })) {
          ++cursor_;
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

  // ---- parallel assembly ------------------------------------------------------------------------
  // An assembly that repeats the last one can be cut into consecutive segments of its trace, each
  // added by its own thread through a Lane. Within a group of segments that run at the same time,
  // a slot is written directly by the first segment that adds to it; the other segments' terms
  // for it are kept aside and added by finish_lanes() in segment order: every slot receives its
  // terms in the order of the serial assembly, so the sums are the same bit for bit.
  class Lane;
  /// Changes whenever the trace does (positions recorded in one assembly hold while it is equal).
  std::uint64_t trace_id() const { return trace_id_; }
  /// Position in the trace of the next add.
  std::size_t trace_cursor() const { return cursor_; }
  /// Whether the current assembly (since zero()) follows or records a trace: false once an add
  /// grew the pattern.
  bool tracing() const { return tracing_; }
  /// Distinct row masks of block columns with holes recorded since the last resize().
  std::size_t hole_mask_count() const { return hole_masks_.size() - 1; }
  /// Lanes for the trace segments [bounds[k], bounds[k + 1]) of one group, the first starting at
  /// the current position; empty when the trace does not hold them.
  std::vector<Lane> lanes(const std::vector<std::size_t>& bounds);
  /// Adds the terms the lanes kept aside, in segment order; false when a lane left the trace (its
  /// segment is incomplete: zero() and assemble serially).
  bool finish_lanes(std::vector<Lane>& lanes);

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
  struct TraceEntry;
  /// Whether row i of a run with holes (rows left out, `mask` of the rows present) is in the
  /// pattern (rows from 64 on always are).
  static bool in_pattern(std::uint64_t mask, int i) { return i >= 64 || (mask >> i & 1u); }
  /// Replays a recorded run: false, with nothing added, when a row left out as zero is not zero now.
  template <class Value>
  bool add_traced_run(const TraceEntry& t, const Value& value) {
    double* v = values_.data() + t.slot;
    const int count = t.count;
    if (t.holes == 0) {
      for (int i = 0; i < count; ++i) v[i] += value(i);
      return true;
    }
    const std::uint64_t mask = hole_masks_[t.holes];
    for (int i = 0; i < count; ++i)
      if (!in_pattern(mask, i) && value(i) != 0.0) return false;
    for (int i = 0; i < count; ++i)
      if (in_pattern(mask, i)) *v++ += value(i);
    return true;
  }
  /// Adds rows [row, row + count) of a block column when each is in the pattern or zero (and
  /// records the run); false, with nothing added, when one needs a new entry.
  template <class Value>
  bool add_run_searched(int row, int col, int count, const Value& value) {
    std::uint64_t nonzero = 0;
    for (int i = 0; i < std::min(count, 64); ++i)
      if (value(i) != 0.0) nonzero |= std::uint64_t{1} << i;
    std::uint64_t present = 0;
    const int slot = count <= kMaxRun ? run_slot(row, col, count, nonzero, present) : -1;
    if (slot < 0) return false;
    const int holes = holes_index(count, present);
    if (holes < 0) return false;
    const TraceEntry t{row, col, slot, std::uint16_t(count), std::uint16_t(holes)};
    if (tracing_) {
      trace_.resize(cursor_);
      trace_.push_back(t);
      new_trace();
      ++cursor_;
    }
    return add_traced_run(t, value);
  }
  /// Slot of the first row of a block column at (row, col) in the pattern when the rows of the
  /// pattern within [row, row + count) hold every nonzero (bit i of `nonzero`; rows from 64 on
  /// must all be in the pattern), -1 otherwise; `present` gets the rows in the pattern.
  int run_slot(int row, int col, int count, std::uint64_t nonzero, std::uint64_t& present) const;
  void compress();
  int n_ = 0;
  // Compressed storage (the kept pattern).
  std::vector<int> col_ptr_, row_idx_;
  std::vector<double> values_;
  // Entries added outside the pattern since the last compress() (a deque: no reallocation copy
  // of millions of entries while a large model's first assembly grows it).
  struct Pending { int row, col; double v; };
  std::deque<Pending> pending_;
  std::uint64_t version_ = 0;
  /// The adds of the current and last assembly: slot in values_, -1 for a zero left out; `count`
  /// rows from `row` (a block column), 1 for a single entry; of a block column, the rows in the
  /// pattern take consecutive slots from `slot`, the others were zeros left out: all rows when
  /// `holes` is 0, else those of hole_masks_[holes] (bit i: row + i). 16 bytes: the trace of a
  /// large model is one of its largest arrays (the few distinct masks are stored once).
  struct TraceEntry {
    int row, col, slot;
    std::uint16_t count, holes;
  };
  static constexpr int kMaxRun = 0xFFFF;  ///< longer block columns are traced entry by entry
  std::vector<TraceEntry> trace_;
  /// The distinct row masks of runs with holes; index 0 unused (no holes).
  std::vector<std::uint64_t> hole_masks_{0};
  std::unordered_map<std::uint64_t, int> hole_mask_index_;
  /// Index of `present` in hole_masks_ (added if new), 0 when every row of the run is present,
  /// -1 when the table is full.
  int holes_index(int count, std::uint64_t present);
  std::size_t cursor_ = 0;
  bool tracing_ = false;  ///< from zero() until an add grows the pattern
  std::uint64_t trace_id_ = 0;
  /// Trace entries the current and the last assembly need (block columns, single entries): the
  /// first trace is reserved at that size (doubling would hold 1.5x more, and two copies at once).
  std::size_t adds_ = 0, last_adds_ = 0;
  /// Of a group of lanes: per slot, the first segment that adds to it (255: none).
  struct LanePlan {
    std::uint64_t trace_id;
    std::vector<std::size_t> bounds;
    std::vector<std::uint8_t> first_segment;
  };
  std::vector<LanePlan> lane_plans_;
  void new_trace();
  /// Slots of a trace entry (its rows in the pattern).
  int slot_count(const TraceEntry& t) const;
};

/// One thread's segment of a parallel assembly: the adds of SparseMatrix, following the trace
/// (an add off the trace marks the lane failed and adds nothing more).
class SparseMatrix::Lane {
 public:
  void add(int row, int col, double v) {
    if (failed_ || cursor_ >= end_) return fail();
    const TraceEntry& t = trace_[cursor_];
    if (t.row != row || t.col != col || t.count != 1) return fail();
    ++cursor_;
    if (t.slot >= 0) put(t.slot, v);
    else if (v != 0.0) fail();  // a zero left out last time is not zero now
  }
  template <class Derived>
  void add_block(int row, int col, const Eigen::MatrixBase<Derived>& m) {
    const int rows = int(m.rows());
    for (int j = 0; j < m.cols() && !failed_; ++j) {
      if (rows > 1 && cursor_ < end_ && trace_[cursor_].count == rows) {
        const TraceEntry& t = trace_[cursor_];
        if (t.row != row || t.col != col + j) return fail();
        const std::uint64_t mask = t.holes ? hole_masks_[t.holes] : ~std::uint64_t{0};
        for (int i = 0; i < rows; ++i)
          if (!in_pattern(mask, i) && m(i, j) != 0.0) return fail();
        int slot = t.slot;
        for (int i = 0; i < rows; ++i)
          if (in_pattern(mask, i)) put(slot++, m(i, j));
        ++cursor_;
      } else {
        for (int i = 0; i < rows; ++i) add(row + i, col + j, m(i, j));
      }
    }
  }

 private:
  friend class SparseMatrix;
  void fail() { failed_ = true; }
  void put(int slot, double v) {
    if (first_segment_[slot] == segment_) values_[slot] += v;
    else aside_.emplace_back(slot, v);
  }
  const TraceEntry* trace_ = nullptr;
  const std::uint64_t* hole_masks_ = nullptr;
  std::size_t cursor_ = 0, end_ = 0;
  double* values_ = nullptr;
  const std::uint8_t* first_segment_ = nullptr;
  std::uint8_t segment_ = 0;
  std::vector<std::pair<int, double>> aside_;
  bool failed_ = false;
};

}  // namespace mbl::integrators

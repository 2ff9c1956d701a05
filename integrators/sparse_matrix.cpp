#include "integrators/sparse_matrix.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <stdexcept>

namespace mbl::integrators {

void SparseMatrix::resize(int n) {
  n_ = n;
  trace_.clear();
  cursor_ = 0;
  tracing_ = false;
  // A new matrix: the masks of the old one's runs go with its trace (the table holds 0xFFFF).
  hole_masks_.assign(1, 0);
  hole_mask_index_.clear();
  lane_plans_.clear();
  col_ptr_.assign(n + 1, 0);
  row_idx_.clear();
  values_.clear();
  pending_.clear();
  ++version_;
  new_trace();
}

void SparseMatrix::zero() {
  compress();
  // The first trace of a pattern is reserved at once, at the size the last assembly needed:
  // growing it by doubling would briefly hold two copies, the peak memory of a large model.
  last_adds_ = adds_;
  adds_ = 0;
  if (trace_.empty()) trace_.reserve(last_adds_);
  std::fill(values_.begin(), values_.end(), 0.0);
  cursor_ = 0;
  tracing_ = true;
}

void SparseMatrix::add_searched(int row, int col, double v, bool grow_on_zero) {
  if (row < 0 || col < 0 || row >= n_ || col >= n_)
    throw std::out_of_range("SparseMatrix::add: index out of range");
  // Off the trace: the rest of this assembly records a new one.
  if (tracing_) trace_.resize(cursor_);
  new_trace();
  const int b = col_ptr_[col], e = col_ptr_[col + 1];
  auto first = row_idx_.begin() + b, last = row_idx_.begin() + e;
  auto it = std::lower_bound(first, last, row);
  if (it != last && *it == row) {
    const int slot = int(it - row_idx_.begin());
    values_[std::size_t(slot)] += v;
    if (tracing_) {
      trace_.push_back({row, col, slot, 1});
      ++cursor_;
    }
    return;
  }
  if (v == 0.0 && !grow_on_zero) {
    if (tracing_) {
      trace_.push_back({row, col, -1, 1});
      ++cursor_;
    }
    return;
  }
  // A new entry: the pattern (and every slot) changes at the next compress(); no trace until
  // the next assembly.
  pending_.push_back({row, col, v});
  new_trace();
  tracing_ = false;
  trace_.clear();
  cursor_ = 0;
}

int SparseMatrix::run_slot(int row, int col, int count, std::uint64_t nonzero, std::uint64_t& present) const {
  if (row < 0 || col < 0 || row + count > n_ || col >= n_) return -1;
  const int b = col_ptr_[col], e = col_ptr_[col + 1];
  auto it = std::lower_bound(row_idx_.begin() + b, row_idx_.begin() + e, row);
  const auto last = row_idx_.begin() + e;
  const int slot = int(it - row_idx_.begin());
  // Rows are sorted and distinct: the block's rows in the pattern are the next slots.
  present = 0;
  for (int i = 0; i < count; ++i) {
    if (it != last && *it == row + i) {
      if (i < 64) present |= std::uint64_t{1} << i;
      ++it;
    } else if (i >= 64 || (nonzero >> i & 1u)) {
      return -1;
    }
  }
  return slot;
}

void SparseMatrix::add_scattered(const std::vector<int>& rows, const std::vector<int>& cols,
                                 const Eigen::MatrixXd& m) {
  adds_ += std::size_t(m.size());
  for (int j = 0; j < m.cols(); ++j)
    for (int i = 0; i < m.rows(); ++i) add_entry(rows[i], cols[j], m(i, j), false);
}

void SparseMatrix::new_trace() {
  // Unique over every matrix: positions recorded in one matrix never pass for another's.
  static std::atomic<std::uint64_t> last_id{0};
  trace_id_ = ++last_id;
}

int SparseMatrix::holes_index(int count, std::uint64_t present) {
  if (present == ~std::uint64_t{0} >> (64 - std::min(count, 64))) return 0;
  if (const auto it = hole_mask_index_.find(present); it != hole_mask_index_.end()) return it->second;
  if (hole_masks_.size() > 0xFFFF) return -1;
  hole_masks_.push_back(present);
  return hole_mask_index_[present] = int(hole_masks_.size()) - 1;
}

int SparseMatrix::slot_count(const TraceEntry& t) const {
  if (t.slot < 0) return 0;
  if (t.count == 1 || t.holes == 0) return t.count;
  return std::popcount(hole_masks_[t.holes]) + std::max(int(t.count) - 64, 0);
}

std::vector<SparseMatrix::Lane> SparseMatrix::lanes(const std::vector<std::size_t>& bounds) {
  const std::size_t segments = bounds.size() - 1;
  if (!tracing_ || bounds.size() < 2 || segments > 255 || bounds.front() != cursor_ || bounds.back() > trace_.size())
    return {};
  // The first segment that adds to each slot, kept while the trace holds (one plan per group).
  std::erase_if(lane_plans_, [&](const LanePlan& p) { return p.trace_id != trace_id_; });
  auto plan = std::find_if(lane_plans_.begin(), lane_plans_.end(), [&](const LanePlan& p) { return p.bounds == bounds; });
  if (plan == lane_plans_.end()) {
    LanePlan p{trace_id_, bounds, std::vector<std::uint8_t>(values_.size(), 255)};
    for (std::size_t k = 0; k < segments; ++k)
      for (std::size_t e = bounds[k]; e < bounds[k + 1]; ++e)
        for (int s = trace_[e].slot, last = s + slot_count(trace_[e]); s < last; ++s)
          if (p.first_segment[std::size_t(s)] == 255) p.first_segment[std::size_t(s)] = std::uint8_t(k);
    lane_plans_.push_back(std::move(p));
    plan = lane_plans_.end() - 1;
  }
  std::vector<Lane> out(segments);
  for (std::size_t k = 0; k < segments; ++k) {
    Lane& l = out[k];
    l.trace_ = trace_.data();
    l.hole_masks_ = hole_masks_.data();
    l.cursor_ = bounds[k];
    l.end_ = bounds[k + 1];
    l.values_ = values_.data();
    l.first_segment_ = plan->first_segment.data();
    l.segment_ = std::uint8_t(k);
  }
  return out;
}

bool SparseMatrix::finish_lanes(std::vector<Lane>& lanes) {
  for (const Lane& l : lanes)
    if (l.failed_ || l.cursor_ != l.end_) return false;
  for (const Lane& l : lanes)
    for (const auto& [slot, v] : l.aside_) values_[std::size_t(slot)] += v;
  if (!lanes.empty()) cursor_ = lanes.back().end_;
  return true;
}

void SparseMatrix::compress() {
  if (pending_.empty()) return;
  trace_.clear();  // the slots move
  new_trace();
  cursor_ = 0;
  // Merge the existing pattern with the pending entries, column by column: the kept entry first,
  // then the pending ones in the order they were added, sorted by row (std::sort: its order of
  // equal rows, hence the sums of duplicates, is part of the results) and duplicates summed.
  // Built in place in flat arrays (a large model's first assembly adds millions of entries).
  std::vector<int> ptr(n_ + 1, 0);
  for (int c = 0; c < n_; ++c) ptr[c + 1] = col_ptr_[c + 1] - col_ptr_[c];
  for (const auto& p : pending_) ++ptr[p.col + 1];
  for (int c = 0; c < n_; ++c) ptr[c + 1] += ptr[c];
  std::vector<std::pair<int, double>> merged(static_cast<std::size_t>(ptr[n_]));  // (not size_t(ptr[n_]): clang reads a declaration)
  {
    std::vector<int> fill(ptr.begin(), ptr.end() - 1);
    for (int c = 0; c < n_; ++c)
      for (int k = col_ptr_[c]; k < col_ptr_[c + 1]; ++k) merged[std::size_t(fill[c]++)] = {row_idx_[k], values_[k]};
    std::vector<int>().swap(row_idx_);
    std::vector<double>().swap(values_);
    for (const auto& p : pending_) merged[std::size_t(fill[p.col]++)] = {p.row, p.v};
    std::deque<Pending>().swap(pending_);
  }
  std::size_t out = 0;
  for (int c = 0; c < n_; ++c) {
    const auto first = merged.begin() + ptr[c], last = merged.begin() + ptr[c + 1];
    std::sort(first, last, [](const auto& x, const auto& y) { return x.first < y.first; });
    col_ptr_[c] = int(out);
    for (auto it = first; it != last; ++it) {
      if (out > std::size_t(col_ptr_[c]) && merged[out - 1].first == it->first) merged[out - 1].second += it->second;
      else merged[out++] = *it;
    }
  }
  col_ptr_[n_] = int(out);
  row_idx_.resize(out);
  values_.resize(out);
  for (std::size_t k = 0; k < out; ++k) {
    row_idx_[k] = merged[k].first;
    values_[k] = merged[k].second;
  }
  ++version_;
}

const std::vector<int>& SparseMatrix::col_ptr() { compress(); return col_ptr_; }
const std::vector<int>& SparseMatrix::row_idx() { compress(); return row_idx_; }
const std::vector<double>& SparseMatrix::values() { compress(); return values_; }
std::size_t SparseMatrix::nonzeros() const { return row_idx_.size() + pending_.size(); }

double SparseMatrix::coeff(int row, int col) const {
  double v = 0.0;
  for (int k = col_ptr_[col]; k < col_ptr_[col + 1]; ++k)
    if (row_idx_[k] == row) v += values_[k];
  for (const auto& p : pending_)
    if (p.row == row && p.col == col) v += p.v;
  return v;
}

Eigen::MatrixXd SparseMatrix::to_dense() const {
  Eigen::MatrixXd d = Eigen::MatrixXd::Zero(n_, n_);
  for (int c = 0; c < n_; ++c)
    for (int k = col_ptr_[c]; k < col_ptr_[c + 1]; ++k) d(row_idx_[k], c) += values_[k];
  for (const auto& p : pending_) d(p.row, p.col) += p.v;
  return d;
}

Eigen::VectorXd SparseMatrix::multiply(const Eigen::VectorXd& x) const {
  Eigen::VectorXd y = Eigen::VectorXd::Zero(n_);
  for (int c = 0; c < n_; ++c)
    for (int k = col_ptr_[c]; k < col_ptr_[c + 1]; ++k) y[row_idx_[k]] += values_[k] * x[c];
  for (const auto& p : pending_) y[p.row] += p.v * x[p.col];
  return y;
}

void SparseMatrix::multiply_transposed(const Eigen::VectorXd& x, Eigen::VectorXd& out) const {
  out.setZero(n_);
  for (int c = 0; c < n_; ++c)
    for (int k = col_ptr_[c]; k < col_ptr_[c + 1]; ++k) out[c] += values_[k] * x[row_idx_[k]];
  for (const auto& p : pending_) out[p.col] += p.v * x[p.row];
}

}  // namespace mbl::integrators

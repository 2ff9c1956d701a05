#include "integrators/klu_refactor.hpp"

#include <algorithm>
#include <cmath>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace mbl::integrators {

namespace {

/// out[q] = ax[src[q]] / rs[row of src[q]], two IEEE divisions per instruction where SSE2 is
/// available (each quotient is the correctly rounded one, as KLU's scalar division).
void divide_gathered(const double* ax, const int* ai, const double* rs, const int* src,
                     double* out, int count) {
  int q = 0;
#if defined(__SSE2__)
  for (; q + 1 < count; q += 2) {
    const __m128d a = _mm_set_pd(ax[src[q + 1]], ax[src[q]]);
    const __m128d b = _mm_set_pd(rs[ai[src[q + 1]]], rs[ai[src[q]]]);
    _mm_storeu_pd(out + q, _mm_div_pd(a, b));
  }
#endif
  for (; q < count; ++q) out[q] = ax[src[q]] / rs[ai[src[q]]];
}

/// x[dst[q]] = ax[src[q]] / rs[row of src[q]]: a column's entries into the work column (their
/// rows, hence dst, are distinct), divided two at a time as divide_gathered.
void scatter_divided(const double* ax, const int* ai, const double* rs, const int* src,
                     const int* dst, double* x, int count) {
  int q = 0;
#if defined(__SSE2__)
  for (; q + 1 < count; q += 2) {
    const __m128d a = _mm_set_pd(ax[src[q + 1]], ax[src[q]]);
    const __m128d b = _mm_set_pd(rs[ai[src[q + 1]]], rs[ai[src[q]]]);
    const __m128d v = _mm_div_pd(a, b);
    _mm_storel_pd(x + dst[q], v);
    _mm_storeh_pd(x + dst[q + 1], v);
  }
#endif
  for (; q < count; ++q) x[dst[q]] = ax[src[q]] / rs[ai[src[q]]];
}

/// lx[p] = x[li[p]] / pivot and x[li[p]] = 0: column k of L from the updated work column.
void gather_divide_clear(double* x, const int* li, double pivot, double* lx, int count) {
  int p = 0;
#if defined(__SSE2__)
  const __m128d d = _mm_set1_pd(pivot);
  for (; p + 1 < count; p += 2) {
    const __m128d a = _mm_set_pd(x[li[p + 1]], x[li[p]]);
    _mm_storeu_pd(lx + p, _mm_div_pd(a, d));
    x[li[p]] = 0.0;
    x[li[p + 1]] = 0.0;
  }
#endif
  for (; p < count; ++p) {
    lx[p] = x[li[p]] / pivot;
    x[li[p]] = 0.0;
  }
}

/// KLU's packed storage of a column of L or U inside LUbx[block] (klu_version.h, real case:
/// the indices, then the values from the next double boundary).
void column_of(double* lu, int start, int len, const int*& idx, double*& val) {
  double* base = lu + start;
  idx = reinterpret_cast<const int*>(base);
  val = base + (static_cast<std::size_t>(len) * sizeof(int) + sizeof(double) - 1) / sizeof(double);
}

}  // namespace

void KluRefactorPlan::build(int n, const int* ap, const int* ai, const klu_symbolic& symbolic,
                            const klu_numeric& numeric, int scale) {
  clear();
  n_ = n;
  scale_ = scale;
  nnz_ = ap[n];
  col_.resize(n);
  in_begin_.assign(1, 0);
  int poff = 0;
  // The scatter order of klu_refactor: blocks in order, columns in pivot order, entries in
  // column order; an entry left of its block goes to the next off-diagonal slot.
  for (int block = 0; block < symbolic.nblocks; ++block) {
    const int k1 = symbolic.R[block], k2 = symbolic.R[block + 1];
    double* lu = static_cast<double*>(numeric.LUbx[block]);
    for (int k = k1; k < k2; ++k) {
      const int oldcol = symbolic.Q[k];
      for (int p = ap[oldcol]; p < ap[oldcol + 1]; ++p) {
        const int newrow = numeric.Pinv[ai[p]] - k1;
        if (newrow < 0 && poff < symbolic.nzoff) {
          off_src_.push_back(p);
          ++poff;
        } else {
          in_src_.push_back(p);
          in_dst_.push_back(newrow);
        }
      }
      in_begin_.push_back(int(in_src_.size()));
      Column& c = col_[k];
      c.block_begin = k1;
      c.singleton = k2 - k1 == 1;
      if (c.singleton) continue;
      c.ulen = numeric.Ulen[k];
      c.llen = numeric.Llen[k];
      column_of(lu, int(numeric.Uip[k]), c.ulen, c.ui, c.ux);
      column_of(lu, int(numeric.Lip[k]), c.llen, c.li, c.lx);
    }
  }
  rs_.resize(n);
  if (scale_ == 2) {
    row_begin_.assign(n + 1, 0);
    for (int p = 0; p < nnz_; ++p) ++row_begin_[ai[p] + 1];
    for (int i = 0; i < n; ++i) row_begin_[i + 1] += row_begin_[i];
    by_row_.resize(nnz_);
    std::vector<int> next(row_begin_.begin(), row_begin_.end() - 1);
    for (int p = 0; p < nnz_; ++p) by_row_[next[ai[p]]++] = p;
  }
  x_.assign(std::max(symbolic.maxblock, 1), 0.0);
}

bool KluRefactorPlan::refactor(const int* ai, const double* ax, klu_numeric& numeric) {
  const double* rs = nullptr;
  if (scale_ == 2) {
    // klu_scale's row maxima of |a|, empty rows left unscaled; taken row by row, with the
    // maximum in a register instead of a store and reload of rs per entry.
    const int* p = by_row_.data();
    for (int i = 0; i < n_; ++i) {
      double r = 0.0;
      for (const int* end = by_row_.data() + row_begin_[i + 1]; p != end; ++p) {
        const double a = std::fabs(ax[*p]);
        r = r > a ? r : a;
      }
      rs_[i] = r == 0.0 ? 1.0 : r;
    }
    rs = rs_.data();
  } else if (scale_ > 0) {
    // klu_scale's row sums of |a| in the entry order, empty rows left unscaled.
    std::fill(rs_.begin(), rs_.end(), 0.0);
    for (int p = 0; p < nnz_; ++p) rs_[ai[p]] += std::fabs(ax[p]);
    for (double& r : rs_)
      if (r == 0.0) r = 1.0;
    rs = rs_.data();
  }
  auto* offx = static_cast<double*>(numeric.Offx);
  auto* udiag = static_cast<double*>(numeric.Udiag);
  const int n_off = int(off_src_.size());
  if (rs)
    divide_gathered(ax, ai, rs, off_src_.data(), offx, n_off);
  else
    for (int q = 0; q < n_off; ++q) offx[q] = ax[off_src_[q]];

  double* const x = x_.data();
  for (int k = 0; k < n_; ++k) {
    const Column& c = col_[k];
    const int q0 = in_begin_[k], q1 = in_begin_[k + 1];
    if (c.singleton) {
      // KLU keeps the last entry of the column inside the block (the diagonal).
      double s = 0.0;
      if (q1 > q0) {
        const int p = in_src_[q1 - 1];
        s = rs ? ax[p] / rs[ai[p]] : ax[p];
      }
      udiag[k] = s;
      continue;
    }
    if (rs)
      scatter_divided(ax, ai, rs, in_src_.data() + q0, in_dst_.data() + q0, x, q1 - q0);
    else
      for (int q = q0; q < q1; ++q) x[in_dst_[q]] = ax[in_src_[q]];
    // U(:,k) and the left-looking update of column k, in the order of U's pattern.
    const Column* const block_col = col_.data() + c.block_begin;
    for (int up = 0; up < c.ulen; ++up) {
      const int j = c.ui[up];
      const double ujk = x[j];
      x[j] = 0.0;
      c.ux[up] = ujk;
      const Column& cj = block_col[j];
      const int* const li = cj.li;
      const double* const lx = cj.lx;
      for (int p = 0; p < cj.llen; ++p) x[li[p]] -= lx[p] * ujk;
    }
    const int kl = k - c.block_begin;
    const double ukk = x[kl];
    x[kl] = 0.0;
    if (ukk == 0.0) {
      std::fill(x_.begin(), x_.end(), 0.0);
      return false;
    }
    udiag[k] = ukk;
    gather_divide_clear(x, c.li, ukk, c.lx, c.llen);
  }
  if (rs) {
    // Numeric->Rs is kept in pivot order, as klu_refactor leaves it for klu_solve.
    for (int k = 0; k < n_; ++k) numeric.Rs[k] = rs_[numeric.Pnum[k]];
  }
  return true;
}

}  // namespace mbl::integrators

#include "elements/aero/c81_data.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "parser/size_limits.hpp"

namespace mbl::elements::aero {
namespace {

/// Index i with v[i] <= x < v[i+1] in v[lo..hi]; lo - 1 below the range, hi above it (a value
/// equal to an interior point may return that point), as MBDyn's bisection.
int bracket(const double* v, double x, int lo, int hi) {
  if (x < v[lo]) return lo - 1;
  if (x > v[hi]) return hi;
  while (hi > lo + 1) {
    const int b = (lo + hi) / 2;
    if (v[b] > x) hi = b;
    else if (v[b] < x) lo = b;
    else return b;
  }
  return lo;
}

double field(const std::string& line, std::size_t at, std::size_t width) {
  std::string s = at < line.size() ? line.substr(at, width) : std::string();
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  while (end && *end == ' ') ++end;
  if (end && *end != '\0' && *end != '\r' && *end != '\n')
    throw std::runtime_error("bad number \"" + s + "\" in c81 table");
  return v;
}

std::string next_line(std::istream& in) {
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error("c81 table ends early");
  return line;
}

void check_increasing(const std::vector<double>& v, int n, const char* what) {
  for (int i = 1; i < n; ++i)
    if (v[i] <= v[i - 1]) throw std::runtime_error(std::string(what) + " not strictly increasing in c81 table");
}

/// Traditional layout: a vector of n values in 7-column fields, 9 per line after 7 blank columns.
std::vector<double> read_fixed_vector(std::istream& in, int n) {
  std::vector<double> v(n);
  std::string line;
  for (int c = 0; c < n; ++c) {
    if (c % 9 == 0) line = next_line(in);
    v[c] = field(line, 7 * (c % 9 + 1), 7);
  }
  return v;
}

/// Traditional layout: each row is alpha and ncols - 1 values, 10 fields on its first line and 9
/// (after 7 blank columns) on the following ones; stored column-major.
std::vector<double> read_fixed_matrix(std::istream& in, int nrows, int ncols) {
  std::vector<double> m(static_cast<std::size_t>(nrows) * ncols);
  std::string line;
  for (int r = 0; r < nrows; ++r) {
    int row = 0, offset = 0;
    for (int c = 0; c < ncols; ++c) {
      const int i = (c - offset) % (9 - offset + 1);
      if (i == 0) {
        if (++row == 2) offset = 1;
        line = next_line(in);
      }
      m[r + static_cast<std::size_t>(nrows) * c] = field(line, 7 * (i + offset), 7);
    }
  }
  return m;
}

C81Table read_free_table(std::istream& in, int nm, int na) {
  C81Table t;
  t.mach.resize(nm);
  for (double& m : t.mach)
    if (!(in >> m)) throw std::runtime_error("c81 free format: missing Mach number");
  t.a.resize(static_cast<std::size_t>(na) * (nm + 1));
  for (int r = 0; r < na; ++r)
    for (int c = 0; c <= nm; ++c)
      if (!(in >> t.a[r + static_cast<std::size_t>(na) * c])) throw std::runtime_error("c81 free format: missing value");
  return t;
}

/// Stall data of one table (MBDyn's do_stall): from the first alpha >= 0 (searching from the
/// middle row), the upper and lower ends of the linear range and the slope between them.
void stall_of(const C81Table& t, double tolerance, std::vector<double>& stall) {
  const int NM = static_cast<int>(t.mach.size()), NA = t.rows();
  const double* a = t.a.data();
  stall.assign(3 * NM, 0.0);
  for (int nm = 0; nm < NM; ++nm) {
    const int start = NA * (nm + 1);
    int na = NA / 2;
    while (a[na] > 0.) {
      if (--na <= 0) return;
    }
    while (a[na] < 0.) {
      if (++na >= NA) return;
    }
    // No row on one side of alpha = 0 (the last row, or a one-row table): no linear range
    // (MBDyn's do_stall reads outside its array there; a fuzzing finding).
    if (na + 1 >= NA || na < 1) return;
    const double a0 = a[na], cl0 = a[start + na];
    double slope0 = (a[start + na + 1] - cl0) / (a[na + 1] - a0);
    stall[nm] = 1.;
    stall[NM + nm] = 1.;
    stall[2 * NM + nm] = 0.;
    for (int i = na + 2; i < NA; ++i) {
      const double slope = (a[start + i] - cl0) / (a[i] - a0);
      if (slope - slope0 < -slope0 * tolerance) {
        stall[nm] = a[i - 1];
        stall[2 * NM + nm] = a[start + i - 1];
        break;
      }
    }
    slope0 = (a[start + na - 1] - cl0) / (a[na - 1] - a0);
    for (int i = na - 2; i >= 0; --i) {
      const double slope = (a[start + i] - cl0) / (a[i] - a0);
      if (slope - slope0 < -slope0 * tolerance) {
        stall[NM + nm] = a[i + 1];
        stall[2 * NM + nm] -= a[start + i + 1];
        stall[2 * NM + nm] /= (stall[nm] - stall[NM + nm]);
        break;
      }
    }
  }
}

void flip_table(C81Table& t, double sign) {
  const int NA = t.rows(), NM = static_cast<int>(t.mach.size());
  double* v = t.a.data();
  for (int m = 0; m <= NM; ++m, v += NA) {
    const double s = m == 0 ? -1.0 : sign;
    for (int i = 0; i < NA / 2; ++i) {
      const double d = v[i];
      v[i] = s * v[NA - i - 1];
      v[NA - i - 1] = s * d;
    }
    if (NA % 2) v[NA / 2] *= s;
  }
}

}  // namespace

double C81Table::lookup(double alpha_deg, double mach_number, double* c_at_zero) const {
  const int nm = static_cast<int>(mach.size()), na = rows();
  const double* m = mach.data();
  const double* A = a.data();
  while (alpha_deg < -180.) alpha_deg += 360.;
  while (alpha_deg >= 180.) alpha_deg -= 360.;
  mach_number = std::fabs(mach_number);
  int im = bracket(m, mach_number, 0, nm - 1);
  const int ia0 = c_at_zero ? bracket(A, 0., 0, na - 1) : -1;
  int ia = bracket(A, alpha_deg, 0, na - 1);
  // One Mach column (clamped): linear in alpha, clamped at the table's ends.
  auto in_column = [&](int col, int i, double x) {
    if (i == na - 1) return A[na * (col + 1) - 1];
    if (i == -1) return A[na * col];
    ++i;
    const double da = (x - A[i - 1]) / (A[i] - A[i - 1]);
    return (1. - da) * A[na * col + i - 1] + da * A[na * col + i];
  };
  if (im == nm - 1 || im == -1) {
    const int col = im == -1 ? 1 : nm;
    if (c_at_zero) *c_at_zero = in_column(col, ia0, 0.);
    return in_column(col, ia, alpha_deg);
  }
  ++im;
  const double d = (mach_number - m[im - 1]) / (m[im] - m[im - 1]);
  if (c_at_zero) {
    // MBDyn interpolates the zero-alpha value between rows ia0 - 1 and ia0 here (exact when the
    // table has a row at alpha = 0). Where that row is before the table (alpha = 0 below its
    // second row; MBDyn's get_coef reads outside its array there), the rows around alpha = 0, or
    // the first row when alpha = 0 is below the table or it has one row (a fuzzing finding).
    if (ia0 == -1 || na == 1) {
      *c_at_zero = (1. - d) * A[na * im] + d * A[na * (im + 1)];
    } else {
      const int i = std::max(ia0, 1);
      const double a1 = (1. - d) * A[na * im + i - 1] + d * A[na * (im + 1) + i - 1];
      const double a2 = (1. - d) * A[na * im + i] + d * A[na * (im + 1) + i];
      const double da = -A[i - 1] / (A[i] - A[i - 1]);
      *c_at_zero = (1. - da) * a1 + da * a2;
    }
  }
  if (ia == na - 1) return (1. - d) * A[na * (im + 1) - 1] + d * A[na * (im + 2) - 1];
  if (ia == -1) return (1. - d) * A[na * im] + d * A[na * (im + 1)];
  ++ia;
  const double a1 = (1. - d) * A[na * im + ia - 1] + d * A[na * (im + 1) + ia - 1];
  const double a2 = (1. - d) * A[na * im + ia] + d * A[na * (im + 1) + ia];
  const double da = (alpha_deg - A[ia - 1]) / (A[ia] - A[ia - 1]);
  return (1. - da) * a1 + da * a2;
}

namespace {
/// The linear slope (1/deg) of a table at this Mach number from its stall arrays (MBDyn's get_dcla).
double linear_slope(const C81Table& table, const std::vector<double>& stall, double mach_number) {
  const int nm = static_cast<int>(table.mach.size());
  const double* s = stall.data();
  mach_number = std::fabs(mach_number);
  int im = bracket(table.mach.data(), mach_number, 0, nm - 1);
  if (im == nm - 1) return s[3 * nm - 1];
  if (im == -1) return s[2 * nm];
  ++im;
  const double d = (mach_number - table.mach[im - 1]) / (table.mach[im] - table.mach[im - 1]);
  return (1. - d) * s[2 * nm + im - 1] + d * s[2 * nm + im];
}
}  // namespace

double C81Data::lift_slope(double mach_number) const { return linear_slope(lift, lift_stall, mach_number); }

double C81Data::moment_slope(double mach_number) const { return linear_slope(moment, moment_stall, mach_number); }

void C81Data::find_stall(double tolerance) {
  stall_of(lift, tolerance, lift_stall);
  stall_of(moment, tolerance, moment_stall);
}

void C81Data::flip() {
  flip_table(lift, -1.0);
  flip_table(drag, 1.0);
  flip_table(moment, -1.0);
}

C81Data interpolate_c81(const C81Data& from, const C81Data& to, double w_from, double w_to, double tolerance) {
  C81Data d;
  d.header = from.header;
  C81Table C81Data::*const tables[3] = {&C81Data::lift, &C81Data::drag, &C81Data::moment};
  const char* names[3] = {"Cl", "Cd", "Cm"};
  for (int k = 0; k < 3; ++k) {
    const C81Table& a = from.*tables[k];
    const C81Table& b = to.*tables[k];
    if (a.mach != b.mach)
      throw std::runtime_error(fmt::format("the Mach points of {} differ between the airfoils", names[k]));
    if (a.rows() != b.rows() || !std::equal(a.a.begin(), a.a.begin() + a.rows(), b.a.begin()))
      throw std::runtime_error(fmt::format("the angles of attack of {} differ between the airfoils", names[k]));
    C81Table t = a;
    for (std::size_t i = static_cast<std::size_t>(a.rows()); i < t.a.size(); ++i) t.a[i] = w_from * a.a[i] + w_to * b.a[i];
    d.*tables[k] = std::move(t);
  }
  d.find_stall(tolerance);
  return d;
}

C81Data read_c81(std::istream& in, double tolerance, bool free_format) {
  C81Data d;
  std::string first = next_line(in);
  const bool marked = first.rfind("# FREE FORMAT", 0) == 0 || first.rfind("# free format", 0) == 0;
  if (free_format || marked) {
    if (marked) first = next_line(in);
    const auto semi = first.find(';');
    if (semi == std::string::npos) throw std::runtime_error("c81 free format: expected \"title;\" on the header line");
    d.header = first.substr(0, std::min<std::size_t>(semi, 30));
    std::istringstream counts(first.substr(semi + 1));
    int n[6];
    for (int& k : n)
      if (!(counts >> k) || k <= 0) throw std::runtime_error("c81 free format: bad table sizes");
    // The sizes are the file's own: storage is taken only for values the file can hold.
    const std::int64_t values = std::int64_t{n[0]} * (n[1] + 1) + std::int64_t{n[2]} * (n[3] + 1) +
                                std::int64_t{n[4]} * (n[5] + 1);
    if (!parser::text_can_hold(parser::bytes_left(in), values))
      throw std::runtime_error(fmt::format("c81 free format: table sizes {} {} {} {} {} {} need {} values, more than the "
                                           "file holds", n[0], n[1], n[2], n[3], n[4], n[5], values));
    d.lift = read_free_table(in, n[0], n[1]);
    d.drag = read_free_table(in, n[2], n[3]);
    d.moment = read_free_table(in, n[4], n[5]);
  } else {
    // "%30s%2d%2d%2d%2d%2d%2d": title, then Mach and alpha counts of Cl, Cd, Cm.
    int n[6];
    for (int k = 0; k < 6; ++k) {
      const std::string s = first.size() > 30u + 2 * k ? first.substr(30 + 2 * k, 2) : "";
      char* end = nullptr;
      n[k] = static_cast<int>(std::strtol(s.c_str(), &end, 10));
      if (s.empty() || n[k] <= 0) throw std::runtime_error("c81: bad table sizes in the header line");
    }
    d.header = first.substr(0, 30);
    C81Table* tables[3] = {&d.lift, &d.drag, &d.moment};
    for (int k = 0; k < 3; ++k) {
      tables[k]->mach = read_fixed_vector(in, n[2 * k]);
      tables[k]->a = read_fixed_matrix(in, n[2 * k + 1], n[2 * k] + 1);
    }
  }
  for (const C81Table* t : {&d.lift, &d.drag, &d.moment}) {
    check_increasing(t->mach, static_cast<int>(t->mach.size()), "Mach numbers");
    check_increasing(t->a, t->rows(), "angles of attack");
  }
  d.find_stall(tolerance);
  return d;
}

}  // namespace mbl::elements::aero

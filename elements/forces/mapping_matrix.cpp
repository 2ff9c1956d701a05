#include "elements/forces/mapping_matrix.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>

#include "elements/input/file_path.hpp"
#include "parser/card_reader.hpp"
#include "parser/errors.hpp"
#include "parser/file_name.hpp"

namespace mbl::elements {

MappingMatrix::MappingMatrix(int rows, int cols, std::vector<Entry> entries)
    : rows_(rows), cols_(cols), entries_(std::move(entries)) {}

void MappingMatrix::multiply(std::span<const double> x, std::span<double> out) const {
  std::fill(out.begin(), out.end(), 0.0);
  for (const Entry& e : entries_) out[std::size_t(e.row)] += e.value * x[std::size_t(e.col)];
}

void MappingMatrix::multiply_transposed(std::span<const double> p, std::span<double> out) const {
  std::fill(out.begin(), out.end(), 0.0);
  for (const Entry& e : entries_) out[std::size_t(e.col)] += e.value * p[std::size_t(e.row)];
}

namespace {

/// Skips the leading lines that begin with '#'.
void skip_comment_lines(std::istream& is) {
  while (is.peek() == '#') {
    std::string line;
    std::getline(is, line);
  }
}

}  // namespace

MappingMatrix read_mapping_matrix(parser::CardReader& in, int rows, int cols) {
  bool sparse = false;
  if (in.keyword_is("full mapping file")) sparse = false;
  else if (in.keyword_is("sparse mapping file")) sparse = true;
  else in.fail_expected("`full mapping file` or `sparse mapping file`");
  double threshold = 0.0;
  if (in.keyword_is("threshold"))
    threshold = parser::checked_real(in, [](double t) { return t >= 0.0; }, "a threshold >= 0");
  const bool transpose = !sparse && in.keyword_is("transpose");
  const parser::SourceLocation at = in.location();
  const std::string given = parser::read_file_name(in);
  const std::string path = resolve_path(at, given);
  auto fail = [&](const std::string& what) {
    throw parser::InputError(at, fmt::format("mapping file \"{}\": {}", given, what));
  };
  std::ifstream is(path);
  if (!is) fail("cannot be opened");
  skip_comment_lines(is);
  const std::streampos start = is.tellg();

  std::map<std::pair<int, int>, double> values;  // (col, row) -> value: MBDyn's column order
  if (sparse) {
    struct Triplet {
      long r, c;
      double v;
    };
    std::vector<Triplet> triplets;
    for (Triplet t{}; is >> t.r >> t.c >> t.v;) triplets.push_back(t);
    if (rows < 0) {
      rows = 0;
      for (const Triplet& t : triplets) rows = int(std::max<long>(rows, t.r));
    }
    for (std::size_t k = 0; k < triplets.size(); ++k) {
      const Triplet& t = triplets[k];
      if (t.r < 1 || t.r > rows || t.c < 1 || t.c > cols)
        fail(fmt::format("coefficient {} at row {}, column {}: expected rows 1 to {} and columns 1 to {}", k + 1, t.r,
                         t.c, rows, cols));
      if (std::abs(t.v) > threshold) values[{int(t.c - 1), int(t.r - 1)}] = t.v;
      else values.erase({int(t.c - 1), int(t.r - 1)});
    }
  } else {
    if (rows < 0) {
      std::size_t n = 0;
      for (double d; is >> d;) ++n;
      if (n == 0 || n % std::size_t(cols) != 0)
        fail(fmt::format("{} values, expected a multiple of the {} columns", n, cols));
      rows = int(n / std::size_t(cols));
      is.clear();
      is.seekg(start);
    }
    // `transpose`: the file holds H^T (cols x rows) row by row.
    const int outer = transpose ? cols : rows, inner = transpose ? rows : cols;
    for (int a = 0; a < outer; ++a)
      for (int b = 0; b < inner; ++b) {
        double d = 0.0;
        if (!(is >> d)) fail(fmt::format("cannot read coefficient ({}, {})", a + 1, b + 1));
        const int r = transpose ? b : a, c = transpose ? a : b;
        if (std::abs(d) > threshold) values[{c, r}] = d;
      }
  }
  if (rows <= 0) fail("no coefficients");
  std::vector<MappingMatrix::Entry> entries;
  entries.reserve(values.size());
  for (const auto& [at_cr, v] : values) entries.push_back({at_cr.second, at_cr.first, v});
  return MappingMatrix(rows, cols, std::move(entries));
}

}  // namespace mbl::elements

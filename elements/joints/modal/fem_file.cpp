#include "elements/joints/modal/fem_file.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string_view>

#include <fmt/format.h>

#include "parser/errors.hpp"
#include "parser/size_limits.hpp"

namespace mbl::elements {
namespace {

using parser::InputError;
using parser::SourceLocation;

constexpr std::string_view kRecordPrefix = "** RECORD GROUP ";
constexpr std::string_view kEndOfFile = "** END OF FILE";
constexpr int kLastRecord = 18;

const char* record_name(int rg) {
  static const char* names[] = {"",
                                "header",
                                "finite element node list",
                                "initial modal displacements",
                                "initial modal velocities",
                                "nodal X coordinates",
                                "nodal Y coordinates",
                                "nodal Z coordinates",
                                "mode shapes",
                                "modal mass matrix",
                                "modal stiffness matrix",
                                "diagonal of lumped mass matrix",
                                "global inertia properties",
                                "modal damping matrix",
                                "invariant 3",
                                "invariant 4",
                                "invariant 8",
                                "invariant 5",
                                "invariant 9"};
  return rg >= 1 && rg <= kLastRecord ? names[rg] : "";
}

/// Reads the values of one record group: blank-separated tokens over any number of lines,
/// skipping comment lines ("**"); stops at the next record group or at the end of the file.
class RecordScanner {
 public:
  RecordScanner(std::shared_ptr<const parser::SourceFile> file, std::vector<std::string_view> lines)
      : file_(std::move(file)), lines_(std::move(lines)) {}

  std::size_t line_count() const { return lines_.size(); }
  std::string_view line(std::size_t i) const { return lines_[i]; }
  SourceLocation at(std::size_t line, std::size_t col) const {
    return {file_, static_cast<int>(line) + 1, static_cast<int>(col) + 1};
  }
  /// Starts reading the record whose "** RECORD GROUP" line is `line`.
  void begin(std::size_t line, int rg) {
    line_ = line + 1;
    col_ = 0;
    rg_ = rg;
  }
  std::size_t current_line() const { return line_; }
  int record() const { return rg_; }

  std::string token(std::string_view what) {
    skip_to_token();
    if (line_ >= lines_.size() || starts_record(lines_[line_])) {
      const std::string found = line_ >= lines_.size() ? "the end of the file"
                                                        : fmt::format("\"{}\"", trim(lines_[line_]));
      const SourceLocation where = line_ >= lines_.size() ? at(lines_.size() - 1, lines_.back().size()) : at(line_, 0);
      throw InputError(where, fmt::format("expected {} in record group {} ({}), found {}", what, rg_,
                                          record_name(rg_), found));
    }
    const std::string_view l = lines_[line_];
    std::size_t end = col_;
    while (end < l.size() && !is_blank(l[end])) ++end;
    std::string t(l.substr(col_, end - col_));
    last_ = at(line_, col_);
    col_ = end;
    return t;
  }
  double number(std::string_view what) {
    const std::string t = token(what);
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (t.empty() || *end != '\0')
      throw InputError(last_, fmt::format("expected {} in record group {} ({}), found \"{}\"", what, rg_,
                                          record_name(rg_), t));
    return v;
  }
  /// A count of nodes or modes. Storage is sized from it before the values are read, so it is
  /// bounded first: by parser::kMaxCount (no real FEM file comes near) and by the file's size (each node
  /// or mode needs at least one value of two bytes, digit and blank).
  int count(std::string_view what) {
    const double v = number(what);
    if (!(v >= 0 && v <= parser::kMaxCount) || v != std::floor(v))
      throw InputError(last_, fmt::format("expected {} (an integer from 0 to {}), found {}", what, parser::kMaxCount, v));
    require_values(static_cast<std::int64_t>(v), what);
    return static_cast<int>(v);
  }
  /// Refuses `n` values (a record about to be sized from the counts) that a file of this size
  /// cannot hold, before the storage is taken.
  void require_values(std::int64_t n, std::string_view what) const {
    if (!parser::text_can_hold(file_->text.size(), n))
      throw InputError(last_, fmt::format("expected {} that a FEM file of {} bytes can hold (at most {}), found {}", what,
                                          file_->text.size(), file_->text.size() / 2 + 1, n));
  }
  const SourceLocation& last() const { return last_; }

  static bool starts_record(std::string_view l) {
    return l.starts_with(kRecordPrefix) || l.starts_with(kEndOfFile);
  }

 private:
  static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ','; }
  static std::string_view trim(std::string_view s) {
    while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
    return s;
  }
  void skip_to_token() {
    while (line_ < lines_.size()) {
      const std::string_view l = lines_[line_];
      if (col_ == 0 && l.starts_with("**")) {
        if (starts_record(l)) return;
        ++line_;
        continue;
      }
      while (col_ < l.size() && is_blank(l[col_])) ++col_;
      if (col_ < l.size()) return;
      ++line_;
      col_ = 0;
    }
  }

  std::shared_ptr<const parser::SourceFile> file_;
  std::vector<std::string_view> lines_;
  std::size_t line_ = 0, col_ = 0;
  int rg_ = 0;
  SourceLocation last_;
};

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      if (start < text.size()) lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  if (lines.empty()) lines.emplace_back();
  return lines;
}

Eigen::MatrixXd read_square(RecordScanner& in, int n, double threshold, std::string_view what) {
  in.require_values(std::int64_t{n} * n, fmt::format("values of {}", record_name(in.record())));
  Eigen::MatrixXd A(n, n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      double v = in.number(what);
      if (threshold > 0.0 && std::abs(v) < threshold) v = 0.0;
      A(r, c) = v;
    }
  return A;
}

Eigen::MatrixXd read_rows(RecordScanner& in, std::int64_t cols, std::string_view what) {
  in.require_values(3 * cols, fmt::format("values of {}", record_name(in.record())));
  Eigen::MatrixXd A(3, cols);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < cols; ++c) A(r, c) = in.number(what);
  return A;
}

}  // namespace

FemFile parse_fem_file(std::shared_ptr<const parser::SourceFile> file, const FemThresholds& thresholds) {
  FemFile f;
  f.file = file;
  RecordScanner in(file, split_lines(file->text));
  std::array<bool, kLastRecord + 1> seen{};
  int rejected = 0;
  std::size_t end_line = in.line_count() - 1;
  for (std::size_t i = 0; i < in.line_count(); ++i) {
    const std::string_view l = in.line(i);
    if (l.starts_with(kEndOfFile)) {
      end_line = i;
      break;
    }
    if (!l.starts_with(kRecordPrefix)) continue;
    const std::string rest(l.substr(kRecordPrefix.size()));
    char* next = nullptr;
    const long rg = std::strtol(rest.c_str(), &next, 10);
    const SourceLocation at_number = in.at(i, kRecordPrefix.size());
    if (next == rest.c_str())
      throw InputError(at_number, fmt::format("expected a record group number, found \"{}\"", rest));
    if (rg < 1 || rg > kLastRecord)
      throw InputError(at_number, fmt::format("expected a record group from 1 to {}, found {}{}", kLastRecord, rg,
                                              rg == 19 ? " (stress stiffening matrices are not supported)" : ""));
    if (!seen[1] && rg != 1)
      throw InputError(at_number, fmt::format("expected record group 1 (header) first, found record group {}", rg));
    if (seen[rg]) throw InputError(at_number, fmt::format("record group {} given twice", rg));
    seen[rg] = true;
    in.begin(i, static_cast<int>(rg));
    const int nn = f.node_count, nm = f.mode_count;
    switch (rg) {
      case 1: {
        in.token("the revision");
        f.node_count = in.count("the number of nodes");
        const int normal = in.count("the number of normal modes");
        const int attached = in.count("the number of attached modes");
        const int constraint = in.count("the number of constraint modes");
        rejected = in.count("the number of rejected modes");
        f.mode_count = normal + attached + constraint - rejected;
        if (f.mode_count <= 0)
          throw InputError(in.last(), fmt::format("expected a positive number of modes, found {}", f.mode_count));
        f.q0 = Eigen::VectorXd::Zero(f.mode_count);
        f.qp0 = Eigen::VectorXd::Zero(f.mode_count);
        f.x_nodes = Eigen::Matrix3Xd::Zero(3, f.node_count);
        break;
      }
      case 2:
        f.node_labels.resize(nn);
        for (auto& s : f.node_labels) s = in.token("a node label");
        break;
      case 3:
        for (int j = 0; j < nm; ++j) f.q0[j] = in.number("an initial modal displacement");
        break;
      case 4:
        for (int j = 0; j < nm; ++j) f.qp0[j] = in.number("an initial modal velocity");
        break;
      case 5:
      case 6:
      case 7:
        for (int k = 0; k < nn; ++k) f.x_nodes(rg - 5, k) = in.number("a node coordinate");
        break;
      case 8:
        in.require_values(std::int64_t{6} * nn * (nm + rejected), "mode shape components");
        for (int j = -rejected; j < nm; ++j) {
          Eigen::Matrix<double, 6, Eigen::Dynamic> s(6, nn);
          for (int k = 0; k < nn; ++k)
            for (int c = 0; c < 6; ++c) s(c, k) = in.number("a mode shape component");
          if (j >= 0) f.shapes.push_back(std::move(s));
        }
        break;
      case 9: f.M = read_square(in, nm, thresholds.mass, "a modal mass"); break;
      case 10: f.K = read_square(in, nm, thresholds.stiffness, "a modal stiffness"); break;
      case 11:
        f.node_mass = Eigen::VectorXd(nn);
        f.node_J = Eigen::Matrix3Xd(3, nn);
        for (int k = 0; k < nn; ++k) {
          (*f.node_mass)[k] = in.number("a nodal mass");
          in.number("a nodal mass");  // Y and Z repeat X (the manual); X is used
          in.number("a nodal mass");
          for (int c = 0; c < 3; ++c) f.node_J(c, k) = in.number("a nodal rotary inertia");
        }
        break;
      case 12: {
        FemFile::RigidInertia r;
        r.mass = in.number("the total mass");
        for (int c = 0; c < 3; ++c) r.x_cg[c] = in.number("a centre of mass coordinate");
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b) r.J_cg(a, b) = in.number("an inertia component");
        f.rigid = r;
        break;
      }
      case 13: f.C = read_square(in, nm, thresholds.damping, "a modal damping"); break;
      case 14: f.inv3 = read_rows(in, nm, "an invariant 3 component"); break;
      case 15: f.inv4 = read_rows(in, nm, "an invariant 4 component"); break;
      case 16: f.inv8 = read_rows(in, std::int64_t{3} * nm, "an invariant 8 component"); break;
      case 17: f.inv5 = read_rows(in, std::int64_t{nm} * nm, "an invariant 5 component"); break;
      case 18: f.inv9 = read_rows(in, std::int64_t{3} * nm * nm, "an invariant 9 component"); break;
      default: break;
    }
    i = in.current_line() == 0 ? i : in.current_line() - 1;
  }
  for (int rg : {1, 2, 5, 6, 7, 8, 9, 10})
    if (!seen[rg])
      throw InputError(in.at(end_line, 0),
                       fmt::format("expected record group {} ({}) in the FEM file, found none", rg, record_name(rg)));
  return f;
}

void write_fem_echo(std::ostream& os, const FemFile& fem, const std::vector<int>& modes, int precision) {
  const int N = static_cast<int>(modes.size()), n = fem.node_count;
  auto num = [&](double v) { return fmt::format("{:.{}e}", v, precision); };
  os << "** echo of file \"" << fem.file->path << "\"\n"
     << "** RECORD GROUP 1, HEADER\n"
     << "**   REVISION.  NODES.  NORMAL, ATTACHMENT, CONSTRAINT, REJECTED MODES.\n"
     << "VER5 " << n << ' ' << N << " 0 0 0\n**\n** RECORD GROUP 2, FINITE ELEMENT NODE LIST\n";
  for (int k = 0; k < n; ++k) os << fem.node_labels[k] << ((k % 6 == 5 || k == n - 1) ? "\n" : " ");
  auto column = [&](int rg, const char* title, auto value, int count) {
    os << "**\n** RECORD GROUP " << rg << ", " << title << '\n';
    for (int k = 0; k < count; ++k) os << num(value(k)) << '\n';
  };
  column(3, "INITIAL MODAL DISPLACEMENTS", [&](int j) { return fem.q0[modes[j] - 1]; }, N);
  column(4, "INITIAL MODAL VELOCITIES", [&](int j) { return fem.qp0[modes[j] - 1]; }, N);
  for (int c = 0; c < 3; ++c)
    column(5 + c, c == 0 ? "NODAL X COORDINATES" : c == 1 ? "NODAL Y COORDINATES" : "NODAL Z COORDINATES",
           [&](int k) { return fem.x_nodes(c, k); }, n);
  os << "**\n** RECORD GROUP 8, NON-ORTHOGONALIZED MODE SHAPES\n";
  for (int j = 0; j < N; ++j) {
    os << "**    NORMAL MODE SHAPE # " << modes[j] << '\n';
    for (int k = 0; k < n; ++k)
      for (int c = 0; c < 6; ++c) os << num(fem.shapes[modes[j] - 1](c, k)) << (c == 5 ? '\n' : ' ');
  }
  auto square = [&](int rg, const char* title, const Eigen::MatrixXd& A) {
    os << "**\n** RECORD GROUP " << rg << ", " << title << ".  COLUMN-MAJOR FORM\n";
    for (int r = 0; r < N; ++r) {
      for (int c = 0; c < N; ++c) os << num(A(modes[r] - 1, modes[c] - 1)) << ' ';
      os << '\n';
    }
  };
  square(9, "MODAL MASS MATRIX", fem.M);
  square(10, "MODAL STIFFNESS MATRIX", fem.K);
  if (fem.node_mass) {
    os << "**\n** RECORD GROUP 11, DIAGONAL OF LUMPED MASS MATRIX\n";
    for (int k = 0; k < n; ++k) {
      const std::string m = num((*fem.node_mass)[k]);
      os << m << ' ' << m << ' ' << m;
      for (int c = 0; c < 3; ++c) os << ' ' << num(fem.node_J(c, k));
      os << '\n';
    }
  }
  if (fem.rigid) {
    os << "**\n** RECORD GROUP 12, GLOBAL INERTIA\n" << num(fem.rigid->mass) << '\n';
    for (int c = 0; c < 3; ++c) os << num(fem.rigid->x_cg[c]) << (c == 2 ? '\n' : ' ');
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) os << num(fem.rigid->J_cg(r, c)) << (c == 2 ? '\n' : ' ');
  }
  if (fem.C) square(13, "MODAL DAMPING MATRIX", *fem.C);
}

FemFile read_fem_file(const std::string& path, const parser::SourceLocation& where, const FemThresholds& thresholds) {
  std::ifstream is(path, std::ios::binary);
  if (!is) throw InputError(where, fmt::format("cannot open the FEM file \"{}\"", path));
  std::stringstream ss;
  ss << is.rdbuf();
  auto file = std::make_shared<parser::SourceFile>();
  file->path = path;
  file->text = ss.str();
  file->included_from = std::make_shared<const SourceLocation>(where);
  return parse_fem_file(std::move(file), thresholds);
}

}  // namespace mbl::elements

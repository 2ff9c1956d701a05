// What an eigenanalysis writes (input manual §4.1.1 "Output"): the eigenvalue table of the
// .out file and the Octave/Matlab file <prefix>_<k>.m.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <tuple>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "mbdyn-like/core/rotations.hpp"
#include "mbdyn-like/output/format.hpp"
#include "mbdyn-like/phases/model_output.hpp"

namespace mbl {
namespace {

/// `v` as a C++ stream in default float mode with `precision` digits, right-aligned in `width`.
std::string general(double v, int precision, int width = 0) {
  return fmt::format("{:>{}}", output::format_general(v, precision), width);
}

/// The .out lines of one analysis: the solver's diagnostic line, the header, one line per
/// reported eigenvalue (numbers in the .out stream's current precision, 12 wide).
std::string eigenvalue_table(const EigenSolution& sol, int p) {
  std::string s;
  if (!sol.message.empty()) {
    s += sol.message + '\n';
  } else if (sol.method == EigenSettings::Method::Lapack) {
    s += fmt::format("Info: {}, ", sol.info);
    const int n = static_cast<int>(sol.Aplus.rows());
    if (sol.info == 0)
      s += fmt::format("success BALANC=\"{}\" ILO={} IHI={} ABNRM={} BBNRM={}\n", sol.balance, sol.ilo, sol.ihi,
                       general(sol.abnrm, p), general(sol.bbnrm, p));
    else if (sol.info < 0)
      s += fmt::format("argument #{} was passed an illegal value\n", -sol.info);
    else if (sol.info <= n)
      s += fmt::format("the QZ iteration failed, but eigenvalues {}->{} should be correct\n", sol.info + 1, n);
    else
      s += fmt::format("error return from {}\n", sol.info == n + 1 ? "DHGEQZ (other than QZ iteration failed in DHGEQZ)"
                                                                    : "DTGEVC");
  }
  if (sol.method == EigenSettings::Method::External) return s;
  s += "Mode n.       Real           Imag             Damp %     Freq Hz\n";
  for (std::size_t k = 0; k < sol.table.size(); ++k) {
    const ContinuousEigenvalue& e = sol.table[k];
    s += fmt::format("{:>8}: {}{}{} j    {}    {}\n", k + 1, general(e.sigma, p, 12), e.omega >= 0.0 ? " + " : " - ",
                     general(std::fabs(e.omega), p, 12), general(e.damping, p, 12), general(e.frequency, p, 12));
  }
  return s;
}

/// "_<k>", "_<k>" zero-padded to `suffix width`, or `suffix format` applied to k.
std::string file_suffix(const EigenSettings& s, unsigned k) {
  int width = s.suffix_width;
  if (width < 0) width = static_cast<int>(std::log10(double(s.times.size()))) + 1;  // `compute`
  if (width > 0) return fmt::format("_{:0{}}", k, width);
  if (!s.suffix_format.empty()) {
    char buf[256];
    std::snprintf(buf, sizeof buf, s.suffix_format.c_str(), static_cast<int>(k));
    return "_" + std::string(buf);
  }
  return fmt::format("_{}", k);
}

/// MBDyn's precision setting of the .m file: the precision, and a width of precision + 7 that
/// (as a stream width does) pads only the next item.
void set_precision(std::ostream& m, int precision) {
  if (precision <= 0) return;
  m.width(precision + 7);
  m.precision(precision);
}

void write_dense(std::ostream& m, const char* name, const char* comment, const Eigen::MatrixXd& A) {
  m << comment << '\n' << name << " = [";
  for (Eigen::Index r = 0; r < A.rows(); ++r) {
    for (Eigen::Index c = 0; c < A.cols(); ++c) m << A(r, c) << ' ';
    m << (r + 1 == A.rows() ? "];" : ";") << '\n';
  }
}

void write_sparse(std::ostream& m, const char* name, const char* comment, const Eigen::MatrixXd& A) {
  m << comment << '\n' << name << " = [";
  for (Eigen::Index c = 0; c < A.cols(); ++c)
    for (Eigen::Index r = 0; r < A.rows(); ++r)
      if (A(r, c) != 0.0) m << r + 1 << ' ' << c + 1 << ' ' << A(r, c) << ";\n";
  m << "];\n" << name << " = spconvert(" << name << ");\n";
}

/// The structural nodes of the eigenvectors (dummy nodes excluded), by label.
std::vector<const StructNode*> eigen_nodes(const Model& model) {
  std::vector<const StructNode*> nodes;
  for (const auto& n : model.nodes())
    if (const auto* s = dynamic_cast<const StructNode*>(n.get()); s && !s->is_dummy()) nodes.push_back(s);
  std::stable_sort(nodes.begin(), nodes.end(), [](auto* a, auto* b) { return a->label() < b->label(); });
  return nodes;
}

void write_geometry(std::ostream& m, const Model& model) {
  const auto nodes = eigen_nodes(model);
  if (nodes.empty()) return;
  m << "% structural nodes labels\nlabels = [\n";
  for (const StructNode* s : nodes) m << s->label() << ";\n";
  m << "];\n% structural nodes base index\nidx = [\n";
  for (const StructNode* s : nodes) m << s->dof_index() << ";\n";
  m << "];\n% structural nodes reference configuration (X, Phi)\nX0 = [\n";
  for (const StructNode* s : nodes) {
    const Vec3 phi = rot::R_to_rotvec(s->R_WN());
    for (double v : {s->x_W()[0], s->x_W()[1], s->x_W()[2], phi[0], phi[1], phi[2]}) m << v << ";\n";
  }
  m << "];\n";
}

/// The reported columns of an eigenvector matrix as complex vectors, in MBDyn's layout: a
/// complex pair (k, k+1) stores re in k and im in k+1 and gives re + i im and, when k+1 is
/// reported too, its conjugate. `complex_column` tells which came from a pair.
struct ReportedVectors {
  Eigen::MatrixXcd V;
  std::vector<bool> complex_column;
};

ReportedVectors reported_vectors(const Eigen::MatrixXd& V, const EigenSolution& sol) {
  ReportedVectors out;
  const Eigen::Index n = V.rows(), nvec = V.cols();
  std::vector<Eigen::VectorXcd> cols;
  for (Eigen::Index c = 0; c < nvec; ++c) {
    if (!sol.selected[c]) continue;
    if (sol.alphai[c] != 0.0) {
      const Eigen::VectorXd im = c + 1 < nvec ? Eigen::VectorXd(V.col(c + 1)) : Eigen::VectorXd::Zero(n);
      const Eigen::VectorXcd v = V.col(c).cast<std::complex<double>>() + std::complex<double>(0.0, 1.0) * im;
      cols.push_back(v);
      out.complex_column.push_back(true);
      if (c + 1 < nvec && sol.selected[c + 1]) {
        cols.push_back(v.conjugate());
        out.complex_column.push_back(true);
      }
      ++c;
    } else {
      cols.push_back(V.col(c).cast<std::complex<double>>());
      out.complex_column.push_back(false);
    }
  }
  out.V.resize(n, static_cast<Eigen::Index>(cols.size()));
  for (std::size_t j = 0; j < cols.size(); ++j) out.V.col(static_cast<Eigen::Index>(j)) = cols[j];
  return out;
}

void write_vectors(std::ostream& m, const char* name, const char* comment, const ReportedVectors& v) {
  m << comment << '\n' << name << " = [\n";
  for (Eigen::Index r = 0; r < v.V.rows(); ++r) {
    for (Eigen::Index c = 0; c < v.V.cols(); ++c) {
      const std::complex<double> z = v.V(r, c);
      if (v.complex_column[c])
        m << z.real() << (z.imag() < 0.0 ? '-' : '+') << "i*" << std::fabs(z.imag()) << ' ';
      else
        m << z.real() << ' ';
    }
    m << (r + 1 < v.V.rows() ? ";" : "];") << '\n';
  }
}

void write_m_file(const std::string& path, const Model& model, const EigenSolution& sol) {
  const EigenSettings& s = sol.settings;
  std::ofstream m(path, std::ios::out | std::ios::trunc);
  if (!m) throw output::OutputError(fmt::format("cannot create output file {}", path));
  set_precision(m, s.results_precision);
  m << "% time: " << sol.time << '\n' << "dTime = " << sol.time << ";\n";
  m << "% coefficient\n" << "dCoef = " << sol.dCoef << ";\n";
  if (s.output_full_matrices || s.output_sparse_matrices) {
    set_precision(m, s.matrix_precision);
    if (s.output_full_matrices) {
      write_dense(m, "Aplus", "% F/xPrime + dCoef * F/x", sol.Aplus);
      write_dense(m, "Aminus", "% F/xPrime - dCoef * F/x", sol.Aminus);
    } else {
      write_sparse(m, "Aplus", "% F/xPrime + dCoef *F/x", sol.Aplus);
      write_sparse(m, "Aminus", "% F/xPrime - dCoef *F/x", sol.Aminus);
    }
  }
  if (s.output_geometry) {
    set_precision(m, s.results_precision);
    write_geometry(m, model);
  }
  const bool any = std::any_of(sol.selected.begin(), sol.selected.end(), [](bool b) { return b; });
  if (s.output_eigenvectors && any) {
    set_precision(m, s.results_precision);
    m << "% alphar, alphai, beta\nalpha = [";
    for (Eigen::Index k = 0; k < sol.alphar.size(); ++k)
      if (sol.selected[k]) m << sol.alphar[k] << ' ' << sol.alphai[k] << ' ' << sol.beta[k] << ";\n";
    m << "];\n";
    if (sol.has_left) write_vectors(m, "VL", "% left eigenvectors", reported_vectors(sol.VL, sol));
    write_vectors(m, "VR", "% right eigenvectors", reported_vectors(sol.VR, sol));
  }
}

/// An eigenvector matrix as eig.<k>.VR/VL: [complex_var_dim = 2][reported][eig_iSize].
void put_vectors(output::NcWriter& nc, const std::string& name, const char* description, const std::string& dim_out,
                 const ReportedVectors& v) {
  const std::size_t n = v.V.rows(), nvec = v.V.cols();
  const int var = nc.declare_array(name, false, {{"complex_var_dim", 2}, {dim_out, nvec}, {"eig_iSize", n}}, "-",
                                   "doublereal", description);
  std::vector<double> data(2 * n * nvec);
  for (std::size_t c = 0; c < nvec; ++c)
    for (std::size_t r = 0; r < n; ++r) {
      data[c * n + r] = v.V(r, c).real();
      data[(nvec + c) * n + r] = v.V(r, c).imag();
    }
  nc.put_array(var, {0, 0, 0}, {2, nvec, n}, data.data());
}

}  // namespace

void ModelOutput::write_eigen_netcdf(Model& model, const EigenSolution& sol) {
  output::NcWriter* nc = manager_.nc_file();
  if (!nc) return;
  const EigenSettings& s = sol.settings;
  const std::size_t analyses = s.times.size(), n = sol.Aplus.rows(), k = sol.index;
  std::vector<const StructNode*> nodes;
  for (const auto& p : model.nodes())
    if (const auto* sn = dynamic_cast<const StructNode*>(p.get())) nodes.push_back(sn);
  std::stable_sort(nodes.begin(), nodes.end(), [](auto* a, auto* b) { return a->label() < b->label(); });
  if (eig_nc_.step < 0) {  // the base level (appendix C.1.5), declared by the first analysis
    eig_nc_.step = nc->declare_array("eig.step", true, {{"eigensolutions", analyses}}, "", "integer",
                                     "timestep index of eigensolution");
    eig_nc_.time = nc->declare_array("eig.time", false, {{"eigensolutions", analyses}}, "s", "doublereal",
                                     "simulation time at which the eigensolution was computed");
    eig_nc_.dcoef = nc->declare_array("eig.dCoef", false, {{"eigensolutions", analyses}}, "-", "doublereal",
                                      "coefficient used to build Aplus and Aminus matrices");
    if (!nodes.empty())
      eig_nc_.idx = nc->declare_array("eig.idx", true, {{"eigensolutions", analyses}, {"eig_iIdxSize", nodes.size()}},
                                      "", "integer", "structural nodes base index");
  }
  if (!s.any_file_output()) return;  // as MBDyn: the analysis level only when an output is asked for
  // eig.step is MBDyn's output step counter: the NetCDF records written so far.
  const double step = static_cast<double>(nc->records());
  nc->put_array(eig_nc_.step, {k}, {1}, &step);
  nc->put_array(eig_nc_.time, {k}, {1}, &sol.time);
  nc->put_array(eig_nc_.dcoef, {k}, {1}, &sol.dCoef);
  const std::string base = fmt::format("eig.{}.", k);
  if (s.output_full_matrices) {
    // MBDyn writes its column-major storage as the rows of the variable.
    for (const auto& [name, A, what] : {std::tuple{"Aplus", &sol.Aplus, "F/xPrime + dCoef * F/x"},
                                        std::tuple{"Aminus", &sol.Aminus, "F/xPrime - dCoef * F/x"}}) {
      const int var = nc->declare_array(base + name, false, {{"eig_iSize", n}, {"eig_iSize", n}}, "-", "doublereal", what);
      nc->put_array(var, {0, 0}, {n, n}, A->data());
    }
  }
  if (s.output_geometry && eig_nc_.idx >= 0)
    for (std::size_t j = 0; j < nodes.size(); ++j) {
      if (nodes[j]->is_dummy()) continue;
      const double first = nodes[j]->dof_index();
      nc->put_array(eig_nc_.idx, {k, j}, {1, 1}, &first);
    }
  const std::size_t reported = std::count(sol.selected.begin(), sol.selected.end(), true);
  if (s.output_eigenvectors && reported > 0) {
    const std::string dim_out = fmt::format("eig_{}_iNVec_out", k);
    std::vector<double> alpha;
    for (Eigen::Index i = 0; i < sol.alphar.size(); ++i)
      if (sol.selected[i]) alpha.insert(alpha.end(), {sol.alphar[i], sol.alphai[i], sol.beta[i]});
    const int var = nc->declare_array(base + "alpha", false, {{dim_out, reported}, {"Vec3", 3}}, "-", "doublereal",
                                      "alpha matrix");
    nc->put_array(var, {0, 0}, {reported, 3}, alpha.data());
    if (sol.has_left)
      put_vectors(*nc, base + "VL", "VL - Left eigenvectors matrix", dim_out, reported_vectors(sol.VL, sol));
    put_vectors(*nc, base + "VR", "VR - Right eigenvectors matrix", dim_out, reported_vectors(sol.VR, sol));
  }
}

void ModelOutput::eigenanalysis(Model& model, const EigenSolution& sol) {
  const std::lock_guard lock(mutex_);
  if (std::ostream* out = manager_.text(OutputFile::Out)) *out << eigenvalue_table(sol, manager_.out_precision()) << std::flush;
  if (sol.settings.any_file_output())
    write_m_file(manager_.config().prefix + file_suffix(sol.settings, sol.index) + ".m", model, sol);
  write_eigen_netcdf(model, sol);
}

}  // namespace mbl

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
  // MBDyn prints the table only from its eigensolvers (solver.cc eig_lapack, eig_arpack).
  if (sol.method == EigenSettings::Method::External || sol.method == EigenSettings::Method::None) return s;
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
      if (A(r, c) != 0.0)  // MatrixHandler::Print(MAT_PRINT_SPCONVERT): widths 10, 10, 16, tabs
        m << std::setw(10) << r + 1 << '\t' << std::setw(10) << c + 1 << '\t' << std::setw(16) << A(r, c) << '\n';
  m << "];\n" << name << " = spconvert(" << name << ");\n";
}

/// The structural nodes of the eigenvectors (dummy nodes excluded), in input order (MBDyn's
/// node container is a list in insertion order: dataman2.cc OutputEigGeometry).
std::vector<const StructNode*> eigen_nodes(const Model& model) {
  std::vector<const StructNode*> nodes;
  for (const auto& n : model.nodes())
    if (const auto* s = dynamic_cast<const StructNode*>(n.get()); s && !s->is_dummy()) nodes.push_back(s);
  return nodes;
}

/// MBDyn's element type of a kind with eig.<short>.idx/labels: (short name, name, rank in
/// MBDyn's Elem::Type order); empty short name: a type MBDyn gives no description (bodies,
/// electric elements, ...), left out as MBDyn leaves it out (dataman2.cc OutputEigPrepare).
struct EigElementType {
  std::string_view short_name, name;
  int rank;
};
EigElementType eig_element_type(std::string_view kind) {
  static constexpr EigElementType kTypes[] = {
      {"airprops", "AirProperties", 0},  {"inducedvelocity", "InducedVelocity", 1},
      {"gravity", "Gravity", 3},         {"joint", "Joint", 5},
      {"beam", "Beam", 7},               {"plate", "Plate", 8},
      {"solid", "Solid", 9},             {"surfaceload", "SurfaceLoad", 10},
      {"force", "Force", 11},            {"inertiaelement", "InertiaElement", 12},
      {"thermal", "Thermal", 15},        {"hydraulic", "Hydraulic", 16},
      {"loadable", "Loadable", 18},      {"ext", "External", 20},
      {"aeromodal", "AerodynamicModal", 21}, {"aerodynamic", "Aerodynamic", 22},
      {"genel", "Genel", 23}};
  std::string_view key = kind;
  if (kind == "couple") key = "force";
  else if (kind == "air properties") key = "airprops";
  else if (kind == "induced velocity") key = "inducedvelocity";
  else if (kind == "surface load") key = "surfaceload";
  else if (kind == "inertia") key = "inertiaelement";
  else if (kind == "user defined") key = "loadable";
  else if (kind == "external") key = "ext";
  for (const EigElementType& t : kTypes)
    if (t.short_name == key) return t;
  return {{}, {}, 0};
}

void write_geometry(std::ostream& m, const Model& model) {
  const auto nodes = eigen_nodes(model);
  if (nodes.empty()) return;
  m << "% structural nodes labels\nlabels = int32([\n";
  for (const StructNode* s : nodes) m << s->label() << ";\n";
  m << "]);\n% structural nodes base index\nidx = int32([\n";
  for (const StructNode* s : nodes) m << s->dof_index() << ";\n";
  m << "]);\n% structural nodes reference configuration (X, Phi)\nX0 = [\n";
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

void write_m_file(const std::string& path, const Model& model, const EigenSolution& sol, long output_step) {
  const EigenSettings& s = sol.settings;
  std::ofstream m(path, std::ios::out | std::ios::trunc);
  if (!m) throw output::OutputError(fmt::format("cannot create output file {}", path));
  set_precision(m, s.results_precision);
  m << "% time: " << sol.time << '\n' << "dTime = " << sol.time << ";\n";
  m << "% coefficient\n" << "dCoef = " << sol.dCoef << ";\n";
  m << "% timestep index of eigensolution\n" << "lStep = int32(" << output_step << ");\n";
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
  if (s.output_geometry && sol.method != EigenSettings::Method::None) {
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

void ModelOutput::eigen_prepare(Model& model, const EigenSettings& s) {
  // MBDyn's OutputEigPrepare (dataman2.cc): the dimensions of every analysis, and with `output
  // geometry` the structural nodes' and the DOF-owning elements' base indices and labels.
  output::NcWriter* nc = manager_.nc_file();
  if (!nc) return;
  const std::size_t n = model.size();
  eig_nc_ = {};
  nc->declare_dimension("eig_iSize", n);
  nc->declare_dimension("complex_var_dim", 2);
  if (!s.output_geometry) return;
  const auto nodes = eigen_nodes(model);
  auto put_ints = [&](int var, const std::vector<double>& v) {
    if (!v.empty()) nc->put_array(var, {0}, {v.size()}, v.data());
  };
  if (!nodes.empty()) {
    eig_nc_.nodes = nodes.size();
    const int idx = nc->declare_array("eig.idx", true, {{"eig_iIdxSize", nodes.size()}}, "", "integer",
                                      "structural nodes base index");
    const int labels = nc->declare_array("eig.labels", true, {{"eig_iIdxSize", nodes.size()}}, "", "integer",
                                         "structural nodes label");
    nc->declare_dimension("eig_X0Size", 6);
    std::vector<double> first, label;
    for (const StructNode* sn : nodes) {
      first.push_back(sn->dof_index());
      label.push_back(sn->label());
    }
    put_ints(idx, first);
    put_ints(labels, label);
  }
  // Elements with unknowns of their own, by MBDyn's element type, in input order.
  std::vector<const Element*> owners;
  for (const auto& e : model.elements())
    if (e->dof_count() > 0 && !eig_element_type(e->kind()).short_name.empty()) owners.push_back(e.get());
  std::stable_sort(owners.begin(), owners.end(), [](const Element* a, const Element* b) {
    return eig_element_type(a->kind()).rank < eig_element_type(b->kind()).rank;
  });
  for (std::size_t i = 0; i < owners.size();) {
    const EigElementType t = eig_element_type(owners[i]->kind());
    std::vector<double> first, label;
    for (; i < owners.size() && eig_element_type(owners[i]->kind()).rank == t.rank; ++i) {
      first.push_back(owners[i]->first_index());
      label.push_back(owners[i]->label());
    }
    const std::string dim = fmt::format("eig_iIdx{}Size", t.name);
    const int idx = nc->declare_array(fmt::format("eig.{}.idx", t.short_name), true, {{dim, first.size()}}, "",
                                      "integer", fmt::format("{} element base index", t.short_name));
    const int labels = nc->declare_array(fmt::format("eig.{}.labels", t.short_name), true, {{dim, first.size()}}, "",
                                         "integer", fmt::format("{} element label", t.short_name));
    put_ints(idx, first);
    put_ints(labels, label);
  }
}

void ModelOutput::write_eigen_netcdf(Model& model, const EigenSolution& sol) {
  output::NcWriter* nc = manager_.nc_file();
  if (!nc) return;
  const EigenSettings& s = sol.settings;
  if (!s.any_file_output()) return;  // as MBDyn: the analysis' variables only with an output asked for
  const std::size_t n = sol.Aplus.rows(), k = sol.index;
  const std::string base = fmt::format("eig.{}.", k);
  // OutputEigParams: the output step counter (records written so far), time and dCoef.
  const double step = static_cast<double>(manager_.output_records());
  const int var_step =
      nc->declare_array(base + "step", true, {{"Vec1", 1}}, "", "integer", "timestep index of eigensolution");
  const int var_time = nc->declare_array(base + "time", false, {{"Vec1", 1}}, "s", "doublereal",
                                         "simulation time at which the eigensolution was computed");
  const int var_dcoef = nc->declare_array(base + "dCoef", false, {{"Vec1", 1}}, "-", "doublereal",
                                          "coefficient used to build Aplus and Aminus matrices");
  nc->put_array(var_time, {0}, {1}, &sol.time);
  nc->put_array(var_step, {0}, {1}, &step);
  nc->put_array(var_dcoef, {0}, {1}, &sol.dCoef);
  const std::pair<const char*, const Eigen::MatrixXd*> matrices[] = {{"Aplus", &sol.Aplus}, {"Aminus", &sol.Aminus}};
  if (s.output_full_matrices) {
    // MBDyn writes its column-major storage as the rows of the variable.
    for (const auto& [name, A] : matrices) {
      const int var = nc->declare_array(base + name, false, {{"eig_iSize", n}, {"eig_iSize", n}}, "-", "doublereal",
                                        std::string(name) == "Aplus" ? "F/xPrime + dCoef * F/x" : "F/xPrime - dCoef * F/x");
      nc->put_text_attribute(var, "matrix type", "dense");
      nc->put_array(var, {0, 0}, {n, n}, A->data());
    }
  } else if (s.output_sparse_matrices) {
    // Triplets (row, column, value), 1-based, column by column (OutputEigSparseMatrices).
    for (const auto& [name, A] : matrices) {
      std::vector<double> triplets;
      for (Eigen::Index c = 0; c < A->cols(); ++c)
        for (Eigen::Index r = 0; r < A->rows(); ++r)
          if ((*A)(r, c) != 0.0) triplets.insert(triplets.end(), {double(r + 1), double(c + 1), (*A)(r, c)});
      const std::size_t nnz = triplets.size() / 3;
      const int var = nc->declare_array(base + name, false,
                                        {{fmt::format("eig_{}_{}_sp_iSize", k, name), nnz}, {"Vec3", 3}}, "-",
                                        "doublereal",
                                        std::string(name) == "Aplus" ? "F/xPrime + dCoef * F/x" : "F/xPrime - dCoef * F/x");
      nc->put_text_attribute(var, "matrix type", "sparse");
      if (nnz) nc->put_array(var, {0, 0}, {nnz, 3}, triplets.data());
    }
  }
  if (s.output_geometry && eig_nc_.nodes > 0 && sol.method != EigenSettings::Method::None) {
    // OutputEigGeometry: X0 [eig_X0Size = 6][eig_iIdxSize], one column (X, Phi) per node.
    const auto nodes = eigen_nodes(model);
    const int var = nc->declare_array(base + "X0", false, {{"eig_X0Size", 6}, {"eig_iIdxSize", nodes.size()}}, "-",
                                      "doublereal", "structural nodes reference configuration (X, Phi)");
    std::vector<double> X0(6 * nodes.size());
    for (std::size_t j = 0; j < nodes.size(); ++j) {
      const Vec3 phi = rot::R_to_rotvec(nodes[j]->R_WN());
      const Vec3& x = nodes[j]->x_W();
      const double v[6] = {x[0], x[1], x[2], phi[0], phi[1], phi[2]};
      for (int i = 0; i < 6; ++i) X0[i * nodes.size() + j] = v[i];
    }
    nc->put_array(var, {0, 0}, {6, nodes.size()}, X0.data());
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
    write_m_file(manager_.config().prefix + file_suffix(sol.settings, sol.index) + ".m", model, sol,
                 manager_.output_records());
  write_eigen_netcdf(model, sol);
}

}  // namespace mbl

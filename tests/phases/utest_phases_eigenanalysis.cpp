// Eigenanalysis (input manual §4.1.1): closed-form frequencies of a spring-mass chain and of a
// pendulum, and the eigenvalue tables of MBDyn's .out files for the eigenanalysis decks of
// ../shared (every reported eigenvalue to the digits MBDyn printed; the rigid-body zeros and the
// huge eigenvalues of the constraint rows, round-off in MBDyn too, are left out).
#include <gtest/gtest.h>
#include <netcdf.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "mbdyn-like/model/model_builder.hpp"
#include "mbdyn-like/phases/eigenanalysis.hpp"
#include "mbdyn-like/phases/model_output.hpp"
#include "mbdyn-like/phases/simulation.hpp"
#include "support/run_program.hpp"

namespace fs = std::filesystem;
using namespace mbl;

namespace {

struct Row {
  double sigma = 0.0, omega = 0.0, damping = 0.0, frequency = 0.0;
  int digits = 6;  ///< significant digits printed
};

/// The eigenvalue tables of a .out file, in order.
std::vector<std::vector<Row>> read_tables(const std::string& text) {
  std::vector<std::vector<Row>> tables;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("Mode n.", 0) == 0) {
      tables.emplace_back();
      continue;
    }
    const auto colon = line.find(": ");
    if (tables.empty() || colon == std::string::npos || line.rfind("Step", 0) == 0 || line[0] == '#' ||
        line.rfind("Info", 0) == 0)
      continue;
    std::istringstream ls(line.substr(colon + 2));
    Row r;
    std::string sign, j, sigma_text;
    ls >> sigma_text >> sign >> r.omega >> j >> r.damping >> r.frequency;
    if (!ls) continue;
    r.sigma = std::stod(sigma_text);
    if (sign == "-") r.omega = -r.omega;
    // 16-digit tables print long mantissas; 6-digit ones at most 6 significant digits.
    std::string mantissa = sigma_text.substr(0, sigma_text.find('e'));
    int d = 0;
    for (char c : mantissa) d += std::isdigit(static_cast<unsigned char>(c)) ? 1 : 0;
    r.digits = d > 6 ? 16 : 6;
    tables.back().push_back(r);
  }
  return tables;
}

/// Runs a deck in-process into a fresh folder; returns the .out text.
std::string run_deck_out(const fs::path& deck, const std::string& name, RunReport& report) {
  const fs::path cwd = fs::current_path();
  fs::current_path(deck.parent_path());  // decks include files relative to themselves
  BuildResult built = read_deck(deck.filename().string());
  const fs::path dir = mbl::test::fresh_temp_dir("utest_phases_eig_" + mbl::test::test_identifier(name));
  output::OutputConfig oc;
  oc.prefix = (dir / "run").string();
  oc.precision = built.settings.output_precision;
  oc.precision_given = built.settings.output_precision_given;
  std::ostringstream log;
  {
    ModelOutput out(oc);
    report = run_simulation(*built.model, built.settings, out, log);
  }
  fs::current_path(cwd);
  return mbl::test::read_file(dir / "run.out");
}

/// Whether `row` is one MBDyn's round-off decides: a rigid-body zero (|lambda| tiny against the
/// largest of the table) or a huge eigenvalue of a constraint row (|lambda| >> 1/dCoef).
bool round_off_row(const Row& r, double scale) {
  const double m = std::hypot(r.sigma, r.omega);
  return m < 1e-6 * scale || m > 1e12;
}

/// Every physical eigenvalue of MBDyn's table is in ours to the digits MBDyn printed (the real
/// part relative to |lambda|: for undamped modes it is round-off in both).
void expect_tables_agree(const std::vector<Row>& ours, const std::vector<Row>& ref, const std::string& what) {
  double scale = 0.0;
  for (const Row& r : ref)
    if (std::hypot(r.sigma, r.omega) < 1e12) scale = std::max(scale, std::hypot(r.sigma, r.omega));
  int compared = 0;
  for (const Row& r : ref) {
    if (round_off_row(r, scale)) continue;
    const double m = std::hypot(r.sigma, r.omega);
    const double tol = (r.digits > 6 ? 1e-9 : 5e-6) * m;
    bool found = false;
    for (const Row& o : ours)
      if (std::abs(o.sigma - r.sigma) <= tol && std::abs(o.omega - r.omega) <= tol) found = true;
    EXPECT_TRUE(found) << what << ": MBDyn's eigenvalue " << r.sigma << " + " << r.omega << " j is not in ours";
    ++compared;
  }
  EXPECT_GT(compared, 0) << what;
  int ours_physical = 0, ref_physical = 0;
  for (const Row& o : ours) ours_physical += round_off_row(o, scale) ? 0 : 1;
  for (const Row& r : ref) ref_physical += round_off_row(r, scale) ? 0 : 1;
  EXPECT_EQ(ours_physical, ref_physical) << what;
}

/// The data and initial value blocks of a one-step run (step 1e-3) with `eigenanalysis: <card>;`.
std::string one_step_deck(const std::string& card) {
  return "begin: data; problem: initial value; end: data;\n"
         "begin: initial value;\n"
         "  initial time: 0.; final time: 1e-3; time step: 1e-3; max iterations: 10; tolerance: 1e-9;\n"
         "  method: ms, .6;\n"
         "  eigenanalysis: " + card + ";\n"
         "end: initial value;\n";
}

/// ground - k - m - k - m (k = 1e4, m = 2) with `eigenanalysis: <card>;` and `control` added to
/// the control data: zero-length springs between coincident nodes, the same in x, y and z.
std::string chain_deck(const std::string& card, const std::string& control = "") {
  return one_step_deck(card) + "begin: control data; structural nodes: 3; rigid bodies: 2; joints: 3; " + control +
         " end: control data;\n" + R"(
begin: nodes;
  structural: 0, static, null, eye, null, null;
  structural: 1, dynamic, null, eye, null, null;
  structural: 2, dynamic, null, eye, null, null;
end: nodes;
begin: elements;
  joint: 0, clamp, 0, node, node;
  body: 1, 1, 2., null, diag, 1., 1., 1.;
  body: 2, 2, 2., null, diag, 1., 1., 1.;
  joint: 1, deformable displacement joint, 0, position, null, 1, position, null,
    linear elastic generic, diag, 1e4, 1e4, 1e4;
  joint: 2, deformable displacement joint, 1, position, null, 2, position, null,
    linear elastic generic, diag, 1e4, 1e4, 1e4;
end: elements;
)";
}

}  // namespace

TEST(Eigenanalysis, ContinuousEigenvalueInvertsTheBilinearMap) {
  // Lambda = (1 + c lambda) / (1 - c lambda) with c = h/2 maps back to lambda = -3 + 40 j.
  const double h = 1e-3, c = h / 2.0;
  const std::complex<double> lambda(-3.0, 40.0);
  const std::complex<double> Lambda = (1.0 + c * lambda) / (1.0 - c * lambda);
  const ContinuousEigenvalue e = continuous_eigenvalue(2.0, 2.0 * Lambda.real(), 2.0 * Lambda.imag(), h);
  EXPECT_NEAR(e.sigma, -3.0, 1e-9);
  EXPECT_NEAR(e.omega, 40.0, 1e-9);
  EXPECT_NEAR(e.frequency, 40.0 / (2.0 * M_PI), 1e-9);
  EXPECT_NEAR(e.damping, 300.0 / std::abs(lambda), 1e-9);
}

TEST(Eigenanalysis, SpringMassChainHasTheClosedFormFrequencies) {
  // ground - k - m - k - m, the same spring in x, y, z: omega^2 = (k/m)(3 -+ sqrt 5)/2, three
  // times each. Springs of zero length between coincident nodes leave the rotations uncoupled:
  // they are rigid-body zeros (below the lower limit).
  const double k = 1e4, m = 2.0;
  const std::string deck = chain_deck("1e-3, parameter, 1e-4, lower frequency limit, 1e-2, use lapack");
  const auto run = mbl::test::run_deck_text("eig_chain", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto tables = read_tables(mbl::test::read_file(run.output("out")));
  ASSERT_EQ(tables.size(), 1u);
  const double w1 = std::sqrt(k / m * (3.0 - std::sqrt(5.0)) / 2.0), w2 = std::sqrt(k / m * (3.0 + std::sqrt(5.0)) / 2.0);
  ASSERT_EQ(tables[0].size(), 6u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(tables[0][i].omega, w1, 1e-5 * w1);
    EXPECT_NEAR(tables[0][i + 3].omega, w2, 1e-5 * w2);
    EXPECT_NEAR(tables[0][i].sigma, 0.0, 1e-6 * w2);
  }
}

TEST(Eigenanalysis, PendulumHasSqrtGOverL) {
  // A point mass hanging at L from a distance joint, analysed at the initial time (after the
  // derivatives phase has found the tension m g): omega = sqrt(g / L) in x and in y.
  const double g = 9.81, L = 2.0;
  const std::string deck = one_step_deck("0., parameter, 1e-3, lower frequency limit, 1e-3, use lapack") + R"(
begin: control data; structural nodes: 2; rigid bodies: 1; joints: 2; gravity; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, dynamic, 0., 0., -2., eye, null, null;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  joint: 2, distance, 1, position, null, 2, position, null, const, 2.;
  body: 2, 2, 3., null, diag, 1., 1., 1.;
  gravity: uniform, 0., 0., -1., const, 9.81;
end: elements;
)";
  const auto run = mbl::test::run_deck_text("eig_pendulum", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto tables = read_tables(mbl::test::read_file(run.output("out")));
  ASSERT_EQ(tables.size(), 1u);
  ASSERT_EQ(tables[0].size(), 2u);
  for (const Row& r : tables[0]) EXPECT_NEAR(r.omega, std::sqrt(g / L), 1e-5);
}

TEST(Eigenanalysis, ArpackFindsTheHighestChainFrequenciesAndWritesTheMFile) {
  // The spring-mass chain with ARPACK (6 Ritz values of largest imaginary part of
  // J(+c)^-1 J(-c) - I): the three modes of omega^2 = (k/m)(3 + sqrt 5)/2 with positive frequency.
  const std::string deck = chain_deck(
      "1e-3, parameter, 1e-4, lower frequency limit, 1e-2, use arpack, 6, 20, 0., "
      "mode, largest imaginary part, output matrices, output eigenvectors, output geometry");
  const auto run = mbl::test::run_deck_text("eig_arpack", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const std::string out = mbl::test::read_file(run.output("out"));
  EXPECT_NE(out.find("INFO: 0\n"), std::string::npos) << out;
  const auto tables = read_tables(out);
  ASSERT_EQ(tables.size(), 1u);
  const double w2 = std::sqrt(1e4 / 2.0 * (3.0 + std::sqrt(5.0)) / 2.0);
  ASSERT_EQ(tables[0].size(), 3u);
  for (const Row& r : tables[0]) EXPECT_NEAR(r.omega, w2, 1e-5 * w2);
  // <prefix>_0.m: parameters, sparse matrices (ARPACK), geometry, alpha (one row per reported
  // eigenvalue) and the right eigenvectors only.
  const std::string m = mbl::test::read_file(run.dir / "run_0.m");
  // MBDyn's writers (dataman2.cc OutputEigParams, OutputEigGeometry; mh.cc spconvert triplets
  // in widths 10, 10, 16 with tabs): lStep is the output records before the analysis (0 and 1).
  for (const char* item : {"dTime = 0.001;\n", "dCoef = 5e-05;\n",
                           "% timestep index of eigensolution\nlStep = int32(2);\n",
                           "Aplus = spconvert(Aplus);\n", "Aminus = spconvert(Aminus);\n",
                           "         1\t         1\t", "labels = int32([\n0;\n1;\n2;\n]);\n",
                           "idx = int32([\n0;\n6;\n18;\n]);\n", "alpha = [", "VR = [\n"})
    EXPECT_NE(m.find(item), std::string::npos) << item;
  EXPECT_EQ(m.find("VL = ["), std::string::npos);
  const auto alpha = m.find("alpha = [");
  const std::string alpha_rows = m.substr(alpha, m.find("];", alpha) - alpha);
  EXPECT_EQ(std::count(alpha_rows.begin(), alpha_rows.end(), '\n'), 3);
}

TEST(Eigenanalysis, NetcdfHasTheEigVariables) {
  // Appendix C.1.5 on the chain (LAPACK): eig.step/time/dCoef/idx, eig.0.Aplus/Aminus (N x N),
  // eig.0.alpha (reported x 3), eig.0.VL/VR (2 x reported x N).
  const std::string deck = chain_deck(
      "1e-3, parameter, 1e-4, lower frequency limit, 1e-2, output matrices, output eigenvectors, "
      "output geometry", "output results: netcdf;");
  const auto run = mbl::test::run_deck_text("eig_netcdf", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  int nc = -1;
  ASSERT_EQ(nc_open(run.output("nc").c_str(), NC_NOWRITE, &nc), NC_NOERR);
  auto dims = [&](const char* name) {
    int var = -1, ndims = 0, ids[NC_MAX_VAR_DIMS];
    std::vector<std::size_t> out;
    if (nc_inq_varid(nc, name, &var) != NC_NOERR) return out;
    nc_inq_varndims(nc, var, &ndims);
    nc_inq_vardimid(nc, var, ids);
    for (int i = 0; i < ndims; ++i) {
      std::size_t len = 0;
      nc_inq_dimlen(nc, ids[i], &len);
      out.push_back(len);
    }
    return out;
  };
  const std::size_t N = 36;  // static node 6, two dynamic nodes 12 each, clamp 6
  // MBDyn 2024's layout (dataman2.cc OutputEigPrepare, OutputEigParams, OutputEigFullMatrices,
  // OutputEigGeometry, OutputEigenvectors).
  EXPECT_TRUE(dims("eig.step").empty());  // the older layout is gone
  EXPECT_EQ(dims("eig.0.step"), std::vector<std::size_t>{1});
  EXPECT_EQ(dims("eig.0.time"), std::vector<std::size_t>{1});
  EXPECT_EQ(dims("eig.0.dCoef"), std::vector<std::size_t>{1});
  EXPECT_EQ(dims("eig.idx"), std::vector<std::size_t>{3});
  EXPECT_EQ(dims("eig.labels"), std::vector<std::size_t>{3});
  EXPECT_EQ(dims("eig.joint.idx"), std::vector<std::size_t>{1});
  EXPECT_EQ(dims("eig.joint.labels"), std::vector<std::size_t>{1});
  EXPECT_EQ(dims("eig.0.X0"), (std::vector<std::size_t>{6, 3}));
  EXPECT_EQ(dims("eig.0.Aplus"), (std::vector<std::size_t>{N, N}));
  EXPECT_EQ(dims("eig.0.Aminus"), (std::vector<std::size_t>{N, N}));
  EXPECT_EQ(dims("eig.0.alpha"), (std::vector<std::size_t>{6, 3}));
  EXPECT_EQ(dims("eig.0.VR"), (std::vector<std::size_t>{2, 6, N}));
  EXPECT_EQ(dims("eig.0.VL"), (std::vector<std::size_t>{2, 6, N}));
  auto text_attribute = [&](const char* name, const char* att) {
    int var = -1;
    std::size_t len = 0;
    if (nc_inq_varid(nc, name, &var) != NC_NOERR || nc_inq_attlen(nc, var, att, &len) != NC_NOERR) return std::string();
    std::string v(len, '\0');
    nc_get_att_text(nc, var, att, v.data());
    return v;
  };
  EXPECT_EQ(text_attribute("eig.0.Aplus", "matrix type"), "dense");
  EXPECT_EQ(text_attribute("eig.0.Aminus", "description"), "F/xPrime - dCoef * F/x");
  EXPECT_EQ(text_attribute("eig.idx", "type"), "integer");
  EXPECT_EQ(text_attribute("eig.joint.idx", "description"), "joint element base index");
  int dim = -1;
  std::size_t len = 0;
  ASSERT_EQ(nc_inq_dimid(nc, "complex_var_dim", &dim), NC_NOERR);
  ASSERT_EQ(nc_inq_dimid(nc, "eig_iIdxJointSize", &dim), NC_NOERR);
  ASSERT_EQ(nc_inq_dimid(nc, "eig_iSize", &dim), NC_NOERR);
  nc_inq_dimlen(nc, dim, &len);
  EXPECT_EQ(len, N);
  int var = -1;
  double dCoef = 0.0;
  int idx[3] = {-1, -1, -1}, labels[3] = {-1, -1, -1}, joint_idx = -1;
  ASSERT_EQ(nc_inq_varid(nc, "eig.0.dCoef", &var), NC_NOERR);
  nc_get_var_double(nc, var, &dCoef);
  EXPECT_DOUBLE_EQ(dCoef, 5e-5);
  // eig.<k>.step counts the output records before the analysis (MBDyn's output step): steps 0 and 1.
  int step = -1;
  ASSERT_EQ(nc_inq_varid(nc, "eig.0.step", &var), NC_NOERR);
  nc_get_var_int(nc, var, &step);
  EXPECT_EQ(step, 2);
  ASSERT_EQ(nc_inq_varid(nc, "eig.idx", &var), NC_NOERR);
  nc_get_var_int(nc, var, idx);
  EXPECT_EQ(idx[0], 0);
  EXPECT_EQ(idx[1], 6);
  EXPECT_EQ(idx[2], 18);
  ASSERT_EQ(nc_inq_varid(nc, "eig.labels", &var), NC_NOERR);
  nc_get_var_int(nc, var, labels);
  EXPECT_EQ(labels[2], 2);
  ASSERT_EQ(nc_inq_varid(nc, "eig.joint.idx", &var), NC_NOERR);
  nc_get_var_int(nc, var, &joint_idx);
  EXPECT_EQ(joint_idx, 30);  // after the three nodes
  // X0: (X, Phi) per node column; the nodes sit at the origin with identity orientation.
  double X0[18];
  ASSERT_EQ(nc_inq_varid(nc, "eig.0.X0", &var), NC_NOERR);
  nc_get_var_double(nc, var, X0);
  for (double v : X0) EXPECT_NEAR(v, 0.0, 1e-12);
  nc_close(nc);
}

TEST(Eigenanalysis, WithoutOutputGeometryNetcdfHasNoIndices) {
  // eig.idx, eig.labels, eig.<type>.idx and eig.<k>.X0 only with `output geometry`; without any
  // output asked for, no eig.<k>.* at all (MBDyn writes them from its .m/NetCDF writers only).
  const auto run = mbl::test::run_deck_text("eig_netcdf_nogeom",
                                            chain_deck("1e-3, parameter, 1e-4", "output results: netcdf;"));
  ASSERT_EQ(run.rc, 0) << run.log();
  int nc = -1, var = -1, dim = -1;
  ASSERT_EQ(nc_open(run.output("nc").c_str(), NC_NOWRITE, &nc), NC_NOERR);
  EXPECT_NE(nc_inq_varid(nc, "eig.idx", &var), NC_NOERR);
  EXPECT_NE(nc_inq_varid(nc, "eig.joint.idx", &var), NC_NOERR);
  EXPECT_NE(nc_inq_varid(nc, "eig.0.step", &var), NC_NOERR);
  EXPECT_EQ(nc_inq_dimid(nc, "eig_iSize", &dim), NC_NOERR);
  nc_close(nc);
}

TEST(Eigenanalysis, ArpackDefaultModeIsSmallestMagnitude) {
  // MBDyn's default `mode` is smallest magnitude (solver.h): ARPACK then finds the Ritz values
  // nearest Lambda = 1: first the zeros (clamp rows, static node, free rotations), then the
  // lowest frequency omega^2 = (k/m)(3 - sqrt 5)/2; 28 Ritz values reach its three +omega, not
  // the higher one.
  const auto run = mbl::test::run_deck_text(
      "eig_arpack_sm", chain_deck("1e-3, parameter, 1e-4, lower frequency limit, 1e-2, use arpack, 28, 35, 0."));
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto tables = read_tables(mbl::test::read_file(run.output("out")));
  ASSERT_EQ(tables.size(), 1u);
  const double w1 = std::sqrt(1e4 / 2.0 * (3.0 - std::sqrt(5.0)) / 2.0);
  ASSERT_EQ(tables[0].size(), 3u);
  for (const Row& r : tables[0]) EXPECT_NEAR(r.omega, w1, 1e-5 * w1);
}

TEST(Eigenanalysis, SparseMatricesAloneSolveNothing) {
  // `output sparse matrices` without `use ...`: MBDyn assembles and writes the matrices but does
  // not solve (no Info line, no table); with `use lapack` the card is refused.
  const auto run = mbl::test::run_deck_text("eig_sparse_only", chain_deck("1e-3, parameter, 1e-4, output sparse matrices"));
  ASSERT_EQ(run.rc, 0) << run.log();
  const std::string out = mbl::test::read_file(run.output("out"));
  EXPECT_EQ(out.find("Mode n."), std::string::npos);
  EXPECT_EQ(out.find("Info:"), std::string::npos);
  const std::string m = mbl::test::read_file(run.dir / "run_0.m");
  EXPECT_NE(m.find("Aplus = spconvert(Aplus);"), std::string::npos);
  EXPECT_EQ(m.find("alpha = ["), std::string::npos);
  const auto bad = mbl::test::run_deck_text("eig_sparse_lapack",
                                            chain_deck("1e-3, use lapack, output sparse matrices"));
  EXPECT_EQ(bad.rc, 2) << bad.log();
}

class EigenDeck : public ::testing::TestWithParam<const char*> {};

/// MBDyn's .out next to a deck: <case>/mbdyn/*.out, or the corpus's gzipped ref.out.gz.
std::string reference_out(const fs::path& deck) {
  fs::path case_dir = deck.parent_path();  // <case>/deck[/sub]/<deck>
  while (case_dir.has_parent_path() && case_dir.filename() != "deck") case_dir = case_dir.parent_path();
  const fs::path mbdyn = case_dir.parent_path() / "mbdyn";
  if (fs::exists(mbdyn / "ref.out.gz")) {
    const fs::path tmp = mbl::test::fresh_temp_dir("utest_phases_eig_ref") / "ref.out";
    mbl::test::run("gzip -dc " + mbl::test::quoted(mbdyn / "ref.out.gz"), tmp);
    return mbl::test::read_file(tmp);
  }
  for (const auto& f : fs::directory_iterator(mbdyn))
    if (f.path().extension() == ".out") return mbl::test::read_file(f.path());
  return {};
}

TEST_P(EigenDeck, EigenvaluesAgreeWithMbdyn) {
  const fs::path deck = fs::path(MBL_SHARED_DIR) / GetParam();
  RunReport report;
  const std::string out = run_deck_out(deck, GetParam(), report);
  ASSERT_EQ(report.status, RunStatus::Completed) << report.message;
  const std::string ref = reference_out(deck);
  const auto ours = read_tables(out);
  const auto theirs = read_tables(ref);
  ASSERT_EQ(ours.size(), theirs.size());
  for (std::size_t k = 0; k < ours.size(); ++k)
    expect_tables_agree(ours[k], theirs[k], std::string(GetParam()) + " analysis " + std::to_string(k));
  // The "Info:" lines (LAPACK's balancing) are MBDyn's: the same balancing and as many
  // eigenvalues isolated by the permutation (IHI - ILO). Where ILO and IHI themselves differ
  // (t.beam.beig: 13, 114 against 14, 115), MBDyn's state holds round-off (a node at 1e-34 m
  // off the line its in line joint keeps it on) where ours holds zeros, which lets LAPACK's
  // row search isolate one row that MBDyn's column search isolates.
  auto info_lines = [](const std::string& text) {
    std::vector<std::string> v;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
      if (l.rfind("Info:", 0) != 0) continue;
      const auto ilo = l.find(" ILO="), ihi = l.find(" IHI=");
      if (ilo == std::string::npos || ihi == std::string::npos) {
        v.push_back(l.substr(0, l.find(" ABNRM")));
        continue;
      }
      const int span = std::stoi(l.substr(ihi + 5)) - std::stoi(l.substr(ilo + 5));
      v.push_back(l.substr(0, ilo) + " IHI-ILO=" + std::to_string(span));
    }
    return v;
  };
  EXPECT_EQ(info_lines(out), info_lines(ref));
}

INSTANTIATE_TEST_SUITE_P(SharedDecks, EigenDeck,
                         ::testing::Values("decks/t.eig.joints.deformabledisplacementjoint/deck/deformabledisplacementjoint",
                                           "decks/t.eig.joints.deformablejoint/deck/deformablejoint",
                                           "decks/t.eig.joints.inplane/deck/inplane",
                                           "decks/t.eig.joints.rodwithoffset/deck/rodwithoffset",
                                           "decks/t.joints.deformablehinge.deformablejointeig2/deck/deformablejointeig2",
                                           "decks/t.joints.rod.rodwithprestrain/deck/rodwithprestrain",
                                           "corpus/t.beam.DETC2007-35511.beam/deck/beam",
                                           "corpus/t.beam.DETC2007-35511.beam_legacy/deck/beam_legacy",
                                           // An aerodynamic body with `jacobian, yes`: MBDyn's
                                           // forward-difference Jacobian (aeroelem.cc).
                                           "corpus/t.eig.divergence-rigid/deck/eig/divergence-rigid",
                                           // MBDyn's in line joint and plane pin Jacobians
                                           // (inline.cc, planej.cc).
                                           "corpus/t.beam.beig/deck/beig", "corpus/t.beam.beig_legacy/deck/beig_legacy"),
                         [](const auto& info) { return mbl::test::test_identifier(info.param); });

/// Decks whose linearised matrices are MBDyn's but whose eigenvalues differ from MBDyn's in the
/// last printed digits, and how close they are (relative to |lambda|, modes below max_modulus).
struct NearDeck {
  const char* path;
  double tolerance;
  double max_modulus;
  const char* why;
};

class EigenDeckNear : public ::testing::TestWithParam<NearDeck> {};

TEST_P(EigenDeckNear, EigenvaluesAreNearMbdyns) {
  const NearDeck& d = GetParam();
  const fs::path deck = fs::path(MBL_SHARED_DIR) / d.path;
  RunReport report;
  const std::string out = run_deck_out(deck, d.path, report);
  ASSERT_EQ(report.status, RunStatus::Completed) << report.message;
  const auto ours = read_tables(out);
  const auto theirs = read_tables(reference_out(deck));
  ASSERT_EQ(ours.size(), theirs.size());
  for (std::size_t k = 0; k < ours.size(); ++k) {
    double scale = 0.0;
    for (const Row& r : theirs[k])
      if (std::hypot(r.sigma, r.omega) < 1e12) scale = std::max(scale, std::hypot(r.sigma, r.omega));
    int compared = 0;
    for (const Row& r : theirs[k]) {
      const double m = std::hypot(r.sigma, r.omega);
      if (round_off_row(r, scale) || m > d.max_modulus) continue;
      double best = 1e300;
      for (const Row& o : ours[k]) best = std::min(best, std::max(std::abs(o.sigma - r.sigma), std::abs(o.omega - r.omega)));
      EXPECT_LE(best, d.tolerance * m) << d.path << ": MBDyn's " << r.sigma << " + " << r.omega << " j (" << d.why << ")";
      ++compared;
    }
    EXPECT_GT(compared, 0) << d.path;
  }
}

// Aerodynamic beams and bodies with `jacobian, yes` take MBDyn's Jacobian (before it, the beams
// had none: 23 % off). What is left: the state after 100 or 10000 steps, which the forward
// differences across the c81 table's breakpoint at alpha = 0 amplify (1e-3 |V| steps), and, in
// the flap decks, MBDyn's round-off velocities (1e-13 m/s) of the hinge node where ours are 0,
// which make its momentum columns non-isolable (ILO 10, 11 against 13).
INSTANTIATE_TEST_SUITE_P(
    SharedDecks, EigenDeckNear,
    ::testing::Values(NearDeck{"corpus/t.eig.divergence-beam3/deck/eig/divergence-beam3", 1e-8, 1e4, "aerodynamic beam3"},
                      NearDeck{"corpus/t.eig.divergence-beams2/deck/eig/divergence-beams2", 1e-7, 1e4, "aerodynamic beam2"},
                      NearDeck{"corpus/t.eig.rigidflapaero2/deck/eig/rigidflapaero2", 1e-5, 1e4, "beam2, rigid body kinematics"},
                      NearDeck{"corpus/t.eig.rigidflapaero3/deck/eig/rigidflapaero3", 1e-5, 1e4, "beam3, rigid body kinematics"},
                      NearDeck{"corpus/web.userfiles.documents.examples.slider_crank.zip.d.slider_crank.slidercrank_db/deck/slidercrank_db",
                               3e-6, 1e4, "beam3, hinges, total joint: the states after 5 steps"}),
    [](const auto& info) { return mbl::test::test_identifier(info.param.path); });

// The slider crank (two beam3, hinges, a total joint) starts at rest in its input configuration:
// MBDyn's beams add exactly nothing there (their reference strains come from the interpolation
// of every residual, Beam::DsDxi), so its derivatives phase stops after 0 iterations with 0
// error and the first step's residual is the same; ours was 1.06e-9 (round-off of the beams'
// reference strains), which the derivatives phase then moved the state by.
TEST(Eigenanalysis, SliderCrankStartsFromMbdynsState) {
  const fs::path deck = fs::path(MBL_SHARED_DIR) /
                        "corpus/web.userfiles.documents.examples.slider_crank.zip.d.slider_crank.slidercrank_db/deck/slidercrank_db";
  if (!fs::exists(deck)) GTEST_SKIP() << "no " << deck;
  RunReport report;
  const std::string out = run_deck_out(deck, "slidercrank_start", report);
  ASSERT_EQ(report.status, RunStatus::Completed) << report.message;
  const std::string ref = reference_out(deck);
  auto first_lines = [](const std::string& text) {
    std::vector<std::string> v;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
      if (l.rfind("# Derivatives", 0) == 0 || l.rfind("Step 0 ", 0) == 0 || l.rfind("Step 1 ", 0) == 0) v.push_back(l);
    return v;
  };
  const auto ours = first_lines(out), theirs = first_lines(ref);
  ASSERT_EQ(theirs.size(), 3u);
  EXPECT_EQ(theirs[0], "# Derivatives solution step at time 0 performed in 0 iterations with 0 error");
  EXPECT_EQ(ours, theirs);
}

// t.rbk.hill.hill (two bodies on a rod in a geostationary frame, rigid body kinematics at the
// Earth's rate Omega = 7.27221e-5 rad/s): in exact arithmetic +-Omega j is a defective double
// eigenvalue, which round-off of the size eps splits by sqrt(eps) (a Jordan block). MBDyn's
// pair is Omega -+ 1.46e-8, ours Omega -+ 1.5e-8: both sqrt(eps) = 1.49e-8 within a factor
// two, about the same centre; that is the 2e-5 by which those two eigenvalues differ. The other
// modes (the rod's 0.01 Hz, the orbit's 8.8e-4 rad/s pair, the undisturbed +-Omega) agree to
// MBDyn's printed digits. Since the Jacobians are taken with the nodes' angular velocity in
// their reference (MBDyn's converged form, g' = 0), LAPACK's balancing is MBDyn's too (ILO 5,
// IHI 24; 9 and 24 before, with omega = g') and both report 20 eigenvalues; the ones below
// 1e-7 rad/s are round-off about zero (MBDyn's +-5.2e-9, ours 2.2e-8 j).
TEST(Eigenanalysis, HillEarthRatePairIsSplitByRoundOffAsMbdyns) {
  const fs::path deck = fs::path(MBL_SHARED_DIR) / "corpus/t.rbk.hill.hill/deck/hill";
  if (!fs::exists(deck)) GTEST_SKIP() << "no " << deck;
  // The analysis is at t = 1 s: two steps of the day-long run are enough.
  std::string text = mbl::test::read_file(deck);
  const auto at = text.find("final time: 86400.;");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 19, "final time: 2.;");
  const fs::path short_deck = mbl::test::fresh_temp_dir("utest_phases_eig_hill_deck") / "hill";
  std::ofstream(short_deck) << text;
  RunReport report;
  const std::string out = run_deck_out(short_deck, "hill", report);
  ASSERT_EQ(report.status, RunStatus::Completed) << report.message;
  const std::string ref = reference_out(deck);
  const auto ours = read_tables(out);
  const auto theirs = read_tables(ref);
  auto info = [](const std::string& text) {
    const auto at = text.find("Info:");
    return at == std::string::npos ? std::string() : text.substr(at, text.find(" ABNRM", at) - at);
  };
  EXPECT_EQ(info(out), info(ref));
  EXPECT_EQ(info(ref), "Info: 0, success BALANC=\"P\" ILO=5 IHI=24");
  ASSERT_EQ(ours.size(), 1u);
  ASSERT_EQ(theirs.size(), 1u);
  auto positive = [](const std::vector<Row>& table) {
    std::vector<Row> v;
    for (const Row& r : table)
      if (r.omega > 1e-7) v.push_back(r);
    std::sort(v.begin(), v.end(), [](const Row& a, const Row& b) { return a.omega < b.omega; });
    return v;
  };
  EXPECT_EQ(ours[0].size(), theirs[0].size());
  const std::vector<Row> a = positive(ours[0]), b = positive(theirs[0]);
  ASSERT_EQ(a.size(), 7u);
  ASSERT_EQ(b.size(), 7u);
  const double omega_earth = 2.0 * M_PI / 86400.0;
  for (std::size_t k = 1; k < 7; ++k) {
    if (k == 3) continue;  // the split pair: 0 and 3
    EXPECT_NEAR(a[k].omega, b[k].omega, 5e-6 * b[k].omega) << k;
    EXPECT_NEAR(a[k].sigma, b[k].sigma, 1e-6 * b[k].omega) << k;
  }
  EXPECT_NEAR(a[1].omega, omega_earth, 1e-6 * omega_earth);
  const double centre_ours = 0.5 * (a[0].omega + a[3].omega), centre_mbdyn = 0.5 * (b[0].omega + b[3].omega);
  EXPECT_NEAR(centre_ours, omega_earth, 1e-6 * omega_earth);
  EXPECT_NEAR(centre_mbdyn, omega_earth, 1e-6 * omega_earth);
  const double sqrt_eps = std::sqrt(2.220446049250313e-16);
  for (double half : {0.5 * (a[3].omega - a[0].omega), 0.5 * (b[3].omega - b[0].omega)}) {
    EXPECT_GT(half, 0.5 * sqrt_eps);
    EXPECT_LT(half, 2.0 * sqrt_eps);
  }
}

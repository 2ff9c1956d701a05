// `compare`: zero error for every reference output against itself, nonzero between two
// integrators, exit codes and the JSON report of the CLI.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>
#include <vector>

#include "mbdyn-like/output/compare.hpp"
#include "mbdyn-like/output/plot.hpp"
#include "support/run_program.hpp"

namespace fs = std::filesystem;
using namespace mbl::output;

namespace {

const std::string kShared = MBL_SHARED_DIR;
const std::string kSqueezer = kShared + "/paper/andrewssqueezer/mbdyn";

int cli(std::vector<std::string> args, std::string* out = nullptr) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  std::ostringstream captured;
  auto* old = std::cout.rdbuf(captured.rdbuf());
  const int rc = args[0] == "plot" ? run_plot_cli(int(argv.size()), argv.data())
                                   : run_compare_cli(int(argv.size()), argv.data());
  std::cout.rdbuf(old);
  if (out) *out = captured.str();
  return rc;
}

}  // namespace

TEST(OutputCompare, EveryReferenceOutputAgainstItselfIsExact) {
  std::size_t n = 0;
  for (const auto& deck : fs::directory_iterator(kShared + "/decks")) {
    if (!fs::is_directory(deck.path() / "mbdyn")) continue;
    for (const auto& f : fs::directory_iterator(deck.path() / "mbdyn")) {
      const auto ext = f.path().extension();
      if (ext != ".mov" && ext != ".nc") continue;
      const std::string what = ext == ".nc" ? f.path().string()
                                            : (f.path().parent_path() / f.path().stem()).string();
      const Results r = read_results(what);
      if (r.records() == 0) continue;  // (a run whose text files are empty)
      CompareOptions o;
      o.tol = 0.0;
      const CompareReport rep = compare_results(r, r, o);
      EXPECT_TRUE(rep.all_within()) << what;
      for (const auto& v : rep.vars) EXPECT_EQ(v.max_abs, 0.0) << what << " " << v.name;
      ++n;
    }
  }
  EXPECT_GT(n, 70u);
}

TEST(OutputCompare, DifferentIntegratorsDiffer) {
  const Results ms = read_results(kSqueezer + "/ms_0.6/andrewssqueezer.nc");
  const Results bdf = read_results(kSqueezer + "/bdf_0.0/andrewssqueezer.nc");
  CompareOptions o;
  o.patterns = {"node.struct.*.X"};
  o.norm = Normalisation::Model;
  const CompareReport rep = compare_results(ms, bdf, o);
  EXPECT_EQ(rep.vars.size(), 8u);
  EXPECT_GT(rep.model_size, 0.05);
  EXPECT_LT(rep.model_size, 0.2);
  double worst = 0.0;
  for (const auto& v : rep.vars) worst = std::max(worst, v.normalised);
  EXPECT_GT(worst, 1e-6);
  EXPECT_LT(worst, 0.1);
  // different output times (dirk54 writes every 0.0025 s, ms every 0.0005 s): aligned by
  // interpolation on the coarser grid
  const Results dirk = read_results(kSqueezer + "/dirk54_0.0/andrewssqueezer.nc");
  const CompareReport rep2 = compare_results(dirk, ms, o);
  EXPECT_EQ(rep2.points, dirk.records());
  for (const auto& v : rep2.vars) EXPECT_LT(v.normalised, 0.1) << v.name;
}

TEST(OutputCompare, EulerAnglesWrapAt360) {
  Results a, b;
  a.source = "a";
  b.source = "b";
  a.time = b.time = {0.0, 1.0};
  Series e;
  e.ncomp = 1;
  e.degrees = true;
  e.values = {179.9, -179.9};
  a.vars["node.struct.1.E"] = e;
  e.values = {-180.0 + 0.1 - 360.0 + 360.0, 180.0 - 0.1};  // same orientations, other branch
  b.vars["node.struct.1.E"] = e;
  const auto rep = compare_results(a, b, CompareOptions{});
  EXPECT_NEAR(rep.vars.at(0).max_abs, 0.2, 1e-9);
}

TEST(OutputCompare, CliExitCodesAndJson) {
  const std::string total = kShared + "/decks/t.joints.total.total/mbdyn/total";
  std::string out;
  EXPECT_EQ(cli({"compare", total, total + ".nc"}, &out), 0);
  EXPECT_NE(out.find("PASS"), std::string::npos);
  EXPECT_EQ(cli({"compare", total, total + ".nc", "--tol", "1e-9"}, &out), 1);  // text precision
  EXPECT_EQ(cli({"compare", kSqueezer + "/ms_0.6/andrewssqueezer.nc",
                 kSqueezer + "/bdf_0.0/andrewssqueezer.nc", "--vars", "node.struct.*.X",
                 "--norm", "model", "--tol", "1e-12", "--json"},
                &out),
            1);
  EXPECT_NE(out.find("\"pass\": false"), std::string::npos);
  EXPECT_NE(out.find("\"name\": \"node.struct.1500.X\""), std::string::npos);
  EXPECT_EQ(cli({"compare", "/nonexistent", total}), 2);
  EXPECT_EQ(cli({"compare", total, total, "--vars", "node.nothing.*"}), 2);
  EXPECT_EQ(cli({"compare", total}), 2);  // REF missing
  EXPECT_EQ(cli({"compare", total, total, "--norm", "volume"}), 2);
}

TEST(OutputPlot, SvgOfTwoRuns) {
  const std::string svg = (mbl::test::fresh_temp_dir("plot") / "plot.svg").string();
  EXPECT_EQ(cli({"plot", kSqueezer + "/ms_0.6/andrewssqueezer.nc", "node.struct.1500.X[1]",
                 "--with", kSqueezer + "/ms_0.6/andrewssqueezer", "-o", svg}),
            0);
  std::ifstream in(svg);
  std::stringstream s;
  s << in.rdbuf();
  const std::string doc = s.str();
  EXPECT_EQ(doc.rfind("<?xml", 0), 0u);
  std::size_t paths = 0;
  for (auto p = doc.find("<path"); p != std::string::npos; p = doc.find("<path", p + 1)) ++paths;
  EXPECT_EQ(paths, 2u);
  EXPECT_NE(doc.find("node.struct.1500.X[1]"), std::string::npos);
  EXPECT_NE(doc.find("</svg>"), std::string::npos);
  EXPECT_EQ(cli({"plot", kSqueezer + "/ms_0.6/andrewssqueezer.nc", "node.struct.1500.X[4]", "-o", svg}), 2);
  EXPECT_EQ(cli({"plot", kSqueezer + "/ms_0.6/andrewssqueezer.nc", "node.struct.1500.X", "-o", "fig.png"}), 2);
  std::string listing;
  EXPECT_EQ(cli({"plot", kSqueezer + "/ms_0.6/andrewssqueezer.nc", "--list"}, &listing), 0);
  EXPECT_NE(listing.find("node.struct.1500.E [3] deg"), std::string::npos) << listing.substr(0, 300);
  EXPECT_EQ(cli({"plot", kSqueezer + "/ms_0.6/andrewssqueezer.nc"}), 2);  // nothing to plot
}

// A 0-step run whose only node sits at the origin has model size 0: --norm model falls back to
// absolute errors and says so instead of failing.
TEST(OutputCompare, ModelOfSizeZeroFallsBackToAbsoluteErrors) {
  const std::string ref = kShared + "/decks/t.parser.eval/mbdyn/eval";
  Results a = read_results(ref);
  const Results b = read_results(ref);
  ASSERT_EQ(b.records(), 1u);
  for (auto& [name, s] : a.vars)
    for (auto& v : s.values) v += 1e-3;
  CompareOptions o;
  o.norm = Normalisation::Model;
  const CompareReport rep = compare_results(a, b, o);
  EXPECT_EQ(rep.model_size, 0.0);
  EXPECT_EQ(rep.normalisation, "absolute");
  EXPECT_FALSE(rep.note.empty());
  for (const auto& v : rep.vars) {
    EXPECT_NEAR(v.normalised, 1e-3, 1e-9) << v.name;
    EXPECT_EQ(v.scale, 1.0);
  }
  std::string out;
  EXPECT_EQ(cli({"compare", ref, ref, "--norm", "model"}, &out), 0);
  EXPECT_NE(out.find("errors absolute (not normalised)"), std::string::npos) << out;
  EXPECT_NE(out.find("note: model size"), std::string::npos) << out;
}

// --floor: a reference at round-off level is compared in absolute terms, not by its (noise) range.
TEST(OutputCompare, FloorBoundsTheRangeNormalisation) {
  Results ref, run;
  ref.time = run.time = {0.0, 1.0, 2.0};
  Series noise;
  noise.ncomp = 1;
  noise.values = {1e-12, -2e-12, 3e-12};
  ref.vars["elem.joint.1.F"] = noise;
  noise.values = {-1e-12, 2e-12, 0.0};
  run.vars["elem.joint.1.F"] = noise;
  CompareOptions o;
  o.norm = Normalisation::Range;
  EXPECT_GT(compare_results(run, ref, o).vars[0].normalised, 0.5);  // noise over noise
  o.floor = 1e-3;
  const VariableError e = compare_results(run, ref, o).vars[0];
  EXPECT_DOUBLE_EQ(e.scale, 1e-3);
  EXPECT_NEAR(e.normalised, 4e-12 / 1e-3, 1e-18);
  EXPECT_TRUE(e.within);
}

// MBDyn leaves some NetCDF variables at the fill value (t.forces.force.force: the d, dPrime,
// Omega, ... of its deformable joints); those records are absent, not 9.97e36.
TEST(OutputCompare, NetcdfFillValuesAreAbsentRecords) {
  const Results ref = read_results(kShared + "/decks/t.forces.force.force/mbdyn/force.nc");
  const auto it = ref.vars.find("elem.joint.2.d");
  ASSERT_NE(it, ref.vars.end());
  ASSERT_FALSE(it->second.present.empty());
  for (std::size_t t = 0; t < it->second.times(); ++t) EXPECT_FALSE(it->second.has(t)) << t;
  // Written variables stay present.
  const Series& F = ref.vars.at("elem.joint.2.F");
  EXPECT_TRUE(F.present.empty());
  // Against anything, an absent reference record adds no error.
  Results other = ref;
  Series& d_run = other.vars.at("elem.joint.2.d");
  d_run.present.clear();  // our run writes every record
  for (double& v : d_run.values) v = 1.0;
  CompareOptions o;
  o.tol = 0.0;
  const CompareReport rep = compare_results(other, ref, o);
  for (const auto& v : rep.vars)
    if (v.name == "elem.joint.2.d") {
      EXPECT_EQ(v.max_abs, 0.0);
    }
}

namespace {

/// Copies MBDyn's web.pendulum text output (.mov, .out) to `prefix`, keeping every `stride`-th
/// record of the .mov and adding `extra` records (copies of the last one) at the end of both.
void write_pendulum_copy(const fs::path& prefix, std::size_t stride, std::size_t extra) {
  const std::string ref = kShared + "/decks/web.pendulum/mbdyn/pendulum";
  std::vector<std::string> mov, out;
  std::ifstream in_mov(ref + ".mov"), in_out(ref + ".out");
  for (std::string l; std::getline(in_mov, l);) mov.push_back(l);
  for (std::string l; std::getline(in_out, l);) out.push_back(l);
  std::size_t steps = 0;
  for (const auto& l : out) steps += l.rfind("Step ", 0) == 0 ? 1 : 0;
  ASSERT_GT(steps, 0u);
  const std::size_t per_record = mov.size() / steps;
  ASSERT_EQ(per_record * steps, mov.size());
  std::ofstream o_mov(prefix.string() + ".mov"), o_out(prefix.string() + ".out");
  for (std::size_t r = 0; r < steps; r += stride)
    for (std::size_t k = 0; k < per_record; ++k) o_mov << mov[r * per_record + k] << '\n';
  for (const auto& l : out) o_out << l << '\n';
  for (std::size_t e = 0; e < extra; ++e) {
    for (std::size_t k = 0; k < per_record; ++k) o_mov << mov[mov.size() - per_record + k] << '\n';
    o_out << "Step " << steps + e << " " << 10.02 + 0.01 * double(e) << " 0.01 1 0 0 0 1\n";
  }
}

}  // namespace

TEST(OutputCompare, ADifferentNumberOfRecordsFailsUnlessPartial) {
  const fs::path dir = mbl::test::fresh_temp_dir("records");
  fs::create_directories(dir);
  write_pendulum_copy(dir / "longer", 1, 1);
  const std::string ref = kShared + "/decks/web.pendulum/mbdyn/pendulum";
  std::string out;
  EXPECT_EQ(cli({"compare", (dir / "longer").string(), ref}, &out), 1);
  EXPECT_NE(out.find("FAIL: RUN wrote 1003 records, REF 1002"), std::string::npos) << out;
  EXPECT_EQ(cli({"compare", (dir / "longer").string(), ref, "--partial"}, &out), 0) << out;
  EXPECT_EQ(cli({"compare", ref, ref, "--json"}, &out), 0);
  EXPECT_NE(out.find("\"run_records\": 1002"), std::string::npos) << out;
  fs::remove_all(dir);
}

TEST(OutputCompare, AStridedReferenceIsTimedByItsOutFile) {
  const fs::path dir = mbl::test::fresh_temp_dir("stride");
  fs::create_directories(dir);
  write_pendulum_copy(dir / "strided", 7, 0);
  const std::string full = kShared + "/decks/web.pendulum/mbdyn/pendulum";
  const Results strided = read_results((dir / "strided").string(), 7);
  EXPECT_EQ(strided.records(), (1002u + 6u) / 7u);
  EXPECT_EQ(strided.written_records, 1002u);
  ASSERT_GT(strided.time.size(), 2u);
  EXPECT_DOUBLE_EQ(strided.time[1], 0.07);
  CompareOptions o;
  o.tol = 0.0;
  const CompareReport rep = compare_results(read_results(full), strided, o);
  EXPECT_TRUE(rep.all_within());
  EXPECT_EQ(rep.points, strided.records());
  std::string out;
  EXPECT_EQ(cli({"compare", full, (dir / "strided").string(), "--ref-stride", "7", "--tol", "0"}, &out), 0)
      << out;
  // Read without its stride, the same file is a run of another length.
  EXPECT_EQ(cli({"compare", full, (dir / "strided").string()}, &out), 1);
  fs::remove_all(dir);
}

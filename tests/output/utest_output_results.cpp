// Readers of MBDyn's results: values from known lines of the real files, text and NetCDF of the
// same MBDyn run agreeing to the text precision, and files cut short.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "mbdyn-like/output/compare.hpp"
#include "mbdyn-like/output/results.hpp"
#include "support/run_program.hpp"

namespace fs = std::filesystem;
using namespace mbl::output;

namespace {

const std::string kShared = MBL_SHARED_DIR;
const std::string kTotal = kShared + "/decks/t.joints.total.total/mbdyn/total";
const std::string kForce = kShared + "/decks/t.forces.force.force/mbdyn/force";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST(OutputResults, TextValuesFromKnownLines) {
  const Results r = read_results(kTotal);
  ASSERT_EQ(r.records(), 1001u);
  EXPECT_FALSE(r.time_is_index);
  EXPECT_DOUBLE_EQ(r.time[1], 0.001);
  EXPECT_DOUBLE_EQ(r.time[998], 0.9980000000000008);  // from the .out Step line
  // .mov, second record: "2 4.867211e-05 -9.866198e-03 0.000000e+00 -0.000000e+00 0 5.653007e-01
  //                       9.734423e-02 -1.973240e+01 0 0 0 1.973240e+01"
  const Series& x2 = r.vars.at("node.struct.2.X");
  EXPECT_EQ(x2.ncomp, 3);
  EXPECT_DOUBLE_EQ(x2.at(1, 0), 4.867211e-05);
  EXPECT_DOUBLE_EQ(x2.at(1, 1), -9.866198e-03);
  EXPECT_DOUBLE_EQ(r.vars.at("node.struct.2.E").at(1, 2), 5.653007e-01);  // euler123 (from .log)
  EXPECT_TRUE(r.vars.at("node.struct.2.E").degrees);
  EXPECT_DOUBLE_EQ(r.vars.at("node.struct.2.Omega").at(1, 2), 1.973240e+01);
  // .jnt: the total joint's extra columns are X, Phi, V, Omega
  EXPECT_TRUE(r.vars.count("elem.joint.2.Omega"));
  EXPECT_DOUBLE_EQ(r.vars.at("elem.joint.1.f").at(1, 0), -1.946885e+02);
  EXPECT_DOUBLE_EQ(r.vars.at("elem.joint.2.M").at(1, 2), -7.892958e+04);
}

TEST(OutputResults, ForcesAndCouplesFromTheFrcFile) {
  const Results r = read_results(kForce + ".frc");  // any file of the run names the prefix
  // "1 1 0 0 2.420518e-05 1 9.136410e-11 6.891446e-11": absolute force 1 (node 1), F, Arm
  EXPECT_DOUBLE_EQ(r.vars.at("elem.force.1.F").at(1, 2), 2.420518e-05);
  EXPECT_DOUBLE_EQ(r.vars.at("elem.force.1.Arm").at(1, 0), 1.0);
  EXPECT_TRUE(r.vars.count("elem.couple.3.M"));     // label, node, M
  EXPECT_TRUE(r.vars.count("elem.force.11.Arm2"));  // internal force
  EXPECT_TRUE(r.vars.count("elem.couple.13.M"));    // internal couple
}

TEST(OutputResults, OrientationMatrixRowByRowInBothFormats) {
  // b.mov writes node 21's orientation as a matrix, row by row; b.nc column by column.
  const std::string b = kShared + "/decks/t.beam.b/mbdyn/b";
  const Results text = read_results(b);
  const Results nc = read_results(b + ".nc");
  const Series& rt = text.vars.at("node.struct.21.R");
  const Series& rn = nc.vars.at("node.struct.21.R");
  ASSERT_EQ(rt.ncomp, 9);
  double asym = 0.0;
  for (std::size_t t = 0; t < rt.times(); t += 50)
    for (int c = 0; c < 9; ++c) {
      EXPECT_NEAR(rt.at(t, c), rn.at(t, c), 1e-6) << "record " << t << " entry " << c;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < i; ++j)
          asym = std::max(asym, std::abs(rt.at(t, 3 * i + j) - rt.at(t, 3 * j + i)));
    }
  EXPECT_GT(asym, 1e-3);  // the matrix is not symmetric: the order is really checked
}

// Text and NetCDF of the same MBDyn run agree to the text precision (6 digits: relative 5e-7;
// `output precision: 16`: exactly).
TEST(OutputResults, TextAndNetcdfOfTheSameRunAgree) {
  struct Case {
    std::string prefix;
    double rel;
    std::vector<std::string> must_compare;  ///< text columns named after the NetCDF variables
  };
  const Case cases[] = {
      {kTotal, 5.1e-7, {"elem.joint.2.Phi", "elem.joint.2.V", "node.struct.2.E"}},
      {kForce, 5.1e-7, {"elem.joint.1.E", "elem.force.11.Arm2", "elem.couple.13.M"}},
      {kShared + "/decks/t.beam.b/mbdyn/b", 5.1e-7, {"node.struct.21.R"}},
      {kShared + "/decks/t.plates.membrane.prestress_4x2/mbdyn/prestress_4x2", 5.1e-7,
       {"node.struct.5.Phi"}},
      {kShared + "/paper/andrewssqueezer/mbdyn/ms_0.6/andrewssqueezer", 0.0,
       {"elem.joint.400.l", "elem.joint.400.v", "elem.joint.400.lP"}},
      {kShared + "/paper/fourbar/mbdyn/ms_0.6/fourbar", 0.0, {"elem.beam.1001.F_I"}},
      {kShared + "/paper/lateralbuckling/mbdyn/ms_0.6/lateralbuckling", 5.1e-7,
       {"elem.joint.300.E", "elem.joint.400.E", "elem.joint.400.Omega"}},
      {kShared + "/paper/rotatingshaft/mbdyn/ms_0.6/rotatingshaft", 5.1e-7,
       {"elem.joint.998.l"}},
  };
  for (const auto& c : cases) {
    const Results text = read_results(c.prefix);
    const Results nc = read_results(c.prefix + ".nc");
    ASSERT_EQ(text.records(), nc.records()) << c.prefix;
    std::size_t compared = 0;
    for (const auto& name : c.must_compare) {
      EXPECT_TRUE(text.vars.count(name)) << c.prefix << " text has no " << name;
      EXPECT_TRUE(nc.vars.count(name)) << c.prefix << " NetCDF has no " << name;
    }
    for (const auto& [name, st] : text.vars) {
      auto it = nc.vars.find(name);
      if (it == nc.vars.end()) continue;
      const Series& sn = it->second;
      ASSERT_EQ(st.ncomp, sn.ncomp) << name;
      for (std::size_t t = 0; t < st.times(); ++t) {
        if (!st.has(t)) continue;  // inactive driven element: no text line
        for (int k = 0; k < st.ncomp; ++k) {
          const double a = st.at(t, k), b = sn.at(t, k);
          ASSERT_LE(std::abs(a - b), c.rel * std::abs(b) + 1e-300)
              << c.prefix << " " << name << " record " << t << " component " << k;
        }
      }
      ++compared;
    }
    EXPECT_GT(compared, 3u) << c.prefix;
  }
}

TEST(OutputResults, TextFilesCutShortKeepTheCompleteRecords) {
  const std::string dir = mbl::test::fresh_temp_dir("cut").string();
  fs::create_directories(dir);
  const std::string prefix = dir + "/total";
  // .mov cut in the middle of the second node's line of record 501; the .jnt complete
  const std::string mov = slurp(kTotal + ".mov");
  std::size_t pos = 0;
  for (int line = 0; line < 2 * 500 + 1; ++line) pos = mov.find('\n', pos) + 1;
  {
    std::ofstream(prefix + ".mov") << mov.substr(0, pos + 40);
    std::ofstream(prefix + ".out") << slurp(kTotal + ".out");
    std::ofstream(prefix + ".log") << slurp(kTotal + ".log");
  }
  const Results r = read_results(prefix);
  EXPECT_EQ(r.records(), 500u);
  EXPECT_NEAR(r.time.back(), 0.499, 1e-12);
  const Results full = read_results(kTotal);
  EXPECT_EQ(r.vars.at("node.struct.2.X").at(499, 1), full.vars.at("node.struct.2.X").at(499, 1));
  fs::remove_all(dir);
}

TEST(OutputResults, BadInputIsAClearError) {
  EXPECT_THROW(read_results("/nonexistent/run"), ResultsError);
  EXPECT_THROW(read_results("/nonexistent/run.nc"), ResultsError);
  const std::string junk = (mbl::test::fresh_temp_dir("junk") / "junk.nc").string();
  std::ofstream(junk) << "not a netcdf file\n";
  try {
    read_results(junk);
    ADD_FAILURE() << "no error";
  } catch (const ResultsError& e) {
    EXPECT_NE(std::string(e.what()).find("NetCDF"), std::string::npos) << e.what();
  }
}

TEST(OutputResults, NetcdfCutShortOnDiskReadsTheCompleteRecords) {
  const std::string cut = (mbl::test::fresh_temp_dir("cut_nc") / "cut.nc").string();
  std::ofstream(cut, std::ios::binary) << slurp(kTotal + ".nc").substr(0, 200000);
  const Results r = read_results(cut);
  const Results full = read_results(kTotal + ".nc");
  ASSERT_GT(r.records(), 100u);
  ASSERT_LT(r.records(), full.records());
  CompareOptions o;
  o.tol = 0.0;
  const CompareReport rep = compare_results(r, full, o);
  EXPECT_FALSE(rep.covers_ref);
  EXPECT_FALSE(rep.all_within());  // a run that stopped early does not pass...
  o.partial = true;
  EXPECT_TRUE(compare_results(r, full, o).all_within());  // ...but what is left is exact
}

TEST(OutputResults, DriveCallersWithOutputGoToTheDrvFile) {
  // A body pushed by a constant force F/m = 100 under gravity: the node drives read
  // X[1] = F/m t^2/2, XP[3] = -g t (value only), and a linear drive with a bare `output, yes`
  // writes its value and its slope; a drive without output flag writes nothing.
  const mbl::test::TextDeckRun r = mbl::test::run_deck_text("drv_output", R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0; final time: 1; time step: 1e-1;
  method: ms, 0.6; max iterations: 10; tolerance: 1e-6; derivatives coefficient: auto; end: initial value;
begin: control data; output precision: 16; structural nodes: 1; rigid bodies: 1; forces: 1; gravity;
end: control data;
begin: nodes; structural: 1, dynamic, null, eye, null, null; end: nodes;
begin: elements;
  body: 1, 1, 1., null, diag, 1., 1., 1.;
  drive caller: 1, node, 1, structural, string, "X[1]", direct, output, value, yes;
  drive caller: 2, node, 1, structural, string, "XP[3]", direct, output, value, yes, derivative, no;
  drive caller: 3, linear, 1., 2., output, yes;
  drive caller: 4, linear, 1., 2.;
  force: 1, absolute, 1, position, null, 1., 0., 0, 100.;
  gravity: uniform, 0., 0., -1., 9.81;
end: elements;
)");
  ASSERT_EQ(r.rc, 0) << r.log();
  std::istringstream drv(mbl::test::read_file(r.output("drv")));
  int records = 0;
  double t = 0.0;
  for (std::string line; std::getline(drv, line);) {
    std::istringstream ls(line);
    std::vector<double> v;
    for (double x; ls >> x;) v.push_back(x);
    ASSERT_FALSE(v.empty());
    switch (static_cast<int>(v[0])) {
      case 1: ASSERT_EQ(v.size(), 2u); EXPECT_NEAR(v[1], 50.0 * t * t, 1e-6 * (1 + t)); break;
      case 2: ASSERT_EQ(v.size(), 2u); EXPECT_NEAR(v[1], -9.81 * t, 1e-6); break;
      case 3:
        ASSERT_EQ(v.size(), 3u);
        EXPECT_NEAR(v[1], 1.0 + 2.0 * t, 1e-9);
        EXPECT_NEAR(v[2], 2.0, 1e-12);
        ++records;
        t += 0.1;  // the three drives of a record are written in their order
        break;
      default: ADD_FAILURE() << "unexpected drive in the .drv file: " << line;
    }
  }
  EXPECT_GE(records, 11);
}

TEST(OutputResults, GlobMatch) {
  EXPECT_TRUE(glob_match("node.struct.*.X", "node.struct.12.X"));
  EXPECT_FALSE(glob_match("node.struct.*.X", "node.struct.12.XP"));
  EXPECT_TRUE(glob_match("elem.*", "elem.joint.3.F"));
  EXPECT_TRUE(glob_match("node.struct.?.X", "node.struct.1.X"));
  EXPECT_FALSE(glob_match("node.struct.?.X", "node.struct.10.X"));
}

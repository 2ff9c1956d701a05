// Seed 000's benchmark decks (../shared/paper, README.md there): Andrew's squeezer run by our
// program with each integrator for which the real MBDyn's NetCDF output is stored, compared with
// it (node positions, error / model size <= 1e-4), and the average Newton iterations per step
// (the NIter column of the .out, summed over the stages) within 10 % of MBDyn's. CTest label:
// decks. About 0.3 s per method.
#include <gtest/gtest.h>

#include "support/run_program.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

using mbl::test::read_file;
using mbl::test::run;

const char* const kMethods[] = {"ms_0.6",     "bdf_0.0",    "ms3_0.6", "ms4_0.0", "ss2_0.6",
                                "Bathe_0.6",  "msstc3_0.6", "mssth3_0.0", "dirk54_0.0"};

/// Average of the NIter column over the regular steps of a .out file.
double iterations_per_step(const fs::path& out) {
  std::istringstream in(read_file(out));
  double sum = 0.0;
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("Step ", 0) != 0) continue;
    std::istringstream ls(line.substr(5));
    long step = 0;
    double t = 0.0, dt = 0.0, iters = 0.0;
    ls >> step >> t >> dt >> iters;
    if (step == 0) continue;
    sum += iters;
    ++n;
  }
  return n ? sum / n : 0.0;
}

class PaperAndrewsSqueezer : public ::testing::TestWithParam<const char*> {};

TEST_P(PaperAndrewsSqueezer, AgreesWithMBDyn) {
  const std::string method = GetParam();
  const fs::path bench = fs::path(MBL_SHARED_DIR) / "paper" / "andrewssqueezer";
  const fs::path ref = bench / "mbdyn" / method / "andrewssqueezer";
  ASSERT_TRUE(fs::exists(ref.string() + ".nc")) << ref;
  const fs::path dir = fs::temp_directory_path() / ("mbl_paper_andrewssqueezer_" + method);
  fs::remove_all(dir);
  fs::create_directories(dir);
  // The deck with its include files, unchanged (the rod accepts MBDyn's private datum "L").
  for (const auto& e : fs::directory_iterator(bench / "deck"))
    fs::copy_file(e.path(), dir / e.path().filename(), fs::copy_options::overwrite_existing);
  const fs::path deck = dir / ("andrewssqueezer_" + method + ".mbd");
  const fs::path out = dir / "run";
  const std::string bin = MBL_BINARY;
  ASSERT_EQ(run("'" + bin + "' -s -f '" + deck.string() + "' -o '" + out.string() + "'",
                dir / "run.log"),
            0)
      << read_file(dir / "run.log");
  EXPECT_EQ(run("'" + bin + "' compare '" + out.string() + ".nc' '" + ref.string() +
                    ".nc' --vars 'node.struct.*.X' --norm model --tol 1e-4",
                dir / "compare.log"),
            0)
      << read_file(dir / "compare.log");
  // The energy balance of seed 000 eq. (23): the deck's output-only force carries the kinetic
  // energy, the spring energy and the work of the torque as `string` drive callers.
  EXPECT_EQ(run("'" + bin + "' compare '" + out.string() + ".nc' '" + ref.string() +
                    ".nc' --vars 'elem.force.300.F' --norm range --tol 1e-4",
                dir / "compare_energy.log"),
            0)
      << read_file(dir / "compare_energy.log");
  const double ours = iterations_per_step(out.string() + ".out");
  const double mbdyn = iterations_per_step(ref.string() + ".out");
  EXPECT_NEAR(ours / mbdyn, 1.0, 0.1) << "ours " << ours << " it/step, MBDyn " << mbdyn;
}

INSTANTIATE_TEST_SUITE_P(Methods, PaperAndrewsSqueezer, ::testing::ValuesIn(kMethods),
                         [](const ::testing::TestParamInfo<const char*>& i) {
                           std::string n = i.param;
                           for (char& ch : n)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

}  // namespace

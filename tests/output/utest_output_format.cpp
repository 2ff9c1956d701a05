// MBDyn's number formats, checked against the files the real MBDyn wrote: every line of a .mov
// re-formatted from its parsed numbers is identical, and .out files are reproduced byte for byte.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include "mbdyn-like/output/format.hpp"
#include "mbdyn-like/output/output_manager.hpp"
#include "support/run_program.hpp"

namespace fs = std::filesystem;
using namespace mbl::output;

namespace {

const std::string kDecks = std::string(MBL_SHARED_DIR) + "/decks";
const std::string kPaper = std::string(MBL_SHARED_DIR) + "/paper";

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> v;
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Re-formats a node line (label + reals) with our functions.
std::string reformat_mov_line(const std::string& line, int precision) {
  std::istringstream is(line);
  unsigned label = 0;
  is >> label;
  std::string out = format_label(label);
  for (std::string tok; is >> tok;) out += format_real(std::strtod(tok.c_str(), nullptr), precision);
  return out;
}

}  // namespace

TEST(OutputFormat, RealsAsMbdynWritesThem) {
  EXPECT_EQ(format_real(0.0, 6), " 0.000000e+00");
  EXPECT_EQ(format_real(-0.0, 6), " -0.000000e+00");  // MBDyn keeps the sign of zero
  EXPECT_EQ(format_real(4.867211e-05, 6), " 4.867211e-05");
  EXPECT_EQ(format_real(-19.7324, 6), " -1.973240e+01");
  EXPECT_EQ(format_real(1.4e-2, 16), " 1.4000000000000000e-02");
  EXPECT_EQ(format_real(7.2e-2, 16), " 7.1999999999999995e-02");
  EXPECT_EQ(format_real(1e-300, 6), " 1.000000e-300");
  EXPECT_EQ(format_label(1001), "    1001");
  EXPECT_EQ(format_label(12345678), "12345678");
}

// The numbers are C's "%.*e" (.mov and the other element files) and "%.*g" (.out) conversions,
// written through std::to_chars: the same characters as snprintf for every kind of double.
TEST(OutputFormat, RealsAsPrintfWritesThem) {
  std::vector<double> values = {0.0, -0.0, 1.0, -2.5, 0.5e-4, 1e-4, 999999.5, 9.5, 5e-324, 1e308,
                                std::numeric_limits<double>::infinity(),
                                -std::numeric_limits<double>::infinity(), std::nan("")};
  std::uint64_t bits = 0x9e3779b97f4a7c15u;
  for (int k = 0; k < 20000; ++k) {  // doubles over the whole exponent range
    bits = bits * 6364136223846793005u + 1442695040888963407u;
    values.push_back(std::ldexp(double(bits >> 11) * 0x1p-53, int(bits % 1200) - 600) * (k % 2 ? -1 : 1));
  }
  char buf[512];
  for (const double v : values)
    for (const int precision : {0, 1, 6, 15, 16, 17, 25}) {
      std::snprintf(buf, sizeof buf, " %.*e", precision, v);
      ASSERT_EQ(format_real(v, precision), buf) << v;
      std::snprintf(buf, sizeof buf, "%.*g", precision, v);
      ASSERT_EQ(format_general(v, precision), buf) << v;
    }
}

TEST(OutputFormat, MovLinesIdenticalToMbdyn) {
  // default precision (6) and `output precision: 16`
  const std::pair<std::string, int> files[] = {
      {kDecks + "/t.joints.total.total/mbdyn/total.mov", 6},
      {kDecks + "/t.joints.total.total/mbdyn/total.jnt", 6},
      {kDecks + "/t.beam.b/mbdyn/b.mov", 6},
      {kPaper + "/andrewssqueezer/mbdyn/ms_0.6/andrewssqueezer.mov", 16},
      {kPaper + "/andrewssqueezer/mbdyn/ms_0.6/andrewssqueezer.jnt", 16},
  };
  for (const auto& [path, precision] : files) {
    const auto lines = lines_of(path);
    ASSERT_GT(lines.size(), 10u) << path;
    std::size_t n = 0;
    for (const auto& l : lines) {
      ASSERT_EQ(reformat_mov_line(l, precision), l) << path << " line " << n + 1;
      if (++n == 3000) break;  // enough lines, keeps the test fast
    }
  }
}

TEST(OutputFormat, StepLine) {
  EXPECT_EQ(format_step_line({0, 0, 0, 0, 0, 0, false, true}, 6), "Step 0 0 0 0 0 0 0 1");
  EXPECT_EQ(format_step_line({1, 0.001, 0.001, 3, 1.02945e-11, 0, false, true}, 6),
            "Step 1 0.001 0.001 3 1.02945e-11 0 0 1");
  EXPECT_EQ(format_step_line({998, 0.9980000000000008, 0.001, 2, 0, 0, false, true}, 16),
            "Step 998 0.9980000000000008 0.001 2 0 0 0 1");
  EXPECT_EQ(format_step_line({2, 0.002, 0.001, 1, 1.110223024625157e-16, 0, false, false}, 16),
            "Step 2 0.002 0.001 1 1.110223024625157e-16 0 0 0");
  EXPECT_EQ(format_derivatives_line(0, 1, 1.38734e-08, 6),
            "# Derivatives solution step at time 0 performed in 1 iterations with 1.38734e-08 error");
}

namespace {
/// An `output meter` whose value the test sets before each step.
struct FlagDrive : mbl::DriveCaller {
  double flag = 1.0;
  double value(double) const override { return flag; }
};
}  // namespace

// Feeds the numbers of a real .out file through OutputManager and expects the same bytes.
static void reproduce_out_file(const std::string& path, bool precision16,
                               long regular_from = 2) {
  ASSERT_TRUE(fs::exists(path)) << path;
  const auto lines = lines_of(path);
  const fs::path tmp = mbl::test::fresh_temp_dir("out") / "run";
  OutputConfig cfg;
  cfg.prefix = tmp.string();
  if (precision16) {
    cfg.precision = 16;
    cfg.precision_given = true;
  }
  auto meter = std::make_shared<FlagDrive>();
  cfg.meter = meter;
  {
    OutputManager out(cfg);
    out.begin_setup();
    out.end_setup();
    for (const auto& l : lines) {
      double t = 0, e = 0;
      int it = 0;
      if (std::sscanf(l.c_str(), "# Derivatives solution step at time %lf performed in %d iterations with %lf error", &t, &it, &e) == 3) {
        out.write_derivatives_line(t, it, e);
      } else if (std::sscanf(l.c_str(), "# Initial solution after dummy steps at time %lf performed in %d iterations with %lf error", &t, &it, &e) == 3) {
        out.write_dummy_steps_line(t, it, e);
      } else if (l.rfind("Step ", 0) == 0) {
        std::istringstream is(l.substr(5));
        StepLine s;
        int conv = 0, o = 0;
        is >> s.step >> s.time >> s.time_step >> s.iterations >> s.residual_error >>
            s.solution_error >> conv >> o;
        s.solution_converged = conv != 0;
        meter->flag = o;
        if (s.step == regular_from) out.begin_regular_steps();
        EXPECT_EQ(out.begin_step(s.step, s.time, s.time_step), o != 0) << l;
        out.end_step(s);
      } else if (l[0] != '#') {
        out.write_out_line(l);
      }
    }
    out.close();
  }
  EXPECT_EQ(slurp(tmp.string() + ".out"), slurp(path)) << path;
}

TEST(OutputFormat, OutFilesReproducedByteForByte) {
  // total.out: default precision (6 digits for the header and steps 0-1, then 16);
  // gimbal.out: with the dummy-steps line; andrewssqueezer: `output precision: 16` and
  // `output frequency: 5`.
  reproduce_out_file(kDecks + "/t.joints.total.total/mbdyn/total.out", false);
  reproduce_out_file(kDecks + "/t.joints.gimbal.gimbal/mbdyn/gimbal.out", false);
  reproduce_out_file(kDecks + "/t.parser.eval/mbdyn/eval.out", false);
  reproduce_out_file(kDecks + "/t.drives.drivecallers.closestnext/mbdyn/closestnext.out", false);
  reproduce_out_file(kPaper + "/andrewssqueezer/mbdyn/ms_0.6/andrewssqueezer.out", true);
}

TEST(OutputManager, OutputFrequencyAndLazyFiles) {
  const fs::path tmp = mbl::test::fresh_temp_dir("freq") / "run";
  OutputConfig cfg;
  cfg.prefix = tmp.string();
  cfg.frequency = 5;
  {
    OutputManager out(cfg);
    out.begin_setup();
    out.end_setup();
    std::vector<long> written;
    for (long step = 0; step <= 12; ++step) {
      if (out.begin_step(step, 0.1 * double(step), 0.1)) {
        std::ostream* mov = out.text(mbl::OutputFile::Mov);
        ASSERT_NE(mov, nullptr);
        out.write_label(*mov, 7);
        out.write(*mov, mbl::Vec3(1.0, -0.0, 0.5));
        *mov << '\n';
        written.push_back(step);
      } else {
        EXPECT_EQ(out.text(mbl::OutputFile::Mov), nullptr);  // not an output step
      }
      out.end_step({step, 0.1 * double(step), 0.1, 1, 0.0, 0.0, false, true});
    }
    EXPECT_EQ(written, (std::vector<long>{0, 5, 10}));
    out.close();
  }
  EXPECT_EQ(slurp(tmp.string() + ".mov"),
            std::string(3, ' ').append("       7 1.000000e+00 -0.000000e+00 5.000000e-01\n").substr(3) +
                "       7 1.000000e+00 -0.000000e+00 5.000000e-01\n"
                "       7 1.000000e+00 -0.000000e+00 5.000000e-01\n");
  EXPECT_EQ(lines_of(tmp.string() + ".log").at(0), "output frequency: 5");
  const auto out_lines = lines_of(tmp.string() + ".out");
  ASSERT_EQ(out_lines.size(), 15u);
  EXPECT_EQ(out_lines[2 + 5], "Step 5 0.5 0.1 1 0 0 0 1");
  EXPECT_EQ(out_lines[2 + 6], "Step 6 0.6000000000000001 0.1 1 0 0 0 0");
  EXPECT_FALSE(fs::exists(tmp.string() + ".jnt"));  // only the files some entity writes
}

TEST(OutputFormat, EveryReferenceOutFileReproduced) {
  // Every .out the real MBDyn wrote for the decks. Decks with `output precision: 16` and decks
  // integrated with Bathe (regular steps from step 1) are listed; the others are multistep.
  const std::set<std::string> precision16 = {"t.solid.pressure.pressureload2",
                                             "t.mechanisms.theojansen.main_assy",
                                             "web.andrewssqueezer.andrewssqueezer_assembler"};
  const std::set<std::string> bathe = {"t.stiff.Swing", "t.stiff.Swing_reg", "t.stiff.pendulumd"};
  std::size_t n = 0;
  for (const auto& dir : fs::directory_iterator(kDecks)) {
    if (!fs::is_directory(dir.path() / "mbdyn")) continue;
    const std::string id = dir.path().filename().string();
    for (const auto& f : fs::directory_iterator(dir.path() / "mbdyn")) {
      if (f.path().extension() != ".out") continue;
      reproduce_out_file(f.path().string(), precision16.count(id) > 0, bathe.count(id) ? 1 : 2);
      ++n;
    }
  }
  EXPECT_GT(n, 60u);
}

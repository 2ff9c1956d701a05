// `mbdyn-like sweep` on examples/sweep/spring_mass.mbd: the metrics of each case are the damped
// oscillator's; local workers and MPI ranks give the same summary; a crashing case is reported
// and the others finish; a sweep run again runs only the cases without a result.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "support/run_program.hpp"

namespace fs = std::filesystem;
using mbl::test::quoted;
using mbl::test::read_file;

namespace {

const fs::path kDeck = fs::path(MBL_SOURCE_DIR) / "examples" / "sweep" / "spring_mass.mbd";
const std::string kMetrics =
    " --metric 'peak=max(abs(model::xposition(2) - 1.))' --metric 'last=final(model::xposition(2))'";

int sweep(const std::string& args, const fs::path& dir, const std::string& launcher = "") {
  return mbl::test::run(launcher + quoted(MBL_BINARY) + " sweep " + quoted(kDeck) + " " + args +
                            kMetrics + " -o " + quoted(dir / "out"),
                        dir / "sweep.txt");
}

/// summary.csv's rows, split at commas, without the wall-time column.
std::vector<std::vector<std::string>> rows(const fs::path& csv) {
  std::vector<std::vector<std::string>> out;
  std::istringstream in(read_file(csv));
  int wall = -1;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> f;
    std::stringstream ls(line);
    for (std::string x; std::getline(ls, x, ',');) f.push_back(x);
    if (wall < 0)
      for (std::size_t i = 0; i < f.size(); ++i)
        if (f[i] == "wall_s") wall = int(i);
    if (wall >= 0 && std::size_t(wall) < f.size()) f.erase(f.begin() + wall);
    out.push_back(f);
  }
  return out;
}

/// A program that runs a case like mbdyn-like, crashes on K=crash and logs every call.
fs::path wrapper(const fs::path& dir) {
  const fs::path w = dir / "wrapper.sh";
  std::ofstream(w) << "#!/bin/sh\n"
                   << "echo \"$@\" >> " << quoted(dir / "calls") << "\n"
                   << "for a in \"$@\"; do [ \"$a\" = K=crash ] && kill -SEGV $$; done\n"
                   << "exec " << quoted(MBL_BINARY) << " \"$@\"\n";
  fs::permissions(w, fs::perms::owner_all);
  return w;
}

std::size_t lines(const fs::path& p) {
  std::istringstream in(read_file(p));
  std::size_t n = 0;
  for (std::string l; std::getline(in, l);) ++n;
  return n;
}

}  // namespace

TEST(ExamplesSweep, MetricsAreTheDampedOscillators) {
  const fs::path dir = mbl::test::fresh_temp_dir("sweep_metrics");
  ASSERT_EQ(sweep("--grid 'K=1e2,4e2' --grid 'C=0.2,1.'", dir), 0) << read_file(dir / "sweep.txt");
  const auto r = rows(dir / "out" / "summary.csv");
  ASSERT_EQ(r.size(), 5u);  // header + 2 x 2 cases, the first grid varying slowest
  EXPECT_EQ(r[0], (std::vector<std::string>{"case", "K", "C", "peak", "last", "status", "message"}));
  EXPECT_EQ(r[1][1], "1e2");
  EXPECT_EQ(r[2][2], "1.");
  // The run ends at the first step at or past 1 s (dt 1e-3, MBDyn's loop): time of the last step.
  const std::string out0 = read_file(dir / "out" / "case-0" / "run.out");
  const std::size_t last_step = out0.rfind("\nStep ");
  ASSERT_NE(last_step, std::string::npos);
  std::istringstream step_line(out0.substr(last_step + 6));
  long step = 0;
  double t_end = 0.0;
  step_line >> step >> t_end;
  for (std::size_t k = 1; k < r.size(); ++k) {
    const double K = std::stod(r[k][1]), C = std::stod(r[k][2]), M = 1.0;
    const double w0 = std::sqrt(K / M), zeta = C / (2.0 * std::sqrt(K * M));
    const double wd = w0 * std::sqrt(1.0 - zeta * zeta);
    // x(t) - L0 = 0.1 e^(-zeta w0 t) (cos wd t + zeta w0 / wd sin wd t), released at rest.
    const double x_end = 1.0 + 0.1 * std::exp(-zeta * w0 * t_end) *
                                   (std::cos(wd * t_end) + zeta * w0 / wd * std::sin(wd * t_end));
    EXPECT_NEAR(std::stod(r[k][4]), x_end, 2e-4) << "K " << K << " C " << C;
    // The release is the largest excursion; the metric sees the steps after it.
    EXPECT_NEAR(std::stod(r[k][3]), 0.1, 2e-3);
    EXPECT_LT(std::stod(r[k][3]), 0.1);
    EXPECT_EQ(r[k][5], "0");
  }
  ASSERT_TRUE(fs::exists(dir / "out" / "summary.nc"));
  // The summary reads as results with one record per case: `plot --x param.K` draws a metric
  // against a parameter, the points sorted along it.
  const fs::path fig = dir / "peak.svg";
  ASSERT_EQ(mbl::test::run(quoted(MBL_BINARY) + " plot " + quoted(dir / "out" / "summary.nc") +
                               " metric.peak --x param.K -o " + quoted(fig),
                           dir / "plot.txt"),
            0)
      << read_file(dir / "plot.txt");
  const std::string svg = read_file(fig);
  EXPECT_NE(svg.find(">param.K<"), std::string::npos);
  EXPECT_NE(svg.find(">metric.peak<"), std::string::npos);
  EXPECT_NE(mbl::test::run(quoted(MBL_BINARY) + " plot " + quoted(dir / "out" / "summary.nc") +
                               " metric.peak --x nothing -o " + quoted(fig),
                           dir / "plot.txt"),
            0);
}

TEST(ExamplesSweep, ACrashingCaseIsReportedAndARerunRunsOnlyWhatIsMissing) {
  const fs::path dir = mbl::test::fresh_temp_dir("sweep_crash");
  const fs::path w = wrapper(dir);
  const std::string args = "--grid 'K=1e2,crash,1e3' --program " + quoted(w) + " -j 2";
  ASSERT_EQ(sweep(args, dir), 0) << read_file(dir / "sweep.txt");
  auto r = rows(dir / "out" / "summary.csv");
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[1][4], "0");
  EXPECT_EQ(r[2][4], "-11");
  EXPECT_NE(r[2][5].find("crashed"), std::string::npos) << r[2][5];
  EXPECT_EQ(r[3][4], "0");
  EXPECT_EQ(lines(dir / "calls"), 3u);
  // Interrupted: case 2 has no result. Run again: only case 2 runs, the summary is the same.
  fs::remove(dir / "out" / "case-2" / "result");
  ASSERT_EQ(sweep(args, dir), 0) << read_file(dir / "sweep.txt");
  EXPECT_EQ(lines(dir / "calls"), 4u);
  EXPECT_EQ(rows(dir / "out" / "summary.csv"), r);
  // Another -D set for a case index is not a completed case.
  ASSERT_EQ(sweep("--grid 'K=2e2,crash,1e3' --program " + quoted(w), dir), 0);
  EXPECT_EQ(lines(dir / "calls"), 5u);
}

TEST(ExamplesSweep, MpiRanksGiveTheLocalSummary) {
  const fs::path dir = mbl::test::fresh_temp_dir("sweep_mpi");
  mbl::test::run(quoted(MBL_BINARY) + " --version", dir / "version.txt");
  if (read_file(dir / "version.txt").find("MPI") == std::string::npos ||
      std::system("command -v mpirun > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "built without MPI, or no mpirun";
  const std::string grid = "--grid 'K=1e2,4e2,1e3' --grid 'C=0.1:1:3'";
  ASSERT_EQ(sweep(grid + " -j 2", dir), 0) << read_file(dir / "sweep.txt");
  const auto local = rows(dir / "out" / "summary.csv");
  fs::rename(dir / "out", dir / "local");
  const std::string mpirun = std::string("mpirun -np 3 --oversubscribe") +
                             (::geteuid() == 0 ? " --allow-run-as-root " : " ");
  ASSERT_EQ(sweep(grid, dir, mpirun), 0) << read_file(dir / "sweep.txt");
  EXPECT_EQ(rows(dir / "out" / "summary.csv"), local);
  EXPECT_EQ(local.size(), 10u);
}

// The parallel Jacobian assembly (`threads:`, Model::jacobian in lanes) writes the same bytes as
// the serial one: a chain of rigid links large enough to run on several threads.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "mbdyn-like/model/model_builder.hpp"
#include "mbdyn-like/phases/model_output.hpp"
#include "mbdyn-like/phases/simulation.hpp"
#include "support/run_program.hpp"

using namespace mbl;

namespace {

/// N links of 0.1 m, 1 kg, hinged end to end, released horizontally under gravity.
std::string chain(int n, const std::string& threads) {
  std::string d = fmt::format(R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 0.02; time step: 1e-3; method: ms, 0.6;
  tolerance: 1e-6; max iterations: 20; derivatives tolerance: 1e38; linear solver: klu; {}
end: initial value;
begin: control data; structural nodes: {}; rigid bodies: {}; joints: {}; gravity; end: control data;
begin: nodes; structural: 0, static, null, eye, null, null;
)", threads, n + 1, n, n + 1);
  for (int i = 1; i <= n; ++i) d += fmt::format("structural: {}, dynamic, {:.17g}, 0., 0., eye, null, null;\n", i, (i - 0.5) * 0.1);
  d += "end: nodes;\nbegin: elements; gravity: uniform, 0., 0., -1., const, 9.81; joint: 0, clamp, 0, node, node;\n";
  for (int i = 1; i <= n; ++i)
    d += fmt::format("joint: {}, spherical hinge, {}, position, {}, {}, position, -0.05, 0., 0.;\n", i, i - 1,
                     i == 1 ? "null" : "0.05, 0., 0.", i);
  for (int i = 1; i <= n; ++i) d += fmt::format("body: {}, {}, 1., null, diag, 1e-4, {:.17g}, {:.17g};\n", i, i, 1.0 / 1200, 1.0 / 1200);
  return d + "end: elements;\n";
}

/// Runs the deck in this process (outputs under dir/run); the threads its last Jacobian took.
int run_chain(const std::filesystem::path& dir, const std::string& deck) {
  BuildResult built = read_deck_text("chain", deck);
  output::OutputConfig oc;
  oc.prefix = (dir / "run").string();
  oc.text = true;
  ModelOutput out(oc);
  std::ostringstream log;
  const RunReport r = run_simulation(*built.model, built.settings, out, log);
  EXPECT_EQ(r.status, RunStatus::Completed) << r.message;
  return built.model->last_jacobian_lanes();
}

}  // namespace

TEST(ParallelAssembly, SameBytesAsSerial) {
  const int n = 700;  // 2102 nodes and elements: two lanes
  const auto serial_dir = test::fresh_temp_dir("parallel_assembly_serial");
  const auto parallel_dir = test::fresh_temp_dir("parallel_assembly_two");
  const auto three_dir = test::fresh_temp_dir("parallel_assembly_three");
  EXPECT_EQ(run_chain(serial_dir, chain(n, "threads: disable;")), 1);
  EXPECT_EQ(run_chain(parallel_dir, chain(n, "threads: 2;")), 2);
  // Asked for 3 threads, the model is worth 2 (about a thousand contributors a thread).
  EXPECT_EQ(run_chain(three_dir, chain(n, "threads: assembly, 3;")), 2);
  for (const char* ext : {"out", "mov"}) {
    const std::string serial = test::read_file(serial_dir / fmt::format("run.{}", ext));
    EXPECT_FALSE(serial.empty()) << ext;
    EXPECT_EQ(test::read_file(parallel_dir / fmt::format("run.{}", ext)), serial) << ext;
    EXPECT_EQ(test::read_file(three_dir / fmt::format("run.{}", ext)), serial) << ext;
  }
}

TEST(ParallelAssembly, SmallModelsStaySerial) {
  const auto dir = test::fresh_temp_dir("parallel_assembly_small");
  EXPECT_EQ(run_chain(dir, chain(20, "threads: 2;")), 1);
}

// Issue #30: every number of assembly threads writes the bytes of `threads: disable` — one,
// two and three lanes really used (three need about three thousand nodes and elements).
TEST(ParallelAssembly, OneTwoAndThreeThreadsWriteTheSameBytes) {
  const int n = 1000;  // 3002 nodes and elements
  const std::pair<const char*, int> runs[] = {
      {"threads: disable;", 1}, {"threads: 1;", 1}, {"threads: 2;", 2}, {"threads: assembly, 3;", 3}};
  std::vector<std::filesystem::path> dirs;
  for (const auto& [card, lanes] : runs) {
    dirs.push_back(test::fresh_temp_dir(fmt::format("parallel_assembly_lanes_{}", dirs.size())));
    EXPECT_EQ(run_chain(dirs.back(), chain(n, card)), lanes) << card;
  }
  for (const char* ext : {"out", "mov", "jnt"}) {
    const std::string serial = test::read_file(dirs[0] / fmt::format("run.{}", ext));
    EXPECT_FALSE(serial.empty()) << ext;
    for (std::size_t k = 1; k < dirs.size(); ++k)
      EXPECT_TRUE(test::read_file(dirs[k] / fmt::format("run.{}", ext)) == serial) << runs[k].first << " ." << ext;
  }
}

// How a run that fails at its first evaluation, or is stopped inside a step that never ends, leaves
// its outputs (issue #30): every file of the run whole up to the last converged point, nothing of
// an earlier run with the same prefix mixed in, and a message that says where it stopped. Also
// `-s` prints nothing but errors.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/run_program.hpp"

namespace fs = std::filesystem;
using mbl::test::fresh_temp_dir;
using mbl::test::quoted;
using mbl::test::read_file;

namespace {

/// A pendulum (node 1 on a revolute pin, NetCDF output too) with `extra` cards before the
/// elements block and a couple on node 1 driven by `couple_drive`.
std::string pendulum(const std::string& couple_drive, const std::string& extra = "",
                     const std::string& final_time = "1.") {
  return R"(
begin: data; problem: initial value; end: data;
begin: initial value;
  initial time: 0.; final time: )" + final_time + R"(; time step: 1.e-3;
  method: ms, 0.6; tolerance: 1.e-9; max iterations: 20;
end: initial value;
begin: control data;
  structural nodes: 1; rigid bodies: 1; joints: 1; forces: 1; gravity;
  output results: netcdf;
end: control data;
begin: nodes;
  structural: 1, dynamic, 1., 0., 0., eye, null, null;
end: nodes;
)" + extra + R"(
begin: elements;
  body: 1, 1, 1., null, diag, 1.e-6, 1.e-6, 1.e-6;
  joint: 1, revolute pin, 1, -1., 0., 0., hinge, 1, 1., 0., 0., 3, 0., 1., 0., null,
    hinge, 1, 1., 0., 0., 3, 0., 1., 0.;
  couple: 2, absolute, 1, 0., 1., 0., )" + couple_drive + R"(;
  gravity: uniform, 0., 0., -1., const, 9.81;
end: elements;
)";
}

std::vector<std::string> lines_of(const fs::path& p) {
  std::ifstream f(p);
  std::vector<std::string> lines;
  for (std::string l; std::getline(f, l);) lines.push_back(l);
  return lines;
}

std::size_t fields(const std::string& line) {
  std::istringstream s(line);
  std::size_t n = 0;
  for (std::string w; s >> w;) ++n;
  return n;
}

/// Lines of the .out that start with "Step ".
std::size_t step_lines(const fs::path& out) {
  std::size_t n = 0;
  for (const std::string& l : lines_of(out)) n += l.rfind("Step ", 0) == 0;
  return n;
}

int run_logged(const std::string& args, const fs::path& log) {
  return mbl::test::run(quoted(MBL_BINARY) + " " + args, log);
}

/// Files of an earlier run with the prefix `run`: they must not survive a run with that prefix.
void plant_stale_outputs(const fs::path& dir) {
  for (const char* ext : {".mov", ".frc", ".jnt", ".out", ".act"}) std::ofstream(dir / (std::string("run") + ext)) << "stale\n";
}

void expect_no_stale_output(const fs::path& dir) {
  for (const char* ext : {".mov", ".frc", ".jnt", ".out", ".act"}) {
    const fs::path p = dir / (std::string("run") + ext);
    if (fs::exists(p)) EXPECT_EQ(read_file(p).find("stale"), std::string::npos) << p;
  }
}

}  // namespace

// A string drive that fails at t = 0 (before any step): exit 3, the phase's name and time as the
// prefix, the initial configuration in every output file, nothing of the earlier run.
TEST(RunFailures, AStringDriveFailingAtTheStartLeavesTheInitialConfiguration) {
  const fs::path dir = fresh_temp_dir("stop_first_eval");
  std::ofstream(dir / "deck.mbd") << pendulum(R"D(string, "sqrt(Time - 1.)")D");
  plant_stale_outputs(dir);
  const int rc = run_logged("-f " + quoted(dir / "deck.mbd") + " -o " + quoted(dir / "run"), dir / "log");
  const std::string log = read_file(dir / "log");
  EXPECT_EQ(rc, 3) << log;
  EXPECT_NE(log.find("mbdyn-like: error: derivatives phase at time 0: "), std::string::npos) << log;
  EXPECT_NE(log.find("sqrt(): expected a non-negative argument"), std::string::npos) << log;
  // The initial configuration: one whole .mov line for node 1 at x = 1, one .jnt line.
  const std::vector<std::string> mov = lines_of(dir / "run.mov");
  ASSERT_EQ(mov.size(), 1u) << read_file(dir / "run.mov");
  EXPECT_EQ(fields(mov[0]), 13u) << mov[0];
  EXPECT_EQ(mov[0].rfind("       1 1.000000e+00 0.000000e+00 0.000000e+00", 0), 0u) << mov[0];
  EXPECT_EQ(lines_of(dir / "run.jnt").size(), 1u);
  EXPECT_TRUE(fs::exists(dir / "run.out"));
  EXPECT_EQ(step_lines(dir / "run.out"), 0u);
  expect_no_stale_output(dir);
  EXPECT_EQ(mbl::test::run("ncdump -h " + quoted(dir / "run.nc"), dir / "ncdump.log"), 0) << read_file(dir / "ncdump.log");
  EXPECT_NE(read_file(dir / "ncdump.log").find("(1 currently)"), std::string::npos) << read_file(dir / "ncdump.log");
}

// A Lua drive that errors at t = 0: the same, through the Lua engine's EvaluationError.
TEST(RunFailures, ALuaDriveFailingAtTheStartLeavesTheInitialConfiguration) {
  const fs::path dir = fresh_temp_dir("stop_first_lua");
  std::ofstream(dir / "deck.mbd") << pendulum(R"D(lua, "error('no torque table')")D");
  plant_stale_outputs(dir);
  const int rc = run_logged("-f " + quoted(dir / "deck.mbd") + " -o " + quoted(dir / "run"), dir / "log");
  const std::string log = read_file(dir / "log");
  EXPECT_EQ(rc, 3) << log;
  EXPECT_NE(log.find("mbdyn-like: error: derivatives phase at time 0: "), std::string::npos) << log;
  EXPECT_NE(log.find("no torque table"), std::string::npos) << log;
  EXPECT_EQ(lines_of(dir / "run.mov").size(), 1u) << read_file(dir / "run.mov");
  expect_no_stale_output(dir);
}

// A failure in the first step after a complete initial output keeps the step-0 records only and
// says "step 1 at time ...".
TEST(RunFailures, AFailureInStepOneKeepsStepZero) {
  const fs::path dir = fresh_temp_dir("stop_step_one");
  std::ofstream(dir / "deck.mbd") << pendulum(R"D(string, "sqrt(0.0005 - Time)")D");
  plant_stale_outputs(dir);
  const int rc = run_logged("-f " + quoted(dir / "deck.mbd") + " -o " + quoted(dir / "run"), dir / "log");
  const std::string log = read_file(dir / "log");
  EXPECT_EQ(rc, 3) << log;
  EXPECT_NE(log.find("mbdyn-like: error: step 1 at time 0.001: "), std::string::npos) << log;
  EXPECT_EQ(lines_of(dir / "run.mov").size(), 1u);
  EXPECT_EQ(step_lines(dir / "run.out"), 1u) << read_file(dir / "run.out");
  expect_no_stale_output(dir);
}

// -s: nothing but errors, even where the run assembles and warns.
TEST(RunFailures, SilentRunsPrintNothing) {
  const fs::path dir = fresh_temp_dir("stop_silent");
  std::ofstream(dir / "deck.mbd") << pendulum("const, 0.", "remark: \"a remark\", 1;\n", "0.01");
  for (const char* flag : {"-s", "-q"}) {
    const int rc = run_logged(std::string(flag) + " -f " + quoted(dir / "deck.mbd") + " -o " + quoted(dir / "run"),
                              dir / "log");
    EXPECT_EQ(rc, 0);
    EXPECT_EQ(read_file(dir / "log"), "") << flag;
  }
  // Without it the assembly line and the remark are there.
  EXPECT_EQ(run_logged("-f " + quoted(dir / "deck.mbd") + " -o " + quoted(dir / "run"), dir / "log"), 0);
  EXPECT_NE(read_file(dir / "log").find("Initial assembly performed successfully"), std::string::npos) << read_file(dir / "log");
  EXPECT_NE(read_file(dir / "log").find("a remark"), std::string::npos) << read_file(dir / "log");
}

namespace {

/// The pendulum with a before_step hook that, from t > 0.0045 (step 5), marks the file `stuck`
/// and then runs a pattern match that backtracks for ever inside Lua's C library: no Lua
/// instruction runs, so neither budget can stop it.
std::string stuck_pendulum(const fs::path& mark) {
  return pendulum("const, 0.", R"D(module load: "lua", chunk, "
mbdyn.on('before_step', function(t)
  if t > 0.0045 then
    io.open(')D" + mark.string() + R"D(', 'w'):close()
    string.find(string.rep('a', 300), '.-.-.-.-.-.-.-.-.-.-.-.-b')
  end
end)";
)D", "forever");
}

struct Stopped {
  int exit_code = -1;
  std::string log;
};

/// Starts the stuck pendulum, waits until it is stuck, sends `signals` (0.3 s apart) and waits
/// for the end (at most 60 s).
Stopped stop_stuck_run(const fs::path& dir, int signal, int signals) {
  std::ofstream(dir / "deck.mbd") << stuck_pendulum(dir / "stuck");
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::creat((dir / "log").c_str(), 0644);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    ::execl(MBL_BINARY, MBL_BINARY, "--lua-unsafe", "-f", (dir / "deck.mbd").c_str(), "-o", (dir / "run").c_str(),
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  for (int i = 0; i < 6000 && !fs::exists(dir / "stuck"); ++i) ::usleep(10000);
  EXPECT_TRUE(fs::exists(dir / "stuck"));
  ::usleep(100000);
  for (int k = 0; k < signals; ++k) {
    ::kill(pid, signal);
    ::usleep(300000);
  }
  int status = 0;
  pid_t done = 0;
  for (int i = 0; i < 600 && (done = ::waitpid(pid, &status, WNOHANG)) == 0; ++i) ::usleep(100000);
  if (done == 0) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    ADD_FAILURE() << "the run did not stop";
  }
  Stopped s;
  s.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  s.log = read_file(dir / "log");
  return s;
}

/// The outputs of the stuck run: steps 0 to 4 converged, every line whole, NetCDF closed.
void expect_outputs_up_to_step_4(const fs::path& dir) {
  const std::string mov = read_file(dir / "run.mov");
  ASSERT_FALSE(mov.empty());
  EXPECT_EQ(mov.back(), '\n');
  const std::vector<std::string> lines = lines_of(dir / "run.mov");
  EXPECT_EQ(lines.size(), 5u) << mov;
  for (const std::string& l : lines) EXPECT_EQ(fields(l), 13u) << l;
  EXPECT_EQ(step_lines(dir / "run.out"), 5u) << read_file(dir / "run.out");
  EXPECT_EQ(read_file(dir / "run.out").back(), '\n');
  EXPECT_EQ(mbl::test::run("ncdump -h " + quoted(dir / "run.nc"), dir / "ncdump.log"), 0) << read_file(dir / "ncdump.log");
  EXPECT_NE(read_file(dir / "ncdump.log").find("(5 currently)"), std::string::npos) << read_file(dir / "ncdump.log");
}

}  // namespace

// A second SIGTERM stops the run inside the step stuck in a C library call.
TEST(RunStops, ASecondSignalStopsInsideAStuckStepWithWholeOutputs) {
  const fs::path dir = fresh_temp_dir("stop_second_signal");
  const Stopped s = stop_stuck_run(dir, SIGTERM, 2);
  EXPECT_EQ(s.exit_code, 143) << s.log;
  EXPECT_NE(s.log.find("mbdyn-like: stopped inside a step by SIGTERM (a second signal); outputs are complete up to "
                       "time 0.004 (step 4)"),
            std::string::npos)
      << s.log;
  expect_outputs_up_to_step_4(dir);
}

// One SIGINT that the step does not answer within the grace time stops it the same way.
TEST(RunStops, OneSignalUnansweredWithinTheGraceTimeStopsInsideTheStep) {
  const fs::path dir = fresh_temp_dir("stop_grace");
  const Stopped s = stop_stuck_run(dir, SIGINT, 1);
  EXPECT_EQ(s.exit_code, 130) << s.log;
  EXPECT_NE(s.log.find("mbdyn-like: stopped inside a step by SIGINT (no end of the step within 5 s); outputs are "
                       "complete up to time 0.004 (step 4)"),
            std::string::npos)
      << s.log;
  expect_outputs_up_to_step_4(dir);
}

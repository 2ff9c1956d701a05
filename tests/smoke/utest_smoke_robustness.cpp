// The program under interruption and with unsafe output names (issue #18): SIGINT/SIGTERM end
// the run with its outputs complete (exit 130/143 and a line saying where it stopped); an output
// prefix that would overwrite the deck, or that cannot be written, fails before solving.
#include <gtest/gtest.h>

#include <fcntl.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/support/run_program.hpp"

namespace fs = std::filesystem;
using mbl::test::fresh_temp_dir;
using mbl::test::read_file;

namespace {

// A pendulum that never ends (`final time: forever`), with NetCDF output.
const char* kEndlessPendulum = R"(
begin: data; problem: initial value; end: data;
begin: initial value;
  initial time: 0.; final time: forever; time step: 1.e-3;
  method: ms, 0.6; tolerance: 1.e-9; max iterations: 20;
end: initial value;
begin: control data;
  structural nodes: 1; rigid bodies: 1; joints: 1; gravity;
  output results: netcdf;
end: control data;
begin: nodes;
  structural: 1, dynamic, 1., 0., 0., eye, null, null;
end: nodes;
begin: elements;
  body: 1, 1, 1., null, diag, 1.e-6, 1.e-6, 1.e-6;
  joint: 1, revolute pin, 1, -1., 0., 0., hinge, 1, 1., 0., 0., 3, 0., 1., 0., null,
    hinge, 1, 1., 0., 0., 3, 0., 1., 0.;
  gravity: uniform, 0., 0., -1., const, 9.81;
end: elements;
)";

/// Starts the program on `deck`, waits until it has written some steps, sends `signal`, and
/// returns its exit code; its messages go to `log`.
int interrupt_run(const fs::path& deck, const fs::path& prefix, const fs::path& log, int signal) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::creat(log.c_str(), 0644);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    ::execl(MBL_BINARY, MBL_BINARY, "-f", deck.c_str(), "-o", prefix.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  // Wait for output (the .mov grows step by step), without a fixed sleep.
  const fs::path mov = prefix.string() + ".mov";
  for (int i = 0; i < 6000; ++i) {
    std::error_code ec;
    if (fs::exists(mov, ec) && fs::file_size(mov, ec) > 100000) break;
    ::usleep(10000);
  }
  ::kill(pid, signal);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

void expect_clean_interruption(int signal, int exit_code, const std::string& name) {
  const fs::path dir = fresh_temp_dir("robust_" + name);
  std::ofstream(dir / "deck.mbd") << kEndlessPendulum;
  const int rc = interrupt_run(dir / "deck.mbd", dir / "run", dir / "log", signal);
  const std::string log = read_file(dir / "log");
  EXPECT_EQ(rc, exit_code) << log;
  EXPECT_NE(log.find("interrupted after step"), std::string::npos) << log;
  EXPECT_NE(log.find(" by " + name), std::string::npos) << log;
  // The NetCDF file is closed and readable.
  EXPECT_EQ(mbl::test::run("ncdump -h " + mbl::test::quoted(dir / "run.nc"), dir / "ncdump.log"), 0)
      << read_file(dir / "ncdump.log");
  fs::remove_all(dir);
}

}  // namespace

TEST(Robustness, SigintEndsTheRunWithOutputsComplete) { expect_clean_interruption(SIGINT, 130, "SIGINT"); }

TEST(Robustness, SigtermEndsTheRunWithOutputsComplete) { expect_clean_interruption(SIGTERM, 143, "SIGTERM"); }

TEST(Robustness, OutputNeverOverwritesTheDeck) {
  const fs::path dir = fresh_temp_dir("robust_overwrite");
  // A deck named like one of the outputs of the prefix `run`.
  std::ofstream(dir / "run.mov") << kEndlessPendulum;
  const int rc = mbl::test::run(mbl::test::quoted(MBL_BINARY) + " -f " + mbl::test::quoted(dir / "run.mov") + " -o " +
                                    mbl::test::quoted(dir / "run"),
                                dir / "log");
  EXPECT_EQ(rc, 2);
  EXPECT_NE(read_file(dir / "log").find("would overwrite the input deck"), std::string::npos) << read_file(dir / "log");
  EXPECT_EQ(read_file(dir / "run.mov"), kEndlessPendulum);
  fs::remove_all(dir);
}

TEST(Robustness, UnwritableOutputsFailBeforeSolving) {
  const fs::path dir = fresh_temp_dir("robust_unwritable");
  std::ofstream(dir / "deck.mbd") << kEndlessPendulum;  // would never end if it started solving
  std::ofstream(dir / "a_file") << "not a folder\n";
  const int rc = mbl::test::run(mbl::test::quoted(MBL_BINARY) + " -f " + mbl::test::quoted(dir / "deck.mbd") + " -o " +
                                    mbl::test::quoted(dir / "a_file" / "run"),
                                dir / "log");
  EXPECT_EQ(rc, 2) << read_file(dir / "log");
  EXPECT_NE(read_file(dir / "log").find("cannot create"), std::string::npos) << read_file(dir / "log");
  fs::remove_all(dir);
}

TEST(Robustness, RunsAreBitwiseRepeatable) {
  const fs::path dir = fresh_temp_dir("robust_repeat");
  std::string deck = kEndlessPendulum;
  deck.replace(deck.find("final time: forever"), 19, "final time: 0.2");
  std::ofstream(dir / "deck.mbd") << deck;
  for (const char* run : {"a", "b"})
    ASSERT_EQ(mbl::test::run_deck(dir / "deck.mbd", dir / run, dir / (std::string(run) + ".log")), 0)
        << read_file(dir / (std::string(run) + ".log"));
  for (const char* ext : {".mov", ".out", ".jnt"}) {
    const std::string a = read_file(dir / (std::string("a") + ext)), b = read_file(dir / (std::string("b") + ext));
    EXPECT_FALSE(a.empty()) << ext;
    EXPECT_EQ(a, b) << ext;
  }
  fs::remove_all(dir);
}

#pragma once
// Helpers for tests that run the whole program (MBL_BINARY) on a deck and read its outputs.
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

namespace mbl::test {

/// Removes, when the test process ends with every test passed, the folders registered with it
/// (a failed test keeps its outputs for inspection). The suite runs thousands of processes: kept
/// folders (up to 300 MB each) filled the disk.
inline void remove_at_exit_if_passed(const std::filesystem::path& dir) {
  static std::vector<std::filesystem::path> folders;
  static const bool registered = [] {
    // Registered after GoogleTest's UnitTest exists, so this runs before it is destroyed.
    (void)::testing::UnitTest::GetInstance();
    std::atexit([] {
      if (!::testing::UnitTest::GetInstance()->Passed()) return;
      std::error_code ec;
      for (const auto& d : folders) std::filesystem::remove_all(d, ec);
    });
    return true;
  }();
  (void)registered;
  folders.push_back(dir);
}

/// A fresh temporary folder for one test process: CTest runs test cases in parallel processes
/// (and other builds of the suite may run the same case), so every folder carries the pid.
inline std::filesystem::path fresh_temp_dir(const std::string& name) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("mbl_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  remove_at_exit_if_passed(dir);
  return dir;
}

/// `s` as a GoogleTest name: every character that is not a letter or a digit becomes '_'.
inline std::string test_identifier(std::string s) {
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return s;
}

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

/// Runs a shell command, returns its exit code; stdout and stderr go to `log`.
inline int run(const std::string& cmd, const std::filesystem::path& log) {
  const int rc = std::system((cmd + " > '" + log.string() + "' 2>&1").c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/// `p` single-quoted for the shell.
inline std::string quoted(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

#ifdef MBL_BINARY
/// Runs `deck` with the program (`-f deck -o out`), returns its exit code (3: a step failed).
/// Not silent: tests read the notes (`info:` retries, a peer's stop) that -s withholds.
inline int run_deck(const std::filesystem::path& deck, const std::filesystem::path& out,
                    const std::filesystem::path& log) {
  return run(quoted(MBL_BINARY) + " -f " + quoted(deck) + " -o " + quoted(out), log);
}

/// `v` as the shortest decimal text (std::to_string would print 1e-8 as 0.000000).
inline std::string number_text(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

/// A deck written from text and run in a fresh temporary folder: outputs dir / "run.*", the
/// program's messages in dir / "log".
struct TextDeckRun {
  std::filesystem::path dir;
  int rc = -1;  ///< exit code of the program
  std::string log() const { return read_file(dir / "log"); }
  std::filesystem::path output(const std::string& extension) const { return dir / ("run." + extension); }
};

/// Writes `deck` as dir / "deck" in fresh_temp_dir(name) and runs it (run_deck).
inline TextDeckRun run_deck_text(const std::string& name, const std::string& deck) {
  TextDeckRun r{fresh_temp_dir(name)};
  std::ofstream(r.dir / "deck") << deck;
  r.rc = run_deck(r.dir / "deck", r.dir / "run", r.dir / "log");
  return r;
}

/// Our `compare` command on two output sets (NetCDF files or prefixes); 0 when they agree.
inline int compare_outputs(const std::filesystem::path& ours, const std::filesystem::path& ref,
                           const std::string& vars, const std::string& norm, double tol,
                           const std::filesystem::path& log, double floor = 0.0) {
  return run(quoted(MBL_BINARY) + " compare " + quoted(ours) + " " + quoted(ref) + " --vars '" +
                 vars + "' --norm " + norm + " --tol " + number_text(tol) +
                 (floor > 0.0 ? " --floor " + number_text(floor) : std::string()),
             log);
}
#endif

/// What the "Step" lines of a .out file say (step 0, the derivatives phase, left out).
struct OutSteps {
  long last_step = 0;  ///< number of the last converged step
  long steps = 0;      ///< regular steps listed
  /// Average of the NIter column (MBDyn sums it over the stages of a multi-stage method).
  double iterations_per_step = 0.0;
};

inline OutSteps read_out_steps(const std::filesystem::path& out) {
  std::istringstream in(read_file(out));
  OutSteps s;
  double sum = 0.0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("Step ", 0) != 0) continue;
    std::istringstream ls(line.substr(5));
    long step = 0;
    double t = 0.0, dt = 0.0, iters = 0.0;
    ls >> step >> t >> dt >> iters;
    if (step == 0) continue;
    s.last_step = step;
    sum += iters;
    ++s.steps;
  }
  if (s.steps) s.iterations_per_step = sum / s.steps;
  return s;
}

/// The records of `label` in a text output file (.mov, .jnt, ...), each as the numbers after the
/// label, in file order.
inline std::vector<std::vector<double>> records(const std::filesystem::path& path, unsigned label) {
  std::ifstream f(path);
  std::vector<std::vector<double>> out;
  std::string line;
  while (std::getline(f, line)) {
    std::istringstream is(line);
    double l;
    if (!(is >> l) || l != label) continue;
    std::vector<double> row;
    for (double v; is >> v;) row.push_back(v);
    out.push_back(std::move(row));
  }
  return out;
}

/// Numbers of the last line of a text output (.mov, .jnt, .abs, ...) whose first field is
/// `label`, without the label; empty when there is none.
inline std::vector<double> last_record(const std::filesystem::path& path, unsigned label) {
  std::vector<std::vector<double>> all = records(path, label);
  return all.empty() ? std::vector<double>{} : std::move(all.back());
}

}  // namespace mbl::test

#pragma once
// Helpers for tests that run the whole program (MBL_BINARY) on a deck and read its outputs.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <sys/wait.h>

namespace mbl::test {

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

}  // namespace mbl::test

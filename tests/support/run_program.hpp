#pragma once
// Helpers for tests that run the whole program (MBL_BINARY) on a deck and read its outputs.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
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

}  // namespace mbl::test

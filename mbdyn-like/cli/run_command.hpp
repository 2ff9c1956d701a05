#pragma once
#include <string>
#include <vector>

namespace mbl::cli {

struct RunOptions {
  std::string deck;
  std::string output_prefix;
  bool check_only = false;
  bool quiet = false;
  std::vector<std::string> defines;  ///< -D name[:type]=value
  std::vector<std::string> metrics;  ///< --metric name=max|min|final|rms(<expression>)
  std::string metrics_file;          ///< where the metrics go ("name value" lines); default stdout
};

std::string version_string();
/// Reads and runs (or checks) a deck; returns the process exit code.
int run_command(const RunOptions& opt);
int compare_command(int argc, char** argv);
int plot_command(int argc, char** argv);

}  // namespace mbl::cli

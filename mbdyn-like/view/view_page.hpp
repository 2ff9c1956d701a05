#pragma once
// `mbdyn-like view RUN`: one self-contained HTML page that animates a run (docs/viewer.md). The
// model comes from RUN.log (model_log.hpp), the motion from RUN.mov or RUN.nc (output/results.hpp),
// the modes of an eigenanalysis from RUN_<k>.m; three.js (Debian's libjs-three) and the page's
// own script and style are embedded in the program at build time.
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>

namespace mbl::view {

class ViewError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ViewOptions {
  std::string run;                 ///< output prefix, or one of its files (.mov, .nc, .log, ...)
  std::string output;              ///< default <prefix>.html
  long every = 0;                  ///< keep every N-th record; 0: as many as fit in max_bytes
  std::optional<double> from, to;  ///< time window
  std::size_t max_bytes = 10'000'000;
};

struct ViewSummary {
  std::string output;
  std::size_t nodes = 0, records = 0, every = 1, modes = 0, bytes = 0, plot_variables = 0;
};

/// Writes the page; throws ViewError (or output::ResultsError) when the run cannot be read.
ViewSummary write_view(const ViewOptions& options);

/// `mbdyn-like view` arguments -> exit code (0 ok, 2 bad arguments or unreadable run).
int run_view_cli(int argc, char** argv);

}  // namespace mbl::view

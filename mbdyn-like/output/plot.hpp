#pragma once
// `mbdyn-like plot RUN VAR... -o fig.svg [--with OTHER]...`: time histories of result variables
// (NetCDF or text output, names as in compare) drawn as an SVG line plot. VAR is a variable name
// or pattern (node.struct.2.X, node.struct.*.X) with an optional 1-based component (node.struct.2.X[3]).
#include <string>
#include <vector>

#include "mbdyn-like/output/results.hpp"

namespace mbl::output {

struct PlotCurve {
  std::string label;
  std::vector<double> t, y;
};

/// Curves of `spec` (name or pattern, optional "[k]") in `r`, labelled with `tag` when not empty.
/// Throws ResultsError when nothing matches.
std::vector<PlotCurve> select_curves(const Results& r, const std::string& spec,
                                     const std::string& tag);
/// A complete SVG document with the curves, axes with ticks, a legend and `title`.
std::string render_svg(const std::vector<PlotCurve>& curves, const std::string& title,
                       const std::string& x_label = "time");

/// The CLI; argv[0] is "plot". Returns 0 on success, 2 on bad input.
int run_plot_cli(int argc, char** argv);

}  // namespace mbl::output

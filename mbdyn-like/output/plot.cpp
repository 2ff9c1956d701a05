#include "mbdyn-like/output/plot.hpp"

#include <fmt/format.h>

#include "mbdyn-like/output/cli_parse.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <limits>

namespace mbl::output {

std::vector<PlotCurve> select_curves(const Results& r, const std::string& spec,
                                     const std::string& tag) {
  std::string pattern = spec;
  int component = -1;  // all
  if (auto open = spec.rfind('['); open != std::string::npos && spec.back() == ']') {
    pattern = spec.substr(0, open);
    const std::string idx = spec.substr(open + 1, spec.size() - open - 2);
    char* end = nullptr;
    const long k = std::strtol(idx.c_str(), &end, 10);
    if (idx.empty() || *end != '\0' || k < 1)
      throw ResultsError(fmt::format("{}: the component must be a number from 1, as in X[2]", spec));
    component = int(k - 1);
  }
  std::vector<PlotCurve> curves;
  for (const auto& [name, s] : r.vars) {
    if (!glob_match(pattern, name)) continue;
    if (component >= s.ncomp)
      throw ResultsError(fmt::format("{} has {} component(s), asked for [{}]", name, s.ncomp,
                                     component + 1));
    const int c0 = component < 0 ? 0 : component;
    const int c1 = component < 0 ? s.ncomp : component + 1;
    for (int c = c0; c < c1; ++c) {
      PlotCurve pc;
      pc.label = s.ncomp > 1 ? fmt::format("{}[{}]", name, c + 1) : name;
      if (!tag.empty()) pc.label += " (" + tag + ")";
      for (std::size_t t = 0; t < s.times() && t < r.time.size(); ++t) {
        if (!s.has(t)) continue;
        pc.t.push_back(r.time[t]);
        pc.y.push_back(s.at(t, c));
      }
      curves.push_back(std::move(pc));
    }
  }
  if (curves.empty()) throw ResultsError(fmt::format("{}: no variable '{}'", r.source, pattern));
  return curves;
}

namespace {

/// About n "nice" tick values (1, 2, 5 x 10^k steps) covering [lo, hi].
std::vector<double> nice_ticks(double lo, double hi, int n) {
  const double span = hi - lo;
  const double raw = span / std::max(n, 1);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  std::vector<double> ticks;
  for (double v = std::ceil(lo / step) * step; v <= hi + 1e-9 * step; v += step)
    ticks.push_back(std::abs(v) < 1e-12 * step ? 0.0 : v);
  return ticks;
}

std::string xml_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string render_svg(const std::vector<PlotCurve>& curves, const std::string& title,
                       const std::string& x_label) {
  constexpr double W = 900, H = 560, left = 90, right = 30, top = 50, bottom = 60;
  const double pw = W - left - right;
  const double legend_h = 18.0 * double(curves.size());
  const double ph = H - top - bottom;
  double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
  for (const auto& c : curves)
    for (std::size_t i = 0; i < c.t.size(); ++i) {
      if (!std::isfinite(c.t[i]) || !std::isfinite(c.y[i])) continue;
      x0 = std::min(x0, c.t[i]);
      x1 = std::max(x1, c.t[i]);
      y0 = std::min(y0, c.y[i]);
      y1 = std::max(y1, c.y[i]);
    }
  if (!(x0 <= x1)) x0 = 0, x1 = 1, y0 = 0, y1 = 1;
  if (x1 - x0 <= 0) x0 -= 0.5, x1 += 0.5;
  if (y1 - y0 <= 1e-12 * std::max(std::abs(y0), std::abs(y1))) {
    const double d = std::max(std::abs(y0) * 0.1, 1e-12);
    y0 -= d;
    y1 += d;
  } else {
    const double pad = 0.05 * (y1 - y0);
    y0 -= pad;
    y1 += pad;
  }
  auto X = [&](double t) { return left + (t - x0) / (x1 - x0) * pw; };
  auto Y = [&](double y) { return top + (y1 - y) / (y1 - y0) * ph; };

  static constexpr const char* colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                           "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  std::string s = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{2}\" y=\"28\" text-anchor=\"middle\" font-size=\"15\">{3}</text>\n",
      W, H + legend_h, left + pw / 2, xml_escape(title));
  // grid and ticks
  for (double v : nice_ticks(x0, x1, 8)) {
    s += fmt::format(
        "<line x1=\"{0:.2f}\" y1=\"{1}\" x2=\"{0:.2f}\" y2=\"{2}\" stroke=\"#e0e0e0\"/>\n"
        "<text x=\"{0:.2f}\" y=\"{3}\" text-anchor=\"middle\">{4:g}</text>\n",
        X(v), top, top + ph, top + ph + 16, v);
  }
  for (double v : nice_ticks(y0, y1, 6)) {
    s += fmt::format(
        "<line x1=\"{0}\" y1=\"{1:.2f}\" x2=\"{2}\" y2=\"{1:.2f}\" stroke=\"#e0e0e0\"/>\n"
        "<text x=\"{3}\" y=\"{4:.2f}\" text-anchor=\"end\">{5:.4g}</text>\n",
        left, Y(v), left + pw, left - 6, Y(v) + 4, v);
  }
  s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" "
                   "stroke=\"black\"/>\n",
                   left, top, pw, ph);
  s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", left + pw / 2,
                   top + ph + 40, xml_escape(x_label));
  // curves (a gap where a value is missing or not finite)
  for (std::size_t k = 0; k < curves.size(); ++k) {
    const auto& c = curves[k];
    const char* color = colors[k % std::size(colors)];
    std::string d;
    bool pen = false;
    for (std::size_t i = 0; i < c.t.size(); ++i) {
      if (!std::isfinite(c.y[i]) || !std::isfinite(c.t[i])) {
        pen = false;
        continue;
      }
      d += fmt::format("{}{:.2f},{:.2f} ", pen ? "L" : "M", X(c.t[i]), Y(c.y[i]));
      pen = true;
    }
    if (c.t.size() == 1 && !d.empty())  // a single point: show it
      s += fmt::format("<circle cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"3\" fill=\"{}\"/>\n", X(c.t[0]),
                       Y(c.y[0]), color);
    s += fmt::format("<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\"/>\n", d,
                     color);
    const double ly = H + 18.0 * double(k) - 4;
    s += fmt::format(
        "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"{3}\" "
        "stroke-width=\"2\"/>\n<text x=\"{4}\" y=\"{5:.1f}\">{6}</text>\n",
        left, ly, left + 30, color, left + 38, ly + 4, xml_escape(c.label));
  }
  s += "</svg>\n";
  return s;
}

int run_plot_cli(int argc, char** argv) {
  CLI::App app{"Plot result variables over time (NetCDF .nc or text output prefix) as SVG.",
               "mbdyn-like plot"};
  std::string run, output;
  std::vector<std::string> vars, others;
  std::string title;
  app.add_option("RUN", run, "results: a .nc file or a text output prefix")->required();
  app.add_option("VAR", vars,
                 "variables: names or patterns with *, optional 1-based component "
                 "(node.struct.2.X, node.struct.*.X[3])");
  app.add_option("-o,--output", output, "output figure (.svg)");
  bool list = false;
  app.add_flag("--list", list, "list the variables of RUN (name, components, records) and stop");
  app.add_option("--with", others, "other results to overlay (e.g. MBDyn's)");
  app.add_option("--title", title, "figure title (default: RUN)");
  std::string x_var;
  app.add_option("--x", x_var,
                 "a scalar variable of RUN as abscissa instead of time (e.g. param.K of a sweep's summary.nc)");
  if (auto status = parse_cli(app, argc, argv)) return *status;
  if (list) {
    try {
      const Results r = read_results(run);
      std::cout << fmt::format("{}: {} records, t = {:g} .. {:g}\n", run, r.records(),
                               r.time.empty() ? 0.0 : r.time.front(),
                               r.time.empty() ? 0.0 : r.time.back());
      for (const auto& [name, s] : r.vars)
        std::cout << fmt::format("{} [{}]{}\n", name, s.ncomp, s.units.empty() ? "" : " " + s.units);
      return 0;
    } catch (const std::exception& e) {
      std::cerr << "plot: error: " << e.what() << '\n';
      return 2;
    }
  }
  if (vars.empty() || output.empty()) {
    std::cerr << "plot: error: give the variables to plot and -o <figure.svg> (or --list)\n";
    return 2;
  }
  const auto dot = output.rfind('.');
  const std::string ext = dot == std::string::npos ? "" : output.substr(dot);
  if (ext != ".svg") {
    std::cerr << "plot: error: " << output
              << ": only SVG figures are written (give a name ending in .svg)\n";
    return 2;
  }
  try {
    std::vector<PlotCurve> curves;
    Results r = read_results(run);
    std::string x_label = r.time_is_index ? "record" : "time";
    if (!x_var.empty()) {
      // Plot against another variable: it takes the place of time, the points sorted along it.
      const auto it = r.vars.find(x_var);
      if (it == r.vars.end() || it->second.ncomp != 1)
        throw ResultsError(fmt::format("{}: no scalar variable '{}' for --x", run, x_var));
      for (std::size_t t = 0; t < r.time.size(); ++t) r.time[t] = it->second.has(t) ? it->second.at(t, 0) : NAN;
      x_label = x_var;
    }
    for (const auto& v : vars) {
      auto c = select_curves(r, v, others.empty() ? "" : run);
      curves.insert(curves.end(), c.begin(), c.end());
    }
    if (!x_var.empty())
      for (PlotCurve& c : curves) {
        std::vector<std::size_t> order(c.t.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return c.t[a] < c.t[b]; });
        PlotCurve sorted{c.label, {}, {}};
        for (std::size_t i : order) {
          sorted.t.push_back(c.t[i]);
          sorted.y.push_back(c.y[i]);
        }
        c = std::move(sorted);
      }
    for (const auto& o : others) {
      const Results ro = read_results(o);
      for (const auto& v : vars) {
        auto c = select_curves(ro, v, o);
        curves.insert(curves.end(), c.begin(), c.end());
      }
    }
    std::ofstream f(output);
    if (!f) {
      std::cerr << "plot: error: cannot write " << output << '\n';
      return 2;
    }
    f << render_svg(curves, title.empty() ? run : title, x_label);
    if (!f) {
      std::cerr << "plot: error: cannot write " << output << '\n';
      return 2;
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "plot: error: " << e.what() << '\n';
    return 2;
  }
}

}  // namespace mbl::output

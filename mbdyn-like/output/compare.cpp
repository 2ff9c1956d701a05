#include "mbdyn-like/output/compare.hpp"
#include "mbdyn-like/output/json_text.hpp"

#include <fmt/format.h>

#include "mbdyn-like/output/cli_parse.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>

namespace mbl::output {

bool CompareReport::all_within() const {
  if ((!covers_ref || !records_match()) && !partial_allowed) return false;
  return std::all_of(vars.begin(), vars.end(), [](const VariableError& v) { return v.within; });
}

double model_size(const Results& r) {
  double lo[3], hi[3];
  bool any = false;
  for (const auto& [name, s] : r.vars) {
    if (!glob_match("node.struct.*.X", name) || s.ncomp != 3) continue;
    for (std::size_t t = 0; t < s.times(); ++t)
      for (int c = 0; c < 3; ++c) {
        const double v = s.at(t, c);
        if (!std::isfinite(v)) continue;
        if (!any) {
          for (int k = 0; k < 3; ++k) lo[k] = hi[k] = s.at(t, k);
          any = true;
        }
        lo[c] = std::min(lo[c], v);
        hi[c] = std::max(hi[c], v);
      }
  }
  if (!any) return 0.0;
  return std::sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                   (hi[2] - lo[2]) * (hi[2] - lo[2]));
}

namespace {

/// Where each aligned time point falls in one result: value = (1-w) * rec[i] + w * rec[i+1].
struct Sample {
  std::size_t i = 0;
  double w = 0.0;
};

bool non_decreasing(const std::vector<double>& t) {
  for (std::size_t i = 1; i < t.size(); ++i)
    if (!(t[i] >= t[i - 1])) return false;
  return true;
}

/// Samples of `times` at `grid` (both sorted); exact matches within eps use the record itself.
std::vector<Sample> samples_at(const std::vector<double>& times, const std::vector<double>& grid,
                               double eps) {
  std::vector<Sample> out;
  out.reserve(grid.size());
  std::size_t j = 0;
  for (double t : grid) {
    while (j + 1 < times.size() && times[j + 1] <= t + eps) ++j;
    Sample s{j, 0.0};
    if (std::abs(times[j] - t) > eps && j + 1 < times.size()) {
      s.w = (t - times[j]) / (times[j + 1] - times[j]);
    }
    out.push_back(s);
  }
  return out;
}

/// Whether the records a sample uses were written (inactive driven elements skip records).
bool available(const Series& s, const Sample& p) {
  return s.has(p.i) && (p.w == 0.0 || s.has(p.i + 1));
}

double sample_value(const Series& s, const Sample& p, int c) {
  const double a = s.at(p.i, c);
  if (p.w == 0.0) return a;
  return (1.0 - p.w) * a + p.w * s.at(p.i + 1, c);
}

struct Alignment {
  std::vector<double> time;
  std::vector<Sample> run, ref;
};

Alignment align(const Results& run, const Results& ref) {
  Alignment a;
  if (run.records() == 0 || ref.records() == 0)
    throw ResultsError(fmt::format("nothing to compare: {} has no records",
                                   run.records() == 0 ? run.source : ref.source));
  if (run.time_is_index || ref.time_is_index || !non_decreasing(run.time) ||
      !non_decreasing(ref.time)) {
    // No usable time: compare record by record.
    const std::size_t n = std::min(run.records(), ref.records());
    for (std::size_t i = 0; i < n; ++i) {
      a.time.push_back(ref.time_is_index ? run.time[i] : ref.time[i]);
      a.run.push_back({i, 0.0});
      a.ref.push_back({i, 0.0});
    }
    return a;
  }
  const double span = std::max({std::abs(run.time.front()), std::abs(run.time.back()),
                                std::abs(ref.time.front()), std::abs(ref.time.back()), 1e-300});
  const double eps = 1e-9 * span;
  const double lo = std::max(run.time.front(), ref.time.front()) - eps;
  const double hi = std::min(run.time.back(), ref.time.back()) + eps;
  if (lo > hi)
    throw ResultsError(fmt::format("no common time: {} covers [{}, {}], {} covers [{}, {}]",
                                   run.source, run.time.front(), run.time.back(), ref.source,
                                   ref.time.front(), ref.time.back()));
  auto in_overlap = [&](const std::vector<double>& t) {
    std::vector<double> g;
    for (double x : t)
      if (x >= lo && x <= hi) g.push_back(x);
    return g;
  };
  // The coarser output decides where to compare; the finer one is interpolated there.
  auto g_run = in_overlap(run.time);
  auto g_ref = in_overlap(ref.time);
  a.time = g_run.size() < g_ref.size() ? g_run : g_ref;
  a.run = samples_at(run.time, a.time, eps);
  a.ref = samples_at(ref.time, a.time, eps);
  return a;
}

}  // namespace

CompareReport compare_results(const Results& run, const Results& ref, const CompareOptions& o) {
  CompareReport rep;
  auto selected = [&](const std::string& name) {
    if (o.patterns.empty()) return true;
    return std::any_of(o.patterns.begin(), o.patterns.end(),
                       [&](const std::string& p) { return glob_match(p, name); });
  };
  for (const auto& p : o.patterns) {
    bool hit = false;
    for (const auto& [name, s] : ref.vars) hit = hit || glob_match(p, name);
    for (const auto& [name, s] : run.vars) hit = hit || glob_match(p, name);
    if (!hit) throw ResultsError(fmt::format("--vars '{}' matches no variable", p));
  }
  for (const auto& [name, s] : run.vars)
    if (selected(name) && !ref.vars.count(name)) rep.only_in_run.push_back(name);
  for (const auto& [name, s] : ref.vars)
    if (selected(name) && !run.vars.count(name)) rep.only_in_ref.push_back(name);

  const Alignment al = align(run, ref);
  rep.points = al.time.size();
  rep.t_begin = al.time.empty() ? 0.0 : al.time.front();
  rep.t_end = al.time.empty() ? 0.0 : al.time.back();
  rep.ref_begin = ref.time.front();
  rep.ref_end = ref.time.back();
  if (!ref.time_is_index && !run.time_is_index) {
    const double eps = 1e-9 * std::max({std::abs(rep.ref_begin), std::abs(rep.ref_end), 1e-300}) +
                       1e-6 * (rep.ref_end - rep.ref_begin);
    rep.covers_ref = rep.t_begin <= rep.ref_begin + eps && rep.t_end >= rep.ref_end - eps;
  } else {
    rep.covers_ref = run.records() >= ref.records();
  }
  rep.partial_allowed = o.partial;
  rep.run_records = run.written_records;
  rep.ref_records = ref.written_records;
  rep.model_size = model_size(ref);
  rep.normalisation = o.norm == Normalisation::Model ? "model" : "range";
  const bool absolute = o.norm == Normalisation::Model && !(rep.model_size > 0.0);
  if (absolute) {
    // Nothing to size the model with (no node positions, or all of them at one point over the
    // whole run, e.g. a 0-step run of nodes at the origin): absolute errors are the only
    // meaningful measure left.
    rep.normalisation = "absolute";
    rep.note = fmt::format(
        "model size of {} is 0 (no node.struct.*.X spread in space or time): errors are absolute",
        ref.source);
  }

  for (const auto& [name, s_ref] : ref.vars) {
    auto it = run.vars.find(name);
    if (it == run.vars.end() || !selected(name)) continue;
    const Series& s_run = it->second;
    if (s_run.ncomp != s_ref.ncomp) {
      throw ResultsError(fmt::format("{}: {} components in {}, {} in {}", name, s_run.ncomp,
                                     run.source, s_ref.ncomp, ref.source));
    }
    VariableError e;
    e.name = name;
    e.worst_time = al.time.empty() ? 0.0 : al.time.front();
    double vmin = std::numeric_limits<double>::infinity(), vmax = -vmin, vabs = 0.0;
    for (std::size_t k = 0; k < al.time.size(); ++k) {
      if (al.run[k].i >= s_run.times() || al.ref[k].i >= s_ref.times()) break;
      if (!available(s_run, al.run[k]) || !available(s_ref, al.ref[k])) continue;
      for (int c = 0; c < s_ref.ncomp; ++c) {
        const double a = sample_value(s_run, al.run[k], c);
        const double b = sample_value(s_ref, al.ref[k], c);
        double d;
        if (std::isnan(a) || std::isnan(b))
          d = (std::isnan(a) && std::isnan(b)) ? 0.0 : std::numeric_limits<double>::infinity();
        else if (s_ref.degrees)
          d = std::abs(std::remainder(a - b, 360.0));  // Euler angles wrap at +-180
        else
          d = std::abs(a - b);
        if (a == b) d = 0.0;  // equal infinities
        if (d > e.max_abs) {
          e.max_abs = d;
          e.worst_time = al.time[k];
          e.worst_component = c;
        }
        if (std::isfinite(b)) {
          vmin = std::min(vmin, b);
          vmax = std::max(vmax, b);
          vabs = std::max(vabs, std::abs(b));
        }
      }
    }
    if (absolute) {
      e.scale = 1.0;
    } else if (o.norm == Normalisation::Model) {
      e.scale = rep.model_size;
    } else {
      // The reference's range; a constant reference falls back to its magnitude, then to 1.
      const double range = vmax > vmin ? vmax - vmin : 0.0;
      e.scale = range > 1e-12 * vabs && range > 0.0 ? range : vabs > 0.0 ? vabs : 1.0;
      e.scale = std::max(e.scale, o.floor);
    }
    e.normalised = e.max_abs / e.scale;
    e.within = e.normalised <= o.tol;
    rep.vars.push_back(e);
  }
  if (rep.vars.empty())
    throw ResultsError(fmt::format("no common variable to compare between {} and {}", run.source,
                                   ref.source));
  return rep;
}

// =================================================================================================
// CLI
// =================================================================================================

namespace {

std::string json_number(double v) { return std::isfinite(v) ? fmt::format("{:.9g}", v) : "null"; }

void print_json(std::ostream& os, const std::string& run, const std::string& ref,
                const CompareOptions& o, const CompareReport& r) {
  os << "{\n  \"run\": " << json_string(run) << ",\n  \"ref\": " << json_string(ref)
     << ",\n  \"tol\": " << json_number(o.tol) << ",\n  \"norm\": \"" << r.normalisation
     << "\",\n  \"note\": " << json_string(r.note) << ",\n  \"points\": " << r.points
     << ",\n  \"t_begin\": " << json_number(r.t_begin) << ",\n  \"t_end\": "
     << json_number(r.t_end) << ",\n  \"model_size\": " << json_number(r.model_size)
     << ",\n  \"ref_begin\": " << json_number(r.ref_begin) << ",\n  \"ref_end\": "
     << json_number(r.ref_end) << ",\n  \"covers_ref\": " << (r.covers_ref ? "true" : "false")
     << ",\n  \"run_records\": " << r.run_records << ",\n  \"ref_records\": " << r.ref_records
     << ",\n  \"pass\": " << (r.all_within() ? "true" : "false") << ",\n  \"variables\": [";
  for (std::size_t i = 0; i < r.vars.size(); ++i) {
    const auto& v = r.vars[i];
    os << (i ? ",\n    " : "\n    ") << "{\"name\": " << json_string(v.name)
       << ", \"max_abs\": " << json_number(v.max_abs) << ", \"scale\": " << json_number(v.scale)
       << ", \"normalised\": " << json_number(v.normalised)
       << ", \"worst_time\": " << json_number(v.worst_time)
       << ", \"worst_component\": " << v.worst_component + 1
       << ", \"within\": " << (v.within ? "true" : "false") << "}";
  }
  os << "\n  ],\n  \"only_in_run\": [";
  for (std::size_t i = 0; i < r.only_in_run.size(); ++i)
    os << (i ? ", " : "") << json_string(r.only_in_run[i]);
  os << "],\n  \"only_in_ref\": [";
  for (std::size_t i = 0; i < r.only_in_ref.size(); ++i)
    os << (i ? ", " : "") << json_string(r.only_in_ref[i]);
  os << "]\n}\n";
}

void print_table(std::ostream& os, const std::string& run, const std::string& ref,
                 const CompareOptions& o, const CompareReport& r) {
  os << fmt::format("compare {}\n   vs   {}\n", run, ref);
  const std::string norm = r.normalisation == "model"      ? "normalised by the model size"
                           : r.normalisation == "absolute" ? "absolute (not normalised)"
                                                           : "normalised by the reference range";
  os << fmt::format("{} time points, t = {:g} .. {:g}; model size {:.6g}; errors {}\n", r.points,
                    r.t_begin, r.t_end, r.model_size, norm);
  if (!r.note.empty()) os << "note: " << r.note << '\n';
  std::size_t w = 8;
  for (const auto& v : r.vars) w = std::max(w, v.name.size());
  os << fmt::format("{:<{}}  {:>12}  {:>12}  {:>12}  {}\n", "variable", w, "max abs err",
                    "normalised", "worst t", "");
  std::size_t bad = 0;
  for (const auto& v : r.vars) {
    os << fmt::format("{:<{}}  {:>12.4e}  {:>12.4e}  {:>12.6g}  {}\n", v.name, w, v.max_abs,
                      v.normalised, v.worst_time, v.within ? "ok" : "ABOVE TOL");
    bad += v.within ? 0 : 1;
  }
  if (!r.only_in_run.empty() || !r.only_in_ref.empty())
    os << fmt::format("not compared: {} variable(s) only in RUN, {} only in REF\n",
                      r.only_in_run.size(), r.only_in_ref.size());
  const auto worst = std::max_element(r.vars.begin(), r.vars.end(), [](auto& a, auto& b) {
    return a.normalised < b.normalised;
  });
  if (!r.covers_ref)
    os << fmt::format("{}: RUN covers t = {:g} .. {:g} only, REF t = {:g} .. {:g}\n",
                      r.partial_allowed ? "note" : "FAIL", r.t_begin, r.t_end, r.ref_begin,
                      r.ref_end);
  if (!r.records_match())
    os << fmt::format("{}: RUN wrote {} records, REF {}\n", r.partial_allowed ? "note" : "FAIL",
                      r.run_records, r.ref_records);
  os << fmt::format("{}: {} variable(s), {} above tol {:g}; worst {} = {:.3e}\n",
                    r.all_within() ? "PASS" : "FAIL", r.vars.size(), bad, o.tol, worst->name,
                    worst->normalised);
}

}  // namespace

int run_compare_cli(int argc, char** argv) {
  CLI::App app{"Compare two results (ours or MBDyn's; NetCDF .nc or text output prefix), "
               "aligned on time. Exit 0: within tolerance; 1: not; 2: bad input.",
               "mbdyn-like compare"};
  std::string run, ref, vars, norm = "range";
  CompareOptions o;
  bool json = false;
  app.add_option("RUN", run, "results to check: a .nc file or a text output prefix")->required();
  app.add_option("REF", ref, "reference results: a .nc file or a text output prefix")->required();
  app.add_option("--tol", o.tol, "tolerance on the normalised error (default 1e-4)");
  app.add_option("--vars", vars,
                 "comma-separated variable names or patterns with * "
                 "(e.g. 'node.struct.*.X,elem.joint.*.F'); default: all common variables");
  app.add_option("--norm", norm,
                 "range: divide by the reference's range per variable; model: by the model size "
                 "(bounding-box diagonal of all node positions, as decks/INDEX.md's tol)")
      ->check(CLI::IsMember({"range", "model"}));
  app.add_option("--floor", o.floor,
                 "range norm: smallest divisor, so that references at round-off level (e.g. the "
                 "reactions of an unloaded model) are compared in absolute terms (default 0)");
  app.add_flag("--json", json, "machine-readable report on stdout");
  app.add_flag("--partial", o.partial,
               "accept a RUN that covers only part of REF's time span (e.g. stopped early) or "
               "writes another number of records than REF");
  app.add_option("--ref-stride", o.ref_stride,
                 "REF's text files keep only every N-th record of its run, from the first (its "
                 ".out file lists them all), as ../shared/corpus' ref.mov.gz")
      ->check(CLI::PositiveNumber);
  if (auto status = parse_cli(app, argc, argv)) return *status;
  o.norm = norm == "model" ? Normalisation::Model : Normalisation::Range;
  for (std::size_t pos = 0; pos <= vars.size() && !vars.empty();) {
    const std::size_t comma = std::min(vars.find(',', pos), vars.size());
    std::string p = vars.substr(pos, comma - pos);
    p.erase(0, p.find_first_not_of(" \t"));
    p.erase(p.find_last_not_of(" \t") + 1);
    if (!p.empty()) o.patterns.push_back(p);
    pos = comma + 1;
  }
  if (!(o.tol >= 0.0)) {
    std::cerr << "compare: --tol must be a non-negative number\n";
    return 2;
  }
  try {
    const Results a = read_results(run);
    const Results b = read_results(ref, o.ref_stride);
    const CompareReport rep = compare_results(a, b, o);
    if (json)
      print_json(std::cout, run, ref, o, rep);
    else
      print_table(std::cout, run, ref, o, rep);
    return rep.all_within() ? 0 : 1;
  } catch (const ResultsError& e) {
    std::cerr << "compare: error: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "compare: error: " << e.what() << '\n';
    return 2;
  }
}

}  // namespace mbl::output

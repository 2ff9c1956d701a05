#include "mbdyn-like/view/view_page.hpp"

#include <CLI/CLI.hpp>
#include <Eigen/Geometry>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <regex>
#include <set>
#include <sstream>

#include "mbdyn-like/core/rotations.hpp"
#include "mbdyn-like/output/cli_parse.hpp"
#include "mbdyn-like/output/json_text.hpp"
#include "mbdyn-like/output/results.hpp"
#include "mbdyn-like/view/model_log.hpp"
#include "mbdyn-like/view/view_assets.hpp"

namespace mbl::view {
namespace fs = std::filesystem;
using output::json_string;
namespace {

/// JSON text of a number: the shortest text that reads back the same double (positions keep the
/// .mov's digits exactly); null for NaN and infinities, which JSON lacks.
void put(std::string& s, double v) {
  if (!std::isfinite(v)) {
    s += "null";
    return;
  }
  fmt::format_to(std::back_inserter(s), "{}", v);
}
/// A derived quantity (orientation, velocities of the plot): 6 significant digits.
void put6(std::string& s, double v) {
  if (!std::isfinite(v)) {
    s += "null";
    return;
  }
  fmt::format_to(std::back_inserter(s), "{:.6g}", v);
}

template <class T, class F>
void put_array(std::string& s, const std::vector<T>& v, F&& each) {
  s += '[';
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) s += ',';
    each(s, v[i]);
  }
  s += ']';
}

void put_vec(std::string& s, const std::array<double, 3>& v) {
  s += '[';
  for (int i = 0; i < 3; ++i) {
    if (i) s += ',';
    put(s, v[i]);
  }
  s += ']';
}

/// The output prefix of RUN (a prefix or one of its files).
std::string run_prefix(const std::string& run) {
  static const std::set<std::string> ext = {".mov", ".nc", ".log", ".out", ".jnt", ".frc", ".act", ".html"};
  const fs::path p(run);
  if (ext.count(p.extension().string())) return (p.parent_path() / p.stem()).string();
  return run;
}

/// R_WN of node record t from the results: Euler angles (degrees, the node's sequence from the
/// .log), orientation vector, or matrix (row by row).
Mat3 orientation_at(const output::Results& r, const std::string& base, const std::string& kind, std::size_t t) {
  if (auto it = r.vars.find(base + ".R"); it != r.vars.end() && it->second.ncomp == 9) {
    Mat3 R;
    for (int i = 0; i < 9; ++i) R(i / 3, i % 3) = it->second.at(t, i);
    return R;
  }
  if (auto it = r.vars.find(base + ".Phi"); it != r.vars.end() && it->second.ncomp == 3)
    return rot::rotvec_to_R(Vec3(it->second.at(t, 0), it->second.at(t, 1), it->second.at(t, 2)));
  if (auto it = r.vars.find(base + ".E"); it != r.vars.end() && it->second.ncomp == 3) {
    const Vec3 e = Vec3(it->second.at(t, 0), it->second.at(t, 1), it->second.at(t, 2)) * (M_PI / 180.0);
    if (kind == "euler313") return rot::euler313_to_R(e);
    if (kind == "euler321") return rot::euler321_to_R(e);
    return rot::euler123_to_R(e);
  }
  return Mat3::Identity();
}

/// One eigenanalysis of RUN_<k>.m (phases/eigen_output.cpp writes it): time, dCoef, the reported
/// eigenvalues (alpha) and right eigenvectors (VR, complex).
struct EigenFile {
  std::string path;
  double time = 0.0, dCoef = 0.0;
  std::vector<std::array<double, 3>> alpha;
  std::vector<std::vector<std::complex<double>>> VR;  // rows
};

std::optional<EigenFile> read_eigen_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string text = buf.str();
  EigenFile f;
  f.path = path;
  auto scalar = [&](const char* name, double& v) {
    const std::regex re(std::string("(^|\\n)") + name + " = ([^;]+);");
    std::smatch m;
    if (!std::regex_search(text, m, re)) return false;
    v = std::strtod(m[2].str().c_str(), nullptr);
    return true;
  };
  // "name = [" rows separated by ';', entries by blanks, up to "];"
  auto block = [&](const char* name) {
    std::vector<std::vector<std::string>> rows;
    const std::string head = std::string("\n") + name + " = [";
    const auto at = text.find(head);
    if (at == std::string::npos) return rows;
    const auto end = text.find("];", at);
    std::string body = text.substr(at + head.size(), end == std::string::npos ? std::string::npos : end - at - head.size());
    std::istringstream rs(body);
    for (std::string row; std::getline(rs, row, ';');) {
      std::istringstream es(row);
      std::vector<std::string> entries;
      for (std::string e; es >> e;) entries.push_back(e);
      if (!entries.empty()) rows.push_back(std::move(entries));
    }
    return rows;
  };
  if (!scalar("dTime", f.time) || !scalar("dCoef", f.dCoef)) return std::nullopt;
  for (const auto& row : block("alpha"))
    if (row.size() == 3)
      f.alpha.push_back({std::strtod(row[0].c_str(), nullptr), std::strtod(row[1].c_str(), nullptr),
                         std::strtod(row[2].c_str(), nullptr)});
  for (const auto& row : block("VR")) {
    std::vector<std::complex<double>> r;
    for (const std::string& e : row) {
      // "re", or "re+i*im" / "re-i*im"
      const auto i = e.find("i*");
      if (i == std::string::npos || i == 0) {
        r.emplace_back(std::strtod(e.c_str(), nullptr), 0.0);
      } else {
        const double re = std::strtod(e.substr(0, i - 1).c_str(), nullptr);
        const double im = std::strtod(e.substr(i + 2).c_str(), nullptr) * (e[i - 1] == '-' ? -1.0 : 1.0);
        r.emplace_back(re, im);
      }
    }
    f.VR.push_back(std::move(r));
  }
  if (f.alpha.empty() || f.VR.empty() || f.VR.front().size() != f.alpha.size()) return std::nullopt;
  return f;
}

/// RUN_<k>.m files, in the order of k.
std::vector<EigenFile> read_eigen_files(const std::string& prefix) {
  const fs::path p(prefix);
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  const std::string stem = p.filename().string() + "_";
  std::vector<std::pair<long, std::string>> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() <= stem.size() + 2 || name.compare(0, stem.size(), stem) != 0 || entry.path().extension() != ".m")
      continue;
    const std::string k = name.substr(stem.size(), name.size() - stem.size() - 2);
    if (k.empty() || !std::all_of(k.begin(), k.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      continue;
    found.emplace_back(std::strtol(k.c_str(), nullptr, 10), entry.path().string());
  }
  std::sort(found.begin(), found.end());
  std::vector<EigenFile> files;
  for (const auto& [k, path] : found)
    if (auto f = read_eigen_file(path)) files.push_back(std::move(*f));
  return files;
}

/// Variable names the page derives from the node states itself.
bool node_state_variable(const std::string& name) {
  if (name.rfind("node.struct.", 0) != 0) return false;
  const std::string suffix = name.substr(name.rfind('.') + 1);
  return suffix == "X" || suffix == "R" || suffix == "E" || suffix == "Phi" || suffix == "XP" || suffix == "Omega";
}

std::string replace_once(std::string page, std::string_view marker, std::string_view with) {
  const auto at = page.find(marker);
  if (at == std::string::npos) throw ViewError(fmt::format("page template lacks {}", marker));
  return page.replace(at, marker.size(), with);
}

/// Script text safe inside <script>: "</script" cannot end the element early.
std::string script_text(std::string_view js) {
  std::string s(js);
  for (std::size_t at = 0; (at = s.find("</", at)) != std::string::npos; at += 3) s.replace(at, 2, "<\\/");
  return s;
}

}  // namespace

ViewSummary write_view(const ViewOptions& opt) {
  const std::string prefix = run_prefix(opt.run);
  if (!fs::exists(prefix + ".log"))
    throw ViewError(fmt::format("{}.log: no model description (the .log file the run writes)", prefix));
  const ModelLog log = read_model_log(prefix + ".log");
  const bool has_mov = fs::exists(prefix + ".mov"), has_nc = fs::exists(prefix + ".nc");
  if (!has_mov && !has_nc) throw ViewError(fmt::format("{}: neither {}.mov nor {}.nc", opt.run, prefix, prefix));
  const output::Results res = output::read_results(has_mov ? prefix + ".mov" : prefix + ".nc");
  output::Results nc_extra;
  if (has_mov && has_nc) {
    try {
      nc_extra = output::read_netcdf(prefix + ".nc");
    } catch (const std::exception&) {
      // An unreadable .nc beside the .mov only costs its plot variables.
    }
  }

  // Nodes drawn: those of the .log with positions in the results.
  std::vector<int> drawn;
  for (std::size_t i = 0; i < log.nodes.size(); ++i)
    if (res.vars.count("node.struct." + log.nodes[i].label + ".X")) drawn.push_back(int(i));
  if (drawn.empty()) throw ViewError(fmt::format("{}: no structural node positions", opt.run));
  std::vector<int> drawn_of(log.nodes.size(), -1);
  for (std::size_t k = 0; k < drawn.size(); ++k) drawn_of[drawn[k]] = int(k);

  // Records in the window, then every N-th (the last one always kept).
  std::vector<std::size_t> window;
  for (std::size_t t = 0; t < res.records(); ++t) {
    const double time = res.time[t];
    if (opt.from && time < *opt.from) continue;
    if (opt.to && time > *opt.to) continue;
    window.push_back(t);
  }
  if (window.empty()) throw ViewError(fmt::format("{}: no record in the time window", opt.run));
  std::size_t every = opt.every > 0 ? std::size_t(opt.every) : 1;
  const std::size_t nn = drawn.size();
  const std::size_t overhead = assets::three_js.size() + assets::orbit_controls_js.size() + assets::page_js.size() +
                               assets::page_css.size() + assets::page_html.size() + 200 * nn + 100'000;
  if (opt.every <= 0) {
    // About 13 numbers of about 11 characters per node and record; half the room left for the
    // node states, the rest for the plot variables and the geometry.
    const double per_record = 13.0 * 11.0 * double(nn) + 20.0;
    const double room = opt.max_bytes > overhead ? 0.6 * double(opt.max_bytes - overhead) : 1.0;
    every = std::max<std::size_t>(1, std::size_t(std::ceil(per_record * double(window.size()) / room)));
  }
  std::vector<std::size_t> records;
  for (std::size_t i = 0; i < window.size(); i += every) records.push_back(window[i]);
  if (records.back() != window.back()) records.push_back(window.back());

  std::string d;
  d.reserve(1 << 20);
  d += "{\"title\":" + json_string(fs::path(prefix).filename().string());
  d += ",\"every\":" + std::to_string(every);
  d += ",\"recordsInRun\":" + std::to_string(res.records());
  d += ",\"nodes\":";
  put_array(d, drawn, [&](std::string& s, int i) {
    const LogNode& n = log.nodes[i];
    s += "{\"label\":" + json_string(n.label) + ",\"dummy\":" + (n.dummy ? "true" : "false") +
         ",\"rigid\":" + (n.orientation.empty() ? "false" : "true") + "}";
  });
  auto points = [&](std::string& s, const std::vector<NodePoint>& pts) {
    put_array(s, pts, [&](std::string& s2, const NodePoint& p) {
      s2 += "[" + std::to_string(drawn_of[p.node]) + ",";
      put(s2, p.offset_N[0]), s2 += ',', put(s2, p.offset_N[1]), s2 += ',', put(s2, p.offset_N[2]);
      s2 += "]";
    });
  };
  auto all_drawn = [&](const std::vector<NodePoint>& pts) {
    return std::all_of(pts.begin(), pts.end(), [&](const NodePoint& p) { return p.node >= 0 && drawn_of[p.node] >= 0; });
  };
  auto elements = [&](const char* name, const std::vector<LogElement>& list) {
    std::vector<const LogElement*> kept;
    for (const LogElement& e : list) {
      bool ok = all_drawn(e.points);
      for (const auto& te : e.edges) ok = ok && all_drawn({te[0], te[1]});
      if (ok) kept.push_back(&e);
    }
    d += std::string(",\"") + name + "\":";
    put_array(d, kept, [&](std::string& s, const LogElement* e) {
      s += "{\"kind\":" + json_string(e->kind) + ",\"label\":" + json_string(e->label) + ",\"pts\":";
      points(s, e->points);
      if (e->mass != 0.0) s += ",\"mass\":", put(s, e->mass);
      if (!e->ground.empty()) s += ",\"ground\":", put_array(s, e->ground, put_vec);
      if (!e->edges.empty()) {
        s += ",\"edges\":";
        put_array(s, e->edges, [&](std::string& s2, const std::array<NodePoint, 2>& te) {
          points(s2, {te[0], te[1]});
        });
      }
      s += "}";
    });
  };
  elements("bodies", log.bodies);
  elements("beams", log.beams);
  elements("surfaces", log.surfaces);
  elements("joints", log.joints);
  elements("aero", log.aero);

  // Node states per record: positions (the .mov's numbers), orientations as quaternions
  // (x, y, z, w), velocities and angular velocities; flat arrays, record after record.
  struct NodeSeries {
    const output::Series *X = nullptr, *XP = nullptr, *Omega = nullptr;
    std::string base, kind;
  };
  std::vector<NodeSeries> ns(nn);
  for (std::size_t k = 0; k < nn; ++k) {
    const LogNode& n = log.nodes[drawn[k]];
    ns[k].base = "node.struct." + n.label;
    ns[k].kind = n.orientation;
    ns[k].X = &res.vars.at(ns[k].base + ".X");
    if (auto it = res.vars.find(ns[k].base + ".XP"); it != res.vars.end() && it->second.ncomp == 3) ns[k].XP = &it->second;
    if (auto it = res.vars.find(ns[k].base + ".Omega"); it != res.vars.end() && it->second.ncomp == 3)
      ns[k].Omega = &it->second;
  }
  auto quaternion = [&](std::size_t k, std::size_t t) {
    return Eigen::Quaterniond(orientation_at(res, ns[k].base, ns[k].kind, t)).normalized();
  };
  d += ",\"time\":";
  put_array(d, records, [&](std::string& s, std::size_t t) { put(s, res.time[t]); });
  auto per_record = [&](const char* name, auto&& each) {
    d += std::string(",\"") + name + "\":[";
    bool first = true;
    for (std::size_t t : records)
      for (std::size_t k = 0; k < nn; ++k) {
        if (!first) d += ',';
        first = false;
        each(k, t);
      }
    d += ']';
  };
  per_record("X", [&](std::size_t k, std::size_t t) {
    const output::Series& X = *ns[k].X;
    const bool ok = t < X.times() && X.has(t);
    for (int c = 0; c < 3; ++c) {
      if (c) d += ',';
      put(d, ok ? X.at(t, c) : std::numeric_limits<double>::quiet_NaN());
    }
  });
  per_record("Q", [&](std::size_t k, std::size_t t) {
    const Eigen::Quaterniond q = quaternion(k, t);
    put6(d, q.x()), d += ',', put6(d, q.y()), d += ',', put6(d, q.z()), d += ',', put6(d, q.w());
  });
  auto velocity = [&](auto member) {
    return [&, member](std::size_t k, std::size_t t) {
      const output::Series* v = ns[k].*member;
      for (int c = 0; c < 3; ++c) {
        if (c) d += ',';
        put6(d, v && t < v->times() && v->has(t) ? v->at(t, c) : 0.0);
      }
    };
  };
  per_record("XP", velocity(&NodeSeries::XP));
  per_record("Omega", velocity(&NodeSeries::Omega));

  // Plot variables beyond the node states (joint reactions, forces, the .nc's variables), each
  // with its own times, while they fit in the page.
  std::size_t plot_count = 0, plot_skipped = 0;
  d += ",\"vars\":[";
  auto add_vars = [&](const output::Results& r, std::size_t budget) {
    // The records of r at the times kept (r is the main results or a .nc beside them).
    std::vector<std::size_t> rr;
    for (std::size_t t : records) {
      const double time = res.time[t];
      const auto it = std::lower_bound(r.time.begin(), r.time.end(), time - 1e-12 * std::max(1.0, std::abs(time)));
      if (it != r.time.end() && std::abs(*it - time) <= 1e-9 * std::max(1.0, std::abs(time)))
        rr.push_back(std::size_t(it - r.time.begin()));
    }
    for (const auto& [name, s] : r.vars) {
      if (node_state_variable(name) || s.ncomp < 1 || s.ncomp > 9 || s.times() < r.records()) continue;
      if (d.size() > budget) {
        ++plot_skipped;
        continue;
      }
      if (plot_count) d += ',';
      ++plot_count;
      d += "{\"name\":" + json_string(name) + ",\"ncomp\":" + std::to_string(s.ncomp) + ",\"t\":";
      std::vector<std::size_t> kept;
      for (std::size_t t : rr)
        if (s.has(t)) kept.push_back(t);
      put_array(d, kept, [&](std::string& o, std::size_t t) { put(o, r.time[t]); });
      d += ",\"v\":[";
      bool first = true;
      for (std::size_t t : kept)
        for (int c = 0; c < s.ncomp; ++c) {
          if (!first) d += ',';
          first = false;
          put6(d, s.at(t, c));
        }
      d += "]}";
    }
  };
  const std::size_t budget = opt.max_bytes > overhead ? opt.max_bytes - overhead : 0;
  add_vars(res, budget);
  if (!nc_extra.vars.empty()) add_vars(nc_extra, budget);
  d += "],\"varsSkipped\":" + std::to_string(plot_skipped);

  // Eigenanalyses: each reported mode with imaginary part >= 0 (one of each complex pair), its
  // shape on the numbered nodes, about the nodes' state at the record nearest the analysis.
  std::size_t mode_count = 0;
  d += ",\"analyses\":[";
  const std::vector<EigenFile> eig = read_eigen_files(prefix);
  bool first_analysis = true;
  for (const EigenFile& f : eig) {
    std::size_t ref = 0;
    for (std::size_t t = 0; t < res.records(); ++t)
      if (std::abs(res.time[t] - f.time) < std::abs(res.time[ref] - f.time)) ref = t;
    if (!first_analysis) d += ',';
    first_analysis = false;
    d += "{\"time\":", put(d, f.time);
    d += ",\"X0\":[";
    for (std::size_t k = 0; k < nn; ++k) {
      if (k) d += ',';
      for (int c = 0; c < 3; ++c) {
        if (c) d += ',';
        put(d, ns[k].X->at(ref, c));
      }
    }
    d += "],\"Q0\":[";
    for (std::size_t k = 0; k < nn; ++k) {
      const Eigen::Quaterniond q = quaternion(k, ref);
      if (k) d += ',';
      put6(d, q.x()), d += ',', put6(d, q.y()), d += ',', put6(d, q.z()), d += ',', put6(d, q.w());
    }
    d += "],\"modes\":[";
    bool first_mode = true;
    for (std::size_t j = 0; j < f.alpha.size(); ++j) {
      // lambda = (Lambda - 1) / (Lambda + 1) / dCoef, Lambda = (alphar + i alphai) / beta
      // (docs/eigenanalysis.md).
      const std::complex<double> Lambda(f.alpha[j][0] / f.alpha[j][2], f.alpha[j][1] / f.alpha[j][2]);
      const std::complex<double> lambda = (Lambda - 1.0) / (Lambda + 1.0) / f.dCoef;
      if (!std::isfinite(lambda.real()) || !std::isfinite(lambda.imag()) || lambda.imag() < 0.0) continue;
      if (!first_mode) d += ',';
      first_mode = false;
      ++mode_count;
      d += "{\"re\":", put6(d, lambda.real());
      d += ",\"im\":", put6(d, lambda.imag());
      // Per drawn node: 6 real parts then 6 imaginary parts (position, rotation); zero for the
      // nodes without unknowns (dummy).
      d += ",\"shape\":[";
      for (std::size_t k = 0; k < nn; ++k) {
        const LogNode& n = log.nodes[drawn[k]];
        const auto it = log.first_dof.find(n.label);
        const int ndof = n.orientation.empty() ? 3 : 6;
        std::complex<double> v[6] = {};
        if (it != log.first_dof.end())
          for (int c = 0; c < ndof; ++c) {
            const std::size_t row = std::size_t(it->second + c);
            if (row < f.VR.size() && j < f.VR[row].size()) v[c] = f.VR[row][j];
          }
        for (int part = 0; part < 2; ++part)
          for (int c = 0; c < 6; ++c) {
            if (k || part || c) d += ',';
            put6(d, part == 0 ? v[c].real() : v[c].imag());
          }
      }
      d += "]}";
    }
    d += "]}";
  }
  d += "]}";

  std::string page(assets::page_html);
  page = replace_once(std::move(page), "/*MBL_CSS*/", assets::page_css);
  page = replace_once(std::move(page), "/*MBL_THREE*/", script_text(assets::three_js));
  page = replace_once(std::move(page), "/*MBL_ORBIT*/", script_text(assets::orbit_controls_js));
  page = replace_once(std::move(page), "/*MBL_DATA*/", d);
  page = replace_once(std::move(page), "/*MBL_JS*/", script_text(assets::page_js));

  ViewSummary sum;
  sum.output = opt.output.empty() ? prefix + ".html" : opt.output;
  if (fs::exists(sum.output) && fs::path(sum.output).extension() != ".html")
    throw ViewError(fmt::format("{} exists and is not an .html file: not overwriting it", sum.output));
  std::ofstream out(sum.output, std::ios::binary | std::ios::trunc);
  if (!out) throw ViewError(fmt::format("cannot create {}", sum.output));
  out << page;
  if (!out) throw ViewError(fmt::format("cannot write {}", sum.output));
  sum.nodes = nn;
  sum.records = records.size();
  sum.every = every;
  sum.modes = mode_count;
  sum.bytes = page.size();
  sum.plot_variables = plot_count;
  return sum;
}

int run_view_cli(int argc, char** argv) {
  CLI::App app{"Write a self-contained HTML page that animates a run (model from RUN.log, motion from RUN.mov "
               "or RUN.nc, modes from RUN_<k>.m); docs/viewer.md.",
               "mbdyn-like view"};
  ViewOptions opt;
  double from = 0.0, to = 0.0;
  app.add_option("RUN", opt.run, "output prefix of the run, or one of its files (.mov, .nc, .log)")->required();
  app.add_option("-o,--output", opt.output, "the page (default RUN.html)");
  app.add_option("--every", opt.every, "keep every N-th record (default: as many as keep the page under 10 MB)")
      ->check(CLI::PositiveNumber);
  auto* from_opt = app.add_option("--from", from, "first time shown");
  auto* to_opt = app.add_option("--to", to, "last time shown");
  if (auto status = output::parse_cli(app, argc, argv)) return *status;
  if (*from_opt) opt.from = from;
  if (*to_opt) opt.to = to;
  try {
    const ViewSummary s = write_view(opt);
    std::cout << fmt::format("view: {} ({} nodes, {} records{}{}, {:.1f} MB)\n", s.output, s.nodes, s.records,
                             s.every > 1 ? fmt::format(", every {}", s.every) : "",
                             s.modes ? fmt::format(", {} modes", s.modes) : "", double(s.bytes) / 1e6);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "view: error: " << e.what() << '\n';
    return 2;
  }
}

}  // namespace mbl::view

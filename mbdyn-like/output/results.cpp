#include "mbdyn-like/output/results.hpp"

#include <fmt/format.h>
#include <netcdf.h>

#include <algorithm>
#include <charconv>
#include <limits>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string_view>

namespace mbl::output {

namespace fs = std::filesystem;

bool glob_match(std::string_view p, std::string_view s) {
  // Iterative matcher with single backtrack point for '*'.
  std::size_t pi = 0, si = 0, star = std::string_view::npos, mark = 0;
  while (si < s.size()) {
    if (pi < p.size() && (p[pi] == '?' || p[pi] == s[si])) {
      ++pi;
      ++si;
    } else if (pi < p.size() && p[pi] == '*') {
      star = pi++;
      mark = si;
    } else if (star != std::string_view::npos) {
      pi = star + 1;
      si = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

// =================================================================================================
// NetCDF
// =================================================================================================

namespace {

struct NcFile {
  int id = -1;
  std::string path;
  explicit NcFile(const std::string& p) : path(p) {
    const int status = nc_open(p.c_str(), NC_NOWRITE, &id);
    if (status != NC_NOERR)
      throw ResultsError(fmt::format("{}: cannot read as NetCDF: {}", p, nc_strerror(status)));
  }
  ~NcFile() {
    if (id >= 0) nc_close(id);
  }
  void check(int status, std::string_view what) const {
    if (status != NC_NOERR)
      throw ResultsError(fmt::format("{}: {}: {}", path, what, nc_strerror(status)));
  }
  std::string text_attribute(int var, const char* name) const {
    std::size_t len = 0;
    nc_type type{};
    if (nc_inq_att(id, var, name, &type, &len) != NC_NOERR || type != NC_CHAR) return {};
    std::string s(len, '\0');
    if (nc_get_att_text(id, var, name, s.data()) != NC_NOERR) return {};
    return s;
  }
};

}  // namespace

Results read_netcdf(const std::string& path) {
  if (!fs::exists(path)) throw ResultsError(fmt::format("{}: no such file", path));
  NcFile f(path);
  Results r;
  r.source = path;
  int unlimited = -1;
  f.check(nc_inq_unlimdim(f.id, &unlimited), "no record dimension");
  if (unlimited < 0) {
    // A file of one fixed dimension (a sweep's summary.nc: one record per case) is read with that
    // dimension as its records, numbered 0, 1, ...
    int ndims = 0;
    f.check(nc_inq_ndims(f.id, &ndims), "dimensions");
    if (ndims != 1) throw ResultsError(fmt::format("{}: no time (unlimited) dimension", path));
    unlimited = 0;
  }
  std::size_t nrec = 0;
  f.check(nc_inq_dimlen(f.id, unlimited, &nrec), "time dimension");
  int nvars = 0;
  f.check(nc_inq_nvars(f.id, &nvars), "variables");

  for (int v = 0; v < nvars; ++v) {
    char name[NC_MAX_NAME + 1] = {};
    nc_type type{};
    int ndims = 0;
    int dims[NC_MAX_VAR_DIMS] = {};
    f.check(nc_inq_var(f.id, v, name, &type, &ndims, dims, nullptr), "variable");
    if (ndims < 1 || dims[0] != unlimited || type == NC_CHAR || type == NC_STRING) continue;
    std::size_t ncomp = 1;
    for (int d = 1; d < ndims; ++d) {
      std::size_t len = 0;
      f.check(nc_inq_dimlen(f.id, dims[d], &len), name);
      ncomp *= len;
    }
    std::vector<double> data(nrec * ncomp);
    if (!data.empty()) f.check(nc_get_var_double(f.id, v, data.data()), name);
    const std::string sname = name;
    if (sname == "time") {
      r.time = std::move(data);
      continue;
    }
    if (sname == "run.step") {
      r.step.assign(data.begin(), data.end());
      continue;
    }
    if (sname == "run.timestep") continue;
    Series s;
    s.ncomp = int(ncomp);
    s.units = f.text_attribute(v, "units");
    s.degrees = s.units == "deg";
    if (ncomp == 9 && ndims == 3) {
      // MBDyn stores matrices column by column (R11, R21, R31, ...); hold them row by row.
      for (std::size_t t = 0; t < nrec; ++t) {
        double* m = data.data() + 9 * t;
        std::swap(m[1], m[3]);
        std::swap(m[2], m[6]);
        std::swap(m[5], m[7]);
      }
    }
    // Records MBDyn never wrote hold the fill value (e.g. variables of joints whose law has no
    // such item): they are absent, not 9.97e36.
    double fill = 0.0;
    if (nc_get_att_double(f.id, v, "_FillValue", &fill) != NC_NOERR)
      fill = type == NC_FLOAT ? double(NC_FILL_FLOAT) : NC_FILL_DOUBLE;
    for (std::size_t t = 0; t < nrec && ncomp > 0; ++t) {
      const double* rec = data.data() + t * ncomp;
      if (std::all_of(rec, rec + ncomp, [&](double x) { return x == fill; })) {
        if (s.present.empty()) s.present.assign(nrec, 1);
        s.present[t] = 0;
      }
    }
    s.values = std::move(data);
    r.vars.emplace(sname, std::move(s));
  }
  // A file cut short on disk (a copy of a running job, a full disk) reads as zeros past its end:
  // records with time 0 and step 0 after the first one cannot be MBDyn's, drop them.
  if (r.time.size() == nrec && r.step.size() == nrec) {
    std::size_t n = nrec;
    while (n > 1 && r.time[n - 1] == 0.0 && r.step[n - 1] == 0) --n;
    if (n < nrec && n > 1) --n;  // the last record left may be cut in the middle too
    if (n < nrec) {
      nrec = n;
      r.time.resize(n);
      r.step.resize(n);
      for (auto& [name, s] : r.vars) s.values.resize(n * std::size_t(s.ncomp));
    }
  }
  if (r.time.size() != nrec) {
    r.time.resize(nrec);
    for (std::size_t i = 0; i < nrec; ++i) r.time[i] = double(i);
    r.time_is_index = true;
  }
  r.written_records = nrec;
  return r;
}

// =================================================================================================
// Text files
// =================================================================================================

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ResultsError(fmt::format("{}: cannot open", path));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// One line of an entity file: the label token and the numbers after it.
struct Line {
  std::string_view label;
  std::vector<double> values;
};

/// Splits `text` into lines of numbers. A last line without newline is dropped (it may have been
/// cut in the middle of a number). Lines that are not all numbers are skipped.
std::vector<Line> parse_numeric_lines(const std::string& text) {
  std::vector<Line> lines;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) break;  // incomplete last line
    std::string_view line(text.data() + pos, eol - pos);
    pos = eol + 1;
    Line l;
    bool ok = true, first = true;
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
      if (i >= line.size()) break;
      std::size_t j = i;
      while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
      std::string_view tok = line.substr(i, j - i);
      i = j;
      if (first) {
        l.label = tok;
        first = false;
        continue;
      }
      double v = 0.0;
      const char* b = tok.data();
      const char* e = tok.data() + tok.size();
      if (*b == '+') ++b;
      auto [ptr, ec] = std::from_chars(b, e, v);
      if (ec != std::errc() || ptr != e) {
        // inf/nan as printed by C
        if (tok == "inf" || tok == "+inf") v = INFINITY;
        else if (tok == "-inf") v = -INFINITY;
        else if (tok == "nan" || tok == "-nan") v = NAN;
        else { ok = false; break; }
      }
      l.values.push_back(v);
    }
    if (ok && !first) lines.push_back(std::move(l));
  }
  return lines;
}

/// Column layout of one entity's line: (variable suffix, number of columns) in order; a suffix
/// "" skips columns (node labels in .frc lines).
using Layout = std::vector<std::pair<std::string, int>>;

struct EntityLine {
  std::string prefix;  ///< "node.struct.12", "elem.joint.3"
  Layout layout;
};

struct LogInfo {
  std::map<std::string, std::string> node_orientation;  ///< label -> euler123|phi|mat|...
  /// The most common kind: nodes listed without one (displacement nodes) use it in the .mov.
  std::string default_orientation;
  /// .log keyword of each joint label ("totaljoint", "rod", ...); labels of other entity kinds
  /// may be the same, so a keyword is used only when its column count fits.
  std::multimap<std::string, std::string> joint_keywords;
};

LogInfo read_log(const std::string& path) {
  LogInfo info;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    auto colon = line.find(':');
    if (colon == std::string::npos || line.empty() || line[0] == ' ') continue;
    const std::string key = line.substr(0, colon);
    std::istringstream rest(line.substr(colon + 1));
    std::string label;
    rest >> label;
    if (key == "structural node") {
      // structural node: <label> <x> <y> <z> <orientation kind> <values>
      std::string x, y, z, kind;
      rest >> x >> y >> z >> kind;
      if (!kind.empty()) info.node_orientation[label] = kind;
    } else if (!label.empty()) {
      info.joint_keywords.emplace(label, key);
    }
  }
  std::map<std::string, int> count;
  for (const auto& [label, kind] : info.node_orientation) ++count[kind];
  int best = 0;
  for (const auto& [kind, n] : count)
    if (n > best) {
      best = n;
      info.default_orientation = kind;
    }
  return info;
}

bool looks_like_rotation(const std::vector<double>& v, std::size_t off) {
  // Rows of a rotation matrix are orthonormal (to the text precision).
  double err = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double d = 0.0;
      for (int k = 0; k < 3; ++k) d += v[off + 3 * i + k] * v[off + 3 * j + k];
      err = std::max(err, std::abs(d - (i == j ? 1.0 : 0.0)));
    }
  return err < 1e-3;
}

EntityLine mov_layout(const Line& l, const LogInfo& log) {
  EntityLine e;
  e.prefix = fmt::format("node.struct.{}", l.label);
  const int n = int(l.values.size());
  std::string kind;
  if (auto it = log.node_orientation.find(std::string(l.label)); it != log.node_orientation.end())
    kind = it->second;
  if (kind.empty() && n != 18) kind = log.default_orientation;
  if (kind.empty()) kind = (n == 24 || (n == 18 && looks_like_rotation(l.values, 3))) ? "mat" : "euler123";
  const bool mat = kind == "mat";
  const std::string orient = mat ? "R" : kind == "phi" ? "Phi" : "E";
  const int no = mat ? 9 : 3;
  if (n == 9 + no) {
    e.layout = {{"X", 3}, {orient, no}, {"XP", 3}, {"Omega", 3}};
  } else if (n == 15 + no) {
    e.layout = {{"X", 3}, {orient, no}, {"XP", 3}, {"Omega", 3}, {"XPP", 3}, {"OmegaP", 3}};
  } else {
    e.layout = {{"extra", n}};
  }
  return e;
}

/// Extra .jnt columns after f, m, F, M, by .log keyword, named as in MBDyn's NetCDF output
/// (checked against the .nc files written by the same runs).
const Layout* joint_extras(const std::string& keyword) {
  static const std::map<std::string, Layout> extras = {
      {"totaljoint", {{"X", 3}, {"Phi", 3}, {"V", 3}, {"Omega", 3}}},
      {"totalpinjoint", {{"X", 3}, {"Phi", 3}, {"V", 3}, {"Omega", 3}}},
      {"rod", {{"l", 1}, {"v", 3}, {"lP", 1}}},
      {"sphericalhinge", {{"E", 3}}},
      {"revolutehinge", {{"E", 3}, {"Omega", 3}}},
      {"deformablejoint", {{"extra", 3}, {"E", 3}}},
      {"drivedisplacement", {{"d", 3}}},
      {"drivedisplacementpin", {{"d", 3}}},
      {"axialrotation", {{"E", 3}, {"extra", 1}, {"Omega", 3}}},
      {"angularvelocity", {{"w", 3}, {"dOmega", 1}}},
      {"linearvelocity", {{"dv", 3}, {"v", 1}}},
  };
  auto it = extras.find(keyword);
  return it == extras.end() ? nullptr : &it->second;
}

EntityLine jnt_layout(const Line& l, const LogInfo& log) {
  EntityLine e;
  e.prefix = fmt::format("elem.joint.{}", l.label);
  const int n = int(l.values.size());
  if (n < 12) {
    e.layout = {{"extra", n}};
    return e;
  }
  e.layout = {{"f", 3}, {"m", 3}, {"F", 3}, {"M", 3}};
  if (n == 12) return e;
  auto [b, end] = log.joint_keywords.equal_range(std::string(l.label));
  for (auto it = b; it != end; ++it) {
    const Layout* extra = joint_extras(it->second);
    if (!extra) continue;
    int cols = 0;
    for (const auto& [suffix, c] : *extra) cols += c;
    if (cols == n - 12) {
      e.layout.insert(e.layout.end(), extra->begin(), extra->end());
      return e;
    }
  }
  e.layout.push_back({"extra", n - 12});
  return e;
}

EntityLine frc_layout(const Line& l) {
  // label node F(3) Arm(3) | label node M(3) | label n1 F Arm1 n2 -F Arm2 | label n1 M n2 -M
  EntityLine e;
  const int n = int(l.values.size());
  switch (n) {
    case 7:
      e.prefix = fmt::format("elem.force.{}", l.label);
      e.layout = {{"", 1}, {"F", 3}, {"Arm", 3}};
      break;
    case 4:
      e.prefix = fmt::format("elem.couple.{}", l.label);
      e.layout = {{"", 1}, {"M", 3}};
      break;
    case 14:
      e.prefix = fmt::format("elem.force.{}", l.label);
      e.layout = {{"", 1}, {"F", 3}, {"Arm1", 3}, {"", 4}, {"Arm2", 3}};
      break;
    case 8:
      e.prefix = fmt::format("elem.couple.{}", l.label);
      e.layout = {{"", 1}, {"M", 3}, {"", 4}};
      break;
    default:
      e.prefix = fmt::format("elem.force.{}", l.label);
      e.layout = {{"extra", n}};
  }
  return e;
}

EntityLine act_layout(const Line& l) {
  EntityLine e;
  e.prefix = fmt::format("elem.beam.{}", l.label);
  const int n = int(l.values.size());
  if (n == 6)
    e.layout = {{"F", 3}, {"M", 3}};
  else if (n == 12)
    e.layout = {{"F_I", 3}, {"M_I", 3}, {"F_II", 3}, {"M_II", 3}};
  else
    e.layout = {{"extra", n}};
  return e;
}

/// Splits the lines of an entity file into records and appends every column to `vars`. A record
/// ends when an entity repeats (entities always come in the same order; one that is inactive in a
/// record, like a driven element, is missing from it). The last record is dropped when it is
/// shorter than the one before (a run that stopped while writing). Returns the number of records.
template <class LayoutFn>
std::size_t read_entity_file(const std::string& path, LayoutFn layout_of,
                             std::map<std::string, Series>& vars) {
  const std::string text = slurp(path);  // the lines point into it
  const auto lines = parse_numeric_lines(text);
  if (lines.empty()) return 0;
  // An entity is its label and its number of columns (forces and couples may share labels).
  std::vector<std::string> keys(lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i)
    keys[i] = fmt::format("{}/{}", lines[i].label, lines[i].values.size());
  std::vector<std::size_t> record_of(lines.size());
  std::size_t nrec = 0;
  {
    std::set<std::string> in_record;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (i == 0 || in_record.count(keys[i])) {
        ++nrec;
        in_record.clear();
      }
      in_record.insert(keys[i]);
      record_of[i] = nrec - 1;
    }
  }
  std::size_t n_lines = lines.size();
  if (nrec > 1) {
    const auto first_of_last =
        std::size_t(std::find(record_of.begin(), record_of.end(), nrec - 1) - record_of.begin());
    const auto first_of_prev =
        std::size_t(std::find(record_of.begin(), record_of.end(), nrec - 2) - record_of.begin());
    if (n_lines - first_of_last < first_of_last - first_of_prev) {
      --nrec;
      n_lines = first_of_last;
    }
  }
  std::map<std::string, std::size_t> entity_index;
  std::vector<EntityLine> entities;
  for (std::size_t i = 0; i < n_lines; ++i)
    if (entity_index.emplace(keys[i], entities.size()).second)
      entities.push_back(layout_of(lines[i]));
  // Start every series empty (absent), then fill the records each entity wrote.
  std::vector<std::vector<Series*>> series_of(entities.size());
  for (std::size_t k = 0; k < entities.size(); ++k)
    for (const auto& [suffix, ncols] : entities[k].layout) {
      if (suffix.empty()) {
        series_of[k].push_back(nullptr);
        continue;
      }
      Series& s = vars[entities[k].prefix + "." + suffix];
      s = Series{};
      s.ncomp = ncols;
      s.values.assign(nrec * std::size_t(ncols), std::numeric_limits<double>::quiet_NaN());
      s.present.assign(nrec, 0);
      s.degrees = suffix == "E";
      series_of[k].push_back(&s);
    }
  for (std::size_t i = 0; i < n_lines; ++i) {
    const std::size_t k = entity_index[keys[i]];
    const std::size_t r = record_of[i];
    std::size_t offset = 0, j = 0;
    for (const auto& [suffix, ncols] : entities[k].layout) {
      if (Series* s = series_of[k][j++]) {
        std::copy(lines[i].values.begin() + std::ptrdiff_t(offset),
                  lines[i].values.begin() + std::ptrdiff_t(offset + std::size_t(ncols)),
                  s->values.begin() + std::ptrdiff_t(r * std::size_t(ncols)));
        s->present[r] = 1;
      }
      offset += std::size_t(ncols);
    }
  }
  for (auto& per_entity : series_of)
    for (Series* s : per_entity)
      if (s && std::all_of(s->present.begin(), s->present.end(), [](unsigned char c) { return c; }))
        s->present.clear();
  return nrec;
}

}  // namespace

OutSteps read_out_file(const std::string& path) {
  OutSteps o;
  std::ifstream in(path);
  if (!in) throw ResultsError(fmt::format("{}: cannot open", path));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("Step ", 0) != 0) continue;
    std::istringstream ls(line.substr(5));
    long step = 0;
    std::string time;
    std::vector<std::string> rest;
    ls >> step >> time;
    for (std::string w; ls >> w;) rest.push_back(w);
    if (!ls.eof() || rest.size() != 6) continue;  // incomplete line of a stopped run
    if (rest.back() != "1") continue;
    o.step.push_back(step);
    o.time.push_back(std::strtod(time.c_str(), nullptr));
  }
  return o;
}

Results read_text(const std::string& prefix, std::size_t stride) {
  if (stride == 0) throw ResultsError("stride must be at least 1");
  Results r;
  r.source = prefix;
  const LogInfo log = fs::exists(prefix + ".log") ? read_log(prefix + ".log") : LogInfo{};
  // A run that stopped early may have more records in one file than in another: keep the
  // records every file has. Empty files (no entity of that kind writes) do not count.
  std::size_t nrec = 0;
  bool any = false;
  auto read = [&](const char* ext, auto layout_of) {
    if (!fs::exists(prefix + ext)) return;
    const std::size_t n = read_entity_file(prefix + ext, layout_of, r.vars);
    if (n == 0) return;
    nrec = any ? std::min(nrec, n) : n;
    any = true;
  };
  read(".mov", [&](const Line& l) { return mov_layout(l, log); });
  read(".jnt", [&](const Line& l) { return jnt_layout(l, log); });
  read(".frc", [](const Line& l) { return frc_layout(l); });
  read(".act", [](const Line& l) { return act_layout(l); });
  const bool any_file = fs::exists(prefix + ".mov") || fs::exists(prefix + ".jnt") ||
                        fs::exists(prefix + ".frc") || fs::exists(prefix + ".act");
  if (!any_file)
    throw ResultsError(fmt::format(
        "{}: no MBDyn text output found (expected {}.mov, .jnt, .frc or .act)", prefix, prefix));
  for (auto& [name, s] : r.vars) {
    s.values.resize(nrec * std::size_t(s.ncomp));
    if (!s.present.empty()) s.present.resize(nrec);
  }

  OutSteps steps;
  if (fs::exists(prefix + ".out")) steps = read_out_file(prefix + ".out");
  // Output of the initial (derivatives) solution without a Step line (no simulation run).
  if (nrec > 0 && steps.time.size() + 1 == (nrec - 1) * stride + 1) {
    steps.time.insert(steps.time.begin(), 0.0);
    steps.step.insert(steps.step.begin(), 0);
  }
  r.stride = stride;
  const std::size_t needed = nrec == 0 ? 0 : (nrec - 1) * stride + 1;
  if (nrec > 0 && steps.time.size() >= needed) {
    for (std::size_t i = 0; i < nrec; ++i) {
      r.time.push_back(steps.time[i * stride]);
      r.step.push_back(steps.step[i * stride]);
    }
    // A strided file's last kept record may be followed by up to stride-1 dropped ones.
    r.written_records = stride == 1 ? nrec : std::min(steps.time.size(), nrec * stride);
    if (stride > 1 && r.written_records < needed) r.written_records = needed;
  } else {
    r.time.resize(nrec);
    for (std::size_t i = 0; i < nrec; ++i) r.time[i] = double(i * stride);
    r.time_is_index = true;
    r.written_records = stride == 1 ? nrec : 0;  // 0: unknown
  }
  return r;
}

Results read_results(const std::string& what, std::size_t stride) {
  const fs::path p(what);
  const std::string ext = p.extension().string();
  if (ext == ".nc") {
    if (stride != 1) throw ResultsError(what + ": a stride applies to text output only");
    return read_netcdf(what);
  }
  static const std::set<std::string> text_ext = {".mov", ".jnt", ".frc", ".act", ".out", ".log"};
  if (text_ext.count(ext) && fs::exists(p))
    return read_text((p.parent_path() / p.stem()).string(), stride);
  if (fs::is_regular_file(p)) {
    // Some other file: NetCDF if it opens as such.
    int id = -1;
    if (nc_open(what.c_str(), NC_NOWRITE, &id) == NC_NOERR) {
      nc_close(id);
      return read_netcdf(what);
    }
    if (!fs::exists(what + ".mov") && !fs::exists(what + ".jnt"))
      throw ResultsError(fmt::format("{}: not a NetCDF file nor an MBDyn output prefix", what));
  }
  return read_text(what, stride);
}

}  // namespace mbl::output

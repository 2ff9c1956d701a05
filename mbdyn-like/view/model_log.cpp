#include "mbdyn-like/view/model_log.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace mbl::view {
namespace {

std::vector<std::string> split(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string t; in >> t;) out.push_back(t);
  return out;
}

bool number(const std::string& t, double& v) {
  char* end = nullptr;
  v = std::strtod(t.c_str(), &end);
  return !t.empty() && end == t.c_str() + t.size();
}

/// Where a joint's .log line puts its points (appendix E.2 and MBDyn's writers): 'n' a structural
/// node label, 'v' an offset of the last node (a point of the joint), 'g' a point in the global
/// frame, 'm' a matrix (9 numbers), 'x' three numbers that are no point (a direction).
const std::map<std::string, std::string>& joint_layouts() {
  static const std::map<std::string, std::string> layouts = [] {
    std::map<std::string, std::string> m;
    for (const char* k : {"axialrotation", "brake", "clamp", "deformablehinge", "deformabledisplacementjoint",
                          "deformablejoint", "invariantdeformablehinge", "invariantdeformabledisplacementjoint",
                          "invariantdeformablejoint", "gimbalrotation", "inline", "inplane", "prismatic",
                          "revolutehinge", "revoluterotation", "revolutepin", "sphericalhinge", "sphericalpin",
                          "universalhinge", "universalrotation", "cardanohinge", "cardanorotation"})
      m[k] = "nvmnvm";
    for (const char* k : {"distance", "rod", "drivedisplacement"}) m[k] = "nvnv";
    m["offsetdisplacementjoint"] = "nvn";
    for (const char* k : {"totaljoint", "totalequation", "totalreaction"}) m[k] = "nvmmnvmm";
    m["totalpinjoint"] = "nvmmgmm";
    m["drivedisplacementpin"] = "nvg";
    m["beamslider"] = "nvm";
    m["universalpin"] = "gmnvm";
    for (const char* k : {"linearvelocity", "angularvelocity", "linearacceleration", "angularacceleration"})
      m[k] = "nx";
    return m;
  }();
  return layouts;
}

}  // namespace

ModelLog read_model_log(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot open the model description", path));
  ModelLog log;
  std::vector<std::pair<std::string, std::vector<std::string>>> entries;  // elements, read after the nodes
  std::vector<std::string> numbered_labels, numbered_dofs;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == ' ' || line[0] == '\t') continue;  // continuation rows (E.1)
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = line.substr(0, colon);
    std::vector<std::string> tok = split(line.substr(colon + 1));
    if (key == "Symbol table") break;  // the deck's variables follow; no entity lines after it
    if (key == "structural node" || key == "relative frame structural node") {
      // E.2.27: <label> <x> <y> <z> [<orientation kind> <values>]
      if (tok.size() < 4) continue;
      LogNode n;
      n.label = tok[0];
      for (int i = 0; i < 3; ++i) number(tok[1 + i], n.x0[i]);
      if (tok.size() > 4) n.orientation = tok[4];
      n.relative_frame = key != "structural node";
      log.node_index[n.label] = int(log.nodes.size());
      log.nodes.push_back(std::move(n));
    } else if (key == "struct displacement node labels") {
      numbered_labels = tok;
    } else if (key == "struct displacement node dofs") {
      numbered_dofs = tok;
    } else if (!tok.empty()) {
      entries.emplace_back(key, std::move(tok));
    }
  }
  // E.3.5: the numbered nodes are the non-dummy ones.
  if (!numbered_labels.empty() || !log.nodes.empty()) {
    const std::set<std::string> numbered(numbered_labels.begin(), numbered_labels.end());
    for (LogNode& n : log.nodes) n.dummy = n.relative_frame || !numbered.count(n.label);
    for (std::size_t i = 0; i < numbered_labels.size() && i < numbered_dofs.size(); ++i)
      log.first_dof[numbered_labels[i]] = std::strtol(numbered_dofs[i].c_str(), nullptr, 10);
  }

  auto node_of = [&](const std::string& t) {
    const auto it = log.node_index.find(t);
    return it == log.node_index.end() ? -1 : it->second;
  };
  auto vec = [](const std::vector<std::string>& t, std::size_t at, std::array<double, 3>& v) {
    if (at + 3 > t.size()) return false;
    for (int i = 0; i < 3; ++i)
      if (!number(t[at + i], v[i])) return false;
    return true;
  };
  for (auto& [key, tok] : entries) {
    LogElement e;
    e.kind = key;
    e.label = tok[0];
    const std::vector<std::string> d(tok.begin() + 1, tok.end());
    if (key == "body" || key == "variable body") {
      // E.2.8: <node> <mass> <x_cg> <J>
      NodePoint p;
      p.node = d.empty() ? -1 : node_of(d[0]);
      if (p.node < 0 || d.size() < 5 || !number(d[1], e.mass) || !vec(d, 2, p.offset_N)) continue;
      e.points.push_back(p);
      log.bodies.push_back(std::move(e));
    } else if (key == "beam2" || key == "beam3") {
      // E.2.6-7: per node its label and offset.
      const std::size_t nn = key == "beam2" ? 2 : 3;
      for (std::size_t i = 0; i < nn; ++i) {
        NodePoint p;
        p.node = 4 * i < d.size() ? node_of(d[4 * i]) : -1;
        if (p.node < 0 || !vec(d, 4 * i + 1, p.offset_N)) break;
        e.points.push_back(p);
      }
      if (e.points.size() == nn) log.beams.push_back(std::move(e));
    } else if (key == "shell4" || key == "membrane4") {
      for (std::size_t i = 0; i < 4 && i < d.size(); ++i) e.points.push_back({node_of(d[i]), {}});
      if (e.points.size() == 4 && std::all_of(e.points.begin(), e.points.end(), [](auto& p) { return p.node >= 0; }))
        log.surfaces.push_back(std::move(e));
    } else if (key == "aero0") {
      // E.2.2: <node> then trailing/leading edge at both ends, node frame.
      const int n = d.empty() ? -1 : node_of(d[0]);
      for (std::size_t end = 0; n >= 0 && end < 2; ++end) {
        std::array<NodePoint, 2> te{NodePoint{n, {}}, NodePoint{n, {}}};
        if (!vec(d, 1 + 6 * end, te[0].offset_N) || !vec(d, 4 + 6 * end, te[1].offset_N)) break;
        e.edges.push_back(te);
      }
      if (e.edges.size() == 2) log.aero.push_back(std::move(e));
    } else if (key == "aero2" || key == "aero3") {
      // E.2.3-4: per node its label, trailing and leading edge.
      const std::size_t nn = key == "aero2" ? 2 : 3;
      for (std::size_t i = 0; i < nn; ++i) {
        const int n = 7 * i < d.size() ? node_of(d[7 * i]) : -1;
        std::array<NodePoint, 2> te{NodePoint{n, {}}, NodePoint{n, {}}};
        if (n < 0 || !vec(d, 7 * i + 1, te[0].offset_N) || !vec(d, 7 * i + 4, te[1].offset_N)) break;
        e.edges.push_back(te);
      }
      if (e.edges.size() == nn) log.aero.push_back(std::move(e));
    } else {
      // A joint: its points by the keyword's layout; an unknown keyword with the common layout
      // of two attachments (node, offset, orientation) is read as such.
      std::string layout;
      if (auto it = joint_layouts().find(key); it != joint_layouts().end())
        layout = it->second;
      else if (d.size() == 26 && node_of(d[0]) >= 0 && node_of(d[13]) >= 0)
        layout = "nvmnvm";
      else
        continue;
      std::size_t at = 0;
      int node = -1;
      bool ok = true;
      for (char c : layout) {
        std::array<double, 3> v{};
        switch (c) {
          case 'n': ok = at < d.size() && (node = node_of(d[at])) >= 0; at += 1; break;
          case 'v': ok = vec(d, at, v); if (ok) e.points.push_back({node, v}); at += 3; break;
          case 'g': ok = vec(d, at, v); if (ok) e.ground.push_back(v); at += 3; break;
          case 'm': ok = at + 9 <= d.size(); at += 9; break;
          case 'x': ok = vec(d, at, v); at += 3; if (ok && layout == "nx") e.points.push_back({node, {}}); break;
        }
        if (!ok) break;
      }
      if (ok && (!e.points.empty() || !e.ground.empty())) log.joints.push_back(std::move(e));
    }
  }
  return log;
}

}  // namespace mbl::view

#include "mbdyn-like/phases/model_output.hpp"

#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>
#include <iostream>
#include <map>
#include <sstream>
#include <unordered_map>

#include "elements/bodies/body.hpp"
#include "mbdyn-like/core/rotations.hpp"
#include "mbdyn-like/core/nc_catalog.hpp"
#include "mbdyn-like/core/orientation_output.hpp"
#include "mbdyn-like/output/dof_stats.hpp"

namespace mbl {

namespace {

/// MBDyn's fixed order of element types in its output (NetCDF `elem:types`, the order in which
/// element variables are declared and written): the automatic structural elements first, then
/// gravity, bodies, joints, beams, plates, forces (and couples), ... Unknown kinds go last.
int element_type_rank(std::string_view kind) {
  static constexpr std::string_view order[] = {
      "autostruct", "gravity",   "body",     "joint",    "beam",     "plate",
      "force",      "inertia",   "electric", "thermal",  "hydraulic", "bulk",
      "loadable",   "driven",    "external", "aeromodal", "aerodynamic", "genel"};
  for (std::size_t i = 0; i < std::size(order); ++i)
    if (order[i] == kind) return int(i);
  return int(std::size(order));
}

/// The NetCDF group of an element kind ("couple" shares "force"); empty: no group (bodies have
/// no output in MBDyn and do not appear in `elem:types`).
std::string nc_group_of(std::string_view kind) {
  if (kind == "couple") return "force";
  if (kind == "body" || kind == "gravity") return {};
  return std::string(kind);
}

/// `print:` (dataman2.cc InitialJointAssembly, DofOwnerInit): the unknowns' listing on stdout,
/// or in the .dof with `to file` and text output (the file is created even when `-s` leaves it
/// empty, as MBDyn opens it).
void write_dof_listing(output::OutputManager& manager, const Model& model) {
  const output::DofStatsSettings& d = manager.config().dof_stats;
  std::ostream* os = (d.flags & output::print_flag::kToFile) ? manager.text(OutputFile::Dof) : nullptr;
  std::ostream& out = os ? *os : std::cout;
  if (!d.silent && !output::write_dof_stats(out, model, d))
    std::cerr << "mbdyn-like: warning: print: the initial assembly dof stats are not written (an element with "
                 "unknowns whose initial assembly count is not known here)\n";
  // The connections are written whatever `-s` says (DofOwnerInit tests only the flags).
  output::write_connections(out, model, d.flags);
}

std::string group_kind(std::string_view kind) { return kind == "couple" ? "force" : std::string(kind); }

/// "%g" as MBDyn's .log numbers (6 significant digits).
std::string g(double v) { return fmt::format("{:g}", v); }

/// Position and orientation as `structural node:` lines describe them (appendix E.2.27).
std::string node_description(const Vec3& x, const Mat3& R, StructNode::OrientationOutput o) {
  using OO = StructNode::OrientationOutput;
  std::string s = fmt::format("{} {} {}", g(x[0]), g(x[1]), g(x[2]));
  auto vec = [&](const char* kind, const Vec3& v) {
    s += fmt::format(" {} {} {} {}", kind, g(v[0]), g(v[1]), g(v[2]));
  };
  constexpr double kDeg = 180.0 / M_PI;
  switch (o) {
    case OO::Euler123: vec("euler123", rot::R_to_euler123(R) * kDeg); break;
    case OO::Euler313: vec("euler313", rot::R_to_euler313(R) * kDeg); break;
    case OO::Euler321: vec("euler321", rot::R_to_euler321(R) * kDeg); break;
    case OO::OrientationVector: vec("phi", rot::R_to_rotvec(R)); break;
    case OO::Matrix:
      s += " mat";
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) s += " " + g(R(r, c));
      break;
  }
  return s;
}

}  // namespace

NodalInertia nodal_inertia(std::span<const elements::Body* const> bodies, const StructNode& node) {
  NodalInertia in;
  for (const elements::Body* body : bodies) {
    const auto& p = body->params();
    const Mat3& R = node.R_WN();
    const Vec3 b_W = R * p.b_N;
    in.m += p.mass;
    in.s_W += p.mass * b_W;
    // J about the node: J_cm + m b x b x^T (technical manual §8.1.1).
    in.J_W += R * p.J_cm_N * R.transpose() - p.mass * skew(b_W) * skew(b_W);
  }
  return in;
}

bool node_accelerations(const StructNode& n, const NodalInertia& in, Vec3& xpp_W, Vec3& wp_W) {
  xpp_W.setZero();
  wp_W.setZero();
  if (n.is_displacement()) {  // a point mass: beta' = m x''
    if (!(in.m > 0.0)) return false;
    xpp_W = n.beta_dot() / in.m;
    return true;
  }
  const Vec3& v = n.v_W();
  const Vec3& w = n.w_W();
  const Vec3& s = in.s_W;
  // Mass matrix (eq. 8.10) and the rest of eqs. 8.6 moved to the right-hand side.
  Eigen::Matrix<double, 6, 6> M;
  M.block<3, 3>(0, 0) = in.m * Mat3::Identity();
  M.block<3, 3>(0, 3) = -skew(s);
  M.block<3, 3>(3, 0) = skew(s);
  M.block<3, 3>(3, 3) = in.J_W;
  Eigen::Matrix<double, 6, 1> rhs;
  rhs.head<3>() = n.beta_dot() - w.cross(w.cross(s));
  rhs.tail<3>() = n.gamma_dot() - w.cross(s).cross(v) - w.cross(in.J_W * w);
  const Eigen::FullPivLU<Eigen::Matrix<double, 6, 6>> lu(M);
  if (!(in.m > 0.0) || !lu.isInvertible()) return false;
  const Eigen::Matrix<double, 6, 1> a = lu.solve(rhs);
  xpp_W = a.head<3>();
  wp_W = a.tail<3>();
  return true;
}

ModelOutput::ModelOutput(output::OutputConfig config) : manager_(std::move(config)) {}

void ModelOutput::setup(Model& model) {
  const std::lock_guard lock(mutex_);
  const auto& cfg = manager_.config();
  manager_.begin_setup();
  autostruct_.clear();
  std::vector<unsigned> struct_labels, autostruct_labels;
  for (const auto& n : model.nodes()) {
    if (auto* s = dynamic_cast<StructNode*>(n.get())) {
      struct_labels.push_back(s->label());
      if (s->is_dynamic()) {
        autostruct_labels.push_back(s->label());
        autostruct_.push_back({s, {}});
      }
    }
  }
  std::unordered_map<const StructNode*, AutoStruct*> autostruct_of;
  for (auto& a : autostruct_) autostruct_of[a.node] = &a;
  for (const auto& e : model.elements())
    if (const auto* body = dynamic_cast<const elements::Body*>(e.get()))
      if (auto it = autostruct_of.find(&body->node()); it != autostruct_of.end())
        it->second->bodies.push_back(body);
  output_order_.clear();
  for (const auto& e : model.elements()) output_order_.push_back(e.get());
  std::stable_sort(output_order_.begin(), output_order_.end(), [](Element* a, Element* b) {
    return element_type_rank(group_kind(a->kind())) < element_type_rank(group_kind(b->kind()));
  });

  // NetCDF layout of MBDyn (appendix C): node types and labels, every node's variables, element
  // types and labels, then every element's variables by type (the automatic structural
  // elements, in their nodes' namespace, first).
  if (!struct_labels.empty()) manager_.declare_group("node", "struct", struct_labels);
  for (const auto& n : model.nodes()) n->output_setup(manager_);
  std::vector<std::pair<std::string, std::vector<unsigned>>> groups;
  if (!autostruct_labels.empty()) groups.emplace_back("autostruct", autostruct_labels);
  for (Element* e : output_order_) {
    const std::string k = nc_group_of(e->kind());
    if (k.empty() || !e->netcdf_listed()) continue;
    if (groups.empty() || groups.back().first != k) groups.emplace_back(k, std::vector<unsigned>{});
    groups.back().second.push_back(e->label());
  }
  for (const auto& [k, labels] : groups) manager_.declare_group("elem", k, labels);
  if (manager_.netcdf() && cfg.autostruct_netcdf) {
    for (auto& a : autostruct_) {
      if (!a.node->autostruct_output) continue;
      const std::string base = fmt::format("node.struct.{}", a.node->label());
      a.nc_B = output::nc_declare(manager_, base, output::nc::node_B);
      a.nc_G = output::nc_declare(manager_, base, output::nc::node_G);
      a.nc_BP = output::nc_declare(manager_, base, output::nc::node_BP);
      a.nc_GP = output::nc_declare(manager_, base, output::nc::node_GP);
    }
  }
  for (Element* e : output_order_) e->output_setup(manager_);
  write_log(model);
  write_dof_listing(manager_, model);
  write_reference_frames();
  manager_.end_setup();
}

// The .rfm file (MBDyn writes it once, after reading the elements, when `default output`
// lists `reference frames` and text output is on; ReferenceFrame::Output, base/reffrm.cc): one
// line per frame by label, "label x orientation v w" in the frame's orientation description,
// with a blank before the end of the line.
void ModelOutput::write_reference_frames() {
  const auto& cfg = manager_.config();
  if (!cfg.reference_frames) return;
  std::ostream* os = manager_.text(OutputFile::Rfm);
  if (!os) return;
  for (const auto& f : cfg.reference_frame_lines) {
    manager_.write_label(*os, f.label);
    manager_.write(*os, f.x_W);
    write_orientation(manager_, *os, f.R_W, f.orientation);
    manager_.write(*os, f.v_W);
    manager_.write(*os, f.w_W);
    *os << " \n";
  }
}

void ModelOutput::write_log(Model& model) {
  std::ostream* log = manager_.text(OutputFile::Log);
  if (!log) return;
  // Model description (appendix E.2), in input order as MBDyn writes it while reading. Positions
  // and orientations are the input ones (before the initial assembly).
  std::vector<const StructNode*> regular, relative_frame;
  for (const auto& n : model.nodes()) {
    auto* s = dynamic_cast<StructNode*>(n.get());
    if (!s) continue;
    (s->type() == StructNode::Type::DummyRelativeFrame ? relative_frame : regular).push_back(s);
  }
  // Dummy nodes have no initial conditions of their own: their input pose is the one computed
  // from their base node when they were read (MBDyn logs it, e.g. "2 2 4" for an offset 0 -1 0
  // from a node at 2 3 4).
  auto description = [](const StructNode* s) {
    // A displacement-only node logs its position and a blank (no orientation).
    if (s->is_displacement())
      return fmt::format("{} {} {} ", g(s->initial().x_W[0]), g(s->initial().x_W[1]), g(s->initial().x_W[2]));
    return s->is_dummy() ? node_description(s->x_W(), s->R_WN(), s->orientation_output)
                         : node_description(s->initial().x_W, s->initial().R_WN, s->orientation_output);
  };
  for (const StructNode* s : regular) *log << "structural node: " << s->label() << ' ' << description(s) << '\n';
  for (const StructNode* s : relative_frame)
    *log << "relative frame structural node: " << s->label() << ' ' << description(s) << '\n';
  for (const auto& e : model.elements()) {
    const std::string line = e->log_line();
    if (!line.empty()) *log << line << '\n';
  }
  // Numbering of the structural nodes (appendix E.3.3-E.3.5), dummy nodes excluded; indices are
  // 0-based. The "struct node" lists hold the 6-dof nodes, the "struct displacement node" lists
  // every node (displacement-only ones included).
  struct Numbering {
    std::string dofs, eqs, mdofs, meqs, labels;
  } rigid, all;
  for (const StructNode* s : regular) {
    if (s->is_dummy()) continue;
    for (Numbering* num : {&rigid, &all}) {
      if (num == &rigid && s->is_displacement()) continue;
      num->dofs += fmt::format(" {}", s->dof_index());
      num->eqs += fmt::format(" {}", s->eq_index());
      num->labels += fmt::format(" {}", s->label());
      if (s->has_inertia_block()) {
        num->mdofs += fmt::format(" {}", s->momentum_dof_index());
        num->meqs += fmt::format(" {}", s->momentum_eq_index());
      }
    }
  }
  for (const auto& [kind, num] : {std::pair{"struct node", &rigid}, std::pair{"struct displacement node", &all}}) {
    *log << kind << " dofs:" << num->dofs << '\n' << kind << " eqs:" << num->eqs << '\n';
    *log << kind << " momentum dofs:" << num->mdofs << '\n' << kind << " momentum eqs:" << num->meqs << '\n';
  }
  *log << "struct node labels:" << rigid.labels << '\n' << "struct displacement node labels:" << all.labels << '\n';
  // MBDyn prints the table when it has read the input, before the simulation sets the step
  // size: TimeStep reads 0 there.
  *log << "Symbol table:\n";
  math::MathParser& math = model.math();
  const math::Value* dt = math.find_variable("TimeStep");
  const math::Value dt_saved = dt ? *dt : math::Value(0.0);
  if (dt) math.set_variable("TimeStep", math::Value(0.0));
  math.print_symbol_table(*log);
  if (dt) math.set_variable("TimeStep", dt_saved);
}

void ModelOutput::update_accelerations() {
  for (auto& a : autostruct_) {
    if (!a.node->compute_accelerations) continue;
    Vec3 xpp, wp;
    node_accelerations(*a.node, nodal_inertia(a.bodies, *a.node), xpp, wp);
    a.node->set_accelerations(xpp, wp);
  }
}

void ModelOutput::write_autostruct() {
  const auto& cfg = manager_.config();
  std::ostream* ine = cfg.inertia_text ? manager_.text(OutputFile::Ine) : nullptr;
  for (const auto& a : autostruct_) {
    if (!a.node->output_enabled()) continue;
    const StructNode& n = *a.node;
    if (ine && n.autostruct_output) {
      // §6.5 "The .ine Output File": label, beta, gamma, beta', gamma'.
      manager_.write_label(*ine, n.label());
      manager_.write(*ine, n.beta());
      manager_.write(*ine, n.gamma());
      manager_.write(*ine, n.beta_dot());
      manager_.write(*ine, n.gamma_dot());
      *ine << '\n';
    }
    if (a.nc_B >= 0) {
      manager_.put(a.nc_B, n.beta());
      manager_.put(a.nc_G, n.gamma());
      manager_.put(a.nc_BP, n.beta_dot());
      manager_.put(a.nc_GP, n.gamma_dot());
    }
  }
}

void ModelOutput::write_drives(double t) {
  const auto& drives = manager_.config().drives;
  if (drives.empty()) return;
  std::ostream* drv = manager_.text(OutputFile::Drv);
  if (!drv) return;
  for (const auto& d : drives) {
    manager_.write_label(*drv, d.label);
    if (d.value) manager_.write(*drv, d.drive->value(t));
    if (d.derivative) manager_.write(*drv, d.drive->derivative(t));
    *drv << '\n';
  }
}

void ModelOutput::write_entities(Model& model) {
  for (const auto& n : model.nodes())
    if (n->output_enabled()) n->output(manager_);
  write_autostruct();
  for (Element* e : output_order_)
    if (e->output_enabled()) e->output(manager_);
}

void ModelOutput::derivatives_done(double t, int iterations, double residual_error) {
  const std::lock_guard lock(mutex_);
  manager_.write_derivatives_line(t, iterations, residual_error);
}

void ModelOutput::derivatives(Model& model, double t, int iterations, double residual_error,
                              bool simulation_follows) {
  const std::lock_guard lock(mutex_);
  initial_output(model, t, 0.0, iterations, residual_error, simulation_follows);
}

void ModelOutput::dummy_steps(Model& model, double t_derivatives, int derivatives_iterations,
                              double derivatives_error, double t, double dt, int iterations,
                              double residual_error) {
  const std::lock_guard lock(mutex_);
  manager_.write_dummy_steps_line(t, iterations, residual_error);
  initial_output(model, t, dt, iterations, residual_error);
}

void ModelOutput::initial_output(Model& model, double t, double dt, int iterations, double residual_error,
                                 bool simulation_follows) {
  update_accelerations();
  // Like every step, the initial one is written only where the output meter (or frequency) says
  // so: MBDyn's .out shows "Step 0 ... 0" under a meter that is 0 at the start.
  const bool out = manager_.begin_step(0, t, dt);
  if (out) {
    write_entities(model);
    write_drives(t);
  }
  // MBDyn's "Step 0" line shows the time plus the last (dummy) step: 3e-06 after two dummy
  // steps of 1e-06 ending at 2e-06.
  output::StepLine line;
  line.step = 0;
  line.time = t + dt;
  line.time_step = dt;
  line.iterations = iterations;
  line.residual_error = residual_error;
  line.output = out;
  manager_.end_step(line, simulation_follows);
  if (!simulation_follows) manager_.write_out_line("End of derivatives; no simulation is required.");
  written_ = {0, t};
}

void ModelOutput::initial_configuration(Model& model, double t) {
  const std::lock_guard lock(mutex_);
  update_accelerations();
  if (manager_.begin_step(0, t, 0.0)) {
    // After a failure: an entity whose output evaluates the function that failed (a force's
    // drive) throws before it writes its line; the others are written.
    auto guarded = [](auto&& write) {
      try {
        write();
      } catch (const std::exception&) {
      }
    };
    for (const auto& n : model.nodes())
      if (n->output_enabled()) guarded([&] { n->output(manager_); });
    guarded([&] { write_autostruct(); });
    for (Element* e : output_order_)
      if (e->output_enabled()) guarded([&] { e->output(manager_); });
    guarded([&] { write_drives(t); });
  }
  manager_.end_step(output::StepLine{}, false);
  written_ = {0, t};
}

void ModelOutput::input_only(Model& model, double t) {
  const std::lock_guard lock(mutex_);
  update_accelerations();
  if (manager_.begin_step(0, t, 0.0)) {
    write_entities(model);
    write_drives(t);
  }
  manager_.end_step(output::StepLine{}, false);
  manager_.write_out_line("End of Input; no simulation or assembly is required.");
}

void ModelOutput::step(Model& model, long step, double t, double dt, const integrators::StepResult& r) {
  const std::lock_guard lock(mutex_);
  if (!r.converged) {
    manager_.flush();
    return;
  }
  update_accelerations();
  const bool out = manager_.begin_step(step, t, dt);
  if (out) {
    write_entities(model);
    write_drives(t);
  }
  output::StepLine line;
  line.step = step;
  line.time = t;
  line.time_step = dt;
  line.iterations = r.iterations;
  line.residual_error = r.residual_error;
  line.solution_error = r.solution_error;
  line.output = out;
  manager_.end_step(line);  written_ = {step, t};
}

void ModelOutput::close() {
  const std::lock_guard lock(mutex_);
  manager_.close();
}

ModelOutput::Written ModelOutput::close_now() {
  // Never released: the process ends, and no later write of the run may reopen a file.
  mutex_.lock();
  try {
    manager_.close();
  } catch (const std::exception&) {
    // the process ends: what could be written is
  }
  return written_;
}

}  // namespace mbl

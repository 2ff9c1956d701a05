#include "mbdyn-like/phases/model_output.hpp"

#include <fmt/format.h>

#include <map>

#include "mbdyn-like/core/rotations.hpp"

namespace mbl {

ModelOutput::ModelOutput(output::OutputConfig config) : manager_(std::move(config)) {}

void ModelOutput::setup(Model& model) {
  manager_.begin_setup();
  std::vector<unsigned> struct_labels, autostruct_labels;
  for (const auto& n : model.nodes()) {
    if (auto* s = dynamic_cast<StructNode*>(n.get())) {
      struct_labels.push_back(s->label());
      if (s->is_dynamic()) autostruct_labels.push_back(s->label());
    }
  }
  if (!struct_labels.empty()) manager_.declare_group("node", "struct", struct_labels);
  // Element groups in MBDyn's NetCDF naming ("force" holds forces and couples).
  std::map<std::string, std::vector<unsigned>> groups;
  if (!autostruct_labels.empty()) groups["autostruct"] = autostruct_labels;
  for (const auto& e : model.elements()) {
    std::string k(e->kind());
    if (k == "couple") k = "force";
    if (k == "gravity" || k == "body") continue;
    groups[k].push_back(e->label());
  }
  for (const auto& [k, labels] : groups) manager_.declare_group("elem", k, labels);
  for (const auto& n : model.nodes()) n->output_setup(manager_);
  for (const auto& e : model.elements()) e->output_setup(manager_);
  write_log(model);
  manager_.end_setup();
}

void ModelOutput::write_log(Model& model) {
  std::ostream* log = manager_.text(OutputFile::Log);
  if (!log) return;
  for (const auto& n : model.nodes()) {
    auto* s = dynamic_cast<StructNode*>(n.get());
    if (!s) continue;
    const Vec3 e = rot::R_to_euler123(s->R_WN()) * (180.0 / M_PI);
    *log << fmt::format("structural node: {} {} {} {} euler123 {} {} {}\n", s->label(), s->x_W()[0],
                        s->x_W()[1], s->x_W()[2], e[0], e[1], e[2]);
  }
  for (const auto& e : model.elements()) {
    const std::string line = e->log_line();
    if (!line.empty()) *log << line << '\n';
  }
}

void ModelOutput::write_entities(Model& model) {
  for (const auto& n : model.nodes()) n->output(manager_);
  for (const auto& e : model.elements()) e->output(manager_);
}

void ModelOutput::derivatives(Model& model, double t, int iterations, double residual_error) {
  manager_.write_derivatives_line(t, iterations, residual_error);
  const bool out = manager_.begin_step(0, t, 0.0, true);
  if (out) write_entities(model);
  output::StepLine line;
  line.step = 0;
  line.time = t;
  line.iterations = iterations;
  line.residual_error = residual_error;
  line.output = out;
  manager_.end_step(line);
}

void ModelOutput::step(Model& model, long step, double t, double dt, const integrators::StepResult& r) {
  if (!r.converged) {
    manager_.flush();
    return;
  }
  const bool out = manager_.begin_step(step, t, dt);
  if (out) write_entities(model);
  output::StepLine line;
  line.step = step;
  line.time = t;
  line.time_step = dt;
  line.iterations = r.iterations;
  line.residual_error = r.residual_error;
  line.solution_error = r.solution_error;
  line.output = out;
  manager_.end_step(line);
}

void ModelOutput::close() { manager_.close(); }

}  // namespace mbl

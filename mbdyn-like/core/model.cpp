#include "mbdyn-like/core/model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <thread>

#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/mbdyn_types.hpp"
#include "mbdyn-like/core/model_second_order.hpp"
#include "parser/errors.hpp"

namespace mbl {

Model::Model() {
  drive_env_.math = &math_;
  install_model_functions();
  install_plugins();
}
Model::~Model() = default;

Node& Model::add_node(std::unique_ptr<Node> n) {
  node_index_[{std::string(n->kind()), n->label()}] = n.get();
  nodes_.push_back(std::move(n));
  return *nodes_.back();
}

namespace {
/// The key of an element kind: written as in the cards (blanks and case ignored), MBDyn's own type
/// names (enums.cc psReadElemsElems, read by `element` drives, `bind`, `driven: existing`) mapped
/// to ours.
std::string element_key(std::string_view kind) {
  std::string k = CardRegistry::normalise(kind);
  if (k == "aerodynamicelement") return "aerodynamic";
  if (k == "rotor") return "inducedvelocity";
  if (k == "loadable") return "userdefined";
  if (k == "socketstreamoutput") return "outputelement";
  return k;
}
}  // namespace

Element& Model::add_element(std::unique_ptr<Element> e) {
  element_index_[{element_key(e->kind()), e->label()}] = e.get();
  elements_.push_back(std::move(e));
  return *elements_.back();
}

std::unique_ptr<Element> Model::release_last_element() {
  if (elements_.empty()) return nullptr;
  std::unique_ptr<Element> e = std::move(elements_.back());
  elements_.pop_back();
  auto it = element_index_.find({element_key(e->kind()), e->label()});
  if (it != element_index_.end() && it->second == e.get()) element_index_.erase(it);
  return e;
}

Node* Model::find_node(std::string_view kind, unsigned label) const {
  auto it = node_index_.find({std::string(kind), label});
  return it == node_index_.end() ? nullptr : it->second;
}

StructNode* Model::find_struct_node(unsigned label) const {
  return dynamic_cast<StructNode*>(find_node("structural", label));
}

Element* Model::find_element(std::string_view kind, unsigned label) const {
  const std::string key = element_key(kind);
  auto it = element_index_.find({key, label});
  // MBDyn's `force` type names couples too (they share their labels).
  if (it == element_index_.end() && key == "force") it = element_index_.find({"couple", label});
  return it == element_index_.end() ? nullptr : it->second;
}

const std::vector<const Node*>& Model::connected_nodes(const Element& e) const {
  static const std::vector<const Node*> none;
  auto it = connected_nodes_.find(&e);
  return it == connected_nodes_.end() ? none : it->second;
}

parser::PrivateDataOwner* Model::find_element_data(std::string_view kind, unsigned label) const {
  if (CardRegistry::normalise(kind) == "automaticstructural") {
    auto* n = dynamic_cast<StructNode*>(find_node("structural", label));
    return n && n->has_inertia_block() ? &n->automatic_structural() : nullptr;
  }
  return find_element(kind, label);
}

parser::PrivateDataOwner* Model::find_entity(std::string_view kind, unsigned label) {
  if (Node* n = find_node(kind, label)) return n;
  return find_element_data(kind, label);
}

void Model::setup_elements() {
  after_residual_.clear();
  convergence_votes_.clear();
  for (auto& e : elements_) {
    // What an element finds wrong in its reference configuration (a beam of zero length, ...)
    // is an input error at its card.
    try {
      e->setup(*this);
    } catch (const std::invalid_argument& what) {
      throw parser::InputError(e->where, what.what());
    }
  }
}

void Model::number_dofs() {
  dummy_nodes_.clear();
  struct_nodes_.clear();
  for (auto& n : nodes_)
    if (auto* s = dynamic_cast<StructNode*>(n.get())) {
      struct_nodes_.push_back(s);
      if (s->is_dummy()) dummy_nodes_.push_back(s);
    }
  // MBDyn's order (DofOwner::Type, mbdyn_types.hpp): nodes by type (structural, electric,
  // thermal, abstract, hydraulic), then elements by DofOwner type (joints, plates, genels, ...),
  // each type in input order; KLU, the outputs indexing unknowns and the .dof listing follow it.
  std::vector<Node*> node_order;
  for (auto& n : nodes_) node_order.push_back(n.get());
  std::stable_sort(node_order.begin(), node_order.end(), [](const Node* a, const Node* b) {
    return mbdyn_types::node_dof_owner_index(a->kind()) < mbdyn_types::node_dof_owner_index(b->kind());
  });
  std::vector<Element*> element_order;
  for (auto& e : elements_) element_order.push_back(e.get());
  std::stable_sort(element_order.begin(), element_order.end(), [](const Element* a, const Element* b) {
    return mbdyn_types::element_dof_owner_index(a->kind()) < mbdyn_types::element_dof_owner_index(b->kind());
  });
  int next = 0;
  dof_order_.clear();
  equation_order_.clear();
  // Equation types as MBDyn's GetEqType: nodes keep the default differential type, even for an
  // algebraic unknown (a pressure node's flow balance, an algebraic abstract node); the
  // algebraic unknowns of elements (joint, genel clamp multipliers) come with constraint equations.
  for (Node* n : node_order) {
    n->set_first_index(next);
    for (int k = 0; k < n->dof_count(); ++k) {
      dof_order_.push_back(n->dof_order(k));
      equation_order_.push_back(integrators::DofOrder::Differential);
    }
    next += n->dof_count();
  }
  for (Element* e : element_order) {
    e->set_first_index(next);
    for (int k = 0; k < e->dof_count(); ++k) {
      dof_order_.push_back(e->dof_order(k));
      equation_order_.push_back(e->dof_order(k));
    }
    next += e->dof_count();
  }
  n_dofs_ = next;
  second_order_.reset();
}

bool Model::externally_converged() const {
  return std::all_of(convergence_votes_.begin(), convergence_votes_.end(), [](const auto& vote) { return vote(); });
}

integrators::SecondOrderProblem* Model::second_order() {
  if (!second_order_) second_order_ = std::make_unique<ModelSecondOrder>(*this);
  return second_order_.get();
}

void Model::initial_state(Vector& y, Vector& yp) const {
  y = Vector::Zero(n_dofs_);
  yp = Vector::Zero(n_dofs_);
  for (const auto& n : nodes_) n->initial_state(y, yp);
  for (const auto& e : elements_) e->initial_state(y, yp);
}

void Model::update(double t, const Vector& y, const Vector& yp) {
  // Stages of multi-stage methods solve at intermediate times: keep the drives' clock in step.
  if (t != drive_env_.time) set_time(t, drive_env_.time_step, drive_env_.step);
  y_ = &y;
  yp_ = &yp;
  for (auto& n : nodes_) n->update(y, yp);
  // Dummy nodes follow their base nodes (listed once, at numbering: no casts per iteration).
  for (StructNode* d : dummy_nodes_) d->update_dummy();
}

void Model::residual(double t, double dCoef, Vector& r, Vector* abs_r) {
  r.setZero(n_dofs_);
  if (abs_r) abs_r->setZero(n_dofs_);
  ResidualSink sink(r, abs_r);
  const StepContext c{t, dCoef, y_, yp_};
  for (auto& n : nodes_) n->residual(sink, c);
  for (auto& e : elements_) e->residual(sink, c);
  for (Element* e : after_residual_) e->after_residual(c);
}

void Model::jacobian(double t, double dCoef, integrators::SparseMatrix& J) {
  const StepContext c{t, dCoef, y_, yp_};
  const int lanes = assembly_lanes();
  last_jacobian_lanes_ = 1;
  if (lanes > 1 && lane_plan_.trace_id == J.trace_id() && J.trace_cursor() == 0) {
    if (jacobian_in_lanes(c, J)) {
      last_jacobian_lanes_ = lanes;
      return;
    }
    J.zero();  // a lane left the trace: assemble serially, recording anew
  }
  JacobianSink sink(J);
  if (lanes <= 1) {
    for (auto& n : nodes_) n->jacobian(sink, c);
    for (auto& e : elements_) e->jacobian(sink, c);
    return;
  }
  // Serial, noting where each contributor's adds start in the trace, for the next assemblies.
  const std::size_t start = J.trace_cursor();
  bool concurrent = true;
  trace_marks_.clear();
  for (auto& n : nodes_) {
    trace_marks_.push_back(J.trace_cursor());
    concurrent = concurrent && n->concurrent_jacobian();
    n->jacobian(sink, c);
  }
  for (auto& e : elements_) {
    trace_marks_.push_back(J.trace_cursor());
    concurrent = concurrent && e->concurrent_jacobian();
    e->jacobian(sink, c);
  }
  trace_marks_.push_back(J.trace_cursor());
  lane_plan_.trace_id = 0;
  if (concurrent && start == 0 && J.tracing()) plan_lanes(lanes, J.trace_id());
}

// A model is worth several threads from about this many nodes and elements per thread (the
// chain N = 1000, 3000 contributors, takes about 0.5 ms per Jacobian; a thread's start ~20 us).
constexpr std::size_t kContributorsPerLane = 1000;

int Model::assembly_lanes() const {
  if (assembly_threads_ == 1) return 1;
  const std::size_t threads = assembly_threads_ > 1 ? std::size_t(assembly_threads_)
                                                    : std::max(1u, std::thread::hardware_concurrency());
  const std::size_t by_size = (nodes_.size() + elements_.size()) / kContributorsPerLane;
  return int(std::clamp<std::size_t>(std::min(threads, by_size), 1, 64));
}

void Model::plan_lanes(int lanes, std::uint64_t trace_id) {
  // Cut contributors [a, b) into `lanes` runs of about equal trace length.
  auto cut = [&](std::size_t a, std::size_t b, LaneGroup& g) {
    g.first.assign(1, a);
    g.bounds.assign(1, trace_marks_[a]);
    const std::size_t length = trace_marks_[b] - trace_marks_[a];
    for (int k = 1; k < lanes; ++k) {
      const std::size_t target = trace_marks_[a] + length * std::size_t(k) / std::size_t(lanes);
      const std::size_t i = std::size_t(std::lower_bound(trace_marks_.begin() + std::ptrdiff_t(g.first.back()),
                                                         trace_marks_.begin() + std::ptrdiff_t(b), target) -
                                        trace_marks_.begin());
      g.first.push_back(i);
      g.bounds.push_back(trace_marks_[i]);
    }
    g.first.push_back(b);
    g.bounds.push_back(trace_marks_[b]);
  };
  cut(0, nodes_.size(), lane_plan_.nodes);
  cut(nodes_.size(), nodes_.size() + elements_.size(), lane_plan_.elements);
  lane_plan_.trace_id = trace_id;
}

bool Model::jacobian_in_lanes(const StepContext& c, integrators::SparseMatrix& J) {
  // Each group's lanes run at once (the calling thread takes the first); the elements start once
  // the nodes' terms are all in, as in the serial order.
  auto run = [&](const LaneGroup& g, auto contributor) {
    std::vector<integrators::SparseMatrix::Lane> lanes = J.lanes(g.bounds);
    if (lanes.empty()) return false;
    std::vector<std::exception_ptr> errors(lanes.size());
    auto work = [&](std::size_t k) {
      try {
        JacobianSink sink(lanes[k]);
        for (std::size_t i = g.first[k]; i < g.first[k + 1]; ++i) contributor(i).jacobian(sink, c);
      } catch (...) {
        errors[k] = std::current_exception();
      }
    };
    std::vector<std::thread> threads;
    for (std::size_t k = 1; k < lanes.size(); ++k) threads.emplace_back(work, k);
    work(0);
    for (auto& th : threads) th.join();
    // The first failure in the serial order is the serial assembly's.
    for (auto& e : errors)
      if (e) std::rethrow_exception(e);
    return J.finish_lanes(lanes);
  };
  const bool ok = run(lane_plan_.nodes, [&](std::size_t i) -> Node& { return *nodes_[i]; }) &&
                  run(lane_plan_.elements, [&](std::size_t i) -> Element& { return *elements_[i - nodes_.size()]; });
  if (!ok) lane_plan_.trace_id = 0;
  return ok;
}

std::string Model::elements_at_dof(int i) {
  std::string out;
  const StepContext c{drive_env_.time, 1.0, y_, yp_};
  for (auto& e : elements_) {
    integrators::SparseMatrix J(n_dofs_);
    JacobianSink sink(J);
    e->jacobian(sink, c);
    const auto& col_ptr = J.col_ptr();
    const auto& row_idx = J.row_idx();
    const auto& values = J.values();
    bool touches = false;
    for (int col = 0; col < n_dofs_ && !touches; ++col)
      for (int k = col_ptr[col]; k < col_ptr[col + 1] && !touches; ++k)
        touches = values[k] != 0.0 && (col == i || row_idx[k] == i);
    if (touches) out += fmt::format("{}{} {} ({})", out.empty() ? "" : ", ", e->kind(), e->label(), e->type_name());
  }
  return out.empty() ? "none" : out;
}

void Model::after_convergence(double t, Vector& y, Vector& yp) {
  const StepContext c{t, 0.0, &y, &yp};
  for (auto& e : elements_) e->after_convergence(c);
  for (auto& n : nodes_) n->after_convergence(y, yp);
  for (auto& d : stateful_drives_) d->after_convergence(t);
  y_ = &y;
  yp_ = &yp;
}

void Model::rebase_history(std::span<Vector> y_hist, std::span<Vector> yp_hist) {
  for (std::size_t j = 1; j < y_hist.size(); ++j)
    for (auto& n : nodes_) n->rebase_history(static_cast<int>(j), y_hist[j], yp_hist[j]);
}

void Model::reserve_history(int points) {
  // Dummy and displacement nodes have no orientation unknowns to rebase: no ring.
  std::vector<StructNode*> structural;
  for (auto& n : nodes_)
    if (auto* s = dynamic_cast<StructNode*>(n.get()); s && s->rebases()) structural.push_back(s);
  const std::size_t depth = std::size_t(std::max(points, 1));
  std::vector<StructNode::HistoryPoint> store(structural.size() * depth);
  for (std::size_t k = 0; k < structural.size(); ++k)
    structural[k]->use_history(std::span(store).subspan(k * depth, depth));
  node_history_ = std::move(store);
}

void Model::after_predict(double t, Vector& y, Vector& yp) {
  for (auto& n : nodes_) n->after_predict(y, yp);
  const StepContext c{t, 0.0, &y, &yp};
  for (auto& e : elements_) e->after_predict(c);
}

bool Model::in_error_norm(int i) const {
  if (dof_order_[i] != integrators::DofOrder::Differential) return false;
  for (const StructNode* n : struct_nodes_)
    if (n->dof_count() == 12 && i >= n->first_index() + 6 && i < n->first_index() + 12) return false;
  return true;
}

void Model::save_checkpoint() {
  node_checkpoints_.resize(struct_nodes_.size());
  for (std::size_t k = 0; k < struct_nodes_.size(); ++k) node_checkpoints_[k] = struct_nodes_[k]->checkpoint();
  for (auto& e : elements_) e->save_step_state();
  for (auto& d : stateful_drives_) d->save_step_state();
}

void Model::restore_checkpoint() {
  for (std::size_t k = 0; k < node_checkpoints_.size(); ++k) struct_nodes_[k]->restore(node_checkpoints_[k]);
  for (auto& e : elements_) e->restore_step_state();
  for (auto& d : stateful_drives_) d->restore_step_state();
}

void Model::derivatives_update(Vector& y, Vector& yp) {
  for (auto& n : nodes_) n->derivatives_update(y, yp);
}

void Model::set_time(double t, double dt, long step) {
  drive_env_.time = t;
  drive_env_.time_step = dt;
  drive_env_.step = step;
  math_.set_variable("Time", math::Value(t));
  math_.set_variable("TimeStep", math::Value(dt));
  math_.set_variable("Step", math::Value(static_cast<std::int64_t>(step)));
}

std::string Model::describe_dof(int i) const {
  static const char* kStructNames[] = {"position x", "position y", "position z",
                                       "orientation g1", "orientation g2", "orientation g3",
                                       "momentum x", "momentum y", "momentum z",
                                       "momenta moment x", "momenta moment y", "momenta moment z"};
  for (const auto& n : nodes_)
    if (i >= n->first_index() && i < n->first_index() + n->dof_count()) {
      const int k = i - n->first_index();
      if (n->kind() == "structural" && k < 12)
        return fmt::format("{} node {}: {}", n->kind(), n->label(), kStructNames[k]);
      return fmt::format("{} node {}: unknown {}", n->kind(), n->label(), k + 1);
    }
  for (const auto& e : elements_)
    if (i >= e->first_index() && i < e->first_index() + e->dof_count())
      return fmt::format("{} {} ({}): unknown {}", e->kind(), e->label(), e->type_name(),
                         i - e->first_index() + 1);
  return fmt::format("unknown {}", i);
}

}  // namespace mbl

#pragma once
// The model (MBDyn's DataManager, minus reading): owns nodes, elements, drives and the math
// environment; numbers the unknowns; and is the integrators::Problem the solution phases solve.
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "integrators/problem.hpp"
#include "mbdyn-like/core/drive_caller.hpp"
#include "mbdyn-like/core/element.hpp"
#include "mbdyn-like/core/gravity_field.hpp"
#include "mbdyn-like/core/node.hpp"
#include "mbdyn-like/core/step_observer.hpp"
#include "mbdyn-like/core/struct_node.hpp"
#include "parser/math/math_parser.hpp"

namespace mbl {

class ModelSecondOrder;

class Model : public integrators::Problem, public parser::EntityDirectory {
 public:
  Model();
  ~Model() override;

  // ---- contents (owned) -----------------------------------------------------------------------
  Node& add_node(std::unique_ptr<Node> n);
  Element& add_element(std::unique_ptr<Element> e);
  /// Removes the element added last and hands it back (a `driven` card wraps the element its
  /// inner card just added).
  std::unique_ptr<Element> release_last_element();
  const std::vector<std::unique_ptr<Node>>& nodes() const { return nodes_; }
  const std::vector<std::unique_ptr<Element>>& elements() const { return elements_; }
  /// Node of family `kind` with `label`, or nullptr.
  Node* find_node(std::string_view kind, unsigned label) const;
  StructNode* find_struct_node(unsigned label) const;
  Element* find_element(std::string_view kind, unsigned label) const;
  /// The nodes element `e` connects, in the order its card named them (MBDyn's
  /// Elem::GetConnectedNodes; `print: element connection`, `node connection`).
  void set_connected_nodes(const Element& e, std::vector<const Node*> nodes) { connected_nodes_[&e] = std::move(nodes); }
  const std::vector<const Node*>& connected_nodes(const Element& e) const;
  /// The private data of element `kind` `label`: find_element's, or for `automatic structural`
  /// those of the dynamic node `label` (MBDyn's automatic structural element).
  parser::PrivateDataOwner* find_element_data(std::string_view kind, unsigned label) const;
  /// parser::EntityDirectory (node/element drives).
  parser::PrivateDataOwner* find_entity(std::string_view kind, unsigned label) override;

  /// The gravity field, if a gravity element exists (bodies ask for it in setup()).
  const GravityField* gravity() const { return gravity_; }
  void set_gravity(const GravityField* g) { gravity_ = g; }
  /// Calls Element::setup on every element (after reading, before numbering).
  void setup_elements();
  /// An element whose after_residual() must run after every residual assembly registers here
  /// in its setup() (most elements keep no state between assemblies: no call for them).
  void call_after_residual(Element& e) { after_residual_.push_back(&e); }
  /// An element whose peer decides, besides the residual, when a time point has converged (a
  /// tightly coupled external force) registers its vote in setup(), as MBDyn's
  /// DataManager::ConvergedRegister: Newton converges only when every vote says so.
  void add_convergence_vote(std::function<bool()> vote) { convergence_votes_.push_back(std::move(vote)); }
  bool externally_converged() const override;

  math::MathParser& math() { return math_; }
  DriveEnvironment& drive_env() { return drive_env_; }
  /// Drives with memory register here to be advanced after each converged step.
  void register_drive(DriveCallerPtr d) { stateful_drives_.push_back(std::move(d)); }

  /// Observers notified by the solution phases around each time step (step_observer.hpp).
  void add_step_observer(std::shared_ptr<StepObserver> o) { step_observers_.push_back(std::move(o)); }
  const std::vector<std::shared_ptr<StepObserver>>& step_observers() const { return step_observers_; }

  /// Numbers every unknown in MBDyn's order (nodes by type, then elements by DofOwner type,
  /// each type in input order: mbdyn_types.hpp) and sizes the state.
  void number_dofs();
  /// Initial y, y' from the nodes' and elements' initial conditions.
  void initial_state(Vector& y, Vector& yp) const;

  // ---- integrators::Problem -------------------------------------------------------------------
  int size() const override { return n_dofs_; }
  integrators::DofOrder dof_order(int i) const override { return dof_order_[i]; }
  /// Error control: the differential unknowns but the dynamic structural nodes' momenta (the
  /// velocity level of the index-3 constraints, docs/adaptive.md).
  bool in_error_norm(int i) const override;
  integrators::DofOrder equation_order(int i) const override { return equation_order_[i]; }
  void update(double t, const Vector& y, const Vector& yp) override;
  void residual(double t, double dCoef, Vector& r, Vector* abs_r) override;
  void jacobian(double t, double dCoef, integrators::SparseMatrix& J) override;
  void after_convergence(double t, Vector& y, Vector& yp) override;
  void rebase_history(std::span<Vector> y_hist, std::span<Vector> yp_hist) override;
  /// The structural nodes' rings of converged points, `points` deep, in one contiguous store
  /// in node order (the per-step loops over the nodes read them in sequence).
  void reserve_history(int points) override;
  void after_predict(double t, Vector& y, Vector& yp) override;
  /// The structural nodes' references, previous configuration and rings (StructNode::Checkpoint).
  void save_checkpoint() override;
  void restore_checkpoint() override;
  void derivatives_update(Vector& y, Vector& yp) override;
  /// The second-order view (model_second_order.hpp), built at the first call after numbering.
  integrators::SecondOrderProblem* second_order() override;

  /// Threads of the Jacobian assembly (`threads:` card): 0 as many as the machine has, on models
  /// large enough to pay; 1 serial. The results are the serial ones bit for bit.
  void set_assembly_threads(int n) { assembly_threads_ = n; }
  /// Threads the last Jacobian assembly ran on (1: serial).
  int last_jacobian_lanes() const { return last_jacobian_lanes_; }

  /// Sets Time/TimeStep/Step for drives and the math environment.
  void set_time(double t, double dt, long step);

  /// `model::current("name")` values published by the reader of the card being read (e.g. "L",
  /// the initial distance, while a distance joint reads its drive).
  void set_current(const std::string& name, double v) { current_values_[name] = v; }
  void clear_current() { current_values_.clear(); }
  /// Publishes `model::current` values for the lifetime of the guard (cleared on any exit).
  struct CurrentScope {
    CurrentScope(Model& m, std::initializer_list<std::pair<const char*, double>> values) : model(m) {
      for (const auto& [name, v] : values) model.set_current(name, v);
    }
    ~CurrentScope() { model.clear_current(); }
    CurrentScope(const CurrentScope&) = delete;
    CurrentScope& operator=(const CurrentScope&) = delete;
    Model& model;
  };

  /// Description of DOF `i` for messages ("structural node 2: position y").
  std::string describe_dof(int i) const;
  /// The elements whose Jacobian (at the current time and state) has an entry in row or column
  /// `i`, as "joint 1 (Clamp), body 2 (Body)" or "none": what a singular matrix at unknown i involves.
  std::string elements_at_dof(int i);

 private:
  math::MathParser math_;
  DriveEnvironment drive_env_;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<std::unique_ptr<Element>> elements_;
  std::map<std::pair<std::string, unsigned>, Node*> node_index_;
  std::map<std::pair<std::string, unsigned>, Element*> element_index_;
  std::map<const Element*, std::vector<const Node*>> connected_nodes_;
  std::vector<DriveCallerPtr> stateful_drives_;
  std::vector<std::shared_ptr<StepObserver>> step_observers_;
  std::vector<StructNode*> dummy_nodes_;  ///< filled by number_dofs()
  std::vector<StructNode*> struct_nodes_;  ///< filled by number_dofs()
  std::vector<StructNode::Checkpoint> node_checkpoints_;  ///< save_checkpoint()
  std::vector<StructNode::HistoryPoint> node_history_;  ///< reserve_history()
  std::vector<Element*> after_residual_;  ///< filled by setup_elements()
  std::vector<std::function<bool()>> convergence_votes_;  ///< filled by setup_elements()
  const GravityField* gravity_ = nullptr;
  std::map<std::string, double> current_values_;
  void install_model_functions();
  void install_plugins();  ///< [dof, ...], [node, ...], [element, ...] (model_plugins.cpp)
  int n_dofs_ = 0;
  std::vector<integrators::DofOrder> dof_order_, equation_order_;
  std::unique_ptr<ModelSecondOrder> second_order_;
  const Vector* y_ = nullptr;
  const Vector* yp_ = nullptr;

  // ---- parallel Jacobian assembly (model.cpp) ---------------------------------------------------
  int assembly_threads_ = 0;
  int last_jacobian_lanes_ = 1;
  int assembly_lanes() const;
  /// The last serial assembly's trace positions, where each node's and element's adds start
  /// (one more: the end); the lanes are cut from them.
  std::vector<std::size_t> trace_marks_;
  /// Nodes, then elements, each cut into lanes of about equal trace length: the contributors
  /// [first[k], first[k + 1]) of a group add the trace segment [bounds[k], bounds[k + 1]).
  struct LaneGroup {
    std::vector<std::size_t> first, bounds;
  };
  struct LanePlan {
    std::uint64_t trace_id = 0;  ///< 0: none (the trace has changed, or a contributor is not concurrent)
    LaneGroup nodes, elements;
  } lane_plan_;
  void plan_lanes(int lanes, std::uint64_t trace_id);
  /// Adds the Jacobian through the lane plan; false (J to be zeroed) when a lane left the trace.
  bool jacobian_in_lanes(const StepContext& c, integrators::SparseMatrix& J);
};

}  // namespace mbl

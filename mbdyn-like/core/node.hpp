#pragma once
// Nodes own unknowns of the global state (MBDyn's DofOwner). The model numbers them; a node
// then finds its unknowns at first_index() .. first_index() + dof_count() - 1.
#include <iosfwd>
#include <string>
#include <string_view>

#include "mbdyn-like/core/assembly.hpp"
#include "mbdyn-like/core/output_sink.hpp"
#include "parser/read_context.hpp"
#include "parser/source.hpp"

namespace mbl {

class Node : public parser::PrivateDataOwner {
 public:
  explicit Node(unsigned label) : label_(label) {}
  ~Node() override = default;

  unsigned label() const { return label_; }
  /// Card family, as in the .log and in `node` drives: "structural", "abstract", ...
  virtual std::string_view kind() const = 0;

  virtual int dof_count() const = 0;
  virtual DofOrder dof_order(int i) const = 0;
  void set_first_index(int i) { first_index_ = i; }
  int first_index() const { return first_index_; }

  /// Initial values of this node's unknowns (called once, after numbering).
  virtual void initial_state(Vector& y, Vector& yp) const = 0;
  /// New iterate (see integrators::Problem::update).
  virtual void update(const Vector& y, const Vector& yp) = 0;
  /// Contributions the node itself makes (none for most nodes).
  virtual void residual(ResidualSink&, const StepContext&) {}
  virtual void jacobian(JacobianSink&, const StepContext&) {}
  /// Whether jacobian() may run on several nodes and elements at once (it writes nothing but
  /// its sink and reads nothing another jacobian() writes): the parallel assembly needs it of all.
  virtual bool concurrent_jacobian() const { return false; }

  // Rotation-aware history hooks (integrators::Problem); no-ops for non-rotational nodes.
  virtual void after_convergence(Vector& y, Vector& yp) {}
  virtual void rebase_history(int j, Vector& y, Vector& yp) const {}
  virtual void after_predict(Vector& y, Vector& yp) {}
  /// Derivatives phase: restores the derivatives the node keeps as given.
  virtual void derivatives_update(Vector& y, Vector& yp) const {}

  virtual void output_setup(OutputSink&) {}
  virtual void output(OutputSink&) const {}
  bool output_enabled() const { return output_; }

  // ---- `print: dof description, equation description` (the .dof listing) ---------------------
  /// MBDyn's DescribeDof/DescribeEq text: lines starting with `prefix`, indices 1-based from the
  /// 0-based `first`; `initial`: the unknowns of the initial assembly. Nothing where MBDyn
  /// describes none (abstract, electric, ... nodes).
  virtual void describe_dofs(std::ostream&, std::string_view prefix, int first, bool initial) const {}
  virtual void describe_equations(std::ostream&, std::string_view prefix, int first, bool initial) const {}
  /// Unknowns during MBDyn's initial assembly (iGetInitialNumDof): none but structural nodes'.
  virtual int initial_dof_count() const { return 0; }
  void set_output_enabled(bool on) { output_ = on; }

  // PrivateDataOwner: none by default.
  // By default a name is looked up in the kind's listing (private_data_info).
  unsigned private_data_index(std::string_view name) const override {
    return parser::private_data_index_in_listing(*this, name);
  }
  unsigned private_data_count() const override { return 0; }
  double private_data(unsigned) const override { return 0.0; }

  parser::SourceLocation where;  ///< the card that defined it
  std::string name;              ///< optional `name, "..."` of the card

 private:
  unsigned label_;
  int first_index_ = -1;
  bool output_ = true;
};

}  // namespace mbl

#pragma once
// State space genels (input manual §8.9.1, `state space SISO` / `state space MIMO`): a linear
// system E x' = A x + B u, y = C x + D u with its own state x (differential unknowns of the
// element). Each input u_j is the value of a NodeDof or a drive caller (drives enter explicitly,
// no Jacobian, as MBDyn treats drive callers); each output y_i is written as the equation of
// an output NodeDof: 0 = C x + D u - y. The `scalar filter` genel (§8.9) is read into one of
// these (a canonical realisation of its transfer function).
#include <optional>
#include <string>
#include <vector>

#include "elements/genels/node_dof.hpp"
#include "mbdyn-like/core/drive_caller.hpp"
#include "mbdyn-like/core/element.hpp"

namespace mbl::elements {

/// One scalar input of a genel: a node degree of freedom or a drive caller.
struct GenelInput {
  std::optional<NodeDof> dof;
  DriveCallerPtr drive;
  double value(const StepContext& c) const { return dof ? dof->value(c) : drive->value(c.t); }
};
/// `{[node dof,] <NodeDof> | drive, <DriveCaller>}` (MBDyn's ScalarValue).
GenelInput read_genel_input(parser::CardReader& in, BuildContext& ctx);

struct StateSpaceParams {
  std::vector<NodeDof> outputs;
  std::vector<GenelInput> inputs;
  Matrix E, A, B, C, D;  ///< E empty: identity; D empty: no feedthrough
  Vector x0, xp0;        ///< empty: zero
};

class StateSpaceGenel final : public Element {
 public:
  /// `type`: the card's type name (state space SISO, state space MIMO, scalar filter).
  StateSpaceGenel(unsigned label, StateSpaceParams p, std::string type);

  std::string_view kind() const override { return "genel"; }
  std::string_view type_name() const override { return type_; }
  int dof_count() const override { return static_cast<int>(p_.A.rows()); }
  DofOrder dof_order(int) const override { return DofOrder::Differential; }
  void setup(Model& model) override;
  void initial_state(Vector& y, Vector& yp) const override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;

 private:
  Vector inputs(const StepContext& c) const;
  StateSpaceParams p_;
  std::string type_;
  const DriveEnvironment* env_ = nullptr;  ///< the model's clock, for drive inputs at the start
};

}  // namespace mbl::elements

#pragma once
// Elements add residual and Jacobian contributions over the unknowns of the nodes they connect
// and over their own unknowns (Lagrange multipliers, internal states). See assembly.hpp for the
// sign convention. Elements never read cards (their readers build them from a Params struct)
// and never know which integrator runs.
#include <iosfwd>
#include <string>
#include <string_view>

#include "mbdyn-like/core/assembly.hpp"
#include "mbdyn-like/core/output_sink.hpp"
#include "parser/read_context.hpp"
#include "parser/source.hpp"

namespace mbl {

class Model;

class Element : public parser::PrivateDataOwner {
 public:
  explicit Element(unsigned label) : label_(label) {}
  ~Element() override = default;

  unsigned label() const { return label_; }
  /// Card family, as in the .log and NetCDF: "joint", "body", "force", "couple", "gravity",
  /// "beam", "genel", "inertia", ...
  virtual std::string_view kind() const = 0;
  /// The specific type as MBDyn names it in the .log / NetCDF `type` attribute
  /// ("revolute pin", "Clamp", ...).
  virtual std::string_view type_name() const = 0;

  /// Called once after the whole deck is read (resolve gravity, other elements, ...).
  virtual void setup(Model&) {}

  // ---- own unknowns ------------------------------------------------------------------------------
  virtual int dof_count() const { return 0; }
  virtual DofOrder dof_order(int) const { return DofOrder::Algebraic; }
  /// Equations for own unknowns are algebraic unless said otherwise.
  void set_first_index(int i) { first_index_ = i; }
  int first_index() const { return first_index_; }
  virtual void initial_state(Vector& y, Vector& yp) const {}

  // ---- regular phases --------------------------------------------------------------------------
  virtual void residual(ResidualSink& r, const StepContext& c) = 0;
  /// Called once every element has added its residual (state an element keeps from one residual
  /// assembly to the next, e.g. MBDyn's uniform gravity); only for elements that asked for it
  /// with Model::call_after_residual() in setup().
  virtual void after_residual(const StepContext& c) {}
  virtual void jacobian(JacobianSink& J, const StepContext& c) = 0;
  /// Whether jacobian() may run on several elements and nodes at once (it writes nothing but its
  /// sink and reads nothing another jacobian() writes): the parallel assembly needs it of all.
  virtual bool concurrent_jacobian() const { return false; }
  /// Called after each converged time point (internal states, reactions for output).
  virtual void after_convergence(const StepContext& c) {}
  /// Called after the prediction of each time point (elements with internal references).
  virtual void after_predict(const StepContext& c) {}
  /// A step that commits internal state in after_convergence() (an ESDIRK stage, or a step the
  /// error control rejects) may be undone: save_step_state() is called when a step begins,
  /// restore_step_state() when it is abandoned (Model::save_checkpoint/restore_checkpoint).
  virtual void save_step_state() {}
  virtual void restore_step_state() {}

  // Initial assembly (technical manual §6.1) evaluates the regular residual()/jacobian() with
  // StepContext::initial_assembly set (phases/initial_assembly.hpp).
  /// Initial assembly, velocity subproblem (technical manual eq. 6.12): the partial time
  /// derivative of the element's own holonomic constraint rows (d residual / dt at fixed nodes,
  /// dCoef = 1), one entry per own unknown, holding the phase's differences of the residual in
  /// time on entry; an element that states its rows as MBDyn's InitialAssRes does (e.g. with the
  /// drives' own derivatives, totalj.cc) overwrites them and returns true.
  virtual bool constraint_time_derivative(double /*t*/, Eigen::Ref<Vector> /*phi_t*/) const { return false; }
  /// Inverse dynamics (technical manual §6.3): the known terms of the element's own constraint
  /// rows in the velocity (order 1: Phi_t) and acceleration (order 2: d2 Phi/dt2 at zero
  /// accelerations) subproblems, so that Phi_q u + rhs = 0, one entry per own unknown, as MBDyn's
  /// AssRes(..., InverseDynamics::VELOCITY / ACCELERATION) states them (e.g. a prescribed
  /// motion's derivative drives, totalj.cc). false: the phase differentiates the residual.
  virtual bool inverse_dynamics_rates(int /*order*/, double /*t*/, Eigen::Ref<Vector> /*rhs*/) const { return false; }

  // ---- output ------------------------------------------------------------------------------------
  /// Whether the element's type and label appear in the NetCDF `elem` groups (MBDyn leaves out
  /// elements without NetCDF output of their own, e.g. membranes).
  virtual bool netcdf_listed() const { return true; }
  virtual void output_setup(OutputSink&) {}
  virtual void output(OutputSink&) const {}
  /// The element's line in the .log model description (appendix E), without the newline.
  virtual std::string log_line() const { return {}; }
  /// MBDyn's DescribeDof/DescribeEq text for `print: dof description, equation description`
  /// (the .dof listing): lines starting with `prefix`, indices 1-based from the 0-based `first`;
  /// `initial`: the unknowns of the initial assembly. Nothing where MBDyn describes none.
  virtual void describe_dofs(std::ostream&, std::string_view prefix, int first, bool initial) const {}
  virtual void describe_equations(std::ostream&, std::string_view prefix, int first, bool initial) const {}
  /// Own unknowns during MBDyn's initial assembly (iGetInitialNumDof); -1: not known here.
  virtual int initial_dof_count() const { return dof_count() == 0 ? 0 : -1; }
  /// A joint without unknowns that MBDyn does not count as deformable (Elem::bIsDeformable false,
  /// e.g. the point contact): it takes part in the initial assembly as the constraints do.
  virtual bool assembles_as_constraint() const { return false; }
  bool output_enabled() const { return output_; }
  void set_output_enabled(bool on) { output_ = on; }

  // ---- private data (element drives, `bind`) ---------------------------------------------------
  // By default a name is looked up in the kind's listing (private_data_info).
  unsigned private_data_index(std::string_view name) const override {
    return parser::private_data_index_in_listing(*this, name);
  }
  unsigned private_data_count() const override { return 0; }
  double private_data(unsigned) const override { return 0.0; }

  parser::SourceLocation where;  ///< the card that defined it
  std::string name;              ///< the card's `name, "..."` (input manual §2.1), for output

 private:
  unsigned label_;
  int first_index_ = -1;
  bool output_ = true;
};

}  // namespace mbl

#include "mbdyn-like/phases/inverse_dynamics.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <ostream>
#include <utility>
#include <vector>

#include "elements/bodies/body.hpp"
#include "integrators/linear_solver.hpp"
#include "mbdyn-like/core/rotations.hpp"
#include "mbdyn-like/phases/model_output.hpp"
#include "mbdyn-like/phases/participants.hpp"
#include "parser/errors.hpp"

namespace mbl {
namespace {

using integrators::SparseMatrix;
using Problem = InverseDynamicsSettings::Problem;

/// The elements by their role (InverseDynamicsSettings::Flags), in input order.
struct Roles {
  std::vector<Element*> prescribed;  ///< joints with multipliers whose constraints give the motion
  std::vector<Element*> ergonomy;    ///< elastic elements minimised by the position subproblem
  std::vector<Element*> torques;     ///< joints with multipliers that are the dynamics' unknowns
  std::vector<Element*> loads;       ///< right-hand side of the dynamics subproblem
  std::vector<const elements::Body*> bodies;  ///< the right-hand-side bodies, for their inertia forces
};

Roles element_roles(const Model& model, const InverseDynamicsSettings& id) {
  Roles roles;
  for (const auto& e : model.elements()) {
    const std::string_view kind = e->kind();
    const bool joint = kind == "joint";
    const InverseDynamicsSettings::Flags f = id.flags_of(*e, joint);
    if (joint && e->dof_count() > 0) {
      if (f.prescribed_motion) roles.prescribed.push_back(e.get());
      if (f.torque) roles.torques.push_back(e.get());
    }
    if (f.ergonomy) roles.ergonomy.push_back(e.get());
    // MBDyn's DataManager::AssRes: bodies, beams, forces and joints flagged right-hand side.
    const bool load_kind = joint || kind == "body" || kind == "beam" || kind == "force" || kind == "couple";
    if (f.right_hand_side && load_kind) {
      roles.loads.push_back(e.get());  // a body's residual on a static node: its weight
      if (const auto* body = dynamic_cast<const elements::Body*>(e.get())) roles.bodies.push_back(body);
    }
  }
  return roles;
}

/// One solved time: the nodes' configuration, velocities and accelerations, the multipliers.
class InverseDynamicsStep {
  /// A linear subproblem's matrix and solver, kept from step to step: KLU analyses the pattern
  /// once (SparseMatrix::pattern_version() is per matrix) and refactors afterwards.
  struct LinearSubproblem {
    LinearSubproblem(int n, const integrators::LinearSolverSpec& spec)
        : J(n), solver(integrators::make_linear_solver(spec).solver) {}
    SparseMatrix J;
    std::unique_ptr<integrators::LinearSolver> solver;
  };

 public:
  InverseDynamicsStep(Model& model, const RunSettings& s, Roles roles, std::ostream& log)
      : model_(model),
        s_(s),
        log_(log),
        roles_(std::move(roles)),
        n_(model.size()),
        position_(n_, s.linear_solver),
        velocity_(n_, s.linear_solver),
        dynamics_(n_, s.linear_solver),
        parts_jacobian_(n_),
        node_unknowns_(n_),
        kinematic_unknowns_(n_),
        dynamics_unknowns_(n_) {
    for (const auto& node : model.nodes())
      if (auto* sn = dynamic_cast<StructNode*>(node.get()); sn && sn->dof_count() > 0) nodes_.push_back(sn);
    carried_g_.assign(nodes_.size(), Vec3::Zero());
    for (const StructNode* sn : nodes_) {
      std::vector<const elements::Body*> on_node;
      for (const elements::Body* b : roles_.bodies)
        if (&b->node() == sn) on_node.push_back(b);
      if (!on_node.empty()) bodies_by_node_.emplace_back(sn, std::move(on_node));
    }
    kinematic_parts_ = roles_.prescribed;
    kinematic_parts_.insert(kinematic_parts_.end(), roles_.ergonomy.begin(), roles_.ergonomy.end());
    for (const StructNode* sn : nodes_)
      for (DofMask* m : {&node_unknowns_, &kinematic_unknowns_, &dynamics_unknowns_}) m->add_kinematics(*sn);
    for (Element* e : roles_.prescribed) kinematic_unknowns_.add_own(*e);
    for (Element* e : roles_.torques) dynamics_unknowns_.add_own(*e);
  }

  /// Unknowns of the structural nodes the problem moves (static nodes: equations at the same
  /// indices). Throws when a node carries momenta: MBDyn's inverse dynamics has none.
  void check_nodes() const {
    for (const StructNode* sn : nodes_)
      if (sn->has_inertia_block() || sn->is_displacement())
        throw std::runtime_error(fmt::format("inverse dynamics: structural node {} is {}; only static nodes are "
                                             "supported",
                                             sn->label(), sn->type_name()));
  }

  /// Solves the step at time t (step size h); y holds the configuration of the previous step as
  /// the first guess. Returns MBDyn's iteration count (Newton solves plus one per assembled
  /// linear subproblem) and the last position residual test.
  integrators::StepResult solve(double t, double h, long step, Vector& y, Vector& yp) {
    integrators::StepResult res;
    t_ = t;
    h_ = h;
    step_ = step;
    const std::array<double, 3> w1 = weights();
    // The multipliers of the last dynamics subproblem are no reactions of this one.
    for (const auto& e : model_.elements()) y.segment(e->first_index(), e->dof_count()).setZero();
    // ---- position: MBDyn's Newton on the constraints (invdataman.cc AssConstrRes/AssConstrJac,
    // POSITION; stepsol.cc). The node rows hold the weighted distance from the previous step and
    // the ergonomy forces but no reaction: each solve gives the whole multipliers, which stay out
    // of the configuration, and the matrix has no geometric stiffness. The test covers the
    // constraint rows only (DataManager::IDSetTest), so the iterations stop on the constraints
    // wherever the minimisation has got to. The orientation parameters add up from the step's
    // start (R = R(g) R_ref, as MBDyn's StructNode::Update for POSITION) ------------------------
    const int max_iter = std::abs(s_.newton.max_iterations);
    start_position(y, yp);
    int newton_iterations = 0;
    for (int iter = 0;; ++iter) {
      for (Element* e : roles_.prescribed) y.segment(e->first_index(), e->dof_count()).setZero();
      update(y, yp);
      Vector r;
      participants_residual(kinematic_parts_, context(t, y, yp), n_, r);
      Vector rhs = Vector::Zero(n_);
      double test = 0.0;
      for (StructNode* sn : nodes_) {
        const int i = sn->eq_index();
        rhs.segment<6>(i) = r.segment<6>(i);
        rhs.segment<3>(i) += w1[0] * (sn->x_prev_W() - sn->x_W());
        rhs.segment<3>(i + 3) += w1[0] * rot::R_to_rotvec(sn->R_prev_WN() * sn->R_WN().transpose());
      }
      for (Element* e : roles_.prescribed)
        for (int k = 0; k < e->dof_count(); ++k) {
          const int i = e->first_index() + k;
          rhs[i] = r[i];
          test += r[i] * r[i];
        }
      res.residual_error = std::sqrt(test);
      if (!std::isfinite(res.residual_error)) return fail(res, "the position subproblem diverged");
      if (s_.output_iterations) log_ << fmt::format("\tIteration({}) {}\n", iter, res.residual_error);
      if (res.residual_error <= s_.newton.residual_tolerance) break;
      if (iter >= max_iter)
        return fail(res, fmt::format("position subproblem: max iterations {} reached (error {:g})", max_iter,
                                     res.residual_error));
      kinematic_matrix(kinematic_parts_, w1[0], y, yp, position_.J);
      if (!factor_and_solve(position_, rhs, res, "position")) return res;
      for (std::size_t k = 0; k < nodes_.size(); ++k) {
        const int i = nodes_[k]->dof_index();
        y.segment<6>(i) += rhs.segment<6>(i);
        // MBDyn's solution vector still holds the orientation parameters of the steps before:
        // its first update applies them once more.
        if (iter == 0) y.segment<3>(i + 3) += carried_g_[k];
      }
      ++newton_iterations;
    }
    if (newton_iterations > 0)
      for (std::size_t k = 0; k < nodes_.size(); ++k) carried_g_[k] = y.segment<3>(nodes_[k]->dof_index() + 3);
    res.iterations += newton_iterations;
    // ---- velocity: Phi_q u = -Phi_t, nearest to the finite-difference velocity (linear: no
    // reaction in the node rows) -------------------------------------------------------------
    for (Element* e : roles_.prescribed) y.segment(e->first_index(), e->dof_count()).setZero();
    update(y, yp);
    kinematic_matrix(roles_.prescribed, w1[1], y, yp, velocity_.J);
    {
      const Vector phi_t = constraint_rates(1, y, yp);
      Vector rhs = Vector::Zero(n_);
      for (StructNode* sn : nodes_) {
        const int i = sn->eq_index();
        rhs.segment<3>(i) = w1[1] * (sn->x_W() - sn->x_prev_W()) / h;
        rhs.segment<3>(i + 3) = w1[1] * rot::R_to_rotvec(sn->R_WN() * sn->R_prev_WN().transpose()) / h;
      }
      for (Element* e : roles_.prescribed)
        for (int k = 0; k < e->dof_count(); ++k) rhs[e->first_index() + k] = phi_t[e->first_index() + k];
      if (!factor_and_solve(velocity_, rhs, res, "velocity")) return res;
      ++res.iterations;
      velocities_.resize(nodes_.size());
      for (std::size_t k = 0; k < nodes_.size(); ++k) velocities_[k] = rhs.segment<6>(nodes_[k]->dof_index());
      set_velocities(y, yp);
    }
    // ---- acceleration: Phi_q a = -(d/dt)^2 Phi at a = 0, with the velocity's matrix (and
    // factorisation) ------------------------------------------------------------------------------
    {
      const Vector phi_tt = constraint_rates(2, y, yp);
      Vector rhs = Vector::Zero(n_);
      for (std::size_t k = 0; k < nodes_.size(); ++k) {
        const StructNode* sn = nodes_[k];
        const int i = sn->eq_index();
        rhs.segment<3>(i) = w1[2] * (sn->v_W() - sn->v_prev_W()) / h;
        rhs.segment<3>(i + 3) = w1[2] * (sn->w_W() - sn->w_prev_W()) / h;
      }
      for (Element* e : roles_.prescribed)
        for (int k = 0; k < e->dof_count(); ++k) rhs[e->first_index() + k] = phi_tt[e->first_index() + k];
      if (!solve(velocity_, rhs, res, "acceleration")) return res;
      if (s_.inverse_dynamics.problem == Problem::UnderdeterminedFullyActuated) ++res.iterations;
      for (StructNode* sn : nodes_)
        sn->set_accelerations(rhs.segment<3>(sn->dof_index()), rhs.segment<3>(sn->dof_index() + 3));
    }
    // ---- dynamics: the torque joints' multipliers balance loads and inertia forces ------------
    {
      update(y, yp);
      Vector rhs;
      participants_residual(roles_.loads, context(t, y, yp), n_, rhs);
      add_inertia_forces(rhs);
      Vector b = Vector::Zero(n_);
      for (StructNode* sn : nodes_) b.segment<6>(sn->eq_index()) = rhs.segment<6>(sn->eq_index());
      dynamics_matrix(y, yp, dynamics_.J);
      if (!factor_and_solve(dynamics_, b, res, "dynamics")) return res;
      if (s_.inverse_dynamics.problem == Problem::UnderdeterminedFullyActuated) ++res.iterations;
      for (const auto& e : model_.elements())
        for (int k = 0; k < e->dof_count(); ++k) y[e->first_index() + k] = b[e->first_index() + k];
      update(y, yp);
    }
    res.converged = true;
    return res;
  }

 private:
  /// w1 of the position, velocity and acceleration subproblems: none for the fully actuated
  /// problem, whose constraints alone give the motion.
  std::array<double, 3> weights() const {
    if (s_.inverse_dynamics.problem == Problem::FullyActuatedCollocated) return {0.0, 0.0, 0.0};
    return s_.inverse_dynamics.w1;
  }

  /// MBDyn's inverse dynamics assembles the joints' own inverse-dynamics Jacobians (totalj.cc).
  StepContext context(double t, const Vector& y, const Vector& yp) const {
    return {.t = t, .dCoef = 1.0, .y = &y, .yp = &yp, .inverse_dynamics = true};
  }

  void update(const Vector& y, const Vector& yp) { model_.update(t_, y, yp); }

  /// [W + K_e, Phi_q^T; -Phi_q, 0] over the model's numbering (our J(c, q) = -Phi_q): node rows
  /// and the prescribed joints' rows from `parts` at dCoef = 1, the weight on the node diagonal,
  /// identity on every other unknown (whose value stays).
  void kinematic_matrix(const std::vector<Element*>& parts, double w1, const Vector& y, const Vector& yp,
                        SparseMatrix& J) {
    const DofMask& active = kinematic_unknowns_;
    J.zero();
    participants_jacobian(parts, context(t_, y, yp), parts_jacobian_);
    for_each_entry(parts_jacobian_, [&](int row, int col, double v) {
      if (active[row] && active[col]) J.add(row, col, v);
    });
    for (StructNode* sn : nodes_)
      for (int k = 0; k < 6; ++k) J.add(sn->eq_index() + k, sn->dof_index() + k, w1);
    for (int i = 0; i < n_; ++i)
      if (!active[i]) J.add(i, i, 1.0);
  }

  /// [0, Theta_q^T; -Theta_q, 0] of the torque joints; identity on the other multipliers.
  void dynamics_matrix(const Vector& y, const Vector& yp, SparseMatrix& J) {
    const DofMask& active = dynamics_unknowns_;
    J.zero();
    participants_jacobian(roles_.torques, context(t_, y, yp), parts_jacobian_);
    for_each_entry(parts_jacobian_, [&](int row, int col, double v) {
      // The node-node block is the multipliers' geometric stiffness (zero multipliers here).
      if (active[row] && active[col] && !(node_unknowns_[row] && node_unknowns_[col])) J.add(row, col, v);
    });
    for (int i = 0; i < n_; ++i)
      if (!active[i]) J.add(i, i, 1.0);
  }

  /// Factors the subproblem's matrix (KLU refactors while its pattern stays) and solves.
  bool factor_and_solve(LinearSubproblem& p, Vector& rhs, integrators::StepResult& res, const char* subproblem) {
    const integrators::FactorStatus st = p.solver->factor(p.J);
    if (!st.ok) {
      fail(res, std::string(subproblem) + " subproblem: singular matrix" +
                    (st.singular_index >= 0 ? " (at " + model_.describe_dof(st.singular_index) + ")" : std::string()));
      res.singular_index = st.singular_index;
      return false;
    }
    return solve(p, rhs, res, subproblem);
  }

  /// Solves with the subproblem's last factorisation.
  bool solve(LinearSubproblem& p, Vector& rhs, integrators::StepResult& res, const char* subproblem) {
    p.solver->solve(rhs);
    if (!rhs.allFinite()) {
      fail(res, std::string(subproblem) + " subproblem: the solution is not finite");
      return false;
    }
    return true;
  }

  integrators::StepResult& fail(integrators::StepResult& res, std::string message) {
    res.converged = false;
    res.message = std::move(message);
    return res;
  }

  /// The prescribed joints' residual (their Phi) at time tau and configuration y.
  Vector constraints_at(double tau, const Vector& y, const Vector& yp) {
    model_.set_time(tau, h_, step_);
    model_.update(tau, y, yp);
    Vector r;
    participants_residual(roles_.prescribed, context(tau, y, yp), n_, r);
    return r;
  }

  /// Phi(q(s), t + s): with `moving`, along the motion with the solved velocities and no
  /// acceleration, x(s) = x + s v, R(s) = R(s omega) R; otherwise at the solved configuration.
  Vector constraints_along(double s, bool moving, const Vector& y, const Vector& yp) {
    if (!moving) return constraints_at(t_ + s, y, yp);
    Vector ys = y;
    for (std::size_t k = 0; k < nodes_.size(); ++k) {
      const int i = nodes_[k]->dof_index();
      ys.segment<3>(i) += s * velocities_[k].head<3>();
      ys.segment<3>(i + 3) =
          rot::R_to_cgr(rot::cgr_to_R(s * velocities_[k].tail<3>()) * rot::cgr_to_R(y.segment<3>(i + 3)));
    }
    return constraints_at(t_ + s, ys, yp);
  }

  /// First (order 1) or second derivative in s of constraints_along, by central differences, or
  /// forward ones where the central ones would evaluate the drives before the initial time.
  Vector constraint_derivative(int order, bool moving, double h, const Vector& y, const Vector& yp) {
    auto f = [&](double s) { return constraints_along(s, moving, y, yp); };
    Vector d;
    if (t_ - h >= s_.initial_time) {
      d = order == 1 ? Vector((f(h) - f(-h)) / (2.0 * h)) : Vector((f(h) - 2.0 * f(0.0) + f(-h)) / (h * h));
    } else {
      const Vector f0 = f(0.0), f1 = f(h), f2 = f(2.0 * h);
      d = order == 1 ? Vector((-3.0 * f0 + 4.0 * f1 - f2) / (2.0 * h))
                     : Vector((2.0 * f0 - 5.0 * f1 + 4.0 * f2 - f(3.0 * h)) / (h * h));
    }
    restore(y, yp);
    return d;
  }

  /// The prescribed joints' known terms of the velocity (order 1: Phi_t) or acceleration
  /// (order 2) rows: each joint's own where it states them, as MBDyn's inverse-dynamics AssRes
  /// does with the derivative drives (a drive's jump, e.g. `Time <= T1`, is not differentiated
  /// across), differences of its residual otherwise.
  Vector constraint_rates(int order, const Vector& y, const Vector& yp) {
    Vector rates = Vector::Zero(n_);
    std::vector<Element*> differentiated;
    for (Element* e : roles_.prescribed)
      if (!e->inverse_dynamics_rates(order, t_, rates.segment(e->first_index(), e->dof_count())))
        differentiated.push_back(e);
    if (differentiated.empty()) return rates;
    const Vector d = order == 1 ? constraint_rate(y, yp) : constraint_acceleration(y, yp);
    for (Element* e : differentiated)
      rates.segment(e->first_index(), e->dof_count()) = d.segment(e->first_index(), e->dof_count());
    return rates;
  }

  /// Phi_t, at the solved configuration.
  Vector constraint_rate(const Vector& y, const Vector& yp) {
    return constraint_derivative(1, false, 1e-6 * std::max(1.0, std::abs(t_)), y, yp);
  }

  /// (d/ds)^2 Phi along the motion with no acceleration: the velocity-dependent terms of the
  /// acceleration constraint, (Phi_q u)_q u + 2 Phi_qt u + Phi_tt.
  Vector constraint_acceleration(const Vector& y, const Vector& yp) {
    return constraint_derivative(2, true, 1e-4 * std::max(1.0, std::abs(t_)), y, yp);
  }

  void restore(const Vector& y, const Vector& yp) {
    model_.set_time(t_, h_, step_);
    update(y, yp);
  }

  /// Start of the position subproblem: each node's converged orientation becomes the reference of
  /// g = 0 (MBDyn's StructNode::AfterConvergence for inverse dynamics). The elements that keep
  /// references of their own (beam sections) follow, as after a prediction, but they see the
  /// nodes turned by the carried parameters: MBDyn's Beam2::AfterPredict takes the nodes' gRef,
  /// the parameters left in the solution vector.
  void start_position(Vector& y, const Vector& yp) {
    update(y, yp);
    std::vector<Mat3> R_start;
    for (std::size_t k = 0; k < nodes_.size(); ++k) {
      R_start.push_back(nodes_[k]->R_WN());
      nodes_[k]->place(rot::cgr_to_R(carried_g_[k]) * R_start.back());
      y.segment<3>(nodes_[k]->dof_index() + 3).setZero();
    }
    update(y, yp);
    for (const auto& e : model_.elements()) e->after_predict(context(t_, y, yp));
    for (std::size_t k = 0; k < nodes_.size(); ++k) nodes_[k]->place(R_start[k]);
    update(y, yp);
  }

  /// The solved velocities into y': v, and g' = G(g)^-1 omega.
  void set_velocities(const Vector& y, Vector& yp) {
    for (std::size_t k = 0; k < nodes_.size(); ++k) {
      const int i = nodes_[k]->dof_index();
      yp.segment<3>(i) = velocities_[k].head<3>();
      yp.segment<3>(i + 3) = rot::cgr_G_inverse(y.segment<3>(i + 3)) * velocities_[k].tail<3>();
    }
    update(y, yp);
  }

  /// The bodies' inertia forces on their nodes (technical manual eq. 8.6 with beta' and gamma'
  /// written through the accelerations): -(m a + wp x s + w x w x s), -(s x a + J wp + w x J w).
  void add_inertia_forces(Vector& r) const {
    for (const auto& [sn, on_node] : bodies_by_node_) {
      const NodalInertia in = nodal_inertia(on_node, *sn);
      const Vec3& a = sn->xpp_W();
      const Vec3& wp = sn->wp_W();
      const Vec3& w = sn->w_W();
      const int i = sn->eq_index();
      r.segment<3>(i) -= in.m * a + wp.cross(in.s_W) + w.cross(w.cross(in.s_W));
      r.segment<3>(i + 3) -= in.s_W.cross(a) + in.J_W * wp + w.cross(in.J_W * w);
    }
  }

  Model& model_;
  const RunSettings& s_;
  std::ostream& log_;
  Roles roles_;
  int n_;
  std::vector<StructNode*> nodes_;
  /// The right-hand-side bodies grouped by node (nodes without any left out), in nodes_' order.
  std::vector<std::pair<const StructNode*, std::vector<const elements::Body*>>> bodies_by_node_;
  std::vector<Element*> kinematic_parts_;
  LinearSubproblem position_, velocity_, dynamics_;
  SparseMatrix parts_jacobian_;  ///< the participants' own Jacobian, before the subproblem's selection
  /// The nodes' unknowns (static nodes: their equations too); with the prescribed joints' own
  /// (position, velocity, acceleration subproblems) or the torque joints' (dynamics).
  DofMask node_unknowns_, kinematic_unknowns_, dynamics_unknowns_;
  std::vector<Eigen::Matrix<double, 6, 1>> velocities_;
  /// Per node, the orientation parameters MBDyn leaves in its solution vector after a step.
  std::vector<Vec3> carried_g_;
  double t_ = 0.0, h_ = 0.0;
  long step_ = 0;
};

}  // namespace

RunReport run_inverse_dynamics(Model& model, const RunSettings& s, RunOutput& output, std::ostream& log) {
  RunReport report;
  model.number_dofs();
  Vector y, yp;
  model.initial_state(y, yp);
  const double h = s.time_step;
  model.set_time(s.initial_time, h, 0);
  model.update(s.initial_time, y, yp);
  output.setup(model);
  InverseDynamicsStep step_solver(model, s, element_roles(model, s.inverse_dynamics), log);
  try {
    step_solver.check_nodes();
  } catch (const std::runtime_error& e) {
    report.status = RunStatus::SolutionFailure;
    report.message = e.what();
    output.close();
    return report;
  }
  // As MBDyn's InverseSolver: the time starts one step before the initial time and accumulates;
  // a step is solved while it is before the final time (the first one at the initial time).
  double t = s.initial_time - h;
  long step = 0;
  while (t < s.final_time) {
    const double t_new = t + h;
    model.set_time(t_new, h, step);
    integrators::StepResult r;
    try {
      r = step_solver.solve(t_new, h, step, y, yp);
    } catch (const parser::InputError& e) {
      r.converged = false;
      r.message = fmt::format("{}: {}", e.where().str(), e.message());
    } catch (const EvaluationError& e) {
      r.converged = false;
      r.message = e.what();
    }
    if (!r.converged) {
      report.status = RunStatus::SolutionFailure;
      report.message = fmt::format("inverse dynamics step {} at time {}: {}", step, t_new, r.message);
      break;
    }
    model.after_convergence(t_new, y, yp);
    output.step(model, step, t_new, h, r);
    report.total_iterations += r.iterations;
    report.steps = step;
    report.final_time = t_new;
    t += h;
    ++step;
  }
  output.close();
  return report;
}

}  // namespace mbl

#include "mbdyn-like/phases/initial_assembly.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <ostream>

#include "integrators/linear_solver.hpp"
#include "mbdyn-like/core/rotations.hpp"
#include "mbdyn-like/phases/participants.hpp"

namespace mbl {
namespace {

using integrators::SparseMatrix;

StructNode* struct_node_with_dofs(Node& n) {
  auto* s = dynamic_cast<StructNode*>(&n);
  return s && s->dof_count() > 0 ? s : nullptr;
}

/// The context of every element evaluation of this phase.
StepContext assembly_step(double t, double dCoef, const Vector& y, const Vector& yp) {
  return {.t = t, .dCoef = dCoef, .y = &y, .yp = &yp, .initial_assembly = true};
}

/// Participants' own equations whose residual depends on the velocities: the non-holonomic
/// constraints A v + b = 0 (velocity joints, velocity components of total joints). Found by
/// perturbing every node velocity and angular velocity: holonomic constraints Phi(q, t) cannot
/// notice.
std::vector<char> velocity_dependent_rows(Model& model, const std::vector<Element*>& parts, double t,
                                          const Vector& y, const Vector& yp) {
  const int n = model.size();
  std::vector<char> rows(n, 0);
  Vector r0, r1;
  model.update(t, y, yp);
  participants_residual(parts, assembly_step(t, 1.0, y, yp), n, r0);
  Vector yp1 = yp;
  int k = 0;
  for (const auto& node : model.nodes())
    if (StructNode* s = struct_node_with_dofs(*node))
      for (int j = 0; j < s->kinematic_dof_count(); ++j) yp1[s->dof_index() + j] += 0.1 * (1 + (k++ % 7));
  model.update(t, y, yp1);
  participants_residual(parts, assembly_step(t, 1.0, y, yp1), n, r1);
  model.update(t, y, yp);
  for (Element* e : parts)
    for (int j = 0; j < e->dof_count(); ++j) {
      const int i = e->first_index() + j;
      if (std::abs(r1[i] - r0[i]) > 1e-10 * (1.0 + std::abs(r0[i]) + std::abs(r1[i]))) rows[i] = 1;
    }
  return rows;
}

/// MBDyn's assembly convergence test: the 2-norm of the residual over the size of the state,
/// sqrt(r.r / (1 + X.X)) with X the node positions, velocities and the multipliers.
double assembly_test(const Vector& r, const std::vector<AssemblySpring>& springs, const Vector& y,
                     const AssemblyPositionProblem& p, const std::vector<Element*>& parts) {
  double xx = 0.0;
  for (const AssemblySpring& sp : springs)
    xx += sp.node->x_W().squaredNorm() + sp.node->v_W().squaredNorm() + sp.node->w_W().squaredNorm();
  for (Element* e : parts)
    for (int j = 0; j < e->dof_count(); ++j)
      if (p.active(e->first_index() + j)) xx += y[e->first_index() + j] * y[e->first_index() + j];
  return std::sqrt(r.squaredNorm() / (1.0 + xx));
}

/// The angular velocity the spring pulls towards: the input one, turned with the node when
/// `omega rotates` (input manual §5.2.5).
Vec3 omega_target(const AssemblySpring& sp) {
  if (!sp.omega_rotates) return sp.input.w_W;
  return sp.node->R_WN() * sp.input.R_WN.transpose() * sp.input.w_W;
}

struct VelocityOutcome {
  bool ok = true;
  double error = 0.0;  ///< convergence test before the correction
  std::string message;
};

/// Velocity subproblem (technical manual eq. 6.12) at the assembled configuration, linear in the
/// node velocities u = (v, omega):  C (u - u0) + G^T mu = 0,  G u + c = 0,  where the row of G
/// of a holonomic constraint is Phi_q (= -J(c, q) at dCoef = 1) with c = Phi_t, and that of a
/// non-holonomic one is A (= -J(c, q') at dCoef = 0) with c = b. The nodes must be in canonical
/// form with g = 0, g' = 0 and omega in w_ref, so that the g' columns are the angular velocity.
VelocityOutcome assemble_velocities(Model& model, const RunSettings& s, const std::vector<Element*>& parts,
                                    const std::vector<AssemblySpring>& springs, const std::vector<char>& velocity_rows,
                                    double t, const Vector& y, const Vector& yp, std::vector<Vec3>& v_out,
                                    std::vector<Vec3>& w_out) {
  VelocityOutcome out;
  const int n = model.size();
  const int nu = 6 * static_cast<int>(springs.size());
  std::vector<int> u_index(n, -1);  // model unknown (node x, g) -> velocity unknown
  Vector u_cur(nu), u_target(nu), stiffness(nu);
  for (std::size_t k = 0; k < springs.size(); ++k) {
    const AssemblySpring& sp = springs[k];
    // A displacement-only node keeps its three angular velocity slots, decoupled (omega = 0).
    for (int j = 0; j < 6; ++j) {
      if (j < sp.node->kinematic_dof_count()) u_index[sp.node->dof_index() + j] = 6 * static_cast<int>(k) + j;
      stiffness[6 * k + j] = sp.velocity_stiffness;
    }
    u_cur.segment<3>(6 * k) = sp.node->v_W();
    u_cur.segment<3>(6 * k + 3) = sp.node->w_W();
    u_target.segment<3>(6 * k) = sp.input.v_W;
    u_target.segment<3>(6 * k + 3) = omega_target(sp);
  }
  std::vector<int> c_index(n, -1);  // participant equation -> constraint row
  int nc = 0;
  for (Element* e : parts)
    for (int j = 0; j < e->dof_count(); ++j) c_index[e->first_index() + j] = nu + nc++;
  const int m = nu + nc;

  model.update(t, y, yp);
  SparseMatrix J1(n), J0(n);
  participants_jacobian(parts, assembly_step(t, 1.0, y, yp), J1);
  participants_jacobian(parts, assembly_step(t, 0.0, y, yp), J0);
  Vector r, r_h, r_h2;
  participants_residual(parts, assembly_step(t, 1.0, y, yp), n, r);
  // Phi_t by forward differences in time, Richardson-extrapolated to second order:
  // 2 D(h/2) - D(h).
  const double h = 1e-6 * std::max(1.0, std::abs(t));
  model.update(t + h, y, yp);
  participants_residual(parts, assembly_step(t + h, 1.0, y, yp), n, r_h);
  model.update(t + h / 2, y, yp);
  participants_residual(parts, assembly_step(t + h / 2, 1.0, y, yp), n, r_h2);
  model.set_time(t, s.time_step, 0);
  model.update(t, y, yp);
  Vector phi_t = (4.0 * (r_h2 - r) - (r_h - r)) / h;
  // Where an element states its own (MBDyn's InitialAssRes, e.g. a drive's derivative taken as
  // the mean of both sides at the drive's start), that one.
  for (Element* e : parts)
    if (e->dof_count() > 0) {
      Vector own = phi_t.segment(e->first_index(), e->dof_count());
      if (e->constraint_time_derivative(t, own)) phi_t.segment(e->first_index(), e->dof_count()) = own;
    }

  SparseMatrix A(m);
  Vector rhs = Vector::Zero(m), c_cur = Vector::Zero(m);
  for (int i = 0; i < nu; ++i) {
    A.add(i, i, stiffness[i]);
    rhs[i] = stiffness[i] * (u_target[i] - u_cur[i]);
  }
  auto add_G = [&](SparseMatrix& J, bool velocity) {
    for_each_entry(J, [&](int row, int col, double v) {
      const int ci = c_index[row], ui = u_index[col];
      if (ci < 0 || ui < 0 || (velocity_rows[row] != 0) != velocity || v == 0.0) return;
      const double g = -v;
      if (!std::isfinite(g)) return;
      A.add(ci, ui, g);
      A.add(ui, ci, g);
      c_cur[ci] += g * u_cur[ui];
    });
  };
  add_G(J1, false);
  add_G(J0, true);
  // A constraint that involves no structural node velocity (e.g. on abstract nodes only) has
  // nothing to correct here: its multiplier stays zero.
  std::vector<char> touched(m, 0);
  for (SparseMatrix* Jp : {&J1, &J0})
    for_each_entry(*Jp, [&](int row, int col, double v) {
      if (c_index[row] >= 0 && u_index[col] >= 0 && v != 0.0) touched[c_index[row]] = 1;
    });
  for (int i = nu; i < m; ++i)
    if (!touched[i]) A.add(i, i, 1.0);
  for (Element* e : parts)
    for (int j = 0; j < e->dof_count(); ++j) {
      const int i = e->first_index() + j;
      // holonomic: Phi_q u + Phi_t; non-holonomic: the residual itself is A u + b.
      if (velocity_rows[i]) c_cur[c_index[i]] = r[i];
      else c_cur[c_index[i]] += phi_t[i];
      rhs[c_index[i]] = touched[c_index[i]] ? -c_cur[c_index[i]] : 0.0;
    }
  double xx = 1.0 + u_cur.squaredNorm();
  for (const AssemblySpring& sp : springs) xx += sp.node->x_W().squaredNorm();
  out.error = std::sqrt(rhs.squaredNorm() / xx);

  if (out.error > 0.0) {
    integrators::LinearSolverChoice ls = integrators::make_linear_solver(s.linear_solver);
    const integrators::FactorStatus st = ls.solver->factor(A);
    if (!st.ok) {
      out.ok = false;
      out.message = "singular velocity constraints";
      if (st.singular_index >= 0 && st.singular_index >= nu) {
        for (Element* e : parts)
          for (int j = 0; j < e->dof_count(); ++j)
            if (c_index[e->first_index() + j] == st.singular_index)
              out.message += " (at " + model.describe_dof(e->first_index() + j) + ")";
      }
      return out;
    }
    ls.solver->solve(rhs);
    u_cur += rhs.head(nu);
  }
  v_out.resize(springs.size());
  w_out.resize(springs.size());
  for (std::size_t k = 0; k < springs.size(); ++k) {
    v_out[k] = u_cur.segment<3>(6 * k);
    w_out[k] = u_cur.segment<3>(6 * k + 3);
  }
  return out;
}

}  // namespace

bool takes_part_in_assembly(const Element& e, const RunSettings& s) {
  const std::string_view kind = e.kind();
  if (kind == "joint" && e.dof_count() > 0) return true;  // constraints
  if (e.assembles_as_constraint()) return true;
  if (std::find(s.assembly_use.begin(), s.assembly_use.end(), kind) != s.assembly_use.end()) return true;
  // Deformable and force elements no longer take part by default (input manual §5.2.2).
  const bool deformable_or_force = kind == "joint" || kind == "beam" || kind == "force" || kind == "couple";
  return s.assembly_deformable_and_forces && deformable_or_force;
}

std::vector<AssemblySpring> assembly_springs(const Model& model, const RunSettings& s) {
  std::vector<AssemblySpring> springs;
  for (const auto& n : model.nodes()) {
    StructNode* node = struct_node_with_dofs(*n);
    if (!node) continue;
    AssemblySpring sp;
    sp.node = node;
    sp.input = node->initial();
    sp.position_stiffness = s.assembly_position_stiffness;
    sp.velocity_stiffness = s.assembly_velocity_stiffness;
    sp.omega_rotates = s.omega_rotates;
    if (const auto& o = node->assembly_options) {
      sp.position_stiffness = o->position_stiffness;
      sp.velocity_stiffness = o->velocity_stiffness;
      sp.omega_rotates = o->omega_rotates;
    }
    springs.push_back(sp);
  }
  return springs;
}

// ---- position problem ------------------------------------------------------------------------

AssemblyPositionProblem::AssemblyPositionProblem(Model& model, std::vector<Element*> participants,
                                                 std::vector<AssemblySpring> springs,
                                                 const std::vector<char>& velocity_rows)
    : model_(model),
      participants_(std::move(participants)),
      springs_(std::move(springs)),
      row_active_(model_.size()),
      col_active_(model_.size()),
      constraint_row_(model_.size()) {
  const int n = model_.size();
  identity_col_.resize(n);
  std::iota(identity_col_.begin(), identity_col_.end(), 0);
  for (const AssemblySpring& sp : springs_) {
    StructNode& node = *sp.node;
    row_active_.add_kinematics(node, true);
    col_active_.add_kinematics(node);
    // The momentum definitions fix the momenta.
    if (node.has_inertia_block())
      for (int k = 0; k < node.kinematic_dof_count(); ++k)
        identity_col_[node.momentum_eq_index() + k] = node.momentum_dof_index() + k;
  }
  for (Element* e : participants_)
    for (DofMask* m : {&row_active_, &col_active_, &constraint_row_}) m->add_own(*e, &velocity_rows);
  scratch_.resize(n);
}

void AssemblyPositionProblem::update(double t, const Vector& y, const Vector& yp) {
  y_ = &y;
  yp_ = &yp;
  model_.update(t, y, yp);
}

void AssemblyPositionProblem::residual(double t, double dCoef, Vector& r, Vector* abs_r) {
  const int n = size();
  participants_residual(participants_, assembly_step(t, dCoef, *y_, *yp_), n, r_full_, abs_r ? &abs_full_ : nullptr);
  r.setZero(n);
  if (abs_r) abs_r->setZero(n);
  for (int i = 0; i < n; ++i)
    if (row_active_[i]) {
      r[i] = r_full_[i];
      if (abs_r) (*abs_r)[i] = abs_full_[i];
    }
  // Penalty springs (eq. 6.9a): K (x0 - x) on the forces, -K g(R R0^T) on the moments.
  for (const AssemblySpring& sp : springs_) {
    const int eq = sp.node->eq_index();
    const Vec3 f = sp.position_stiffness * (sp.input.x_W - sp.node->x_W());
    const Vec3 m = -sp.position_stiffness * rot::R_to_cgr(sp.node->R_WN() * sp.input.R_WN.transpose());
    r.segment<3>(eq) += f;
    if (abs_r) abs_r->segment<3>(eq) += f.cwiseAbs();
    if (sp.node->is_displacement()) continue;
    r.segment<3>(eq + 3) += m;
    if (abs_r) abs_r->segment<3>(eq + 3) += m.cwiseAbs();
  }
}

void AssemblyPositionProblem::jacobian(double t, double dCoef, SparseMatrix& J) {
  participants_jacobian(participants_, assembly_step(t, dCoef, *y_, *yp_), scratch_);
  for_each_entry(scratch_, [&](int row, int col, double v) {
    if (row_active_[row] && col_active_[col]) J.add(row, col, v);
  });
  // The springs' stiffness, linearised at R = R0 as MBDyn does (K on the diagonal).
  for (const AssemblySpring& sp : springs_)
    for (int k = 0; k < sp.node->kinematic_dof_count(); ++k) J.add(sp.node->eq_index() + k, sp.node->dof_index() + k, dCoef * sp.position_stiffness);
  for (int i = 0; i < size(); ++i)
    if (!row_active_[i]) J.add(i, identity_col_[i], 1.0);
}

void AssemblyPositionProblem::after_predict(double, Vector& y, Vector& yp) {
  for (const AssemblySpring& sp : springs_) sp.node->after_predict(y, yp);
}

// ---- the phase ---------------------------------------------------------------------------------

AssemblyReport run_initial_assembly(Model& model, const RunSettings& s, std::ostream& log) {
  AssemblyReport rep;
  if (s.skip_initial_joint_assembly) return rep;
  std::vector<Element*> parts;
  for (const auto& e : model.elements())
    if (takes_part_in_assembly(*e, s)) parts.push_back(e.get());
  std::vector<AssemblySpring> springs = assembly_springs(model, s);
  if (parts.empty() || springs.empty()) return rep;
  rep.performed = true;

  const double t = s.initial_time;
  const int n = model.size();
  // Start from the input configuration with no history: after_predict() then rebases the
  // orientations on the current reference.
  for (AssemblySpring& sp : springs) sp.node->set_initial(sp.input);
  Vector y, yp;
  model.initial_state(y, yp);
  const std::vector<char> velocity_rows = velocity_dependent_rows(model, parts, t, y, yp);
  AssemblyPositionProblem problem(model, parts, springs, velocity_rows);

  // ---- positions and orientations: Newton, MBDyn's iteration count and limits ---------------
  integrators::LinearSolverChoice ls = integrators::make_linear_solver(s.linear_solver);
  SparseMatrix J(n);
  Vector r(n);
  int iter = 0;
  for (;; ++iter) {
    problem.update(t, y, yp);
    problem.residual(t, 1.0, r, nullptr);
    rep.error = assembly_test(r, springs, y, problem, parts);
    if (!std::isfinite(rep.error)) {
      rep.converged = false;
      rep.message = "initial assembly diverged";
      return rep;
    }
    if (s.output_iterations) log << fmt::format("\tIteration({}) {}\n", iter, rep.error);
    if (rep.error <= s.assembly_tolerance) break;
    if (iter >= s.assembly_max_iterations) {
      rep.converged = false;
      rep.message = fmt::format(
          "initial assembly iterations reached maximum number {} (error {:g} > tolerance {:g}; see "
          "`max iterations` and `tolerance` in the control data block)",
          s.assembly_max_iterations, rep.error, s.assembly_tolerance);
      return rep;
    }
    J.zero();
    problem.jacobian(t, 1.0, J);
    const integrators::FactorStatus st = ls.solver->factor(J);
    if (!st.ok) {
      rep.converged = false;
      rep.message = "initial assembly failed: singular matrix";
      if (st.singular_index >= 0) rep.message += " (at " + model.describe_dof(st.singular_index) + ")";
      return rep;
    }
    Vector d = r;
    ls.solver->solve(d);
    if (s.assembly_epsilon != 1.0) d *= s.assembly_epsilon;  // control data `epsilon:` (as MBDyn, only when given)
    y += d;
    problem.after_predict(t, y, yp);
  }
  rep.iterations = iter;
  // The test above admits |Phi| of the order of the tolerance, which the derivatives phase would
  // turn into velocities of order Phi / dCoef. Project onto Phi = 0 (eq. 6.11 with the springs'
  // residual dropped: the minimum-norm correction of the constraint violation, quadratically
  // convergent) until the violation is at round-off level. These steps are not counted.
  for (int polish = 0; polish < 4; ++polish) {
    double scale = 1.0;
    for (const AssemblySpring& sp : springs) scale = std::max(scale, sp.node->x_W().cwiseAbs().maxCoeff());
    Vector rc = Vector::Zero(n);
    for (int i = 0; i < n; ++i)
      if (problem.constraint_row(i)) rc[i] = r[i];
    if (rc.size() == 0 || rc.cwiseAbs().maxCoeff() <= 1e-14 * scale) break;
    J.zero();
    problem.jacobian(t, 1.0, J);
    if (!ls.solver->factor(J).ok) break;
    ls.solver->solve(rc);
    y += rc;
    problem.after_predict(t, y, yp);
    problem.update(t, y, yp);
    problem.residual(t, 1.0, r, nullptr);
  }

  // ---- velocities at the assembled configuration ---------------------------------------------
  // Canonical form: g = 0, g' = 0, each node starting from its target velocities.
  for (const AssemblySpring& sp : springs) {
    const int i = sp.node->dof_index();
    yp.segment<3>(i) = sp.input.v_W;
    if (!sp.node->is_displacement()) yp.segment<3>(i + 3) = omega_target(sp);
  }
  problem.after_predict(t, y, yp);
  std::vector<Vec3> v, w;
  const VelocityOutcome vel = assemble_velocities(model, s, parts, springs, velocity_rows, t, y, yp, v, w);
  if (!vel.ok) {
    rep.converged = false;
    rep.message = "initial assembly failed: " + vel.message;
    return rep;
  }
  if (vel.error > s.assembly_tolerance) {
    // MBDyn corrects positions and velocities in the same iterations.
    if (s.assembly_max_iterations < 1) {
      rep.converged = false;
      rep.message = fmt::format(
          "initial assembly iterations reached maximum number {} (velocity error {:g} > tolerance {:g})",
          s.assembly_max_iterations, vel.error, s.assembly_tolerance);
      return rep;
    }
    rep.iterations = std::max(rep.iterations, 1);
  }

  for (std::size_t k = 0; k < springs.size(); ++k) {
    StructNode& node = *springs[k].node;
    node.set_initial({node.x_W(), node.R_WN(), v[k], w[k]});
  }
  log << fmt::format("Initial assembly performed successfully in {} iterations\n", rep.iterations);
  return rep;
}

}  // namespace mbl

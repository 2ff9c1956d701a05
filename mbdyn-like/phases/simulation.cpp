#include "mbdyn-like/phases/simulation.hpp"

#include "integrators/step_controller.hpp"
#include "mbdyn-like/phases/initial_assembly.hpp"
#include "mbdyn-like/core/interruption.hpp"
#include "mbdyn-like/phases/inverse_dynamics.hpp"
#include "parser/errors.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cmath>
#include <exception>
#include <limits>
#include <ostream>

namespace mbl {
namespace {

integrators::NewtonSolver make_newton(const RunSettings& s, integrators::NewtonOptions opt, std::ostream& log) {
  // `enforce constraint equations: constraint violations` without a scale factor: 1 / the
  // initial time step (MBDyn's solver.cc).
  if (opt.algebraic_test_scale < 0.0) opt.algebraic_test_scale = 1.0 / s.time_step;
  integrators::LinearSolverChoice ls = integrators::make_linear_solver(s.linear_solver);
  if (!ls.message.empty()) log << "info: " << ls.message << '\n';
  return integrators::NewtonSolver(std::move(opt), std::move(ls.solver));
}

/// A Newton or step failure in words: the iteration it stopped at, the residual error, and the
/// unknown of a zero pivot.
template <class Result>
std::string describe_failure(Model& model, const Result& r) {
  std::string msg = r.message.empty() ? std::string(integrators::to_string(r.failure)) : r.message;
  if (r.singular_index >= 0)
    msg += fmt::format(" (at {}; elements acting on it: {})", model.describe_dof(r.singular_index),
                       model.elements_at_dof(r.singular_index));
  msg += fmt::format(" after {} iteration(s), residual error {:g}", r.iterations, r.residual_error);
  return msg;
}

/// A run stopped by an error while a signal asked to stop (an element waiting for its peer gave
/// up, core/interruption.hpp) was interrupted.
void mark_if_interrupted(RunReport& report) {
  if (const int sig = interruption_signal()) {
    report.status = RunStatus::Interrupted;
    report.signal = sig;
  }
}

struct DerivativesOutcome {
  bool ok = true;
  int iterations = 0;
  double error = 0.0;
  std::string message;
};

/// The derivatives phase as MBDyn runs it. Fake step of technical manual §6.2.1 (eq. 6.26,
/// dCoef = b0 h): MBDyn takes `derivatives coefficient` as b0 of the initial time step h0, so
/// dCoef = h0 c; it matters where a constraint gap phi remains at t0 (reactions move by
/// ~phi/dCoef^2). With `auto`, a failed attempt restarts from the assembled state with c f^k
/// (k = 1..n), then c / f^k, then the coefficient of the smallest error with the tolerance
/// relaxed to 1.01 of it and twice the iterations. A last failure is reported in the log and the
/// run goes on from that attempt's state (MBDyn would stop there).
DerivativesOutcome run_derivatives(Model& model, const RunSettings& s, double t, Vector& y, Vector& yp,
                                   std::ostream& log) {
  integrators::NewtonOptions opt = s.newton;
  opt.residual_tolerance = s.derivatives_tolerance;
  opt.max_iterations = s.derivatives_max_iterations;
  opt.at_most = false;
  // The residual test alone: with MBDyn's solution test (`derivatives tolerance: r, s`) our
  // first correction on t.stiff.Swing is 4e-3 (a distance joint's multiplier) where MBDyn's is
  // below 1e-6 and it stops after one iteration; without it both runs start from the same state.
  opt.solution_tolerance = 0.0;
  // The nonlinear solver is the configured one, as MBDyn's DerivativeSolver runs it: with a line
  // search the first residual must pass 1e-2 of the tolerance (t.hydr.dynamicvalve's legacy deck
  // needs that one derivatives iteration to start its steps as MBDyn does).
  const double h0 = s.time_step > 0.0 ? s.time_step : 1.0;
  const double coef0 = h0 * s.derivatives_coefficient;
  const int n = s.derivatives_auto_iterations;
  const double f = s.derivatives_auto_factor;
  const int attempts = n > 0 ? 2 * n + 2 : 1;
  const Vector y0 = y, yp0 = yp;
  double dCoef = coef0, best_coef = coef0, best_error = std::numeric_limits<double>::infinity();
  DerivativesOutcome out;
  integrators::NewtonSolver newton = make_newton(s, opt, log);
  integrators::NewtonOptions& o = newton.options();
  for (int i = 0; i < attempts; ++i) {
    if (i > 0) {
      y = y0;
      yp = yp0;
      model.update(t, y, yp);
    }
    const integrators::NewtonResult r =
        newton.solve(model, t, dCoef, dCoef, y, yp, integrators::UpdateMode::Derivatives);
    out.iterations = r.iterations;
    out.error = r.residual_error;
    if (r.converged) return out;
    const bool recoverable = r.failure == integrators::FailureReason::MaxIterations;
    if (!recoverable && i + 1 == attempts) {
      out.ok = false;
      out.message = "derivatives phase failed: " + describe_failure(model, r);
      return out;
    }
    if (i + 1 == attempts) {
      log << fmt::format("warning: derivatives phase did not converge (error {:g} > tolerance {:g}); "
                         "the simulation starts from its last iterate\n",
                         r.residual_error, o.residual_tolerance);
      return out;
    }
    if (recoverable && r.residual_error < best_error) {
      best_error = r.residual_error;
      best_coef = dCoef;
    }
    if (i < n) {
      dCoef *= f;
    } else if (i == n) {
      dCoef = coef0 / f;
    } else if (i < 2 * n) {
      dCoef /= f;
    } else {  // last chance
      dCoef = best_coef;
      if (std::isfinite(best_error)) o.residual_tolerance = std::max(o.residual_tolerance, 1.01 * best_error);
      o.max_iterations *= 2;
    }
    log << fmt::format("Derivatives({}/{}) t={:g} coef={:g} tol={:g}\n", i + 2, attempts, t, dCoef / h0,
                       o.residual_tolerance);
  }
  return out;
}
/// Where a run is, for a failure that throws out of the phases: the phase's name (as the prefix
/// of its message) and whether the initial output was written.
struct RunProgress {
  std::string phase = "setup";
  double t = 0.0;
  bool initial_output_written = false;
};

/// A failure before the initial output: the outputs get the last converged configuration at the
/// initial time (the nodes' initial conditions, assembled when the assembly converged) so that
/// every file of this run exists and is valid, then close.
void close_before_start(Model& model, const RunProgress& progress, RunOutput& output) {
  if (!progress.initial_output_written) {
    try {
      Vector y, yp;
      model.initial_state(y, yp);
      model.update(progress.t, y, yp);
    } catch (const std::exception&) {
      // a user function that fails at the initial time fails here again: the state stays
    }
    try {
      output.initial_configuration(model, progress.t);
    } catch (const std::exception&) {
      // an element whose output evaluates the failing function: the files stay as they are
    }
  }
  output.close();
}

RunReport run_phases(Model& model, const RunSettings& s, RunOutput& output, std::ostream& log,
                     RunProgress& progress) {
  RunReport report;
  model.set_assembly_threads(s.assembly_threads);
  model.number_dofs();
  Vector y, yp;
  model.initial_state(y, yp);
  double t = s.initial_time;
  progress.t = t;
  model.set_time(t, s.time_step, 0);
  progress.phase = "initial assembly";
  // The outputs are opened even when this first evaluation fails (a user function failing at the
  // initial time): the failure is then reported with whole outputs.
  std::exception_ptr first_evaluation_failure;
  try {
    model.update(t, y, yp);
  } catch (...) {
    first_evaluation_failure = std::current_exception();
  }
  output.setup(model);
  if (first_evaluation_failure) std::rethrow_exception(first_evaluation_failure);

  if (s.abort_after == AbortAfter::input) {
    report.status = RunStatus::Aborted;
    output.input_only(model, t);
    progress.initial_output_written = true;
    output.close();
    return report;
  }

  // ---- initial assembly (technical manual §6.1): corrects the nodes' initial conditions -------
  if (const AssemblyReport a = run_initial_assembly(model, s, log); !a.converged) {
    report.status = RunStatus::SolutionFailure;
    report.message = a.message;
    close_before_start(model, progress, output);
    return report;
  } else if (a.performed) {
    model.initial_state(y, yp);
    model.set_time(t, s.time_step, 0);
    model.update(t, y, yp);
  }

  // ---- eigenanalyses (input manual §4.1.1): one due before the initial time runs before the
  // derivatives, one at the initial time after them, later ones after the first step that
  // reaches their time, and those left after the last step -------------------------------------
  EigenAnalysis eigen(s.eigen);
  if (eigen.requested()) output.eigen_prepare(model, s.eigen);
  auto eigenanalysis_if_due = [&](auto due, long step, const Vector& y_now, const Vector& yp_now) {
    EigenSolution solution;
    if (eigen.requested() && eigen.next_due(due, t, step, model, y_now, yp_now, solution))
      output.eigenanalysis(model, solution);
  };
  eigenanalysis_if_due([](double when, double now) { return when < now; }, 0, y, yp);

  int derivatives_iterations = 0;
  double derivatives_error = 0.0;
  // ---- derivatives (technical manual §6.2.1): y' at t0 with y kept ---------------------------
  {
    progress.phase = "derivatives phase";
    const DerivativesOutcome d = run_derivatives(model, s, t, y, yp, log);
    if (!d.ok) {
      report.status = RunStatus::SolutionFailure;
      report.message = d.message;
      close_before_start(model, progress, output);
      return report;
    }
    derivatives_iterations = d.iterations;
    derivatives_error = d.error;
  }
  output.derivatives_done(t, derivatives_iterations, derivatives_error);
  eigenanalysis_if_due([](double when, double now) { return when == now; }, 0, y, yp);

  // ---- dummy steps (input manual §4.1.3): N tiny steps with `dummy steps method` --------------
  // As MBDyn does, the regular steps then continue from the time the dummy steps reached.
  const bool abort_before_dummy = s.abort_after == AbortAfter::derivatives || s.abort_after == AbortAfter::assembly;
  const bool run_dummy_steps = s.dummy_steps > 0 && !abort_before_dummy;
  if (run_dummy_steps) {
    const double t_derivatives = t;
    integrators::MethodSpec method = s.dummy_method;
    // MBDyn's default dummy method is the 2-step multistep method with rho = 0.
    if (!method.rho) method.rho = [](double) { return 0.0; };
    std::unique_ptr<integrators::ImplicitStepIntegrator> dummy = integrators::make_integrator(method);
    integrators::NewtonOptions opt = s.newton;
    opt.residual_tolerance = s.dummy_steps_tolerance;
    opt.solution_tolerance = 0.0;
    opt.max_iterations = s.dummy_steps_max_iterations;
    opt.line_search.enabled = false;
    if (s.output_iterations) opt.trace = &log;
    integrators::NewtonSolver newton = make_newton(s, opt, log);
    const double dt = s.dummy_steps_ratio * s.time_step;
    dummy->start(model, t, y, yp);
    integrators::StepResult r;
    for (int k = 1; k <= s.dummy_steps; ++k) {
      const double t_new = t + dt;
      progress.phase = fmt::format("dummy step {}", k);
      progress.t = t_new;
      model.set_time(t_new, dt, 0);
      r = dummy->advance(model, t_new, dt, newton);
      if (!r.converged) {
        report.status = RunStatus::SolutionFailure;
        report.message = fmt::format("dummy step {} at time {} did not converge: {}", k, t_new,
                                     describe_failure(model, r));
        progress.t = t_derivatives;
        close_before_start(model, progress, output);
        return report;
      }
      t = t_new;
    }
    y = dummy->y();
    yp = dummy->yp();
    output.dummy_steps(model, t_derivatives, derivatives_iterations, derivatives_error, t, dt,
                       r.iterations, r.residual_error);
    progress.initial_output_written = true;
  }

  // ---- regular steps --------------------------------------------------------------------------
  std::unique_ptr<integrators::ImplicitStepIntegrator> integrator = integrators::make_integrator(s.method);
  integrators::NewtonOptions opt = s.newton;
  if (s.output_iterations) opt.trace = &log;
  integrators::NewtonSolver newton = make_newton(s, opt, log);
  // Step control (input manual §4.1.1 `strategy`, `min/max time step`): without a strategy the
  // step is fixed and a step that does not converge ends the run.
  integrators::StepStrategy strategy = s.strategy;
  strategy.min_time_step = s.min_time_step;
  strategy.max_time_step_at = s.max_time_step;
  integrators::StepController control(strategy, s.time_step, opt.max_iterations);
  // `strategy: error control` (ours, docs/adaptive.md): the integrator tests each step's error.
  if (control.error_control()) integrator->set_error_test(control.error_test(integrator->error_estimate_order()));
  model.set_time(t, s.time_step, 0);
  progress.phase = "step 0";
  progress.t = t;
  integrator->start(model, t, y, yp);  // after_convergence: reactions, drives advance to step 0
  // MBDyn runs no step when the final time is not after the initial one (t.parser.eval).
  const bool steps_follow = s.forever || t < s.final_time;
  if (!run_dummy_steps)
    output.derivatives(model, t, derivatives_iterations, derivatives_error, steps_follow);
  progress.initial_output_written = true;
  if (abort_before_dummy || s.abort_after == AbortAfter::dummy_steps) {
    report.status = RunStatus::Aborted;
    output.close();
    return report;
  }
  const double t_end = s.forever ? std::numeric_limits<double>::infinity() : s.final_time;
  double dt = control.initial_step();
  // Retries after Newton stopped near its tolerance (the hint of a stop below the resolution).
  struct {
    long count = 0;
    double smallest = HUGE_VAL, largest = 0.0;
  } stalled;
  long step = 0;
  // Like MBDyn, the time accumulates step by step and the loop runs while the current time is
  // strictly before the final time, with no tolerance: 0.01 added 300 times falls just short of
  // 3, so a 1e-2 s step to 3 s takes 301 steps and writes 302 records, as MBDyn's do.
  while (t < t_end) {
    // `abort after: regular step, <n>`: MBDyn's Advance ends the run there, as at the final time.
    if (s.abort_after == AbortAfter::regular_step && step >= s.abort_after_step) break;
    if (const int sig = interruption_signal()) {
      report.status = RunStatus::Interrupted;
      report.signal = sig;
      report.message = fmt::format("interrupted after step {} at time {:g}", step, t);
      break;
    }
    // Under error control the run ends exactly at the final time: the last step is shortened
    // (or stretched by at most 1 %) to reach it.
    if (control.error_control() && t + 1.01 * dt >= t_end) dt = t_end - t;
    const double t_new = control.error_control() && t + dt >= t_end ? t_end : t + dt;
    if (control.error_control() && integrators::StepController::below_resolution(t, dt)) {
      report.status = RunStatus::SolutionFailure;
      report.message = fmt::format("step {} at time {}: error control reduced the time step to {}, below the "
                                   "resolution of the time", step + 1, t, dt);
      // Newton stopping just above its tolerance at ever smaller steps: the residual's round-off
      // (constraint rows hold Phi / dCoef, docs/adaptive.md) may be what a smaller step cannot cure.
      if (stalled.count > 0)
        report.message += fmt::format(
            "; {} retries after Newton stopped within 1000 times its tolerance (residual errors {:g} .. {:g} against "
            "`tolerance: {:g}`): at small steps the residual's round-off can exceed the tolerance, and a looser "
            "`tolerance:` may let the run go on",
            stalled.count, stalled.smallest, stalled.largest, opt.residual_tolerance);
      break;
    }
    model.set_time(t_new, dt, step + 1);
    integrators::StepResult r;
    try {
      for (const auto& o : model.step_observers()) o->before_step(t_new);
      // `max residual:` only fails steps that can still be halved (MBDyn's CheckTimeStepLimit).
      newton.options().max_residual_active = dt > 2.0 * s.min_time_step;
      if (s.diagnostics_meter && s.output_iterations)
        newton.options().trace = s.diagnostics_meter->value(t_new) != 0.0 ? &log : nullptr;
      r = integrator->advance(model, t_new, dt, newton);
      if (r.converged)
        for (const auto& o : model.step_observers()) o->after_step(t_new);
    } catch (const EvaluationError& e) {
      // A user function failed (step_observer.hpp): stop with the last converged step written.
      report.status = RunStatus::SolutionFailure;
      report.message = fmt::format("step {} at time {}: {}", step + 1, t_new, e.what());
      mark_if_interrupted(report);
      break;
    } catch (const parser::InputError& e) {
      // An expression that fails while the model is evaluated (a drive's sqrt of a negative
      // number, ...) is a solution failure at this step, with the expression's location.
      report.status = RunStatus::SolutionFailure;
      report.message = fmt::format("step {} at time {}: {}: {}", step + 1, t_new, e.where().str(), e.message());
      break;
    } catch (const math::StopRequest& stop) {
      // stop() in an expression (input manual §2.2.1): the run ends with the last converged step.
      if (stop.exit_code != 0) {
        report.status = RunStatus::SolutionFailure;
        report.message = fmt::format("step {} at time {}: {}", step + 1, t_new, stop.what());
      } else {
        log << fmt::format("info: step {} at time {}: {}\n", step + 1, t_new, stop.what());
      }
      break;
    }
    if (r.error_rejected) {
      dt = control.current();
      if (s.output_iterations)
        log << fmt::format("info: step {} at time {} rejected ({}); retrying with time step {}\n", step + 1,
                           t_new, r.message, dt);
      model.set_time(t, dt, step);
      continue;
    }
    if (!r.converged) {
      const integrators::StepController::Decision d = control.after_failure(t, r);
      if (d.retry) {
        if (r.failure == integrators::FailureReason::MaxIterations && opt.residual_tolerance > 0.0 &&
            r.residual_error < 1e3 * opt.residual_tolerance) {
          ++stalled.count;
          stalled.smallest = std::min(stalled.smallest, r.residual_error);
          stalled.largest = std::max(stalled.largest, r.residual_error);
        }
        log << fmt::format("info: step {} at time {} did not converge ({}); retrying with time step {}\n",
                           step + 1, t_new, describe_failure(model, r), d.dt);
        dt = d.dt;
        model.set_time(t, dt, step);
        continue;
      }
      output.step(model, step + 1, t_new, dt, r);
      report.status = RunStatus::SolutionFailure;
      report.message = fmt::format("step {} at time {} did not converge: {}", step + 1, t_new,
                                   describe_failure(model, r));
      break;
    }
    ++step;
    t = t_new;
    report.total_iterations += r.iterations;
    report.steps = step;
    output.step(model, step, t, dt, r);
    try {
      for (const auto& o : model.step_observers()) o->after_step_iterations(step, r.iterations);
      for (const auto& o : model.step_observers()) o->after_output(t);
    } catch (const EvaluationError& e) {
      report.status = RunStatus::SolutionFailure;
      report.message = fmt::format("step {} at time {}: {}", step, t, e.what());
      break;
    }
    eigenanalysis_if_due([](double when, double now) { return when <= now; }, step, integrator->y(),
                         integrator->yp());
    if (control.error_control()) {
      if (strategy.global_error) report.global_error = std::max(report.global_error, integrator->global_error_norm());
      control.count_accepted(t, dt);
      dt = control.after_accepted(t, r.error_norm, r.stable_step);
    } else {
      dt = control.after_success(t, r.iterations);
    }
  }
  for (const auto& o : model.step_observers()) o->after_last_step();
  if (control.error_control()) {
    const integrators::StepController::Summary& c = control.summary();
    log << fmt::format("error control: {} steps accepted, {} rejected by the error test, {} retried after "
                       "Newton failed; time step from {} (at time {}) to {}\n",
                       c.accepted, c.rejected, c.failed, c.smallest, c.smallest_at, c.largest);
    if (strategy.global_error)
      log << fmt::format("error control: the global error estimate reached {:.3g} times the tolerance (rtol {:g}, "
                         "atol {:g})\n",
                         std::max(report.global_error, 0.0), strategy.relative_tolerance,
                         strategy.absolute_tolerance >= 0.0 ? strategy.absolute_tolerance : strategy.relative_tolerance);
  }
  if (report.status == RunStatus::Completed)
    eigenanalysis_if_due([](double, double) { return true; }, report.steps, integrator->y(), integrator->yp());
  report.final_time = t;
  output.close();
  return report;
}

}  // namespace

RunReport run_simulation(Model& model, const RunSettings& s, RunOutput& output, std::ostream& log) {
  if (s.inverse_dynamics.enabled) {
    try {
      return run_inverse_dynamics(model, s, output, log);
    } catch (const EvaluationError& e) {
      RunReport report;
      report.status = RunStatus::SolutionFailure;
      report.message = e.what();
      mark_if_interrupted(report);
      report.final_time = s.initial_time;
      output.close();
      return report;
    }
  }
  // A user function or an expression that fails before the regular steps (they catch their own):
  // a solution failure of that phase, prefixed like a step's, with no step complete.
  RunProgress progress;
  progress.t = s.initial_time;
  RunReport report;
  report.status = RunStatus::SolutionFailure;
  report.final_time = s.initial_time;
  try {
    return run_phases(model, s, output, log, progress);
  } catch (const EvaluationError& e) {
    report.message = fmt::format("{} at time {}: {}", progress.phase, progress.t, e.what());
    mark_if_interrupted(report);
  } catch (const parser::InputError& e) {
    report.message = fmt::format("{} at time {}: {}: {}", progress.phase, progress.t, e.where().str(), e.message());
  } catch (const math::StopRequest& stop) {
    if (stop.exit_code != 0) {
      report.message = fmt::format("{} at time {}: {}", progress.phase, progress.t, stop.what());
    } else {
      log << fmt::format("info: {} at time {}: {}\n", progress.phase, progress.t, stop.what());
      report.status = RunStatus::Completed;
    }
  }
  close_before_start(model, progress, output);
  return report;
}

}  // namespace mbl

#pragma once
// A deck solved step by step by hand, with a step that can be made to fail on purpose, to check
// that a step retried after a failure starts again from the state saved at its start
// (Model::save_checkpoint / restore_checkpoint: nodes, integrator history, and every element's,
// law's and drive's save_step_state/restore_step_state): the retried run must give, bit for bit,
// what a run that took the smaller step from the start gives.
#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <string>

#include "integrators/integrator.hpp"
#include "integrators/linear_solver.hpp"
#include "mbdyn-like/model/model_builder.hpp"

namespace mbl::test {

/// The model, with a residual that is not a number at `fail_time` while `armed`: the stage solved
/// there fails (the Newton solver rejects a residual that is not finite), after the earlier
/// stages of the step converged and committed their element state.
class FailingAt : public integrators::Problem {
 public:
  explicit FailingAt(Model& m) : m_(m) {}
  double fail_time = -1.0;
  bool armed = false;
  int size() const override { return m_.size(); }
  integrators::DofOrder dof_order(int i) const override { return m_.dof_order(i); }
  void update(double t, const Vector& y, const Vector& yp) override { m_.update(t, y, yp); }
  void residual(double t, double dCoef, Vector& r, Vector* abs_r) override {
    m_.residual(t, dCoef, r, abs_r);
    if (armed && t == fail_time) r.setConstant(std::numeric_limits<double>::quiet_NaN());
  }
  void jacobian(double t, double dCoef, integrators::SparseMatrix& J) override { m_.jacobian(t, dCoef, J); }
  void after_convergence(double t, Vector& y, Vector& yp) override { m_.after_convergence(t, y, yp); }
  void rebase_history(std::span<Vector> y, std::span<Vector> yp) override { m_.rebase_history(y, yp); }
  void reserve_history(int points) override { m_.reserve_history(points); }
  void after_predict(double t, Vector& y, Vector& yp) override { m_.after_predict(t, y, yp); }
  void save_checkpoint() override { m_.save_checkpoint(); }
  void restore_checkpoint() override { m_.restore_checkpoint(); }

 private:
  Model& m_;
};

/// A deck's model advanced by an integrator of `method`, one step at a time.
struct StepBySteps {
  BuildResult built;
  Model& model = *built.model;
  FailingAt problem{model};
  std::unique_ptr<integrators::ImplicitStepIntegrator> integrator;
  integrators::NewtonSolver newton{[] {
                                     integrators::NewtonOptions o;
                                     o.residual_tolerance = 1e-12;
                                     o.max_iterations = 30;
                                     return o;
                                   }(),
                                   std::make_unique<integrators::DenseSolver>()};
  StepBySteps(const char* method, const std::string& deck) : built(read_deck_text("retried_step.mbd", deck)) {
    integrators::MethodSpec spec;
    spec.name = method;
    spec.rho = [](double) { return 0.0; };
    integrator = integrators::make_integrator(spec);
    model.number_dofs();
    Vector y, yp;
    model.initial_state(y, yp);
    model.set_time(0.0, 0.01, 0);
    model.update(0.0, y, yp);
    integrator->start(problem, 0.0, y, yp);
  }
  bool step(double dt) {
    const double t = integrator->time() + dt;
    model.set_time(t, dt, integrator->steps() + 1);
    return integrator->advance(problem, t, dt, newton).converged;
  }
};

// A body on a Maxwell viscoelastic spring (internal viscous strains advanced per converged
// step) pushed by a force through a discrete filter of a sample and hold (drives with memory):
// element, law and drive states an abandoned step must give back.
/// The data and initial-value blocks of the decks of these tests (their method is the test's).
inline constexpr const char* kRetriedStepHeader = R"(begin: data;
	problem: initial value;
end: data;
begin: initial value;
	initial time: 0.;
	final time: 1.;
	time step: 1e-2;
end: initial value;
)";

inline const std::string kStatefulDeck = std::string(kRetriedStepHeader) + R"(begin: control data;
	structural nodes: 2;
	rigid bodies: 1;
	joints: 2;
	forces: 1;
end: control data;
begin: nodes;
	structural: 1, dynamic, 0.1, 0., 0., eye, 0., 0.3, 0., 0., 0., 0.;
	structural: 2, static, null, eye, null, null;
end: nodes;
begin: elements;
	body: 1, 1, 2., null, diag, 0.01, 0.02, 0.03;
	joint: 10, clamp, 2, node, node;
	joint: 11, deformable displacement joint, 1, null, 2, null,
		linear viscoelastic maxwell 1, E0, 40., E1, 25., eta1, 3., C, eye;
	force: 20, absolute, 1, position, null, 1., 0.5, 0.2,
		discrete filter, 1, .5, .5, 0, sample and hold, sine, 0., 12., 1., forever, 0., string, "Step % 3 == 0";
end: elements;
)";

/// Runs `deck` twice with `method`: `before` steps of dt, then one step of dt that fails at its
/// end (its earlier stages converged) and is retried as `after` steps of dt / 2, against a run
/// that takes the same steps without the failure. Returns the runs for further checks.
inline std::pair<std::unique_ptr<StepBySteps>, std::unique_ptr<StepBySteps>> expect_retry_equals_direct(
    const char* method, const std::string& deck, double dt, int before, int after) {
  auto retried = std::make_unique<StepBySteps>(method, deck), direct = std::make_unique<StepBySteps>(method, deck);
  for (int k = 0; k < before; ++k)
    for (StepBySteps* r : {retried.get(), direct.get()}) EXPECT_TRUE(r->step(dt)) << method << " step " << k;
  retried->problem.fail_time = retried->integrator->time() + dt;
  retried->problem.armed = true;
  EXPECT_FALSE(retried->step(dt)) << method;
  retried->problem.armed = false;
  EXPECT_EQ(retried->integrator->time(), direct->integrator->time()) << method;
  for (int k = 0; k < after; ++k)
    for (StepBySteps* r : {retried.get(), direct.get()}) {
      r->newton.invalidate_jacobian();
      EXPECT_TRUE(r->step(dt / 2)) << method << " retried step " << k;
    }
  EXPECT_EQ(retried->integrator->time(), direct->integrator->time()) << method;
  EXPECT_EQ(retried->integrator->y(), direct->integrator->y()) << method;
  EXPECT_EQ(retried->integrator->yp(), direct->integrator->yp()) << method;
  return {std::move(retried), std::move(direct)};
}

}  // namespace mbl::test

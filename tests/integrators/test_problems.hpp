#pragma once
// Small Problems for the integrator tests (no model needed). Residual r = -f, Jacobian
// J = df/dy' + dCoef df/dy (problem.hpp).
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "integrators/integrator.hpp"
#include "integrators/linear_solver.hpp"
#include "integrators/problem.hpp"

namespace mbl::integrators::testing {

/// The integrator `name` with spectral radius `rho` (< 0: the method takes none).
inline std::unique_ptr<ImplicitStepIntegrator> make_method(const std::string& name, double rho) {
  MethodSpec s;
  s.name = name;
  if (rho >= 0) s.rho = [rho](double) { return rho; };
  return make_integrator(s);
}

/// Newton with a residual tolerance far below the errors the tests measure.
inline NewtonSolver tight_newton(double residual_tolerance = 1e-14, int max_iterations = 50) {
  NewtonOptions o;
  o.residual_tolerance = residual_tolerance;
  o.max_iterations = max_iterations;
  return NewtonSolver(o, std::make_unique<DenseSolver>());
}

/// Base of the small problems: keeps the state of the last update() in y_, yp_; they hold no
/// rotations, so the history hooks have nothing to do.
class PlainProblem : public Problem {
 public:
  void update(double, const Vector& y, const Vector& yp) override { y_ = y, yp_ = yp; }
  void after_convergence(double, Vector&, Vector&) override {}
  void rebase_history(std::span<Vector>, std::span<Vector>) override {}
  void after_predict(double, Vector&, Vector&) override {}
  Vector y_, yp_;
};

/// The forced Duffing oscillator with an index-1 algebraic unknown of utest_integrators_order.cpp:
/// x' = v, v' = -x - z x - 0.1 v + 0.5 cos(1.3 t), 0 = z - x^2.
/// y = [x, v, z]; x, v differential, z algebraic (its y' slot holds its time integral).
class ForcedDuffing : public PlainProblem {
 public:
  int size() const override { return 3; }
  DofOrder dof_order(int i) const override { return i == 2 ? DofOrder::Algebraic : DofOrder::Differential; }
  void residual(double t, double, Vector& r, Vector*) override {
    const double x = y_[0], v = y_[1], z = y_[2];
    r[0] = -(yp_[0] - v);
    r[1] = -(yp_[1] + x + z * x + 0.1 * v - 0.5 * std::cos(1.3 * t));
    r[2] = -(z - x * x);
  }
  // J = df/dy' + dCoef df/dy on differential columns, df/dz on the algebraic one.
  void jacobian(double, double dCoef, SparseMatrix& J) override {
    const double x = y_[0], z = y_[2];
    J.add(0, 0, 1.0);
    J.add(0, 1, -dCoef);
    J.add(1, 0, dCoef * (1.0 + z));
    J.add(1, 1, 1.0 + 0.1 * dCoef);
    J.add(1, 2, x);
    J.add(2, 0, -2.0 * x * dCoef);
    J.add(2, 2, 1.0);
  }
};

/// Undamped oscillator in first-order form: f = [x' - v, v' + w^2 x] (both differential).
class Oscillator : public PlainProblem {
 public:
  explicit Oscillator(double omega) : w2_(omega * omega) {}
  int size() const override { return 2; }
  DofOrder dof_order(int) const override { return DofOrder::Differential; }
  void residual(double, double, Vector& r, Vector* abs_r) override {
    r[0] = -(yp_[0] - y_[1]);
    r[1] = -(yp_[1] + w2_ * y_[0]);
    if (abs_r) {
      (*abs_r)[0] = std::abs(yp_[0]) + std::abs(y_[1]);
      (*abs_r)[1] = std::abs(yp_[1]) + std::abs(w2_ * y_[0]);
    }
  }
  void jacobian(double, double dCoef, SparseMatrix& J) override {
    J.add(0, 0, 1.0);
    J.add(0, 1, -dCoef);
    J.add(1, 1, 1.0);
    J.add(1, 0, dCoef * w2_);
  }
  double w2_;
};

/// Nonlinear pendulum: f = [th' - om, om' + sin th] (both differential).
class Pendulum : public PlainProblem {
 public:
  int size() const override { return 2; }
  DofOrder dof_order(int) const override { return DofOrder::Differential; }
  void residual(double, double, Vector& r, Vector*) override {
    r[0] = -(yp_[0] - y_[1]);
    r[1] = -(yp_[1] + std::sin(y_[0]));
  }
  void jacobian(double, double dCoef, SparseMatrix& J) override {
    J.add(0, 0, 1.0);
    J.add(0, 1, -dCoef);
    J.add(1, 1, 1.0);
    J.add(1, 0, dCoef * std::cos(y_[0]));
  }
};

/// Pendulum that records the hook calls ("C" after_convergence, "R<n>" rebase with n points,
/// "P" after_predict, "U" update, "S" save_checkpoint, "X" restore_checkpoint).
class RecordingPendulum : public Pendulum {
 public:
  void update(double t, const Vector& y, const Vector& yp) override {
    log.push_back("U");
    Pendulum::update(t, y, yp);
  }
  void after_convergence(double, Vector&, Vector&) override { log.push_back("C"); }
  void rebase_history(std::span<Vector> y, std::span<Vector> yp) override {
    log.push_back("R" + std::to_string(y.size()));
    if (y.size() != yp.size()) log.push_back("size-mismatch");
  }
  void after_predict(double, Vector&, Vector&) override { log.push_back("P"); }
  void save_checkpoint() override { log.push_back("S"); }
  void restore_checkpoint() override { log.push_back("X"); }
  std::vector<std::string> log;
};

}  // namespace mbl::integrators::testing

#include "integrators/half_implicit.hpp"

namespace mbl::integrators {

StepResult half_implicit_step(SecondOrderProblem& p, double t_n, double h, HalfImplicitState& s,
                              const NewtonOptions& opt) {
  const int n = p.velocity_size();
  // z = q''_n; q'_n stays; q_{n+1} = q_n (+) (h v_n + h^2 z) (eqs. 4a, 4c).
  PointMaps f;
  f.v = s.v;
  f.cv = 0.0;
  f.a = Vector::Zero(n);
  f.ca = 1.0;
  f.dq = h * s.v;
  f.cdq = h * h;
  Vector z = s.a, lambda = s.lambda;
  StepResult r = solve_point(p, t_n, h, f, lambda, opt, z, PointMatrix::Frozen);
  if (!r.converged) return r;
  s.v = s.v + h * z;
  s.a = std::move(z);
  s.lambda = std::move(lambda);
  p.set_configuration(h * s.v);
  p.commit_configuration();
  return r;
}

StepResult HalfImplicitIntegrator::second_order_step(Problem& problem, SecondOrderProblem& p,
                                                     double t, double dt, const Vector& v,
                                                     const Vector& lambda, const NewtonOptions& opt,
                                                     Point& out) {
  HalfImplicitState s = state_;
  s.v = v;
  if (!started_) {
    s.a = Vector::Zero(v.size());
    s.lambda = lambda;
  }
  const StepResult r = half_implicit_step(p, t - dt, dt, s, opt);
  if (!r.converged) return r;
  state_ = std::move(s);
  finish(problem, p, t, state_.v, state_.a, state_.lambda, out);
  return r;
}

}  // namespace mbl::integrators

// Generalized-alpha on the second-order form (seed 004): spectral radius at large steps, order
// of convergence of positions, velocities and multipliers on the constrained pendulum,
// constraints at the Newton tolerance, and the condition number of the scaled iteration
// matrix (eq. 27) independent of h. The tables go to build/seeds_generalized_alpha.txt
// (docs/seeds.md).
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <iostream>

#include "integrators/generalized_alpha.hpp"
#include "second_order_problems.hpp"

using namespace mbl::integrators;
using mbl::integrators::testing::CartesianPendulum;
using mbl::integrators::testing::LinearOscillator;

namespace {

void say(const std::string& s) { mbl::integrators::testing::table_line("seeds_generalized_alpha.txt", s); }

NewtonOptions tight() { return mbl::integrators::testing::tight_newton(); }

/// Spectral radius of the amplification matrix of one step on (q, h v, h^2 a) for
/// q'' + w^2 q = 0 with w = 1 and h = hT * 2 pi.
double spectral_radius(double rho_inf, double hT) {
  const double h = hT * 2.0 * M_PI;
  LinearOscillator p(1.0, 0.0, 1.0);
  GeneralizedAlpha ga;
  Eigen::Matrix3d A;
  for (int j = 0; j < 3; ++j) {
    const Eigen::Vector3d e = Eigen::Vector3d::Unit(j);
    p.set_q(Vector::Constant(1, e[0]));
    SecondOrderState s{Vector::Constant(1, e[1] / h), Vector::Constant(1, -e[0]),
                       Vector::Constant(1, e[2] / (h * h)), Vector::Zero(0)};
    const StepResult r = ga.step(p, rho_inf, h, h, s, tight());
    EXPECT_TRUE(r.converged) << r.message;
    A.col(j) = Eigen::Vector3d(p.q()[0], h * s.v[0], h * h * s.a[0]);
  }
  return A.eigenvalues().cwiseAbs().maxCoeff();
}

/// theta'' = -(g/L) sin theta by RK4 with a tiny step: the reference of the pendulum.
struct PendulumReference {
  double q[2], v[2], lambda;
};
PendulumReference pendulum_reference(double m, double L, double g, double theta0, double t_end) {
  double th = theta0, om = 0.0;
  const int n = 200000;
  const double dt = t_end / n;
  auto f = [&](double a, double b) { return std::array<double, 2>{b, -(g / L) * std::sin(a)}; };
  for (int k = 0; k < n; ++k) {
    const auto k1 = f(th, om);
    const auto k2 = f(th + 0.5 * dt * k1[0], om + 0.5 * dt * k1[1]);
    const auto k3 = f(th + 0.5 * dt * k2[0], om + 0.5 * dt * k2[1]);
    const auto k4 = f(th + dt * k3[0], om + dt * k3[1]);
    th += dt / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0]);
    om += dt / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1]);
  }
  return {{L * std::sin(th), -L * std::cos(th)},
          {L * om * std::cos(th), L * om * std::sin(th)},
          (m * L * om * om + m * g * std::cos(th)) / L};
}

struct PendulumRun {
  double err_q = 0, err_v = 0, err_lambda = 0, worst_phi = 0;
};
PendulumRun run_pendulum(double rho_inf, double h, double t_end, const PendulumReference& ref) {
  CartesianPendulum p(1.0, 1.0, 9.81, 0.3);
  SecondOrderState s{Vector::Zero(2), Vector(), Vector(), Vector::Zero(1)};
  EXPECT_TRUE(consistent_accelerations(p, 0.0, s.v, s.qdd, s.lambda));
  s.a = s.qdd;
  GeneralizedAlpha ga;
  PendulumRun out;
  const NewtonOptions opt = tight();
  const int steps = static_cast<int>(std::lround(t_end / h));
  for (int k = 1; k <= steps; ++k) {
    const StepResult r = ga.step(p, rho_inf, k * h, h, s, opt);
    EXPECT_TRUE(r.converged) << r.message;
    out.worst_phi = std::max(out.worst_phi, std::abs(0.5 * (p.q().squaredNorm() - 1.0)));
  }
  out.err_q = (p.q() - Eigen::Vector2d(ref.q[0], ref.q[1])).norm();
  out.err_v = (s.v - Eigen::Vector2d(ref.v[0], ref.v[1])).norm();
  out.err_lambda = std::abs(s.lambda[0] - ref.lambda);
  return out;
}

}  // namespace

TEST(GeneralizedAlpha, CoefficientsOfEqs5And6) {
  // rho_inf = 1: alpha_m = alpha_f = 1/2, gamma = 1/2, beta = 1/4 (the trapezoidal rule).
  const GeneralizedAlphaCoefficients c = generalized_alpha_coefficients(1.0, 0.1);
  EXPECT_DOUBLE_EQ(c.alpha_m, 0.5);
  EXPECT_DOUBLE_EQ(c.alpha_f, 0.5);
  EXPECT_DOUBLE_EQ(c.gamma, 0.5);
  EXPECT_DOUBLE_EQ(c.beta, 0.25);
  EXPECT_DOUBLE_EQ(c.c8, 0.25 * 0.01);
}

TEST(GeneralizedAlpha, SpectralRadiusTendsToRhoInfinity) {
  say("Generalized-alpha, spectral radius of one step of q'' + w^2 q = 0 (seed 004 fig. 1)\n");
  say("rho_inf   h/T=0.01   h/T=1     h/T=100   h/T=1e4\n");
  for (double rho_inf : {0.0, 0.5, 0.8, 1.0}) {
    const double r_small = spectral_radius(rho_inf, 0.01), r_1 = spectral_radius(rho_inf, 1.0);
    const double r_100 = spectral_radius(rho_inf, 100.0), r_big = spectral_radius(rho_inf, 1e4);
    say(fmt::format("{:<9} {:<10.6f} {:<9.6f} {:<9.6f} {:.6f}\n", rho_inf, r_small, r_1, r_100, r_big));
    EXPECT_NEAR(r_big, rho_inf, 1e-3) << rho_inf;
    EXPECT_GT(r_small, 0.999);
    EXPECT_LE(r_small, 1.0 + 1e-9);
  }
}

TEST(GeneralizedAlpha, SecondOrderConvergenceOnTheConstrainedPendulum) {
  const double t_end = 1.0;
  const PendulumReference ref = pendulum_reference(1.0, 1.0, 9.81, 0.3, t_end);
  say("\nGeneralized-alpha, constrained pendulum (Cartesian, L = 1, theta0 = 0.3), errors at t = 1\n");
  say("rho_inf  h        |q - q_ref|  order  |v - v_ref|  order  |lambda - ref|  order  max|Phi|\n");
  for (double rho_inf : {0.5, 0.8}) {
    PendulumRun prev;
    for (double h : {4e-3, 2e-3, 1e-3, 5e-4}) {
      const PendulumRun r = run_pendulum(rho_inf, h, t_end, ref);
      EXPECT_LE(r.worst_phi, 1e-12) << "constraint at the Newton tolerance";
      std::string line = fmt::format("{:<8} {:<8} {:<12.3e}", rho_inf, h, r.err_q);
      if (prev.err_q > 0) {
        const double oq = std::log2(prev.err_q / r.err_q), ov = std::log2(prev.err_v / r.err_v),
                     ol = std::log2(prev.err_lambda / r.err_lambda);
        line += fmt::format(" {:<6.2f} {:<12.3e} {:<6.2f} {:<14.3e} {:<6.2f} {:.1e}\n", oq, r.err_v, ov,
                            r.err_lambda, ol, r.worst_phi);
        EXPECT_GT(oq, 1.8) << h;
        EXPECT_GT(ov, 1.8) << h;
        EXPECT_GT(ol, 1.8) << h;
      } else {
        line += fmt::format(" {:<6} {:<12.3e} {:<6} {:<14.3e} {:<6} {:.1e}\n", "", r.err_v, "", r.err_lambda, "",
                            r.worst_phi);
      }
      say(line);
      prev = r;
    }
  }
}

TEST(GeneralizedAlpha, ScaledIterationMatrixConditionIndependentOfH) {
  say("\nGeneralized-alpha, condition number of the iteration matrix (eq. 27), constrained pendulum\n");
  say("h        scaled (eq. 22-25)   unscaled (s = 1)\n");
  std::vector<double> scaled, unscaled;
  for (double h : {1e-2, 1e-3, 1e-4, 1e-5}) {
    double cond[2];
    for (int k = 0; k < 2; ++k) {
      CartesianPendulum p(1.0, 1.0, 9.81, 0.3);
      SecondOrderState s{Vector::Zero(2), Vector(), Vector(), Vector::Zero(1)};
      consistent_accelerations(p, 0.0, s.v, s.qdd, s.lambda);
      s.a = s.qdd;
      GeneralizedAlpha ga(k == 0);
      // Unscaled, the tiny constraint block is lost in round-off: Newton may not converge there.
      const bool converged = ga.step(p, 0.8, h, h, s, tight()).converged;
      if (k == 0) {
        EXPECT_TRUE(converged) << h;
      }
      const Eigen::JacobiSVD<Matrix> svd(ga.iteration_matrix());
      cond[k] = svd.singularValues()(0) / svd.singularValues().tail(1)(0);
    }
    scaled.push_back(cond[0]);
    unscaled.push_back(cond[1]);
    say(fmt::format("{:<8} {:<20.4g} {:.4g}\n", h, cond[0], cond[1]));
  }
  const auto [lo, hi] = std::minmax_element(scaled.begin(), scaled.end());
  EXPECT_LT(*hi / *lo, 2.0);
  EXPECT_GT(unscaled.back() / unscaled.front(), 1e4);
}

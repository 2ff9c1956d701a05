// Integrators on small problems: linear analysis on the undamped oscillator, convergence order
// on the nonlinear pendulum, hook call order, failure handling.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <complex>
#include <cstdio>

#include "integrators/integrator.hpp"
#include "linear_analysis.hpp"
#include "test_problems.hpp"

namespace mbl::integrators {
namespace {
using testing::Oscillator;
using testing::Pendulum;
using testing::RecordingPendulum;

struct M {
  const char* name;
  double rho;
};
const M kAll[] = {{"crank nicolson", -1}, {"implicit euler", -1}, {"bdf", -1}, {"ms", 0.6},
                  {"ms3", 0.6},          {"ms4", 0.0},           {"hope", 0.6}, {"ss2", 0.6},
                  {"ss3", 0.6},          {"ss4", 0.6},           {"Bathe", 0.6}, {"msstc3", 0.6},
                  {"msstc4", 0.6},       {"msstc5", 0.6},        {"mssth3", 0.0}, {"mssth4", 0.0},
                  {"mssth5", 0.0},       {"DIRK33", -1},         {"DIRK43", -1}, {"DIRK54", -1}};

std::unique_ptr<ImplicitStepIntegrator> make(const M& m) { return testing::make_method(m.name, m.rho); }

NewtonSolver tight_newton(int max_it = 30) { return testing::tight_newton(1e-13, max_it); }

using testing::damping_elongation;

// ---- linear analysis: one-step methods (amplification matrix measured from two runs) --------
TEST(IntegratorLinearAnalysis, OneStepAmplificationMatrixMatchesTableau) {
  const double omega = 2.0 * M_PI;  // T = 1
  for (const char* name : {"crank nicolson", "implicit euler", "Bathe", "msstc3", "msstc4",
                           "msstc5", "mssth3", "mssth4", "mssth5", "DIRK33", "DIRK43", "DIRK54"}) {
    const bool tunable = std::string(name) != "crank nicolson" && std::string(name) != "implicit euler" &&
                         std::string(name).rfind("DIRK", 0) != 0;
    const double rho = std::string(name).rfind("mssth", 0) == 0 ? 0.0 : 0.6;
    for (double ratio : {0.01, 0.1, 1.0, 10.0, 100.0, 1e6}) {
      const double h = ratio;  // T = 1
      Oscillator osc(omega);
      auto integ = make({name, tunable ? rho : -1.0});
      NewtonSolver nw = tight_newton();
      Eigen::Matrix2d G;
      for (int col = 0; col < 2; ++col) {
        Vector y0 = Vector::Zero(2), yp0(2);
        y0[col] = 1.0;
        yp0 << y0[1], -omega * omega * y0[0];
        integ->start(osc, 0.0, y0, yp0);
        const StepResult r = integ->advance(osc, h, h, nw);
        ASSERT_TRUE(r.converged) << name;
        EXPECT_LE(r.iterations, 2 * integ->implicit_stages()) << name;  // linear: ~one solve per stage
        G.col(col) = integ->y();
      }
      // Analytical: R(z) of the tableau built from its coefficients, R(+-i omega h).
      const std::complex<double> R = testing::stability_function(name, rho, {0.0, omega * h});
      Eigen::EigenSolver<Eigen::Matrix2d> es(G);
      const std::complex<double> l0 = es.eigenvalues()[0], l1 = es.eigenvalues()[1];
      const double rho_num = std::max(std::abs(l0), std::abs(l1));
      EXPECT_NEAR(rho_num, std::abs(R), 1e-8) << name << " dt/T=" << ratio;
      if (ratio <= 1.0) {
        const std::complex<double> lnum = l0.imag() >= 0 ? l0 : l1;
        double xi_n, pe_n, xi_a, pe_a;
        damping_elongation(lnum, omega * h, xi_n, pe_n);
        damping_elongation(R, omega * h, xi_a, pe_a);
        EXPECT_NEAR(xi_n, xi_a, 1e-8) << name << " dt/T=" << ratio;
        EXPECT_NEAR(pe_n, pe_a, 1e-8) << name << " dt/T=" << ratio;
        if (ratio == 0.1)
          std::printf("  %-15s dt/T=0.1: rho=%.6f AD=%.4f%% PE=%.4f%% (analytical rho=%.6f)\n",
                      name, rho_num, 100 * xi_n, 100 * pe_n, std::abs(R));
      }
      if (ratio == 1e6) {
        const double expected = tunable ? rho : std::string(name) == "crank nicolson" ? 1.0 : 0.0;
        EXPECT_NEAR(rho_num, expected, 1e-3) << name;
      }
    }
  }
}

// ---- linear analysis: multistep methods (integrator == analytical recurrence) ----------------
// Analytical one-step map of an r-step formula on y' = L y, over the history [X_{k-1}..X_{k-r}].
Eigen::MatrixXd lms_companion(const coef::Lms& f, const Eigen::Matrix2d& L) {
  const int r = static_cast<int>(f.a.size());
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(2 * r, 2 * r);
  const Eigen::Matrix2d inv = (Eigen::Matrix2d::Identity() - f.b[0] * L).inverse();
  for (int j = 1; j <= r; ++j)
    G.block(0, 2 * (j - 1), 2, 2) = inv * (f.a[j - 1] * Eigen::Matrix2d::Identity() + f.b[j] * L);
  for (int j = 1; j < r; ++j) G.block(2 * j, 2 * (j - 1), 2, 2).setIdentity();
  return G;
}

TEST(IntegratorLinearAnalysis, MultistepFollowsAnalyticalRecurrence) {
  const double omega = 2.0 * M_PI;
  Eigen::Matrix2d L;
  L << 0, 1, -omega * omega, 0;
  struct Case { const char* name; double rho; int r; };
  for (const Case c : {Case{"ms", 0.6, 2}, Case{"ms", 0.0, 2}, Case{"bdf", -1, 2}, Case{"ms3", 0.6, 3},
                       Case{"ms3", 0.0, 3}, Case{"ms4", 0.0, 4}, Case{"ms4", 0.6, 4}}) {
    for (double ratio : {0.01, 0.1, 1.0, 10.0, 100.0}) {
      const double h = ratio;
      Oscillator osc(omega);
      auto integ = make({c.name, c.rho});
      NewtonSolver nw = tight_newton();
      Vector y0(2), yp0(2);
      y0 << 1.0, 0.3;
      yp0 = L * y0;
      integ->start(osc, 0.0, y0, yp0);
      const double rho = c.rho < 0 ? 0.0 : c.rho;
      const coef::Lms f = c.r == 2 ? coef::ms2(rho, h, h) : c.r == 3 ? coef::ms3(rho, h) : coef::ms4(rho, h);
      const Eigen::MatrixXd G = lms_companion(f, L);
      std::vector<Vector> hist{y0};
      for (int k = 1; k <= 12; ++k) {
        ASSERT_TRUE(integ->advance(osc, k * h, h, nw).converged);
        if (k >= c.r) {
          Eigen::VectorXd H(2 * c.r);
          for (int j = 0; j < c.r; ++j) H.segment(2 * j, 2) = hist[hist.size() - 1 - j];
          const Eigen::Vector2d expect = (G * H).head(2);
          const double scale = std::max(1e-300, H.cwiseAbs().maxCoeff());
          EXPECT_NEAR((integ->y() - expect).norm() / scale, 0.0, 1e-9) << c.name << " k=" << k;
        }
        hist.push_back(integ->y());
      }
      if (ratio == 0.1 || ratio == 1.0) {
        Eigen::EigenSolver<Eigen::MatrixXd> es(G);
        double rho_n = 0.0;
        std::complex<double> principal;
        double best = 1e300;
        for (int i = 0; i < G.rows(); ++i) {
          const auto l = es.eigenvalues()[i];
          rho_n = std::max(rho_n, std::abs(l));
          const double d = std::abs(l - std::exp(std::complex<double>(0, omega * h)));
          if (l.imag() >= 0 && d < best) best = d, principal = l;
        }
        double xi, pe;
        damping_elongation(principal, omega * h, xi, pe);
        std::printf("  %-4s rho_inf=%.1f dt/T=%-4g: rho=%.6f AD=%.4f%% PE=%.4f%%\n", c.name, rho,
                    ratio, rho_n, 100 * xi, 100 * pe);
      }
    }
    // rho_inf from the analytical map: the r-fold root -rho is approached like (1/(omega h))^(1/r).
    for (double h : {1e6, 1e12}) {
      const double rho = c.rho < 0 ? 0.0 : c.rho;
      const coef::Lms f = c.r == 2 ? coef::ms2(rho, h, h) : c.r == 3 ? coef::ms3(rho, h) : coef::ms4(rho, h);
      Eigen::EigenSolver<Eigen::MatrixXd> es(lms_companion(f, L));
      double rho_n = 0.0;
      for (int i = 0; i < es.eigenvalues().size(); ++i) rho_n = std::max(rho_n, std::abs(es.eigenvalues()[i]));
      EXPECT_NEAR(rho_n, rho, h == 1e6 ? 1e-2 : 1e-3) << c.name << " dt/T=" << h;
    }
  }
}

TEST(IntegratorLinearAnalysis, SingleStepEquivalentToMultistep) {
  // SS_r reproduces LMS_r exactly on linear problems (seed §2.2): its solution satisfies the
  // LMS_r relation from step r on.
  const double omega = 2.0 * M_PI;
  for (int r : {2, 3, 4}) {
    for (double rho : {0.0, 0.6, 1.0}) {
      for (double h : {0.01, 0.1, 1.0, 10.0}) {
        Oscillator osc(omega);
        auto integ = make({r == 2 ? "ss2" : r == 3 ? "ss3" : "ss4", rho});
        NewtonSolver nw = tight_newton();
        Vector y0(2), yp0(2);
        y0 << 1.0, -0.4;
        yp0 << y0[1], -omega * omega * y0[0];
        integ->start(osc, 0.0, y0, yp0);
        std::vector<Vector> ys{y0}, yps{yp0};
        const coef::Lms f = r == 2 ? coef::ms2(rho, h, h) : r == 3 ? coef::ms3(rho, h) : coef::ms4(rho, h);
        for (int k = 1; k <= 10; ++k) {
          ASSERT_TRUE(integ->advance(osc, k * h, h, nw).converged);
          ys.push_back(integ->y());
          yps.push_back(integ->yp());
          if (k >= r) {
            Vector d = ys[k] - f.b[0] * yps[k];
            double scale = 0.0;
            for (int j = 1; j <= r; ++j) {
              d -= f.a[j - 1] * ys[k - j] + f.b[j] * yps[k - j];
              scale = std::max({scale, ys[k - j].cwiseAbs().maxCoeff(), h * yps[k - j].cwiseAbs().maxCoeff()});
            }
            EXPECT_NEAR(d.norm() / scale, 0.0, 1e-10) << "ss" << r << " rho " << rho << " h " << h << " k " << k;
          }
        }
      }
    }
  }
}

// ---- convergence order on the nonlinear pendulum --------------------------------------------
double pendulum_error(const M& m, int nsteps, double T, const Eigen::Vector2d& ref) {
  Pendulum p;
  auto integ = make(m);
  NewtonSolver nw = tight_newton(50);
  Vector y0(2), yp0(2);
  y0 << 1.2, 0.0;
  yp0 << 0.0, -std::sin(1.2);
  integ->start(p, 0.0, y0, yp0);
  const double h = T / nsteps;
  for (int k = 1; k <= nsteps; ++k) {
    const StepResult r = integ->advance(p, k * h, h, nw);
    if (!r.converged) return 1e300;
  }
  return (integ->y() - ref).norm();
}

TEST(IntegratorConvergenceOrder, Pendulum) {
  const double T = 2.0;
  // Reference: DIRK54 with a tiny step (error ~1e-14).
  Pendulum p;
  auto ref_int = make({"DIRK54", -1});
  NewtonSolver nw = tight_newton(50);
  Vector y0(2), yp0(2);
  y0 << 1.2, 0.0;
  yp0 << 0.0, -std::sin(1.2);
  ref_int->start(p, 0.0, y0, yp0);
  const int nref = 4000;
  for (int k = 1; k <= nref; ++k) ASSERT_TRUE(ref_int->advance(p, k * T / nref, T / nref, nw).converged);
  const Eigen::Vector2d ref = ref_int->y();
  for (const M& m : kAll) {
    const std::string n(m.name);
    const double expected = n == "implicit euler" ? 1.0
                            : n == "mssth3" || n == "DIRK33" || n == "DIRK43" ? 3.0
                            : n == "mssth4" || n == "DIRK54" ? 4.0
                            : n == "mssth5" ? 5.0 : 2.0;
    const int n0 = expected >= 4 ? 10 : 40;
    const double e1 = pendulum_error(m, n0, T, ref), e2 = pendulum_error(m, 2 * n0, T, ref);
    const double order = std::log2(e1 / e2);
    std::printf("  %-15s order %.2f (errors %.3e, %.3e)\n", m.name, order, e1, e2);
    if (expected == 5.0) {
      EXPECT_GT(order, 4.3) << m.name;  // fifth order, pre-asymptotic
    }
    else EXPECT_NEAR(order, expected, expected >= 3 ? 0.35 : 0.2) << m.name;
  }
}

// ---- hooks -------------------------------------------------------------------------------------
std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + " ";
  return s;
}

TEST(IntegratorHooks, CallOrder) {
  NewtonOptions o;
  o.residual_tolerance = 1e-10;
  {
    RecordingPendulum p;
    auto integ = make({"ms3", 0.6});
    NewtonSolver nw(o, std::make_unique<DenseSolver>());
    Vector y0(2), yp0(2);
    y0 << 0.5, 0.0;
    yp0 << 0.0, -std::sin(0.5);
    integ->start(p, 0.0, y0, yp0);
    EXPECT_EQ(joined(p.log), "C ");
    for (int k = 1; k <= 4; ++k) {
      p.log.clear();
      ASSERT_TRUE(integ->advance(p, 0.01 * k, 0.01, nw).converged);
      // Step 1: trapezoidal with one history point; step 2: trapezoid + eq. (12) (2 points);
      // from step 3 the 3-step formula (3 points).
      const std::string rebase = k == 1 ? "R1" : k == 2 ? "R2" : "R3";
      const std::string s = joined(p.log);
      EXPECT_EQ(s.substr(0, 11), "S " + rebase + " P U U ") << s;  // save, rebase, predict, update, Newton
      EXPECT_EQ(s.substr(s.size() - 2), "C ") << s;               // once per converged point
      EXPECT_EQ(std::count(p.log.begin(), p.log.end(), "C"), 1);
    }
  }
  {
    RecordingPendulum p;
    auto integ = make({"DIRK54", -1});  // 6 stages: 5 implicit points per step
    NewtonSolver nw(o, std::make_unique<DenseSolver>());
    Vector y0(2), yp0(2);
    y0 << 0.5, 0.0;
    yp0 << 0.0, -std::sin(0.5);
    integ->start(p, 0.0, y0, yp0);
    p.log.clear();
    ASSERT_TRUE(integ->advance(p, 0.05, 0.05, nw).converged);
    EXPECT_EQ(std::count(p.log.begin(), p.log.end(), "C"), 5);
    EXPECT_EQ(std::count(p.log.begin(), p.log.end(), "P"), 5);
    // Stage i rebases the i previous points.
    std::vector<std::string> rebases;
    for (auto& s : p.log) if (s[0] == 'R') rebases.push_back(s);
    EXPECT_EQ(joined(rebases), "R1 R2 R3 R4 R5 ");
  }
}

// ---- failure handling --------------------------------------------------------------------------
TEST(IntegratorFailure, KeepsLastConvergedStateAndRetries) {
  RecordingPendulum p;
  auto integ = make({"Bathe", 0.0});
  NewtonOptions o;
  o.residual_tolerance = 1e-12;
  o.max_iterations = 1;  // too few for this nonlinear step
  NewtonSolver nw(o, std::make_unique<DenseSolver>());
  Vector y0(2), yp0(2);
  y0 << 2.5, 0.0;
  yp0 << 0.0, -std::sin(2.5);
  integ->start(p, 0.0, y0, yp0);
  p.log.clear();
  const StepResult r = integ->advance(p, 0.5, 0.5, nw);
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.failure, FailureReason::MaxIterations);
  EXPECT_NE(r.message.find("stage"), std::string::npos);
  EXPECT_EQ(integ->time(), 0.0);
  EXPECT_EQ(integ->y(), y0);
  EXPECT_EQ(std::count(p.log.begin(), p.log.end(), "X"), 1);  // restore_checkpoint
  EXPECT_EQ(p.log.back(), "U");                                // then update to the last state
  nw.options().max_iterations = 20;
  const StepResult r2 = integ->advance(p, 0.25, 0.25, nw);
  EXPECT_TRUE(r2.converged);
  EXPECT_DOUBLE_EQ(integ->time(), 0.25);
}

/// Calls rebased() with 3, then 1, then 2 copies of the last point and records what it gives.
class RebasedProbe : public ImplicitStepIntegrator {
 public:
  RebasedProbe() : ImplicitStepIntegrator("probe", 2) {}
  std::vector<std::size_t> sizes;

 protected:
  StepResult step(Problem& p, double, double, NewtonSolver&, Point&) override {
    for (std::size_t n : {3, 1, 2}) sizes.push_back(rebased(p, std::vector<const Point*>(n, &history_[0])).size());
    return {};
  }
};

TEST(IntegratorRebased, GivesAsManyPointsAsAskedFor) {
  RecordingPendulum p;
  RebasedProbe probe;
  NewtonSolver nw = tight_newton();
  Vector y0 = Vector::Zero(2), yp0 = Vector::Zero(2);
  probe.start(p, 0.0, y0, yp0);
  EXPECT_FALSE(probe.advance(p, 0.1, 0.1, nw).converged);
  // Its storage keeps three points after the first call; the later calls still get 1 and 2.
  EXPECT_EQ(probe.sizes, (std::vector<std::size_t>{3, 1, 2}));
}

TEST(IntegratorFailure, UnsupportedRhoIsCleanError) {
  MethodSpec s;
  s.name = "msstc3";
  s.rho = [](double t) { return t < 0.05 ? 0.6 : 0.65; };  // drive changes to a non-tabulated value
  auto integ = make_integrator(s);
  Pendulum p;
  NewtonSolver nw = tight_newton();
  Vector y0(2), yp0(2);
  y0 << 0.5, 0.0;
  yp0 << 0.0, -std::sin(0.5);
  integ->start(p, 0.0, y0, yp0);
  EXPECT_TRUE(integ->advance(p, 0.04, 0.04, nw).converged);
  const StepResult r = integ->advance(p, 0.08, 0.04, nw);
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.failure, FailureReason::InvalidParameter);
  EXPECT_NE(r.message.find("msstc3"), std::string::npos);
  EXPECT_THROW(make_integrator(MethodSpec{"ms", nullptr, nullptr, 2}), std::invalid_argument);
  EXPECT_THROW(make_integrator(MethodSpec{"rk4", nullptr, nullptr, 2}), std::invalid_argument);
}

}  // namespace
}  // namespace mbl::integrators

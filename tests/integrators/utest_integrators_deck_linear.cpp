// Linear analysis through the whole machinery (issue #6): a 1-DOF spring-mass deck (a mass on a
// rod to a clamped node, T = 1 s) is run by the program with every `method:` of the manual at
// dt/T in {0.01, 0.1, 1, 10, 100}; its NetCDF output (doubles) gives the states [x, v] per step.
//  - one-step methods (Crank-Nicolson, implicit Euler, Bathe, MSSTC, MSSTH, DIRK): the 2x2
//    amplification matrix is measured from three consecutive regular steps; its spectral radius,
//    numerical damping and period elongation match those of R(i omega h) computed here from the
//    method's tableau (seed 000 eqs. 7 and Table 7), to 1e-8;
//  - multistep and equivalent single-step methods (ms, bdf, ms3, ms4, hope, ss2-4): every step
//    after the start-up follows the LMS recurrence built here from the seed's coefficients (eqs. 4,
//    9-11) to 1e-9, so the run has that recurrence's spectral radius, damping and elongation;
//  - rho_inf is reached: at dt/T = 100 the measured spectral radius is within 2e-2 of rho_inf.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <cmath>
#include <complex>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <string>
#include <vector>

#include "integrators/coefficients.hpp"
#include "linear_analysis.hpp"
#include "mbdyn-like/output/results.hpp"
#include "support/run_program.hpp"

namespace mbl {
namespace {
namespace fs = std::filesystem;
namespace coef = integrators::coef;

constexpr double kOmega = 2.0 * M_PI;  // T = 1 s
constexpr double kMass = 1.0;
constexpr double kL0 = 1000.0;  // rod length at rest: large steps never bring the mass near the clamp
constexpr double kAmplitude = 1.0;     // initial stretch
constexpr int kSteps = 8;

struct Method {
  const char* card;  ///< what follows `method:`
  const char* name;
  double rho;        ///< < 0: the method has no rho
};

const Method kMethods[] = {
    {"crank nicolson", "crank nicolson", -1}, {"implicit euler", "implicit euler", -1},
    {"bdf", "bdf", -1},                      {"ms, 0.6", "ms", 0.6},
    {"ms, 0.0", "ms", 0.0},                  {"ms3, 0.6", "ms3", 0.6},
    {"ms3, 0.0", "ms3", 0.0},                {"ms4, 0.6", "ms4", 0.6},
    {"ms4, 0.0", "ms4", 0.0},                {"hope, 0.6", "hope", 0.6},
    {"ss2, 0.6", "ss2", 0.6},                {"ss2, 0.0", "ss2", 0.0},
    {"ss3, 0.6", "ss3", 0.6},                {"ss4, 0.6", "ss4", 0.6},
    {"Bathe, 0.6", "Bathe", 0.6},            {"Bathe, 0.0", "Bathe", 0.0},
    {"msstc3, 0.6", "msstc3", 0.6},          {"msstc4, 0.6", "msstc4", 0.6},
    {"msstc5, 0.6", "msstc5", 0.6},          {"mssth3, 0.0", "mssth3", 0.0},
    {"mssth4, 0.0", "mssth4", 0.0},          {"mssth5, 0.0", "mssth5", 0.0},
    {"DIRK33", "DIRK33", -1},                {"DIRK43", "DIRK43", -1},
    {"DIRK54", "DIRK54", -1},
};

// The final time sits half a step past the last wanted step: MBDyn (and we) step while the
// accumulated time is below it, and k dt accumulated may fall just short of k dt.
std::string deck_text(const Method& m, double dt) {
  const double EA = kMass * kOmega * kOmega * kL0;  // rod stiffness EA / L0 = m omega^2
  return fmt::format(R"(begin: data; problem: initial value; end: data;
begin: initial value;
  initial time: 0.; final time: {final}; time step: {dt};
  method: {method};
  tolerance: 1e-9; max iterations: 20;
  derivatives tolerance: 1e-11; derivatives max iterations: 20;
  derivatives coefficient: 1e-12;  # momenta start at m v0 + dCoef beta', negligible here
end: initial value;
begin: control data;
  structural nodes: 2; rigid bodies: 1; joints: 2;
  output results: netcdf;
end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, dynamic, {x0}, 0., 0., eye, null, null;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  joint: 2, rod, 1, 2, {l0}, linear elastic, {EA};
  body: 2, 2, {m}, null, eye;
end: elements;
)",
                     fmt::arg("final", (kSteps - 0.5) * dt), fmt::arg("dt", dt), fmt::arg("method", m.card),
                     fmt::arg("x0", kL0 + kAmplitude), fmt::arg("l0", kL0), fmt::arg("EA", EA),
                     fmt::arg("m", kMass));
}

/// Runs the deck, returns the states z_k = [x_k - L0, v_k] for k = 0..kSteps.
std::vector<Eigen::Vector2d> run_states(const Method& m, double ratio) {
  const fs::path dir = test::fresh_temp_dir(fmt::format("linear_{}_{}_{}", m.name, m.rho, ratio));
  std::ofstream(dir / "spring.mbd") << deck_text(m, ratio);
  const int rc = test::run_deck(dir / "spring.mbd", dir / "run", dir / "run.log");
  EXPECT_EQ(rc, 0) << test::read_file(dir / "run.log");
  std::vector<Eigen::Vector2d> z;
  if (rc != 0) return z;
  const output::Results r = output::read_netcdf((dir / "run.nc").string());
  const output::Series& X = r.vars.at("node.struct.2.X");
  const output::Series& V = r.vars.at("node.struct.2.XP");
  for (std::size_t k = 0; k < r.records(); ++k) z.emplace_back(X.at(k, 0) - kL0, V.at(k, 0));
  return z;
}

using integrators::testing::damping_elongation;

std::complex<double> stability_function(const Method& m, std::complex<double> z) {
  return integrators::testing::stability_function(m.name, m.rho, z);
}

/// The r-step formula a method uses at step k (k >= 2), from the seed's coefficients.
coef::Lms lms_formula(const Method& m, double h, int k) {
  const std::string n = m.name;
  const double rho = m.rho < 0 ? 0.0 : m.rho;
  // MBDyn's HopeSolver: step 1 is the Crank-Nicolson start-up, then trapezoidal on the even
  // steps and the two-step formula on the odd ones (its flag flips at every new step).
  if (n == "hope") return k % 2 == 0 ? coef::trapezoidal(h) : coef::hope_two_step(rho, h);
  if (n == "ms" || n == "bdf" || n == "ss2") return coef::ms2(rho, h, h);
  if (n == "ms3" || n == "ss3") return coef::ms3(rho, h);
  return coef::ms4(rho, h);
}

bool is_one_step(const Method& m) {
  const std::string n = m.name;
  return n == "crank nicolson" || n == "implicit euler" || n == "Bathe" || n.rfind("msst", 0) == 0 ||
         n.rfind("DIRK", 0) == 0;
}

class DeckLinearAnalysis : public ::testing::TestWithParam<Method> {};

TEST_P(DeckLinearAnalysis, MatchesTheMethodsAmplificationMatrix) {
  const Method& m = GetParam();
  Eigen::Matrix2d L;  // y' = L y for y = [x, v]
  L << 0.0, 1.0, -kOmega * kOmega, 0.0;
  for (double ratio : {0.01, 0.1, 1.0, 10.0, 100.0}) {
    const double h = ratio;  // T = 1
    const std::vector<Eigen::Vector2d> z = run_states(m, ratio);
    ASSERT_EQ(z.size(), std::size_t(kSteps + 1)) << m.card << " dt/T=" << ratio;
    if (is_one_step(m)) {
      // Measured: z_{k+1} = G z_k for k = 0, 1 (the first steps: at large dt/T the state decays
      // to round-off within a few steps).
      Eigen::Matrix2d Z0, Z1;
      Z0 << z[0], z[1];
      Z1 << z[1], z[2];
      const Eigen::Matrix2d G = Z1 * Z0.inverse();
      Eigen::EigenSolver<Eigen::Matrix2d> es(G);
      const std::complex<double> l0 = es.eigenvalues()[0], l1 = es.eigenvalues()[1];
      const double rho_measured = std::max(std::abs(l0), std::abs(l1));
      const std::complex<double> R = stability_function(m, {0.0, kOmega * h});
      EXPECT_NEAR(rho_measured, std::abs(R), 1e-8) << m.card << " dt/T=" << ratio;
      if (ratio <= 1.0) {  // damping and elongation are defined while the root oscillates
        double xi_m, pe_m, xi_a, pe_a;
        damping_elongation(l0.imag() >= 0 ? l0 : l1, kOmega * h, xi_m, pe_m);
        damping_elongation(R, kOmega * h, xi_a, pe_a);
        EXPECT_NEAR(xi_m, xi_a, 1e-8) << m.card << " dt/T=" << ratio;
        EXPECT_NEAR(pe_m, pe_a, 1e-8) << m.card << " dt/T=" << ratio;
      }
      if (ratio == 100.0 && m.rho >= 0) {
        EXPECT_NEAR(rho_measured, m.rho, 2e-2) << m.card;
      }
    } else {
      // Every step after the start-up (k > r) follows y_k = (I - b0 L)^-1 sum (a_j + b_j L) y_k-j,
      // to 1e-9 of the state (or of the initial amplitude once the state has decayed below it:
      // x is ~L0, so its round-off is ~1e-13 L0).
      const coef::Lms f0 = lms_formula(m, h, 4);
      const int r = static_cast<int>(f0.a.size());
      for (int k = r + 1; k <= kSteps; ++k) {
        const coef::Lms f = lms_formula(m, h, k);
        Eigen::Vector2d rhs = Eigen::Vector2d::Zero();
        double scale = 0.0;
        for (int j = 1; j <= static_cast<int>(f.a.size()); ++j) {
          rhs += (f.a[j - 1] * Eigen::Matrix2d::Identity() + f.b[j] * L) * z[k - j];
          scale = std::max(scale, z[k - j].cwiseAbs().maxCoeff());
        }
        scale = std::max(scale, 1e-2 * kAmplitude);
        const Eigen::Vector2d expected = (Eigen::Matrix2d::Identity() - f.b[0] * L).lu().solve(rhs);
        EXPECT_NEAR((z[k] - expected).norm() / scale, 0.0, 1e-9) << m.card << " dt/T=" << ratio << " k=" << k;
      }
      if (ratio == 100.0 && m.rho >= 0 && std::string(m.name) != "hope") {
        // rho_inf: the largest root of the recurrence's companion matrix at dt/T = 100.
        Eigen::MatrixXd C = Eigen::MatrixXd::Zero(2 * r, 2 * r);
        const Eigen::Matrix2d inv = (Eigen::Matrix2d::Identity() - f0.b[0] * L).inverse();
        for (int j = 1; j <= r; ++j)
          C.block(0, 2 * (j - 1), 2, 2) = inv * (f0.a[j - 1] * Eigen::Matrix2d::Identity() + f0.b[j] * L);
        for (int j = 1; j < r; ++j) C.block(2 * j, 2 * (j - 1), 2, 2).setIdentity();
        Eigen::EigenSolver<Eigen::MatrixXd> es(C);
        double rho_n = 0.0;
        for (int i = 0; i < es.eigenvalues().size(); ++i) rho_n = std::max(rho_n, std::abs(es.eigenvalues()[i]));
        // The r-fold root -rho_inf splits like (1/(omega h))^(1/r) at finite steps.
        EXPECT_NEAR(rho_n, m.rho, 0.3) << m.card;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Methods, DeckLinearAnalysis, ::testing::ValuesIn(kMethods),
                         [](const ::testing::TestParamInfo<Method>& i) {
                           return test::test_identifier(
                               fmt::format("{}_{}", i.param.name, i.param.rho < 0 ? 0 : int(10 * i.param.rho)));
                         });

}  // namespace
}  // namespace mbl

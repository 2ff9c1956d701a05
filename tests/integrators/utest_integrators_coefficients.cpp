// Coefficients of seed 000's methods: order conditions, predictors, spectral radii at infinity.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <string>
#include <utility>
#include <vector>

#include "integrators/coefficients.hpp"

namespace mbl::integrators::coef {
namespace {

// Runge-Kutta order conditions up to order 4 for a stiffly accurate tableau (b = last row).
void expect_order(const Tableau& t, int order, const std::string& what) {
  const int s = t.stages();
  const Eigen::VectorXd b = t.A.row(s - 1).transpose();
  const Eigen::VectorXd& c = t.c;
  const Eigen::VectorXd e = Eigen::VectorXd::Ones(s);
  const double tol = 1e-12;
  EXPECT_NEAR((t.A * e - c).norm(), 0.0, tol) << what << " row sums";
  EXPECT_NEAR(b.sum(), 1.0, tol) << what;
  EXPECT_NEAR(b.dot(c), 0.5, tol) << what;
  if (order >= 3) {
    EXPECT_NEAR(b.dot(c.cwiseProduct(c)), 1.0 / 3.0, tol) << what;
    EXPECT_NEAR(b.dot(t.A * c), 1.0 / 6.0, tol) << what;
  } else {
    // Second-order methods must not be third order by accident of the test.
    EXPECT_GT(std::abs(b.dot(c.cwiseProduct(c)) - 1.0 / 3.0) +
                  std::abs(b.dot(t.A * c) - 1.0 / 6.0),
              1e-6)
        << what;
  }
  if (order >= 4) {
    const Eigen::VectorXd c2 = c.cwiseProduct(c);
    EXPECT_NEAR(b.dot(c2.cwiseProduct(c)), 0.25, tol) << what;
    EXPECT_NEAR(b.dot(c.cwiseProduct(t.A * c)), 0.125, tol) << what;
    EXPECT_NEAR(b.dot(t.A * c2), 1.0 / 12.0, tol) << what;
    EXPECT_NEAR(b.dot(t.A * (t.A * c)), 1.0 / 24.0, tol) << what;
  }
}

double rho_inf(const Tableau& t) { return std::abs(stability(t, {-1e9, 0.0})); }

TEST(IntegratorCoefficients, EsdirkTableauxOrderAndRhoInf) {
  for (double rho : {0.0, 0.3, 0.6, 1.0}) {
    const std::string r = std::to_string(rho);
    expect_order(bathe(rho), 2, "Bathe " + r);
    EXPECT_NEAR(rho_inf(bathe(rho)), rho, 1e-6) << r;
    for (int n : {3, 4, 5}) {
      const Tableau c = msstc(n, rho);
      expect_order(c, 2, "msstc" + std::to_string(n) + " " + r);
      EXPECT_NEAR(rho_inf(c), rho, 1e-6) << "msstc" << n << " " << r;
      const Tableau h = mssth(n, rho);
      expect_order(h, std::min(n, 4), "mssth" + std::to_string(n) + " " + r);
      // Table 7 gives gamma so that |R(inf)| = rho_inf (ref. [35]).
      EXPECT_NEAR(rho_inf(h), rho, 1e-6) << "mssth" << n << " " << r;
    }
  }
  expect_order(esdirk3_4(), 3, "ESDIRK3(2)4L[2]SA");
  expect_order(esdirk3_5(), 3, "ESDIRK3(2)5L[2]SA");
  expect_order(esdirk4_6(), 4, "ESDIRK4(3)6L[2]SA2");
  EXPECT_NEAR(rho_inf(esdirk3_4()), 0.0, 1e-6);
  EXPECT_NEAR(rho_inf(esdirk3_5()), 0.0, 1e-6);
  EXPECT_NEAR(rho_inf(esdirk4_6()), 0.0, 1e-6);
  // DIRK54 is the 2019 "SA_2" variant (gamma = 31/125, c_2 = 2 gamma), not the 2016 review's
  // ESDIRK4(3)6L[2]SA (gamma = 1/4): only the former reproduces MBDyn's runs. Stage order 2
  // ("[2]"): sum_j a_ij c_j = c_i^2 / 2 for every stage.
  const Tableau d54 = esdirk4_6();
  EXPECT_DOUBLE_EQ(d54.gamma(), 31.0 / 125.0);
  EXPECT_DOUBLE_EQ(d54.c[1], 62.0 / 125.0);
  EXPECT_NEAR((d54.A * d54.c - 0.5 * d54.c.cwiseProduct(d54.c)).norm(), 0.0, 1e-12);
  // MSSTH5 is fifth order: check the fifth-order quadrature condition too.
  const Tableau h5 = mssth(5, 0.0);
  const Eigen::VectorXd b = h5.A.row(5).transpose();
  EXPECT_NEAR(b.dot(h5.c.array().pow(4).matrix()), 0.2, 1e-12);
  // Unsupported radius: clean error.
  EXPECT_THROW(mssth(4, 0.55), std::invalid_argument);
  EXPECT_NEAR(rho_inf(mssth(3, 0.55)), 0.55, 1e-6);  // gamma solved, any rho
  EXPECT_THROW(msstc(4, 1.2), std::invalid_argument);
}

TEST(IntegratorCoefficients, Predictors) {
  // Eq. (14) equals the Hermite extrapolation through two points (exact for cubics).
  const double tN = 1.0, t1 = 0.7, t2 = 0.3;
  const Predictor a = second_order_predictor(tN, t1, t2), b = hermite_predictor(tN, {t1, t2});
  for (int j = 0; j < 2; ++j) {
    EXPECT_NEAR(a.m[j], b.m[j], 1e-10);
    EXPECT_NEAR(a.n[j], b.n[j], 1e-10);
  }
  // Eq. (17) at equal steps: m0 = -57, n0 = 24; and eqs. (17b), (17e) for alpha1=1.3, alpha2=0.8.
  const Predictor p = hermite_predictor(3.0, {2.0, 1.0, 0.0});
  EXPECT_NEAR(p.m[0], -57.0, 1e-9);
  EXPECT_NEAR(p.n[0], 24.0, 1e-9);
  const double h = 0.13, a1 = 1.3, a2 = 0.8;
  const double tn = 1.0, tn1 = tn - h, tn2 = tn1 - h / a1, tn3 = tn2 - h / a2;
  const Predictor q = hermite_predictor(tn, {tn1, tn2, tn3});
  const double m0 = -2 * a1 * a1 * (1 + a1) / std::pow(a1 + a2, 3) *
                    (5 * std::pow(a1, 3) * a2 * a2 + 8 * std::pow(a1, 3) * a2 +
                     10 * a1 * a1 * std::pow(a2, 3) + 3 * std::pow(a1, 3) + 25 * a1 * a1 * a2 * a2 +
                     13 * a1 * a1 * a2 + 20 * a1 * std::pow(a2, 3) + 20 * a1 * a2 * a2 +
                     10 * std::pow(a2, 3));
  const double n0 = (1 + a1) / std::pow(a1 + a2, 2) *
                    (5 * std::pow(a1, 3) * a2 * a2 + 8 * std::pow(a1, 3) * a2 + 3 * std::pow(a1, 3) +
                     11 * a1 * a1 * a2 * a2 + 10 * a1 * a1 * a2 + a1 * a1 + 7 * a1 * a2 * a2 +
                     2 * a1 * a2 + a2 * a2);
  EXPECT_NEAR(q.m[0], m0, 1e-8 * std::abs(m0));
  EXPECT_NEAR(q.n[0], n0, 1e-8 * std::abs(n0));
}

// y_k - sum a_j y_{k-j} - sum b_j y'_{k-j} for y = (t - t_k)^q.
double lms_defect(const Lms& f, const std::vector<double>& times, int q) {
  auto y = [&](double t) { return std::pow(t - times[0], q); };
  auto yp = [&](double t) { return q == 0 ? 0.0 : q * std::pow(t - times[0], q - 1); };
  double d = y(times[0]) - f.b[0] * yp(times[0]);
  for (std::size_t j = 1; j < f.b.size(); ++j) d -= f.a[j - 1] * y(times[j]) + f.b[j] * yp(times[j]);
  return d;
}

TEST(IntegratorCoefficients, MultistepSecondOrder) {
  for (double rho : {0.0, 0.4, 1.0}) {
    // ms with a step ratio: exact for quadratics.
    const double h = 0.03, hp = 0.05;
    const Lms f = ms2(rho, h, hp);
    for (int q = 0; q <= 2; ++q) EXPECT_NEAR(lms_defect(f, {1.0, 1.0 - h, 1.0 - h - hp}, q), 0.0, 1e-14);
    EXPECT_GT(std::abs(lms_defect(f, {1.0, 1.0 - h, 1.0 - h - hp}, 3)), 1e-9);
    for (int q = 0; q <= 2; ++q) {
      EXPECT_NEAR(lms_defect(ms3(rho, h), {1.0, 1 - h, 1 - 2 * h, 1 - 3 * h}, q), 0.0, 1e-14);
      EXPECT_NEAR(lms_defect(ms4(rho, h), {1.0, 1 - h, 1 - 2 * h, 1 - 3 * h, 1 - 4 * h}, q), 0.0, 1e-14);
      EXPECT_NEAR(lms_defect(hope_two_step(rho, h), {1.0, 1 - h, 1 - 2 * h}, q), 0.0, 1e-14);
    }
  }
  // rho = 0: BDF2.
  const Lms bdf = ms2(0.0, 0.1, 0.1);
  EXPECT_NEAR(bdf.a[0], 4.0 / 3.0, 1e-15);
  EXPECT_NEAR(bdf.a[1], -1.0 / 3.0, 1e-15);
  EXPECT_NEAR(bdf.b[0], 0.2 / 3.0, 1e-15);
}

TEST(IntegratorCoefficients, MultistepTakesTheRhoItsDriveGives) {
  // MBDyn's SetCoef uses the drive's value as it is: a rho of time that ends a round-off above 1
  // (e.g. 1/(1 + angle) with the angle wrapping to -1e-13) gives the trapezoidal coefficients.
  const double above = 1.0 + 7e-13;
  const Lms f = ms2(above, 0.1, 0.1), cn = ms2(1.0, 0.1, 0.1);
  for (std::size_t j = 0; j < f.a.size(); ++j) EXPECT_NEAR(f.a[j], cn.a[j], 1e-11);
  for (std::size_t j = 0; j < f.b.size(); ++j) EXPECT_NEAR(f.b[j], cn.b[j], 1e-12);
  EXPECT_NO_THROW(hope_two_step(above, 0.1));
}

TEST(IntegratorCoefficients, SingleStepGammasReproduceLms) {
  for (int r : {2, 3, 4}) {
    for (double rho : {0.0, 0.6, 1.0}) {
      const auto g = ss_gammas(r, rho);
      const Lms lms = r == 2 ? ms2(rho, 1, 1) : r == 3 ? ms3(rho, 1) : ms4(rho, 1);
      // (zeta - 1) prod (g_odd zeta + 1 - g_odd) / prod g_odd == rho_LMS(zeta) at a few points.
      for (std::complex<double> z : {std::complex<double>(0.3, 0.2), {-1.7, 0.5}, {2.0, -1.0}}) {
        std::complex<double> lhs = z - 1.0, rhs = std::pow(z, r);
        for (int i = 1; i < 2 * r - 1; i += 2) lhs *= (g[i] * z + 1.0 - g[i]) / g[i];
        for (int j = 1; j <= r; ++j) rhs -= lms.a[j - 1] * std::pow(z, r - j);
        EXPECT_NEAR(std::abs(lhs - rhs), 0.0, 1e-10) << "ss" << r << " rho " << rho;
      }
      if (r >= 3 && rho < 1.0) {
        EXPECT_GT(std::abs(g[1].imag()), 1e-6) << "complex gammas";
      }
    }
  }
}

/// Taylor coefficients z^0 .. z^K of R(z) = 1 + z w^T (I - z A)^-1 1 for the weights w of a
/// stiffly accurate tableau's stages (w = b: the method; w = b_hat: the embedded one).
std::vector<double> stability_series(const Tableau& t, const Eigen::VectorXd& w, int K) {
  std::vector<double> out{1.0};
  Eigen::VectorXd v = Eigen::VectorXd::Ones(t.stages());
  for (int k = 1; k <= K; ++k) {
    out.push_back(w.dot(v));
    v = t.A * v;
  }
  return out;
}

// The error control's embedded weights (docs/adaptive.md, "ESDIRK embedded pairs"): of order
// exactly 2 on the stages but the last, for every ESDIRK. For the order-2 MSSTC(3/4/5) the
// estimate y - y_hat is not smaller than y's own local error on y' = lambda y, term by term in
// h^3 and h^4 (the interpolatory b_hat of the highest order on MSSTC(4/5)'s nodes gave half of
// the h^4 term, and runs up to 16 times less accurate than asked at large steps).
TEST(EmbeddedWeights, OrderTwoAndNotBelowTheErrorOfTheOrderTwoMethods) {
  std::vector<std::pair<std::string, Tableau>> all{{"DIRK33", esdirk3_4()}, {"DIRK43", esdirk3_5()},
                                                   {"DIRK54", esdirk4_6()}};
  for (double rho : {0.0, 0.3, 0.6, 1.0})
    for (int n : {3, 4, 5}) {
      all.push_back({"msstc" + std::to_string(n) + " " + std::to_string(rho), msstc(n, rho)});
      all.push_back({"mssth" + std::to_string(n) + " " + std::to_string(rho), mssth(n, rho)});
      if (n == 3) all.push_back({"Bathe " + std::to_string(rho), bathe(rho)});
    }
  for (const auto& [what, t] : all) {
    const int s = t.stages();
    const Eigen::VectorXd b_hat = embedded_weights(t);
    ASSERT_EQ(b_hat.size(), s) << what;
    EXPECT_EQ(b_hat[s - 1], 0.0) << what;
    EXPECT_NEAR(b_hat.sum(), 1.0, 1e-12) << what;
    EXPECT_NEAR(b_hat.dot(t.c), 0.5, 1e-12) << what;
    // Order exactly 2: the estimate is O(h^3), not of a higher order.
    EXPECT_GT(std::abs(b_hat.dot(t.c.cwiseProduct(t.c)) - 1.0 / 3.0), 1e-3) << what;
    if (what.rfind("msstc", 0) != 0) continue;  // (Bathe's two nodes leave b_hat no choice)
    const std::vector<double> R = stability_series(t, t.A.row(s - 1).transpose(), 4);
    const std::vector<double> R_hat = stability_series(t, b_hat, 4);
    double factorial = 2.0;
    for (int k = 3; k <= 4; ++k) {
      factorial *= k;
      const double error = R[k] - 1.0 / factorial, estimate = R[k] - R_hat[k];
      EXPECT_GT(error, 0.0) << what << " z^" << k;
      EXPECT_GE(estimate, error) << what << " z^" << k;
    }
  }
}

}  // namespace
}  // namespace mbl::integrators::coef

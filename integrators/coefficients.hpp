#pragma once
// Coefficients of the integration formulas of seed 000 (Zhang, Zhang, Zanoni, Masarati 2022),
// kept as plain functions so the tests can check them (order conditions, spectral radii).
// Sources are cited at each definition in coefficients.cpp.
#include <Eigen/Core>
#include <array>
#include <complex>
#include <vector>

namespace mbl::integrators::coef {

/// Derivative predictor XP_N = (sum_j m_j X_{N-1-j}) / (t_N - t_{N-1}) + sum_j n_j XP_{N-1-j}.
/// Two points: seed eqs. (12)-(14), exact for cubics (second order in the seed's sense);
/// three points: eqs. (16)-(17), exact for quintics (fourth order).
struct Predictor {
  std::vector<double> m, n;
};
/// Closed form of eq. (14).
Predictor second_order_predictor(double tN, double tN1, double tN2);
/// Hermite extrapolation through `times` = {t_{N-1}, t_{N-2}, ...} (any count >= 1): the unique
/// formula exact for polynomials of degree < 2*count. With 3 points this is eq. (16)-(17).
Predictor hermite_predictor(double tN, const std::vector<double>& times);

/// Linear multistep formula (seed eq. 2): X_k = sum_{j=1}^r a_j X_{k-j} + sum_{j=0}^r b_j XP_{k-j}
/// with the step size already inside b (b_j = h * beta_j).
struct Lms {
  std::vector<double> a;  ///< a_1 .. a_r
  std::vector<double> b;  ///< b_0 .. b_r
};
Lms trapezoidal(double h);     ///< eq. (3)
Lms implicit_euler(double h);  ///< BDF1
/// MBDyn's two-step `ms` method with variable step h = t_k - t_{k-1}, h_prev = t_{k-1} - t_{k-2};
/// rho = 0 gives BDF2 (variable step), rho = 1 two trapezoidal steps.
Lms ms2(double rho, double h, double h_prev);
/// LMS3 / LMS4 of ref. [36] (fixed-step coefficients; sigma(zeta) = b0 (zeta + rho)^r).
Lms ms3(double rho, double h);
Lms ms4(double rho, double h);
/// `hope`: the two-step formula of the odd steps from step 3 (even steps are trapezoidal).
Lms hope_two_step(double rho, double h);

/// gamma_0 .. gamma_{2r-2} of the single-step method SS_r equivalent to LMS_r (seed eq. 4):
/// even gammas are 1/(1+rho) (all roots of sigma are -rho); odd gammas are 1/(1-q) for the
/// roots q of rho_LMS(zeta)/(zeta-1); SS3/SS4 get complex conjugate pairs.
std::vector<std::complex<double>> ss_gammas(int r, double rho);

/// Stiffly accurate ESDIRK tableau; row s-1 of A holds b. c_0 = 0, c_{s-1} = 1.
struct Tableau {
  Eigen::MatrixXd A;
  Eigen::VectorXd c;
  int order = 2;
  bool fourth_order_last_prediction = false;  ///< seed §3.1: MSSTH4/5, DIRK54
  int stages() const { return static_cast<int>(c.size()); }
  double gamma() const { return A(1, 1); }
};
/// All may throw std::invalid_argument (rho outside [0, 1] or not tabulated).
Tableau bathe(double rho);               ///< seed eq. (7)
Tableau msstc(int n, double rho);        ///< n = 3, 4, 5 (ref. [35])
Tableau mssth(int n, double rho);        ///< n = 3, 4, 5 (seed Appendix, eqs. 30-35, Table 7)
Tableau esdirk3_4();                     ///< DIRK33 = ESDIRK3(2)4L[2]SA (Kennedy-Carpenter)
Tableau esdirk3_5();                     ///< DIRK43 = ESDIRK3(2)5L[2]SA
Tableau esdirk4_6();                     ///< DIRK54 = ESDIRK4(3)6L[2]SA_2

/// Embedded weights b_hat of a stiffly accurate ESDIRK for error control (docs/adaptive.md):
/// b_hat_{s-1} = 0 and b_hat_0..s-2 the least-norm weights of order exactly 2 (sum b_hat = 1,
/// sum b_hat c = 1/2). Different from b (b_{s-1} = gamma != 0); y - y_hat = O(h^3).
Eigen::VectorXd embedded_weights(const Tableau& t);

/// Stability function R(z) of a tableau (z = lambda h).
std::complex<double> stability(const Tableau& t, std::complex<double> z);

}  // namespace mbl::integrators::coef

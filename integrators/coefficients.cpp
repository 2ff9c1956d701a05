#include "integrators/coefficients.hpp"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>

namespace mbl::integrators::coef {

namespace {
void check_rho(double rho, const char* method) {
  if (!(rho >= 0.0 && rho <= 1.0))
    throw std::invalid_argument(
        fmt::format("{}: asymptotic spectral radius must be in [0, 1], found {}", method, rho));
}
}  // namespace

// ---- predictors --------------------------------------------------------------------------------

Predictor second_order_predictor(double tN, double tN1, double tN2) {
  // Seed eq. (14).
  const double alpha = (tN - tN1) / (tN1 - tN2);
  const double m0 = -6.0 * alpha * alpha * (1.0 + alpha);
  return {{m0, -m0}, {(1.0 + alpha) * (1.0 + 3.0 * alpha), alpha * (2.0 + 3.0 * alpha)}};
}

Predictor hermite_predictor(double tN, const std::vector<double>& times) {
  // Unknowns m_j, n_j; in units of h = tN - t_{N-1}, exactness on tau^q, q = 0 .. 2p-1:
  //   sum_j m_j tau_j^q + q sum_j n_j tau_j^(q-1) = [q == 1].
  const int p = static_cast<int>(times.size());
  const double h = tN - times.front();
  Eigen::MatrixXd M(2 * p, 2 * p);
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(2 * p);
  for (int q = 0; q < 2 * p; ++q) {
    for (int j = 0; j < p; ++j) {
      const double tau = (times[j] - tN) / h;
      M(q, j) = std::pow(tau, q);
      M(q, p + j) = q == 0 ? 0.0 : q * std::pow(tau, q - 1);
    }
  }
  rhs[1] = 1.0;
  const Eigen::VectorXd x = M.fullPivLu().solve(rhs);
  Predictor out;
  for (int j = 0; j < p; ++j) {
    out.m.push_back(x[j]);
    out.n.push_back(x[p + j]);
  }
  return out;
}

// ---- linear multistep formulas -----------------------------------------------------------------

Lms trapezoidal(double h) { return {{1.0}, {0.5 * h, 0.5 * h}}; }
Lms implicit_euler(double h) { return {{1.0}, {h, 0.0}}; }

Lms ms2(double rho, double h, double h_prev) {
  // MBDyn's variable-step two-step method (Masarati, Lanz, Mantegazza 2001, ref. [23]):
  // alpha = h / h_prev; second order for any alpha, double root -rho of sigma for alpha = 1.
  // Like MBDyn's MultistepSolver::SetCoef, any value the rho drive gives is used (a drive of
  // time may leave [0, 1] by round-off).
  const double alpha = h / h_prev, H = h_prev, q = (1.0 - rho) * (1.0 - rho);
  const double den = 2.0 * (1.0 + alpha) - q;
  const double beta = alpha * (q * (2.0 + alpha) + 2.0 * (2.0 * rho - 1.0) * (1.0 + alpha)) / den;
  const double delta = 0.5 * alpha * alpha * q / den;
  return {{1.0 - beta, beta},
          {H * (delta / alpha + 0.5 * alpha),
           H * (0.5 * beta + 0.5 * alpha - delta / alpha * (1.0 + alpha)), H * (0.5 * beta + delta)}};
}

Lms ms3(double rho, double h) {
  // LMS3 of ref. [36]: second order, A-stable, sigma(zeta) proportional to (zeta + rho)^3.
  check_rho(rho, "ms3");
  const double r2 = rho * rho, den = r2 - 5.0 * rho + 10.0, b0 = 6.0 * h / ((1.0 + rho) * den);
  return {{3.0 * (2.0 * r2 - 9.0 * rho + 5.0) / den, -3.0 * (5.0 * r2 - 9.0 * rho + 2.0) / den,
           (10.0 * r2 - 5.0 * rho + 1.0) / den},
          {b0, 3.0 * b0 * rho, 3.0 * b0 * r2, b0 * r2 * rho}};
}

Lms ms4(double rho, double h) {
  // LMS4 of ref. [36]: second order, A-stable, sigma(zeta) proportional to (zeta + rho)^4.
  check_rho(rho, "ms4");
  const double r2 = rho * rho, r3 = r2 * rho;
  const double den = -r3 + 7.0 * r2 - 21.0 * rho + 35.0, b0 = 20.0 * h / ((1.0 + rho) * den);
  return {{4.0 * (-2.0 * r3 + 13.0 * r2 - 35.0 * rho + 14.0) / den,
           -4.0 * (1.0 - rho) * (7.0 * r2 - 34.0 * rho + 7.0) / den,
           -4.0 * (14.0 * r3 - 35.0 * r2 + 13.0 * rho - 2.0) / den,
           (35.0 * r3 - 21.0 * r2 + 7.0 * rho - 1.0) / den},
          {b0, 4.0 * b0 * rho, 6.0 * b0 * r2, 4.0 * b0 * r3, b0 * r3 * rho}};
}

Lms hope_two_step(double rho, double h) {
  // Second-order two-step formula, BDF2 for rho = 0, trapezoidal for rho = 1 (any rho used, as
  // in ms2).
  const double A = 4.0 * rho / (3.0 + rho);
  return {{(4.0 - A) / 3.0, (A - 1.0) / 3.0}, {h * (4.0 - A) / 6.0, h * A / 2.0, 0.0}};
}

std::vector<std::complex<double>> ss_gammas(int r, double rho) {
  check_rho(rho, r == 2 ? "ss2" : r == 3 ? "ss3" : "ss4");
  const Lms lms = r == 2 ? ms2(rho, 1.0, 1.0) : r == 3 ? ms3(rho, 1.0) : ms4(rho, 1.0);
  // rho(zeta) = zeta^r - a_1 zeta^(r-1) - ... - a_r; divide by (zeta - 1) (synthetic division).
  std::vector<double> poly(r + 1);  // highest degree first
  poly[0] = 1.0;
  for (int j = 1; j <= r; ++j) poly[j] = -lms.a[j - 1];
  std::vector<double> Q(r);  // degree r-1, highest first
  Q[0] = poly[0];
  for (int j = 1; j < r; ++j) Q[j] = poly[j] + Q[j - 1];
  std::vector<std::complex<double>> roots;
  const int deg = r - 1;
  if (deg == 1) {
    roots.push_back(-Q[1] / Q[0]);
  } else {
    Eigen::MatrixXd C = Eigen::MatrixXd::Zero(deg, deg);  // companion matrix
    for (int j = 0; j < deg; ++j) C(0, j) = -Q[j + 1] / Q[0];
    for (int j = 1; j < deg; ++j) C(j, j - 1) = 1.0;
    Eigen::EigenSolver<Eigen::MatrixXd> es(C);
    for (int j = 0; j < deg; ++j) roots.push_back(es.eigenvalues()[j]);
  }
  std::vector<std::complex<double>> g(2 * r - 1);
  const double even = 1.0 / (1.0 + rho);
  for (int i = 0; i < 2 * r - 1; i += 2) g[i] = even;
  for (int i = 0; i < deg; ++i) g[2 * i + 1] = 1.0 / (1.0 - roots[i]);
  return g;
}

// ---- ESDIRK tableaux ---------------------------------------------------------------------------

std::complex<double> stability(const Tableau& t, std::complex<double> z) {
  const int s = t.stages();
  Eigen::MatrixXcd M = Eigen::MatrixXcd::Identity(s, s) - z * t.A.cast<std::complex<double>>();
  const Eigen::VectorXcd Y = M.partialPivLu().solve(Eigen::VectorXcd::Ones(s));
  return Y[s - 1];  // stiffly accurate
}

namespace {
constexpr double kRhoGrid[11] = {0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};

int grid_index(double rho, const char* method) {
  for (int i = 0; i < 11; ++i)
    if (std::abs(rho - kRhoGrid[i]) < 1e-6) return i;
  throw std::invalid_argument(fmt::format(
      "{}: asymptotic spectral radius {} not supported; the method's parameters are tabulated "
      "only for 0.0, 0.1, ..., 1.0",
      method, rho));
}

Tableau make(int s) {
  Tableau t;
  t.A = Eigen::MatrixXd::Zero(s, s);
  t.c = Eigen::VectorXd::Zero(s);
  t.c[s - 1] = 1.0;
  return t;
}
}  // namespace

Tableau bathe(double rho) {
  // Seed eq. (7): the rho_inf-Bathe method as a 3-stage ESDIRK (trapezoidal first sub-step of
  // size 2*gamma*h).
  check_rho(rho, "Bathe");
  const double g = rho == 1.0 ? 0.25 : (2.0 - std::sqrt(2.0 * (1.0 + rho))) / (2.0 * (1.0 - rho));
  Tableau t = make(3);
  t.c[1] = 2.0 * g;
  t.A(1, 0) = g;
  t.A(1, 1) = g;
  t.A(2, 0) = -(4.0 * g * g - 6.0 * g + 1.0) / (4.0 * g);
  t.A(2, 1) = (1.0 - 2.0 * g) / (4.0 * g);
  t.A(2, 2) = g;
  return t;
}

Tableau msstc(int n, double rho) {
  // MSSTC(n) of ref. [35]: n-1 trapezoidal sub-steps of size g*h, then a last stage with
  // diagonal g/2 whose weights make R(z) = N(z) / (1 - g z/2)^n, N(z) = 1 + a1 z + ... + an z^n
  // second-order accurate with |R(inf)| = rho (a3 for n = 4 and a3, a4 for n = 5 preserve the
  // low-frequency behaviour). g is tabulated in [35] for rho = 0, 0.1, ..., 1.
  static const double g3[11] = {0.360850612858796, 0.357238916409316, 0.353891613236448,
                                0.350771031685692, 0.347847215754394, 0.345095922844178,
                                0.342497237181382, 0.340034583544952, 0.337694009358336,
                                0.335463651513774, 1.0 / 3.0};
  static const double g4[11] = {0.262757473460932, 0.261097241892944, 0.259555167637696,
                                0.258114414514710, 0.256761609839890, 0.255485941113696,
                                0.254278531804168, 0.253131998166274, 0.252040127172992,
                                0.250997637660844, 0.25};
  static const double g5[11] = {0.207114217840430, 0.206191263023350, 0.205333350050186,
                                0.204531188984370, 0.203777407759764, 0.203066050295748,
                                0.202392230146362, 0.201751884891614, 0.201141597837490,
                                0.200558465909484, 0.2};
  const char* name = n == 3 ? "msstc3" : n == 4 ? "msstc4" : "msstc5";
  check_rho(rho, name);
  const int k = grid_index(rho, name);
  const double g = n == 3 ? g3[k] : n == 4 ? g4[k] : g5[k];
  std::vector<double> a(n + 1, 0.0);
  a[0] = 1.0;
  if (n == 3) {
    a[1] = 1.0 - 1.5 * g;
    a[2] = 0.5 - 1.5 * g + 0.75 * g * g;
    a[3] = rho * std::pow(g, 3) / 8.0;
  } else if (n == 4) {
    a[1] = 1.0 - 2.0 * g;
    a[2] = 0.5 - 2.0 * g + 1.5 * g * g;
    a[4] = rho * std::pow(g, 4) / 16.0;
    a[3] = -(3.0 * std::pow(g, 4) / 8.0 - a[2] * a[2] - 2.0 * a[4]) / (2.0 * a[1]);
  } else {
    const double g2 = g * g, g3p = g2 * g, g4p = g3p * g, g5p = g4p * g, g6p = g5p * g;
    a[1] = 1.0 - 2.5 * g;
    a[2] = 2.5 * g2 - 2.5 * g + 0.5;
    a[3] = -(50.0 * g3p - 70.0 * g2 + 30.0 * g - 4.0 +
             std::sqrt(2.0 * ((5.0 * rho + 805.0) * g6p + (-2.0 * rho - 2050.0) * g5p +
                              2160.0 * g4p - 1200.0 * g3p + 370.0 * g2 - 60.0 * g + 4.0))) /
           8.0;
    a[4] = -(45.0 * g4p - 100.0 * g3p + 70.0 * g2 + (40.0 * a[3] - 20.0) * g - 16.0 * a[3] + 2.0) /
           16.0;
    a[5] = rho * g5p / 32.0;
  }
  Tableau t = make(n + 1);
  for (int i = 1; i < n; ++i) {
    t.c[i] = i * g;
    t.A(i, 0) = 0.5 * g;
    for (int j = 1; j < i; ++j) t.A(i, j) = g;
    t.A(i, i) = 0.5 * g;
  }
  t.A(n, n) = 0.5 * g;
  // Last-row weights b_j (on stage j, value T^j with T the trapezoidal factor) from
  // (1-w)^(n-1) + z sum_j b_j (1+w)^j (1-w)^(n-1-j) = N(z), w = g z / 2, sampled at n points.
  Eigen::MatrixXd M(n, n);
  Eigen::VectorXd rhs(n);
  for (int k2 = 0; k2 < n; ++k2) {
    const double z = -(k2 + 1.0), w = 0.5 * g * z;
    double N = 0.0;
    for (int p = 0; p <= n; ++p) N += a[p] * std::pow(z, p);
    rhs[k2] = N - std::pow(1.0 - w, n - 1);
    for (int j = 0; j < n; ++j) M(k2, j) = z * std::pow(1.0 + w, j) * std::pow(1.0 - w, n - 1 - j);
  }
  const Eigen::VectorXd b = M.fullPivLu().solve(rhs);
  for (int j = 0; j < n; ++j) t.A(n, j) = b[j];
  return t;
}

namespace {
/// MSSTH(3) for a given diagonal gamma: eqs. (30), c3 from eq. (31).
Tableau mssth3_tableau(double g) {
  Tableau t = make(4);
  const double c3 = (24 * g * g - 20 * g + 3) / (24 * g * g - 24 * g + 4);
  for (int i = 1; i <= 3; ++i) t.A(i, i) = g;
  t.c[1] = 2 * g;
  t.A(1, 0) = g;
  t.c[2] = c3;
  t.A(2, 1) = c3 * (c3 - 2 * g) / (4 * g);
  t.A(2, 0) = c3 - g - t.A(2, 1);
  const double b2 = (3 * c3 + 6 * g - 6 * c3 * g - 2) / (12 * g * (c3 - 2 * g));
  const double b3 = (6 * g * g - 6 * g + 1) / (3 * c3 * (c3 - 2 * g));
  t.A(3, 1) = b2;
  t.A(3, 2) = b3;
  t.A(3, 0) = 1 - g - b2 - b3;
  return t;
}
}  // namespace

Tableau mssth(int n, double rho) {
  // Modified MSSTH(n), seed Appendix: stage order 2, overall order n; eqs. (30)-(35), Table 7.
  static const double g4[11] = {
      0.5728160624821350133117903, 0.5483666449758298755412511, 0.5263864568423862744239727,
      0.5063301189707819505159136, 0.4877974748123480863704060, 0.4704805776216768320452388,
      0.4541307850365287057670116, 0.4385361899021925080610629, 0.4235037660671788772859259,
      0.4088418661206993376389107, 0.3943375672974065437870195};
  static const double c3_4[11] = {
      0.5590985754229417305152542, 0.6002938888698324121975147, 0.6385228144891605953328610,
      0.6752454071331807752264900, 0.7116626313535582440037008, 0.7489373901316857945701066,
      0.7884370115210036155119526, 0.8321495959968309360981758, 0.8836585039419085905336449,
      0.9508833135343227253337252, 1.0534803411702867301702400};
  static const double c4_4[11] = {
      0.7414011664833654036144139, 0.7584129875780372120885886, 0.7731436659604612460228168,
      0.7860312064122737529814344, 0.7972514819203143643377985, 0.8067140747427041791439706,
      0.8139662529419134928687640, 0.8179301032006714988753515, 0.8162478946500242305006623,
      0.8036295352568830763217989, 0.7689305362617052663765094};
  static const double g5[11] = {
      0.2780538411364499307154574, 0.2741413060318684813410073, 0.2704598867745817702967770,
      0.2669780439256505544243225, 0.2636702317116055294121679, 0.2605154166070549059952555,
      0.2574960298566747463056004, 0.2545972081701334821524085, 0.2518062311838496492022443,
      0.2491120965296297062874231, 0.2465051931428201559270974};
  static const double c4_5[11] = {
      0.9673258605571696255864822, 0.9085500184865173967097007, 0.8510912674088796370241994,
      0.7951780419709296721109126, 0.7409689864721386021173544, 0.6885609787040850582329199,
      0.6379972790560722861741283, 0.5892756783804685705163706, 0.5423562209596147765111596,
      0.4971683414199104533715001, 0.4536172576687555468843982};
  const char* name = n == 3 ? "mssth3" : n == 4 ? "mssth4" : "mssth5";
  check_rho(rho, name);
  if (n == 3) {
    // The MSSTH(3) column of Table 7 as printed does not give |R(inf)| = rho with eqs. (30)-(31)
    // (e.g. 0.1804 for rho = 0, where R(inf) = -0.68). The gamma that does lies on
    // [1/3, 0.43587] (rho = 1 .. 0; rho = 0 coincides with ESDIRK3(2)4L[2]SA, as §4 of the seed
    // observes), where R(inf) decreases monotonically: solve for it by bisection.
    double lo = 1.0 / 3.0, hi = 0.4358665215084590;
    for (int it = 0; it < 80; ++it) {
      const double mid = 0.5 * (lo + hi);
      (stability(mssth3_tableau(mid), {-1e12, 0.0}).real() > rho ? lo : hi) = mid;
    }
    const double g = rho >= 1.0 ? 1.0 / 3.0 : rho <= 0.0 ? hi : 0.5 * (lo + hi);
    Tableau t3 = mssth3_tableau(g);
    t3.order = 3;
    return t3;
  }
  const int k = grid_index(rho, name);
  Tableau t = make(n + 1);
  t.order = n;
  t.fourth_order_last_prediction = n >= 4;
  const double g = n == 4 ? g4[k] : g5[k];
  for (int i = 1; i <= n; ++i) t.A(i, i) = g;
  // Stages 2 and 3 (eqs. 30a-d, 32a-d, 34a-d).
  const double c3 = n == 4 ? c3_4[k] : 0.1;
  t.c[1] = 2 * g;
  t.A(1, 0) = g;
  t.c[2] = c3;
  t.A(2, 1) = c3 * (c3 - 2 * g) / (4 * g);
  t.A(2, 0) = c3 - g - t.A(2, 1);
  const double c4 = n == 4 ? c4_4[k] : c4_5[k];
  const double g2 = g * g, gg3 = g2 * g, gg4 = gg3 * g, gg5 = gg4 * g;
  t.c[3] = c4;
  if (n == 4) {
    const double eta1 = 48 * (1 - c4) * gg3 + 8 * (3 * c3 * c3 - 6 * c3 + 9 * c4 - 5) * g2 +
                        6 * (-4 * c3 * c3 + 6 * c3 - 4 * c4 + 1) * g + 4 * c3 * c3 - 5 * c3 + 2 * c4;
    const double eta2 = 48 * (1 - c3) * gg3 + 8 * (3 * c3 * c3 + 3 * c3 - 5) * g2 +
                        6 * (-4 * c3 * c3 + 2 * c3 + 1) * g + 4 * c3 * c3 - 3 * c3;
    t.A(3, 1) = c4 * (c4 - 2 * g) * eta1 / (4 * g * eta2);                      // (32e)
    t.A(3, 2) = (c4 * c4 - 4 * t.A(3, 1) * g - 2 * c4 * g) / (2 * c3);           // (32f)
    t.A(3, 0) = c4 - g - t.A(3, 1) - t.A(3, 2);                                  // (32g)
    const double b2 = -(12 * (c3 * c4 - c3 - c4 + 1) * g + 4 * c3 + 4 * c4 - 6 * c3 * c4 - 3) /
                      (24 * g * (c3 - 2 * g) * (c4 - 2 * g));                     // (32h)
    const double b3 = (24 * (c4 - 1) * g2 + 4 * (5 - 6 * c4) * g + 4 * c4 - 3) /
                      (12 * c3 * (c4 - c3) * (c3 - 2 * g));                       // (32i)
    const double b4 = -(24 * (c3 - 1) * g2 + 4 * (5 - 6 * c3) * g + 4 * c3 - 3) /
                      (12 * c4 * (c4 - c3) * (c4 - 2 * g));                       // (32j)
    t.A(4, 1) = b2;
    t.A(4, 2) = b3;
    t.A(4, 3) = b4;
    t.A(4, 0) = 1 - g - b2 - b3 - b4;
    return t;
  }
  // n == 5: eqs. (34), (35).
  const double eta1 = 240 * (1 - c4) * gg4 + 40 * (3 * c3 * c3 - 6 * c3 + 12 * c4 - 7) * gg3 +
                      20 * (-9 * c3 * c3 + 13 * c3 - 12 * c4 + 4) * g2 +
                      (60 * c3 * c3 - 70 * c3 + 40 * c4 - 6) * g - 5 * c3 * c3 + 5 * c3 - 2 * c4;
  const double eta2 = 120 * (1 - c3) * gg3 + 20 * (9 * c3 - 7) * g2 + 20 * (2 - 3 * c3) * g +
                      5 * c3 - 3;
  const double eta3 = -720 * gg5 + (360 * c3 + 848) * gg4 + (-336 * c3 - 368) * gg3 +
                      (120 * c3 + 64) * g2 + (-18 * c3 - 4) * g + c3;
  const double eta4 = -480 * gg5 + (240 * c3 + 600) * gg4 + (-240 * c3 - 288) * gg3 +
                      (96 * c3 + 56) * g2 + (-16 * c3 - 4) * g + c3;
  t.A(3, 1) = -c4 * (c4 - 2 * g) * eta1 / (4 * g * (c3 - 2 * g) * eta2);  // (34e)
  t.A(3, 2) = (c4 * c4 - 4 * t.A(3, 1) * g - 2 * c4 * g) / (2 * c3);      // (34f)
  t.A(3, 0) = c4 - g - t.A(3, 1) - t.A(3, 2);                             // (34g)
  const double c5 = eta3 / eta4;                                          // (34h)
  t.c[4] = c5;
  auto eta_pair = [&](double x, double y) {  // eqs. (35f), (35h)-(35j)
    return 120 * (x + y - x * y - 1) * g2 + 10 * (12 * x * y - 10 * y - 10 * x + 9) * g + 15 * x +
           15 * y - 20 * x * y - 12;
  };
  const double eta5 = 120 * (-c4 * c4 + 2 * c4 - c3 - c5 + c3 * c5) * gg3 +
                      20 * (9 * c4 * c4 - 15 * c4 + 8 * c3 + 7 * c5 - 9 * c3 * c5) * g2 +
                      10 * (-6 * c4 * c4 + 9 * c4 - 5 * c3 - 4 * c5 + 6 * c3 * c5) * g +
                      5 * c4 * c4 - 7 * c4 + 4 * c3 + 3 * c5 - 5 * c3 * c5;
  const double eta6 = eta_pair(c3, c4);
  const double eta7 = eta2;
  t.A(4, 2) = c5 * (c5 - c3) * (c5 - 2 * g) * eta5 / (c3 * (c4 - c3) * (c3 - 2 * g) * eta6);  // (34i)
  t.A(4, 3) = c5 * (c5 - c3) * (c5 - c4) * (c5 - 2 * g) * eta7 /
              (c4 * (c4 - c3) * (c4 - 2 * g) * eta6);                                       // (34j)
  t.A(4, 1) = (c5 * c5 - 2 * t.A(4, 2) * c3 - 2 * t.A(4, 3) * c4 - 2 * c5 * g) / (4 * g);   // (34k)
  t.A(4, 0) = c5 - g - t.A(4, 1) - t.A(4, 2) - t.A(4, 3);                                    // (34l)
  const double b3 = -eta_pair(c4, c5) / (60 * c3 * (c4 - c3) * (c5 - c3) * (c3 - 2 * g));    // (34m)
  const double b4 = eta_pair(c3, c5) / (60 * c4 * (c4 - c3) * (c5 - c4) * (c4 - 2 * g));     // (34n)
  const double b5 = -eta_pair(c3, c4) / (60 * c5 * (c5 - c3) * (c5 - c4) * (c5 - 2 * g));    // (34o)
  const double b2 = (1 - 2 * g - 2 * b3 * c3 - 2 * b4 * c4 - 2 * b5 * c5) / (4 * g);         // (34p)
  t.A(5, 1) = b2;
  t.A(5, 2) = b3;
  t.A(5, 3) = b4;
  t.A(5, 4) = b5;
  t.A(5, 0) = 1 - g - b2 - b3 - b4 - b5;  // (34q)
  return t;
}

// Kennedy & Carpenter, "Diagonally implicit Runge-Kutta methods for stiff ODEs", Appl. Numer.
// Math. 146 (2019) (seed ref. [21]) and NASA/TM-2016-219173; published coefficients.
Tableau esdirk3_4() {
  Tableau t = make(4);
  t.order = 3;
  const double g = 0.4358665215084589994160194511935568425293;
  t.c << 0.0, 0.8717330430169179988320389023871136850586, 0.6, 1.0;
  t.A(1, 0) = g;
  t.A(2, 0) = 0.2576482460664272457999960162840797092643;
  t.A(2, 1) = -0.09351476757488624521601546747763655179361;
  t.A(3, 0) = 0.1876410243467238251612921441668043913795;
  t.A(3, 1) = -0.5952974735769549480478230275858851737782;
  t.A(3, 2) = 0.9717899277217721234705114322255239398694;
  for (int i = 1; i < 4; ++i) t.A(i, i) = g;
  return t;
}

Tableau esdirk3_5() {
  Tableau t = make(5);
  t.order = 3;
  const double s2 = std::sqrt(2.0), g = 9.0 / 40.0;
  t.c << 0.0, 9.0 / 20.0, 9.0 * (2.0 + s2) / 40.0, 3.0 / 5.0, 1.0;
  t.A(1, 0) = g;
  t.A(2, 0) = t.A(2, 1) = 9.0 * (1.0 + s2) / 80.0;
  t.A(3, 0) = t.A(3, 1) = (22.0 + 15.0 * s2) / (80.0 * (1.0 + s2));
  t.A(3, 2) = -7.0 / (40.0 * (1.0 + s2));
  t.A(4, 0) = t.A(4, 1) = (2398.0 + 1205.0 * s2) / (2835.0 * (4.0 + 3.0 * s2));
  t.A(4, 2) = -2374.0 * (1.0 + 2.0 * s2) / (2835.0 * (5.0 + 3.0 * s2));
  t.A(4, 3) = 5827.0 / 7560.0;
  for (int i = 1; i < 5; ++i) t.A(i, i) = g;
  return t;
}

Tableau esdirk4_6() {
  // ESDIRK4(3)6L[2]SA_2 of Kennedy & Carpenter (2019), the variant seed 000 names: gamma =
  // 31/125, c_2 = 2 gamma, a_i1 = a_i2. (The 2016 review's ESDIRK4(3)6L[2]SA, gamma = 1/4 and
  // c_3 = (2 - sqrt 2)/4, is a different method and does not reproduce MBDyn's DIRK54.)
  Tableau t = make(6);
  t.order = 4;
  t.fourth_order_last_prediction = true;
  const double g = 31.0 / 125.0;
  t.c << 0.0, 2.0 * g, 486119545908.0 / 3346201505189.0, 1043.0 / 1706.0, 1361.0 / 1300.0, 1.0;
  const double a3 = -360286518617.0 / 7014585480527.0;
  const double a4 = -506388693497.0 / 5937754990171.0;
  const double a5 = -7628305438933.0 / 11061539393788.0;
  const double a6 = -12917657251.0 / 5222094901039.0;
  t.A(1, 0) = g;
  t.A(2, 0) = a3, t.A(2, 1) = a3;
  t.A(3, 0) = a4, t.A(3, 1) = a4;
  t.A(3, 2) = 7149918333491.0 / 13390931526268.0;
  t.A(4, 0) = a5, t.A(4, 1) = a5;
  t.A(4, 2) = 21592626537567.0 / 14352247503901.0;
  t.A(4, 3) = 11630056083252.0 / 17263101053231.0;
  t.A(5, 0) = a6, t.A(5, 1) = a6;
  t.A(5, 2) = 5602338284630.0 / 15643096342197.0;
  t.A(5, 3) = 9002339615474.0 / 18125249312447.0;
  t.A(5, 4) = -2420307481369.0 / 24731958684496.0;
  for (int i = 1; i < 6; ++i) t.A(i, i) = g;
  return t;
}

Eigen::VectorXd embedded_weights(const Tableau& t) {
  // Our own pair for error control (docs/adaptive.md, "ESDIRK embedded pairs"): the method's own
  // b uses the last stage (b_{s-1} = gamma); b_hat drops it and takes the least-norm weights on
  // the other stages of the two conditions sum b_hat = 1, sum b_hat c = 1/2 (order exactly 2), so
  // y - y_hat = h sum (b - b_hat) k = O(h^3) for every tableau, one rule for all:
  // - order 3 or more (MSSTH, the Kennedy-Carpenter DIRKs), order 2 on the index-3 decks (stage
  //   order 2): an interpolatory b_hat of the method's own order made y - y_hat O(h^4) and the
  //   error ran 10-100 times below the tolerance;
  // - order 2 (Bathe, MSSTC): the h^3 and h^4 terms of y - y_hat on y' = lambda y are at least
  //   those of y's own error (tests/integrators: EmbeddedWeights), where the interpolatory b_hat
  //   of the highest order on MSSTC(4/5)'s nodes gave half of its h^4 term, and the error at
  //   large steps ran to 16 times the tolerance.
  const int s = t.stages(), m = s - 1;
  Eigen::VectorXd b_hat = Eigen::VectorXd::Zero(s);
  Eigen::MatrixXd V(2, m);
  for (int j = 0; j < m; ++j) {
    V(0, j) = 1.0;
    V(1, j) = t.c[j];
  }
  b_hat.head(m) = V.completeOrthogonalDecomposition().solve(Eigen::Vector2d(1.0, 0.5));
  return b_hat;
}

}  // namespace mbl::integrators::coef

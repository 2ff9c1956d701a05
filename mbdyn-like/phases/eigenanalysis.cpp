#include "mbdyn-like/phases/eigenanalysis.hpp"

#include <fmt/format.h>

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include "integrators/sparse_matrix.hpp"
#include "mbdyn-like/core/struct_node.hpp"

// LAPACK and ARPACK (Fortran calling convention: everything by address, hidden lengths of the
// character arguments last).
extern "C" {
void dggev_(const char* jobvl, const char* jobvr, const int* n, double* a, const int* lda, double* b,
            const int* ldb, double* alphar, double* alphai, double* beta, double* vl, const int* ldvl,
            double* vr, const int* ldvr, double* work, const int* lwork, int* info, std::size_t, std::size_t);
void dggevx_(const char* balanc, const char* jobvl, const char* jobvr, const char* sense, const int* n, double* a,
             const int* lda, double* b, const int* ldb, double* alphar, double* alphai, double* beta, double* vl,
             const int* ldvl, double* vr, const int* ldvr, int* ilo, int* ihi, double* lscale, double* rscale,
             double* abnrm, double* bbnrm, double* rconde, double* rcondv, double* work, const int* lwork,
             int* iwork, int* bwork, int* info, std::size_t, std::size_t, std::size_t, std::size_t);
void dnaupd_(int* ido, const char* bmat, const int* n, const char* which, const int* nev, const double* tol,
             double* resid, const int* ncv, double* v, const int* ldv, int* iparam, int* ipntr, double* workd,
             double* workl, const int* lworkl, int* info, std::size_t, std::size_t);
void dneupd_(const int* rvec, const char* howmny, int* select, double* dr, double* di, double* z, const int* ldz,
             const double* sigmar, const double* sigmai, double* workev, const char* bmat, const int* n,
             const char* which, const int* nev, const double* tol, double* resid, const int* ncv, double* v,
             const int* ldv, int* iparam, int* ipntr, double* workd, double* workl, const int* lworkl, int* info,
             std::size_t, std::size_t, std::size_t);
}

namespace mbl {

ContinuousEigenvalue continuous_eigenvalue(double b, double re, double im, double h) {
  // lambda = (Lambda - 1) / (Lambda + 1) / (h/2) with Lambda = (re + i im) / b (input manual eq. 4.15).
  const double d = ((re + b) * (re + b) + im * im) * h / 2.0;
  ContinuousEigenvalue e;
  e.sigma = (re * re - b * b + im * im) / d;
  e.omega = 2.0 * b * im / d;
  constexpr double eps = std::numeric_limits<double>::epsilon();
  if (im != 0.0) {
    const double m2 = e.sigma * e.sigma + e.omega * e.omega;
    e.damping = m2 > eps ? -100.0 * e.sigma / std::sqrt(m2) : 0.0;
    e.frequency = e.omega / (2.0 * M_PI);
  } else {
    // A real eigenvalue: +-100 % (overdamped or unstable), 0 for a zero one.
    e.damping = std::abs(e.sigma) < eps ? 0.0 : -100.0 * std::copysign(1.0, e.sigma);
    e.frequency = 0.0;
  }
  return e;
}

void select_eigenvalues(const EigenSettings& s, double shift, EigenSolution& sol) {
  const int n = static_cast<int>(sol.alphar.size());
  sol.selected.assign(n, false);
  sol.table.clear();
  for (int k = 0; k < n; ++k) {
    // ILO..IHI (1-based): outside, the balancing isolated an eigenvalue of the constraint rows.
    if (k + 1 < sol.ilo || k + 1 > sol.ihi) continue;
    const double b = sol.beta.size() ? sol.beta[k] : 1.0;
    const ContinuousEigenvalue e = continuous_eigenvalue(b, sol.alphar[k] + shift, sol.alphai[k], s.parameter);
    if (e.frequency < s.lower_frequency || e.frequency > s.upper_frequency) continue;
    sol.selected[k] = true;
    sol.table.push_back(e);
  }
  std::sort(sol.table.begin(), sol.table.end(), [](const ContinuousEigenvalue& a, const ContinuousEigenvalue& b) {
    return a.frequency == b.frequency ? a.sigma < b.sigma : a.frequency < b.frequency;
  });
}

void solve_lapack(const EigenSettings& s, Eigen::MatrixXd A, Eigen::MatrixXd B, EigenSolution& sol) {
  const int n = static_cast<int>(A.rows());
  sol.balance = s.permute && s.scale ? 'B' : s.permute ? 'P' : s.scale ? 'S' : 'N';
  sol.alphar.resize(n);
  sol.alphai.resize(n);
  sol.beta.resize(n);
  sol.VL.resize(n, n);
  sol.VR.resize(n, n);
  sol.has_left = true;
  sol.ilo = 1;
  sol.ihi = n;
  const char V = 'V', N = 'N';
  int info = 0, lwork = -1;
  double query = 0.0, dummy = 0.0;
  std::vector<double> lscale(n), rscale(n);
  std::vector<int> iwork(n + 6), bwork(n);
  auto call = [&](double* work) {
    if (sol.balance == 'N')
      dggev_(&V, &V, &n, A.data(), &n, B.data(), &n, sol.alphar.data(), sol.alphai.data(), sol.beta.data(),
             sol.VL.data(), &n, sol.VR.data(), &n, work, &lwork, &info, 1, 1);
    else
      dggevx_(&sol.balance, &V, &V, &N, &n, A.data(), &n, B.data(), &n, sol.alphar.data(), sol.alphai.data(),
              sol.beta.data(), sol.VL.data(), &n, sol.VR.data(), &n, &sol.ilo, &sol.ihi, lscale.data(),
              rscale.data(), &sol.abnrm, &sol.bbnrm, &dummy, &dummy, work, &lwork, iwork.data(), bwork.data(),
              &info, 1, 1, 1, 1);
  };
  call(&query);  // workspace query
  lwork = std::max(static_cast<int>(query), (sol.balance == 'N' ? 8 : 6) * n);
  std::vector<double> work(std::max(lwork, 1));
  info = 0;
  call(work.data());
  sol.info = info;
  select_eigenvalues(s, 0.0, sol);
}

void solve_arpack(const EigenSettings& s, const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, EigenSolution& sol) {
  // The canonical problem (B^-1 A - I) x = (Lambda - 1) x: the wanted Lambda near 1 (lambda
  // near 0) become the Ritz values of largest modulus or imaginary part.
  const int n = static_cast<int>(A.rows());
  const int nev = s.arpack_nev, ncv = s.arpack_ncv;
  if (nev > n || ncv > n) {
    sol.message = fmt::format("INFO: invalid NEV={} or NCV={} for a problem of size {}", nev, ncv, n);
    return;
  }
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu(B);
  static constexpr const char* kWhich[] = {"LM", "SM", "LR", "SR", "LI", "SI"};
  const char* which = kWhich[static_cast<int>(s.which)];
  const char bmat = 'I';
  int ido = 0, info = 0;
  const double tol = s.arpack_tolerance;
  std::vector<double> resid(n, 0.0), v(std::size_t(n) * (ncv + 1), 0.0), workd(3 * std::size_t(n), 0.0);
  const int lworkl = 3 * ncv * ncv + 6 * ncv;
  std::vector<double> workl(lworkl, 0.0);
  int iparam[11] = {1, 0, s.arpack_max_iterations, 1, 0, 0, 1, 0, 0, 0, 0};
  int ipntr[14] = {0};
  do {
    dnaupd_(&ido, &bmat, &n, which, &nev, &tol, resid.data(), &ncv, v.data(), &n, iparam, ipntr, workd.data(),
            workl.data(), &lworkl, &info, 1, 2);
    if (ido != 1 && ido != -1) break;
    Eigen::Map<const Eigen::VectorXd> x(&workd[ipntr[0] - 1], n);
    Eigen::Map<Eigen::VectorXd> y(&workd[ipntr[1] - 1], n);
    y = lu.solve(A * x) - x;
  } while (true);
  sol.message = fmt::format("INFO: {}", info);
  if (info < 0) return;
  const int rvec = 1;
  const char howmny = 'A';
  std::vector<int> select(ncv);
  std::vector<double> dr(ncv + 1), di(ncv + 1), z(std::size_t(n) * (ncv + 1)), workev(3 * ncv);
  const double sigmar = 0.0, sigmai = 0.0;
  int info2 = 0;
  dneupd_(&rvec, &howmny, select.data(), dr.data(), di.data(), z.data(), &n, &sigmar, &sigmai, workev.data(),
          &bmat, &n, which, &nev, &tol, resid.data(), &ncv, v.data(), &n, iparam, ipntr, workd.data(),
          workl.data(), &lworkl, &info2, 1, 1, 2);
  const int nconv = std::max(0, iparam[4]);
  sol.alphar = Eigen::Map<Eigen::VectorXd>(dr.data(), nconv);
  sol.alphai = Eigen::Map<Eigen::VectorXd>(di.data(), nconv);
  sol.beta.resize(0);
  sol.VR = Eigen::Map<Eigen::MatrixXd>(z.data(), n, nconv);
  sol.has_left = false;
  sol.ilo = 1;
  sol.ihi = nconv;
  select_eigenvalues(s, 1.0, sol);
  // The outputs see Lambda itself: alpha_r = Ritz value + 1, beta = 1.
  sol.alphar.array() += 1.0;
  sol.beta = Eigen::VectorXd::Ones(nconv);
}

EigenSolution EigenAnalysis::analyse(Model& model, double t, long step, const Vector& y, const Vector& yp) const {
  EigenSolution sol;
  sol.settings = s_;
  sol.step = step;
  sol.time = t;
  sol.dCoef = s_.parameter / 2.0;
  sol.method = s_.method;
  // The model's own assembly at the converged state: residual first (elements refresh what the
  // Jacobian uses, as MBDyn's AssRes before AssJac), then J(-h/2) and J(+h/2).
  const int n = model.size();
  Vector yp_ref = yp;
  for (auto& node : model.nodes())
    if (auto* sn = dynamic_cast<StructNode*>(node.get())) sn->reference_angular_velocity_form(yp_ref, true);
  auto assemble = [&](double dCoef) {
    model.update(t, y, yp_ref);
    Vector r;
    model.residual(t, dCoef, r, nullptr);
    integrators::SparseMatrix J(n);
    model.jacobian(t, dCoef, J);
    return J.to_dense();
  };
  sol.Aminus = assemble(-sol.dCoef);
  sol.Aplus = assemble(sol.dCoef);
  for (auto& node : model.nodes())
    if (auto* sn = dynamic_cast<StructNode*>(node.get())) sn->reference_angular_velocity_form(yp_ref, false);
  model.update(t, y, yp);
  switch (s_.method) {
    case EigenSettings::Method::Lapack: solve_lapack(s_, sol.Aminus, sol.Aplus, sol); break;
    case EigenSettings::Method::Arpack: solve_arpack(s_, sol.Aminus, sol.Aplus, sol); break;
    case EigenSettings::Method::External:
    case EigenSettings::Method::None: break;
  }
  return sol;
}

}  // namespace mbl

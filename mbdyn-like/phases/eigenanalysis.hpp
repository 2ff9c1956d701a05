#pragma once
// Direct eigenanalysis of the linearised problem (input manual §4.1.1; Masarati, "Direct
// eigenanalysis of constrained system dynamics"). With the model's own Jacobian
// J(c) = df/dy' + c df/dy at c = +-h/2 (h = `parameter`), the generalised problem
//     J(-h/2) x = Lambda J(+h/2) x
// has the discrete-time eigenvalues Lambda = (1 + h/2 lambda) / (1 - h/2 lambda) of the
// continuous ones lambda = (Lambda - 1) / (Lambda + 1) / (h/2).
#include <Eigen/Core>
#include <string>
#include <vector>

#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/model/settings.hpp"

namespace mbl {

/// One reported eigenvalue, as the .out table lists it.
struct ContinuousEigenvalue {
  double sigma = 0.0;   ///< real part [1/s]
  double omega = 0.0;   ///< imaginary part [rad/s]
  double damping = 0.0; ///< -100 sigma / |lambda| [%] (+-100 or 0 for real eigenvalues)
  double frequency = 0.0;  ///< omega / (2 pi) [Hz]; 0 for real eigenvalues
};

/// Everything one analysis produced (what the outputs need).
struct EigenSolution {
  EigenSettings settings;  ///< the card that asked for it (outputs, precisions, limits)
  unsigned index = 0;  ///< 0-based number of the analysis (file suffix, NetCDF eig.<index>)
  long step = 0;
  double time = 0.0;
  double dCoef = 0.0;  ///< h/2
  EigenSettings::Method method = EigenSettings::Method::Lapack;
  Eigen::MatrixXd Aplus, Aminus;  ///< J(+dCoef), J(-dCoef) (kept when the outputs ask for them)
  // LAPACK dggev/dggevx diagnostics ("Info:" line).
  int info = 0;
  char balance = 'N';
  int ilo = 1, ihi = 0;
  double abnrm = -1.0, bbnrm = -1.0;
  // Generalised eigenvalues Lambda_k = (alphar + i alphai) / beta, and eigenvectors (columns;
  // a complex pair k, k+1 stores the real part in k and the imaginary part in k+1).
  Eigen::VectorXd alphar, alphai, beta;
  Eigen::MatrixXd VL, VR;
  bool has_left = false;
  /// Which generalised eigenvalues are reported (within ILO..IHI and the frequency limits).
  std::vector<bool> selected;
  /// The reported eigenvalues sorted by frequency, then real part (MBDyn's order).
  std::vector<ContinuousEigenvalue> table;
  std::string message;  ///< ARPACK's "INFO:" line instead of LAPACK's "Info:" line when set
};

/// lambda from Lambda = (re + i im) / b with dCoef = h/2 (MBDyn's mapping, see above).
ContinuousEigenvalue continuous_eigenvalue(double b, double re, double im, double h);

/// The analyses of an `eigenanalysis:` card: which are due, and each analysis itself.
class EigenAnalysis {
 public:
  explicit EigenAnalysis(const EigenSettings& s) : s_(s) {}
  bool requested() const { return !s_.times.empty(); }
  const EigenSettings& settings() const { return s_; }
  /// When the next analysis is due at time `t` by `due(when, t)`, performs it on the model at the
  /// state (y, y'), skips the further times also due (MBDyn does not repeat an analysis) and
  /// returns true.
  template <class Due>
  bool next_due(Due due, double t, long step, Model& model, const Vector& y, const Vector& yp, EigenSolution& out) {
    if (next_ >= s_.times.size() || !due(s_.times[next_], t)) return false;
    out = analyse(model, t, step, y, yp);
    out.index = performed_;
    while (next_ < s_.times.size() && due(s_.times[next_], t)) ++next_;
    ++performed_;
    return true;
  }
  /// The analysis itself (does not advance the schedule).
  EigenSolution analyse(Model& model, double t, long step, const Vector& y, const Vector& yp) const;

 private:
  EigenSettings s_;
  std::size_t next_ = 0;
  unsigned performed_ = 0;
};

/// Solves J(-c) x = Lambda J(+c) x with LAPACK (dggevx with the balancing of `s`, dggev
/// without), filling the eigen fields of `sol`.
void solve_lapack(const EigenSettings& s, Eigen::MatrixXd A, Eigen::MatrixXd B, EigenSolution& sol);
/// ARPACK (dnaupd/dneupd) on (J(+c)^-1 J(-c) - I), the eigenvalues shifted back by 1.
void solve_arpack(const EigenSettings& s, const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, EigenSolution& sol);
/// Marks the reported eigenvalues (index range and frequency limits) and fills the sorted table.
void select_eigenvalues(const EigenSettings& s, double shift, EigenSolution& sol);

}  // namespace mbl

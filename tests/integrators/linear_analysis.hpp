#pragma once
// Analytical linear analysis of the integrators on y'' = -omega^2 y (seed 000 §4): the stability
// function of the one-step methods from their tableaux, and the damping ratio and period
// elongation of a root of a one-step map. Shared by the integrator-level and deck-level tests.
#include <Eigen/Dense>
#include <cmath>
#include <complex>
#include <string>

#include "integrators/coefficients.hpp"

namespace mbl::integrators::testing {

/// Numerical damping ratio xi and period elongation pe of a root lambda of the one-step map at
/// omega h.
inline void damping_elongation(std::complex<double> lambda, double omega_h, double& xi, double& pe) {
  const double a = std::log(std::abs(lambda)), b = std::abs(std::arg(lambda));
  xi = -a / std::sqrt(a * a + b * b);
  pe = omega_h / std::sqrt(a * a + b * b) - 1.0;
}

/// R(z) of a one-step method (`crank nicolson`, `implicit euler`, `Bathe`, `msstcN`, `mssthN`,
/// `DIRK33/43/54`) from its coefficients: R = e_s^T (I - z A)^-1 1 (stiffly accurate tableaux).
inline std::complex<double> stability_function(const std::string& n, double rho, std::complex<double> z) {
  if (n == "crank nicolson") return (1.0 + 0.5 * z) / (1.0 - 0.5 * z);
  if (n == "implicit euler") return 1.0 / (1.0 - z);
  const coef::Tableau t = n == "Bathe"               ? coef::bathe(rho)
                          : n.rfind("msstc", 0) == 0 ? coef::msstc(n.back() - '0', rho)
                          : n.rfind("mssth", 0) == 0 ? coef::mssth(n.back() - '0', rho)
                          : n == "DIRK33"            ? coef::esdirk3_4()
                          : n == "DIRK43"            ? coef::esdirk3_5()
                                                     : coef::esdirk4_6();
  const int s = t.stages();
  const Eigen::MatrixXcd M = Eigen::MatrixXcd::Identity(s, s) - z * t.A.cast<std::complex<double>>();
  return M.partialPivLu().solve(Eigen::VectorXcd::Ones(s))[s - 1];
}

}  // namespace mbl::integrators::testing

#pragma once
// Small second-order problems (integrators/second_order_problem.hpp) on a vector space: the
// configuration is q = q_base + dq. Shared by the tests of the seed methods.
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <string>

#include "integrators/newton.hpp"
#include "integrators/second_order_problem.hpp"

namespace mbl::integrators::testing {

/// Newton options of the seed tests: residuals to 1e-12.
inline NewtonOptions tight_newton() {
  NewtonOptions o;
  o.residual_tolerance = 1e-12;
  o.max_iterations = 50;
  return o;
}

/// Prints `s` and appends it to build/<file> (the generated tables of docs/seeds.md); the file
/// starts afresh with each test process.
inline void table_line(const std::string& file, const std::string& s) {
  static std::map<std::string, std::ofstream> files;
  auto it = files.find(file);
  if (it == files.end()) it = files.emplace(file, std::ofstream(std::string(MBL_SOURCE_DIR) + "/build/" + file)).first;
  std::cout << s;
  it->second << s << std::flush;
}

class VectorSecondOrder : public SecondOrderProblem {
 public:
  explicit VectorSecondOrder(Vector q0) : q_base_(q0), q_(std::move(q0)) {}
  int velocity_size() const override { return static_cast<int>(q_.size()); }
  void set_configuration(const Vector& dq) override { q_ = q_base_ + dq; }
  void commit_configuration() override { q_base_ = q_; }
  void from_first_order(const Vector&, const Vector&, Vector&, Vector&) override {}
  void to_first_order(double, const Vector&, const Vector&, const Vector&, Vector&, Vector&) override {}
  const Vector& q() const { return q_; }
  void set_q(const Vector& q) { q_base_ = q_ = q; }

 protected:
  Vector q_base_, q_;
};

/// m q'' + c q' + k q = 0.
class LinearOscillator : public VectorSecondOrder {
 public:
  LinearOscillator(double m, double c, double k) : VectorSecondOrder(Vector::Zero(1)), m_(m), c_(c), k_(k) {}
  int constraint_size() const override { return 0; }
  void evaluate(double, const Vector& v, const Vector& a, const Vector&, Vector& r, Vector& phi) override {
    r = Vector::Constant(1, -k_ * q_[0] - c_ * v[0] - m_ * a[0]);
    phi.resize(0);
  }
  void mass(Matrix& M) override { M = Matrix::Constant(1, 1, m_); }
  void constraint_jacobian(double, Matrix& B) override { B.resize(0, 1); }
  double m_, c_, k_;
};

/// A point mass m on a massless arm of length L hinged at the origin, in Cartesian
/// coordinates (x, y), gravity -g along y: Phi = (x^2 + y^2 - L^2) / 2, Phi_q = (x, y),
/// m q'' = (0, -m g) - Phi_q^T lambda (lambda = arm tension / L).
class CartesianPendulum : public VectorSecondOrder {
 public:
  CartesianPendulum(double m, double L, double g, double theta0)
      : VectorSecondOrder(Eigen::Vector2d(L * std::sin(theta0), -L * std::cos(theta0))), m_(m), L_(L), g_(g) {}
  int constraint_size() const override { return 1; }
  void evaluate(double, const Vector&, const Vector& a, const Vector& lambda, Vector& r, Vector& phi) override {
    r = -m_ * a - lambda[0] * q_;
    r[1] -= m_ * g_;
    phi = Vector::Constant(1, 0.5 * (q_.squaredNorm() - L_ * L_));
  }
  void mass(Matrix& M) override { M = m_ * Matrix::Identity(2, 2); }
  void constraint_jacobian(double, Matrix& B) override { B = q_.transpose(); }
  double m_, L_, g_;
};

}  // namespace mbl::integrators::testing

namespace mbl::integrators::testing {

/// The IFToMM simple pendulum of seed 002 §3 in its angle from the horizontal (eq. 14):
/// theta'' = -(g/L) cos theta, unit mass and length, released at rest from theta = 0.
class AnglePendulum : public VectorSecondOrder {
 public:
  AnglePendulum() : VectorSecondOrder(Vector::Zero(1)) {}
  int constraint_size() const override { return 0; }
  void evaluate(double, const Vector&, const Vector& a, const Vector&, Vector& r, Vector& phi) override {
    r = Vector::Constant(1, -g_ * std::cos(q_[0]) - a[0]);
    phi.resize(0);
  }
  void mass(Matrix& M) override { M = Matrix::Identity(1, 1); }
  void constraint_jacobian(double, Matrix& B) override { B.resize(0, 1); }
  double energy(double theta_dot) const { return 0.5 * theta_dot * theta_dot + g_ * std::sin(q_[0]); }
  double g_ = 9.81;
};

}  // namespace mbl::integrators::testing

namespace mbl::integrators::testing {

/// The spinning top of seed 002 §6 in ZXZ Euler angles q = (phi, theta, psi) (minimal
/// coordinates, an ODE): a symmetric top on a fixed tip, inertias I1 = I2, I3 about the tip,
/// mass m with its centre l above the tip along the axis, gravity -g along z. Lagrange's
/// equations of T = I1 (theta'^2 + phi'^2 sin^2 theta) / 2 + I3 (psi' + phi' cos theta)^2 / 2,
/// V = m g l cos theta: M(q) q'' = Q(q, q').
class EulerAngleTop : public VectorSecondOrder {
 public:
  EulerAngleTop(double I1, double I3, double m, double l, double g, double theta0)
      : VectorSecondOrder(Eigen::Vector3d(0.0, theta0, 0.0)), I1_(I1), I3_(I3), mgl_(m * g * l) {}
  int constraint_size() const override { return 0; }
  void evaluate(double, const Vector& v, const Vector& a, const Vector&, Vector& r, Vector& phi) override {
    const double s = std::sin(q_[1]), c = std::cos(q_[1]);
    const double dphi = v[0], dth = v[1], dpsi = v[2], spin = dpsi + dphi * c;
    Matrix M;
    mass(M);
    const Eigen::Vector3d Q(-(2 * (I1_ - I3_) * s * c * dth * dphi - I3_ * s * dth * dpsi),
                            I1_ * dphi * dphi * s * c - I3_ * spin * dphi * s + mgl_ * s, I3_ * s * dth * dphi);
    r = Q - M * a;
    phi.resize(0);
  }
  void mass(Matrix& M) override {
    const double s = std::sin(q_[1]), c = std::cos(q_[1]);
    M = Matrix::Zero(3, 3);
    M(0, 0) = I1_ * s * s + I3_ * c * c;
    M(0, 2) = M(2, 0) = I3_ * c;
    M(1, 1) = I1_;
    M(2, 2) = I3_;
  }
  void constraint_jacobian(double, Matrix& B) override { B.resize(0, 3); }
  double energy(const Vector& v) const {
    const double s = std::sin(q_[1]), c = std::cos(q_[1]), spin = v[2] + v[0] * c;
    return 0.5 * I1_ * (v[1] * v[1] + v[0] * v[0] * s * s) + 0.5 * I3_ * spin * spin + mgl_ * c;
  }
  double I1_, I3_, mgl_;
};

}  // namespace mbl::integrators::testing

namespace mbl::integrators::testing {

/// The DAE pendulum of seed 002 §8 (Figure 12, eqs. 80-82): the IFToMM pendulum written at its
/// centre of gravity q = (x, y, theta), mass m, inertia I_zz about the centre, the hinge at the
/// origin through Phi = (x - L sin theta, y + L cos theta), gravity -g along y. Released from the
/// horizontal (theta = 90°) at rest.
class CentreOfGravityPendulum : public VectorSecondOrder {
 public:
  CentreOfGravityPendulum(double m, double I_zz, double L, double g)
      : VectorSecondOrder(Eigen::Vector3d(L, 0.0, M_PI / 2)), m_(m), I_zz_(I_zz), L_(L), g_(g) {}
  int constraint_size() const override { return 2; }
  void evaluate(double t, const Vector&, const Vector& a, const Vector& lambda, Vector& r, Vector& phi) override {
    Matrix M, B;
    mass(M);
    constraint_jacobian(t, B);
    r = -M * a - B.transpose() * lambda;
    r[1] -= m_ * g_;
    phi = Eigen::Vector2d(q_[0] - L_ * std::sin(q_[2]), q_[1] + L_ * std::cos(q_[2]));
  }
  void mass(Matrix& M) override { M = Eigen::Vector3d(m_, m_, I_zz_).asDiagonal(); }
  void constraint_jacobian(double, Matrix& B) override {
    B = Matrix::Zero(2, 3);
    B(0, 0) = B(1, 1) = 1.0;
    B(0, 2) = -L_ * std::cos(q_[2]);
    B(1, 2) = -L_ * std::sin(q_[2]);
  }
  double energy(const Vector& v) const {
    return 0.5 * m_ * (v[0] * v[0] + v[1] * v[1]) + 0.5 * I_zz_ * v[2] * v[2] + m_ * g_ * q_[1];
  }
  /// The paper's "coordinate drift": the squared arm length minus its original square.
  double assembly_error() const { return q_[0] * q_[0] + q_[1] * q_[1] - L_ * L_; }
  double m_, I_zz_, L_, g_;
};

}  // namespace mbl::integrators::testing

// The model's second-order view (mbdyn-like/core/model_second_order.hpp) against closed forms:
// the mass matrix of bodies, the constraint Jacobian against differences of Phi along the
// SO(3) exponential map, and the gyroscopic force of a free rigid body.
#include <gtest/gtest.h>

#include "elements/bodies/body.hpp"
#include "elements/forces/gravity.hpp"
#include "elements/joints/revolute_hinge.hpp"
#include "integrators/second_order_problem.hpp"
#include "support/element_fixture.hpp"

using namespace mbl;
using namespace mbl::elements;

namespace {

struct SecondOrderFixture : test_support::ElementFixture {
  BodyParams body1{2.5, Vec3(0.1, -0.2, 0.3), Mat3(Vec3(1.0, 2.0, 3.0).asDiagonal())};
  BodyParams body2{1.5, Vec3::Zero(), Mat3(Vec3(0.4, 0.7, 1.1).asDiagonal())};
  integrators::SecondOrderProblem* so = nullptr;
  Vector v, lambda;
  double t = 0.25;
  SecondOrderFixture() {
    model.add_element(std::make_unique<Body>(1, *n1, body1));
    model.add_element(std::make_unique<Body>(2, *n2, body2));
    model.add_element(std::make_unique<Gravity>([](double) { return Vec3(0.0, 0.0, -9.81); }));
    model.add_element(std::make_unique<RevoluteHinge>(1, RevoluteHinge::Variant::Hinge, att(n1, 1), att(n2, 2)));
    model.setup_elements();
    model.number_dofs();
    Vector y, yp;
    model.initial_state(y, yp);
    model.after_convergence(t, y, yp);
    model.update(t, y, yp);
    so = model.second_order();
    so->from_first_order(y, yp, v, lambda);
  }
};

}  // namespace

TEST(ModelSecondOrder, SizesFollowNodesAndMultipliers) {
  SecondOrderFixture f;
  EXPECT_EQ(f.so->velocity_size(), 12);
  EXPECT_EQ(f.so->constraint_size(), 5);  // a revolute hinge: 3 positions, 2 orientations
  EXPECT_EQ(f.v.segment<3>(0), test_support::generic_ic(1).v_W);
  EXPECT_EQ(f.v.segment<3>(3), test_support::generic_ic(1).w_W);
}

TEST(ModelSecondOrder, MassMatrixOfBodies) {
  SecondOrderFixture f;
  integrators::Matrix M;
  f.so->mass(M);
  const double m = f.body1.mass;
  const Vec3 S_W = m * f.n1->R_WN() * f.body1.b_N;
  // p = m v + w x S, gamma = S x v + J w (technical manual §8.1.1).
  EXPECT_LT((M.block<3, 3>(0, 0) - m * Mat3::Identity()).norm(), 1e-12);
  EXPECT_LT((M.block<3, 3>(0, 3) + skew(S_W)).norm(), 1e-12);
  EXPECT_LT((M - M.transpose()).norm(), 1e-12);
  EXPECT_LT((M.block<6, 6>(0, 6).norm()), 1e-15);  // no coupling between the nodes
  const Mat3 J_W = f.n2->R_WN() * f.body2.J_cm_N * f.n2->R_WN().transpose();
  EXPECT_LT((M.block<3, 3>(9, 9) - J_W).norm(), 1e-12);
}

TEST(ModelSecondOrder, ConstraintJacobianMatchesDifferencesOnSO3) {
  SecondOrderFixture f;
  integrators::Matrix B;
  f.so->constraint_jacobian(f.t, B);
  const int n = f.so->velocity_size();
  Vector r, phi_p, phi_m;
  const double e = 1e-6;
  double worst = 0.0;
  for (int j = 0; j < n; ++j) {
    f.so->set_configuration(e * Vector::Unit(n, j));
    f.so->evaluate(f.t, f.v, Vector::Zero(n), f.lambda, r, phi_p);
    f.so->set_configuration(-e * Vector::Unit(n, j));
    f.so->evaluate(f.t, f.v, Vector::Zero(n), f.lambda, r, phi_m);
    worst = std::max(worst, ((phi_p - phi_m) / (2 * e) - B.col(j)).lpNorm<Eigen::Infinity>());
  }
  EXPECT_LT(worst, 1e-7);
}

TEST(ModelSecondOrder, DynamicsResidualIsQMinusMaMinusConstraintForces) {
  SecondOrderFixture f;
  const int n = f.so->velocity_size(), m = f.so->constraint_size();
  integrators::Matrix M, B;
  f.so->set_configuration(Vector::Zero(n));
  f.so->mass(M);
  f.so->constraint_jacobian(f.t, B);
  Vector r0, r1, phi;
  f.so->evaluate(f.t, f.v, Vector::Zero(n), Vector::Zero(m), r0, phi);
  // Node 2 carries a body at its node point: Q is its weight and the gyroscopic moment.
  const Vec3 w = f.v.segment<3>(9);
  const Mat3 J_W = f.n2->R_WN() * f.body2.J_cm_N * f.n2->R_WN().transpose();
  EXPECT_LT((r0.segment<3>(6) - f.body2.mass * Vec3(0, 0, -9.81)).norm(), 1e-8);
  EXPECT_LT((r0.segment<3>(9) + w.cross(J_W * w)).norm(), 1e-8);
  // Linear in the accelerations (-M a) and in the multipliers (-B^T lambda).
  Vector a(n), lambda(m);
  for (int i = 0; i < n; ++i) a[i] = std::sin(1.0 + i);
  for (int i = 0; i < m; ++i) lambda[i] = std::cos(2.0 + i);
  f.so->evaluate(f.t, f.v, a, lambda, r1, phi);
  EXPECT_LT((r1 - r0 + M * a + B.transpose() * lambda).lpNorm<Eigen::Infinity>(), 1e-7);
}

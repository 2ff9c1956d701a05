// Beam elements (input manual §8.3): Jacobians against finite differences, and cantilever
// deflections against the Timoshenko beam theory.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "elements/beams/beam.hpp"
#include "elements/nodes/abstract_node.hpp"
#include "elements/laws/elastic_laws.hpp"
#include "elements/joints/clamp.hpp"
#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/core/rotations.hpp"
#include "support/jacobian_check.hpp"

using namespace mbl;
using namespace mbl::elements;

namespace {

Mat6 generic_stiffness() {
  Mat6 K = Vec6(3.0e3, 1.2e3, 1.5e3, 20.0, 35.0, 50.0).asDiagonal();
  K(0, 4) = K(4, 0) = 40.0;  // axial-bending coupling (offset axial centre)
  K(1, 3) = K(3, 1) = -15.0;
  return K;
}

/// `diagonal`: the `diag` laws of most decks (the beam's Jacobian then skips the zero products).
std::unique_ptr<ConstitutiveLaw6D> law(bool viscous, bool diagonal = false) {
  const Mat6 K = diagonal ? Mat6(generic_stiffness().diagonal().asDiagonal()) : generic_stiffness();
  Mat6 C = 0.02 * K;
  if (!diagonal) C(2, 5) = C(5, 2) = 0.1;
  return std::make_unique<laws::LinearViscoElasticLaw<6>>(K, viscous ? C : Mat6::Zero());
}

/// A curved, twisted beam on nodes of the given types, with offsets and rotated sections;
/// the check runs at a strained, rotating state.
struct BeamFixture {
  Model model;
  std::vector<StructNode*> nodes;

  BeamFixture(const std::vector<StructNode::Type>& types, bool viscous, bool from_nodes = false, int electrodes = 0,
              bool diagonal_law = false) {
    const int nn = static_cast<int>(types.size());
    for (int k = 0; k < nn; ++k) {
      StructNode::InitialConditions ic;
      const double s = k / double(nn - 1);
      ic.x_W = Vec3(s, 0.2 * s * s, -0.1 * s);  // curved reference line
      ic.R_WN = rot::euler123_to_R(Vec3(0.2 * k, -0.1, 0.3 + 0.1 * k));
      ic.v_W = Vec3(0.2 * k, -0.1, 0.3);
      ic.w_W = Vec3(0.5 - k, 0.2, -0.3 + 0.1 * k);
      nodes.push_back(static_cast<StructNode*>(
          &model.add_node(std::make_unique<StructNode>(k + 1, types[k], ic))));
    }
    std::vector<BeamPoint> pts;
    for (int k = 0; k < nn; ++k)
      pts.push_back({nodes[k], Vec3(0.01 * k, 0.02, -0.015 * k),
                     rot::euler123_to_R(Vec3(0.05 * k, 0.1, -0.02 * k))});
    std::vector<BeamSection> secs(nn == 3 ? 2 : 1);
    for (std::size_t s = 0; s < secs.size(); ++s) {
      secs[s].from_nodes = from_nodes;
      secs[s].R_WS = rot::euler123_to_R(Vec3(0.1, 0.15 * s, 0.2));
      secs[s].law = law(viscous, diagonal_law);
      secs[s].piezo.resize(6, electrodes);
      for (int e = 0; e < electrodes; ++e)
        secs[s].piezo.col(e) << 3.0 + e, -2.0 * s, 1.5, 0.4 * e, -0.7, 0.2 + s;
    }
    // Piezoelectric electrodes: abstract nodes, differential and algebraic in turn.
    std::vector<const AbstractNode*> el;
    for (int e = 0; e < electrodes; ++e)
      el.push_back(static_cast<const AbstractNode*>(
          &model.add_node(std::make_unique<AbstractNode>(100 + e, e % 2 == 0, 0.3 - 0.5 * e, 0.1))));
    model.add_element(std::make_unique<Beam>(10, std::move(pts), std::move(secs), std::move(el)));
  }

  /// A predicted, strained state: positions moved, orientations rotated (the prediction g0
  /// becomes the nodes' and the sections' reference), angular velocities in w_ref.
  void predict(Vector& y, Vector& yp) {
    model.setup_elements();
    model.number_dofs();
    model.initial_state(y, yp);
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      const int i = nodes[k]->dof_index();
      y.segment<3>(i) += Vec3(0.03 * k, -0.02, 0.04 * std::sin(1.0 + k));
      y.segment<3>(i + 3) = Vec3(0.05 * k, -0.04, 0.03 + 0.02 * k);
      yp.segment<3>(i + 3) = Vec3(0.3, -0.2 * k, 0.1);
    }
    model.after_predict(0.25, y, yp);
  }

  /// The FD check at a Newton iterate g = g_scale * g1 away from the reference (g = 0 in
  /// check()).
  test_support::JacobianCheck check_off_reference(double g_scale, double dCoef = 0.37) {
    Vector y, yp;
    predict(y, yp);
    for (std::size_t k = 0; k < nodes.size(); ++k)
      y.segment<3>(nodes[k]->dof_index() + 3) = g_scale * Vec3(0.4 - 0.3 * k, 0.2 * k, -0.5);
    return test_support::check_jacobian(model, 0.25, dCoef, y, yp);
  }

  test_support::JacobianCheck check(bool rotating_static_nodes, double dCoef = 0.37) {
    Vector y, yp;
    predict(y, yp);
    for (StructNode* n : nodes) {
      const int i = n->dof_index();
      if (n->is_dynamic()) {
        yp.segment<6>(n->momentum_dof_index()) << 0.1, -0.2, 0.3, 0.05, 0.4, -0.1;
      } else if (rotating_static_nodes) {
        // Static nodes have no residual of their own: the beam's linearisation at g = 0 is
        // exact for any g', so test it with g' != 0 too.
        yp.segment<3>(i + 3) = Vec3(0.2, 0.1 * i, -0.3);
      }
    }
    return test_support::check_jacobian(model, 0.25, dCoef, y, yp);
  }
};

using T = StructNode::Type;

}  // namespace

// The input configuration is stress free to the last bit: as MBDyn's Beam::DsDxi, L0 is R^T l
// computed by the interpolation that computes l at every residual, so a beam that has not moved
// adds exactly nothing (MBDyn's derivatives phase then stops after 0 iterations with 0 error,
// and so must ours; before, round-off of the reference strains left residuals of 1e-13 EA).
TEST(BeamReference, InputConfigurationGivesAnExactlyZeroResidual) {
  for (const bool from_nodes : {false, true}) {
    for (const auto& types : {std::vector<T>{T::Static, T::Static, T::Static}, std::vector<T>{T::Static, T::Static}}) {
      BeamFixture f(types, false, from_nodes);
      f.model.setup_elements();
      f.model.number_dofs();
      Vector y, yp;
      f.model.initial_state(y, yp);
      f.model.update(0.0, y, yp);
      Vector r(f.model.size());
      f.model.residual(0.0, 0.37, r, nullptr);
      for (Eigen::Index k = 0; k < r.size(); ++k)
        EXPECT_EQ(r[k], 0.0) << "beam" << types.size() << (from_nodes ? " from nodes" : "") << ", row " << k;
    }
  }
}

TEST(BeamJacobian, Beam3ElasticStaticNodes) {
  BeamFixture f({T::Static, T::Static, T::Static}, false);
  const auto r = f.check(true);
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

TEST(BeamJacobian, Beam3ViscoelasticStaticNodes) {
  BeamFixture f({T::Static, T::Static, T::Static}, true);
  const auto r = f.check(true);
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

TEST(BeamJacobian, Beam3ViscoelasticDynamicNodesFromNodes) {
  BeamFixture f({T::Dynamic, T::Static, T::Dynamic}, true, true);
  const auto r = f.check(false, 0.6);
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

TEST(BeamJacobian, Beam3DiagonalLaws) {
  for (const bool viscous : {false, true}) {
    BeamFixture f({T::Dynamic, T::Static, T::Dynamic}, viscous, false, 0, true);
    const auto r = f.check(false, 0.6);
    EXPECT_LT(r.max_error, 1e-6) << (viscous ? "viscoelastic " : "elastic ") << r.str();
  }
}

TEST(BeamJacobian, Beam2Elastic) {
  BeamFixture f({T::Static, T::Dynamic}, false);
  const auto r = f.check(true);
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

// `piezoelectric actuator`: the sections' (F, M) gain T V, linear in the electrodes' values.
TEST(BeamJacobian, Beam3PiezoelectricActuator) {
  BeamFixture f({T::Static, T::Dynamic, T::Static}, false, false, 2);
  const auto r = f.check(true);
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

TEST(BeamJacobian, Beam2Viscoelastic) {
  BeamFixture f({T::Static, T::Static}, true);
  const auto r = f.check(true, 1.3);
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

// Away from the Newton reference (g != 0) the beam's Jacobian is MBDyn's updated-updated
// linearisation (technical manual §10.1): the section law is rotated with the reference
// orientation R_r instead of R = R(g) R_r, and the derivative of G(g) in the curvature is dropped.
// The omitted terms are first order in g: the FD mismatch is below 1e-6 at g = 0 (tests above),
// grows linearly with |g| (it halves when g halves), and is already a real difference at
// |g| ~ 1e-3 (what slows MBDyn's Newton down when the rotations within a step are large, e.g.
// lateral buckling; an exact Jacobian converges in fewer iterations than MBDyn).
TEST(BeamJacobian, Beam3OmittedTermsAreFirstOrderInG) {
  const auto at = [](double g_scale) {
    BeamFixture f({T::Static, T::Static, T::Static}, false);
    return f.check_off_reference(g_scale).max_error;
  };
  const double e1 = at(4e-3), e2 = at(2e-3), e3 = at(1e-3);
  EXPECT_GT(e2, 1e-3) << "the updated-updated terms are omitted: the mismatch must be visible";
  EXPECT_NEAR(e1 / e2, 2.0, 0.1);
  EXPECT_NEAR(e2 / e3, 2.0, 0.1);
}

TEST(BeamJacobian, Beam2OmittedTermsAreFirstOrderInG) {
  const auto at = [](double g_scale) {
    BeamFixture f({T::Static, T::Static}, false);
    return f.check_off_reference(g_scale).max_error;
  };
  const double e1 = at(4e-3), e2 = at(2e-3);
  EXPECT_GT(e2, 1e-3);
  EXPECT_NEAR(e1 / e2, 2.0, 0.1);
}

namespace {

/// Cantilever along x, clamped at x = 0, `elements` beams of `nodes_per_beam` nodes, tip load
/// P_W; solved statically by Newton on the model. Returns the tip node.
struct Cantilever {
  Model model;
  std::vector<StructNode*> nodes;
  StructNode* tip = nullptr;

  Cantilever(int elements, int nodes_per_beam, double L, const Mat6& K) {
    const int n = elements * (nodes_per_beam - 1) + 1;
    for (int k = 0; k < n; ++k) {
      StructNode::InitialConditions ic;
      ic.x_W = Vec3(L * k / (n - 1), 0.0, 0.0);
      nodes.push_back(static_cast<StructNode*>(
          &model.add_node(std::make_unique<StructNode>(k + 1, T::Static, ic))));
    }
    tip = nodes.back();
    model.add_element(std::make_unique<Clamp>(1, *nodes[0], Vec3::Zero(), Mat3::Identity()));
    for (int e = 0; e < elements; ++e) {
      std::vector<BeamPoint> pts;
      for (int k = 0; k < nodes_per_beam; ++k) pts.push_back({nodes[e * (nodes_per_beam - 1) + k]});
      std::vector<BeamSection> secs(nodes_per_beam == 3 ? 2 : 1);
      for (auto& s : secs) s.law = std::make_unique<laws::LinearViscoElasticLaw<6>>(K, Mat6::Zero());
      model.add_element(std::make_unique<Beam>(100 + e, std::move(pts), std::move(secs)));
    }
  }

  /// Newton on the static problem with the tip load added to the residual, the load applied in
  /// `increments` steps; after each the state is re-based as after a converged time step
  /// (nodes and sections take the converged orientation as their new reference).
  bool solve(const Vec3& P_W, const Vec3& C_W = Vec3::Zero(), int increments = 1) {
    model.setup_elements();
    model.number_dofs();
    Vector y, yp;
    model.initial_state(y, yp);
    yp.setZero();
    const int n = model.size();
    for (int k = 1; k <= increments; ++k) {
      const double f = double(k) / increments;
      model.after_predict(0.0, y, yp);
      bool converged = false;
      for (int it = 0; it < 30 && !converged; ++it) {
        model.update(0.0, y, yp);
        Vector r(n);
        r.setZero();
        model.residual(0.0, 1.0, r, nullptr);
        r.segment<3>(tip->eq_index()) += f * P_W;
        r.segment<3>(tip->eq_index() + 3) += f * C_W;
        integrators::SparseMatrix J(n);
        J.zero();
        model.jacobian(0.0, 1.0, J);
        const Vector d = J.to_dense().fullPivLu().solve(r);
        y += d;
        converged = d.norm() < 1e-13;
      }
      if (!converged) return false;
      model.update(0.0, y, yp);
      model.after_convergence(0.0, y, yp);
      yp.setZero();
    }
    return true;
  }
};

}  // namespace

TEST(BeamCantilever, Beam3SmallTipLoadMatchesTimoshenko) {
  const double L = 2.0, EA = 1e7, GA = 4e6, GJ = 5e3, EJ = 1e4, P = 1.0;
  const Mat6 K = Vec6(EA, GA, GA, GJ, EJ, EJ).asDiagonal();
  Cantilever c(4, 3, L, K);
  ASSERT_TRUE(c.solve(Vec3(0.0, 0.0, P)));
  // Timoshenko: bending plus shear deflection, tip rotation P L^2 / (2 EJ) about -y (the
  // finite-volume beam3 reproduces both up to the geometric nonlinearity, ~1e-8 here).
  const double w = P * L * L * L / (3.0 * EJ) + P * L / GA;
  EXPECT_NEAR(c.tip->x_W().z(), w, 1e-6 * w);
  const Vec3 phi = rot::R_to_rotvec(c.tip->R_WN());
  EXPECT_NEAR(-phi.y(), P * L * L / (2.0 * EJ), 1e-6 * P * L * L / (2.0 * EJ));
}

TEST(BeamCantilever, Beam2AxialAndTorsionExact) {
  const double L = 1.5, EA = 2e6, GA = 1e6, GJ = 3e3, EJ = 1e4;
  const Mat6 K = Vec6(EA, GA, GA, GJ, EJ, EJ).asDiagonal();
  Cantilever c(3, 2, L, K);
  const double P = 10.0, T_x = 2.0;
  ASSERT_TRUE(c.solve(Vec3(P, 0.0, 0.0), Vec3(T_x, 0.0, 0.0)));
  EXPECT_NEAR(c.tip->x_W().x() - L, P * L / EA, 1e-9);
  EXPECT_NEAR(rot::R_to_rotvec(c.tip->R_WN()).x(), T_x * L / GJ, 1e-9);
}

TEST(BeamCantilever, Beam3TipMomentBendsIntoCircle) {
  // Pure bending: a tip couple M gives a constant curvature M / EJ; with M L / EJ = pi/2 the tip
  // rotates by 90 degrees and lands at (R, R) with R = EJ / M (geometrically exact).
  const double L = 1.0, EJ = 1.0;
  const double M = M_PI / 2.0 * EJ / L;
  const Mat6 K = Vec6(1e6, 1e6, 1e6, 1.0, EJ, EJ).asDiagonal();
  Cantilever c(8, 3, L, K);
  ASSERT_TRUE(c.solve(Vec3::Zero(), Vec3(0.0, 0.0, M), 10));
  const double R = EJ / M;
  EXPECT_NEAR(c.tip->x_W().x(), R, 1e-6);
  EXPECT_NEAR(c.tip->x_W().y(), R, 1e-6);
  EXPECT_NEAR(rot::R_to_rotvec(c.tip->R_WN()).z(), M_PI / 2.0, 1e-9);
}

// The seed 000 benchmarks with beams (lateral buckling, four-bar) against the real MBDyn's
// output, node positions to 1e-6 and beam internal forces: tests/decks/utest_decks_paper.cpp
// (kExtraComparisons), in the same run as the benchmark's own checks.

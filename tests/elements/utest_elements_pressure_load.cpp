// Surface loads (input manual §8.17): pressures (§8.17.1) and tractions (§8.17.2). Jacobians
// against finite differences, resultants against the closed forms p A n and t A, and loaded free
// plates of point masses run through the program.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "mbdyn-like/core/drive_caller.hpp"
#include "elements/nodes/abstract_node.hpp"
#include "elements/shells/pressure_load.hpp"
#include "elements/shells/traction_load.hpp"
#include "mbdyn-like/core/model.hpp"
#include "support/jacobian_check.hpp"
#include "support/run_program.hpp"

using namespace mbl;
using namespace mbl::elements;

namespace {

using T = StructNode::Type;

StructNode& add_struct(Model& m, unsigned label, T type, const Vec3& x) {
  StructNode::InitialConditions ic;
  ic.x_W = x;
  return static_cast<StructNode&>(m.add_node(std::make_unique<StructNode>(label, type, ic)));
}

/// Natural coordinates of the nodes of each shape (figure 8.16).
std::vector<std::pair<double, double>> natural_nodes(const SurfaceShape& sh) {
  if (sh.nodes == 4) return {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
  if (&sh == &SurfaceShape::quadrangle8()) return {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}, {0, 1}, {-1, 0}, {0, -1}, {1, 0}};
  if (sh.nodes == 8) return {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}, {0, -1}, {1, 0}, {0, 1}, {-1, 0}};
  if (sh.nodes == 9) return {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}, {0, -1}, {1, 0}, {0, 1}, {-1, 0}, {0, 0}};
  return {{0, 0}, {1, 0}, {0, 1}, {0.5, 0}, {0.5, 0.5}, {0, 0.5}};
}

/// The nodes of `sh` on the plane x = r e1 + s e2 (+ a warp), as static displacement nodes.
std::vector<StructNode*> add_surface_nodes(Model& model, const SurfaceShape& sh, const Vec3& e1, const Vec3& e2,
                                           double warp = 0.0) {
  std::vector<StructNode*> nodes;
  unsigned label = 1;
  for (const auto& [r, s] : natural_nodes(sh))
    nodes.push_back(&add_struct(model, label++, T::StaticDisplacement, r * e1 + s * e2 + Vec3(0, 0, warp * r * s)));
  return nodes;
}

/// Warped surface of mixed 3- and 6-dof nodes.
std::vector<StructNode*> add_warped_nodes(Model& model, const SurfaceShape& sh) {
  std::vector<StructNode*> nodes;
  const T types[] = {T::StaticDisplacement, T::DynamicDisplacement, T::Static, T::Dynamic};
  int k = 0;
  for (const auto& [r, s] : natural_nodes(sh)) {
    const Vec3 x(0.5 * r + 0.05 * s * s, 0.4 * s - 0.03 * r, 0.07 * r * s + 0.02 * std::sin(1.0 + k));
    nodes.push_back(&add_struct(model, k + 1, types[k % 4], x));
    ++k;
  }
  return nodes;
}

/// Sets the model up with the nodes' input positions x_W moved to R x_W + d.
void set_up_moved(Model& model, const std::vector<StructNode*>& nodes, Vector& y, Vector& yp, const Mat3& R,
                  const Vec3& d) {
  model.setup_elements();
  model.number_dofs();
  model.initial_state(y, yp);
  for (StructNode* n : nodes) y.segment<3>(n->dof_index()) = R * n->initial().x_W + d;
}

/// The sum of the residual over the nodes' position equations, at the input positions moved by
/// x_W -> R x_W + d.
Vec3 resultant(Model& model, const std::vector<StructNode*>& nodes, const Mat3& R = Mat3::Identity(),
               const Vec3& d = Vec3::Zero()) {
  Vector y, yp;
  set_up_moved(model, nodes, y, yp, R, d);
  Vector r = Vector::Zero(model.size());
  model.update(0.0, y, yp);
  model.residual(0.0, 1.0, r, nullptr);
  Vec3 F = Vec3::Zero();
  for (StructNode* n : nodes) F += r.segment<3>(n->eq_index());
  return F;
}

/// The Jacobian check with the nodes off their input positions.
test_support::JacobianCheck check_moved(Model& model, const std::vector<StructNode*>& nodes) {
  Vector y, yp;
  set_up_moved(model, nodes, y, yp, Mat3::Identity(), Vec3::Zero());
  for (std::size_t n = 0; n < nodes.size(); ++n)
    y.segment<3>(nodes[n]->dof_index()) += Vec3(0.02 * n, -0.01, 0.03 * std::cos(1.0 + n));
  return test_support::check_jacobian(model, 0.1, 0.37, y, yp);
}

/// Tractions t0 + x-dependent parts, one per node, so that the interpolation matters.
std::vector<std::function<Vec3(double)>> nodal_tractions(const SurfaceShape& sh, const Vec3& t0, double slope = 0.0) {
  std::vector<std::function<Vec3(double)>> t;
  for (int k = 0; k < sh.nodes; ++k) t.push_back([t0, slope, k](double) { return Vec3(t0 + slope * k * Vec3(1.0, -0.5, 0.3)); });
  return t;
}

/// Four dynamic displacement nodes of mass 2 at the corners of the square [-1, 1]^2, the order of
/// figure 8.16a, under the surface load `load` (with `control`, more control data).
std::string plate_deck(const std::string& control, const std::string& load) {
  return R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 0.125; tolerance: 1e-10; max iterations: 10; end: initial value;
begin: control data; structural nodes: 4; rigid bodies: 4; surface loads: 1; )" + control + R"( end: control data;
begin: nodes;
  structural: 1, dynamic displacement,  1.,  1., 0., null;
  structural: 2, dynamic displacement, -1.,  1., 0., null;
  structural: 3, dynamic displacement, -1., -1., 0., null;
  structural: 4, dynamic displacement,  1., -1., 0., null;
end: nodes;
begin: elements;
  body: 1, 1, 2.; body: 2, 2, 2.; body: 3, 3, 2.; body: 4, 4, 2.;
  )" + load + R"(
end: elements;
)";
}

const SurfaceShape* const kShapes[] = {&SurfaceShape::quadrangle4(), &SurfaceShape::quadrangle8(),
                                       &SurfaceShape::quadrangle8r(), &SurfaceShape::quadrangle9(),
                                       &SurfaceShape::triangle6()};

}  // namespace

// Shape functions interpolate: H_k at node m is delta_km, and they sum to one everywhere.
TEST(PressureLoad, ShapeFunctionsInterpolateTheNodes) {
  for (const SurfaceShape* sh : kShapes) {
    const auto xi = natural_nodes(*sh);
    std::vector<double> H(sh->nodes), H_r(sh->nodes), H_s(sh->nodes);
    for (int m = 0; m < sh->nodes; ++m) {
      sh->eval(xi[m].first, xi[m].second, H.data(), H_r.data(), H_s.data());
      for (int k = 0; k < sh->nodes; ++k) EXPECT_NEAR(H[k], k == m ? 1.0 : 0.0, 1e-14) << sh->log_name << k << m;
    }
    sh->eval(0.3, 0.2, H.data(), H_r.data(), H_s.data());
    double sum = 0.0, sum_r = 0.0, sum_s = 0.0;
    for (int k = 0; k < sh->nodes; ++k) sum += H[k], sum_r += H_r[k], sum_s += H_s[k];
    EXPECT_NEAR(sum, 1.0, 1e-14) << sh->log_name;
    EXPECT_NEAR(sum_r, 0.0, 1e-14) << sh->log_name;
    EXPECT_NEAR(sum_s, 0.0, 1e-14) << sh->log_name;
  }
}

// A uniform pressure p on a flat surface of area A with normal n: resultant -p A n.
TEST(PressureLoad, UniformPressureOnAFlatSurfaceGivesMinusPAn) {
  const double p = 2.5e3;
  for (const SurfaceShape* sh : kShapes) {
    Model model;
    // Map the natural coordinates to a tilted plane: x = r e1 + s e2 (triangle: area 1/2 |e1 x e2|).
    const Vec3 e1(0.6, 0.1, 0.2), e2(-0.1, 0.4, 0.3);
    const auto nodes = add_surface_nodes(model, *sh, e1, e2);
    const std::vector<DriveCallerPtr> drives(nodes.size(), std::make_shared<ConstDrive>(p));
    model.add_element(std::make_unique<PressureLoad>(1, *sh, nodes, drives, std::vector<AbstractNode*>{}));
    const Vec3 F = resultant(model, nodes);
    const double area = (sh->nodes == 6 ? 0.5 : 4.0) * e1.cross(e2).norm();
    const Vec3 expected = -p * area * e1.cross(e2).normalized();
    EXPECT_LT((F - expected).norm(), 1e-10 * expected.norm()) << sh->log_name << ": " << F.transpose();
  }
}

// Warped surfaces, 3- and 6-dof nodes, pressures from differential and algebraic abstract nodes.
TEST(PressureLoad, JacobianMatchesFiniteDifferences) {
  for (const SurfaceShape* sh : kShapes) {
    Model model;
    const auto nodes = add_warped_nodes(model, *sh);
    std::vector<AbstractNode*> pressures;
    for (int m = 0; m < sh->nodes; ++m)
      pressures.push_back(static_cast<AbstractNode*>(
          &model.add_node(std::make_unique<AbstractNode>(100 + m, m % 2 == 0, 1.0e2 * (1.0 + 0.3 * m), 0.0))));
    model.add_element(std::make_unique<PressureLoad>(1, *sh, nodes, std::vector<DriveCallerPtr>{}, pressures));
    const auto res = check_moved(model, nodes);
    EXPECT_LT(res.max_error, 1e-6) << sh->log_name << ": " << res.str();
  }
}

// Four point masses m on a free square of side L under a constant pressure p: every node carries
// p L^2 / 4 against the normal, so the flat plate translates with z = -p L^2 / (8 m) t^2.
TEST(PressureLoad, FreePlateOfPointMassesAcceleratesAsClosedForm) {
  const std::string deck = plate_deck("use automatic differentiation;", R"(
  drive caller: 1, const, 0.5;
  pressureq4: 10, 1, 2, 3, 4, from drives, reference, 1, reference, 1, reference, 1, const, 0.5;
)");
  const auto run = test::run_deck_text("pressure_plate", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const double t = 1.0, p = 0.5, L = 2.0, m = 2.0;
  for (unsigned node = 1; node <= 4; ++node) {
    const auto mov = test::last_record(run.output("mov"), node);
    ASSERT_GE(mov.size(), 3u);
    EXPECT_NEAR(mov[2], -p * L * L / (8.0 * m) * t * t, 1e-9) << node;
  }
  const std::string log = test::read_file(run.output("log"));
  EXPECT_NE(log.find("quadrangle4: 10 1 2 3 4 0 0 0 0\n"), std::string::npos) << log;
  // .prl: the label and the total force -p L^2 e_z, as MBDyn writes surface loads.
  const auto prl = test::last_record(run.output("prl"), 10);
  ASSERT_EQ(prl.size(), 3u);
  EXPECT_NEAR(prl[2], -p * L * L, 1e-9);
}

// A uniform traction t given in the frame R_f on a flat surface of area A: resultant A R_f t,
// whether the traction is absolute or relative, in the input configuration.
TEST(TractionLoad, UniformTractionOnAFlatSurfaceGivesAreaTimesTraction) {
  const Vec3 t0(1.5e3, -2.0e3, 0.7e3);
  const Mat3 R_f = Eigen::AngleAxisd(0.4, Vec3(0.2, 0.5, 0.8).normalized()).toRotationMatrix();
  for (const SurfaceShape* sh : kShapes)
    for (const auto frame : {TractionLoad::Frame::Absolute, TractionLoad::Frame::Relative}) {
      Model model;
      const Vec3 e1(0.6, 0.1, 0.2), e2(-0.1, 0.4, 0.3);
      const auto nodes = add_surface_nodes(model, *sh, e1, e2);
      const std::vector<Mat3> R_WF(sh->points.size(), R_f);
      model.add_element(std::make_unique<TractionLoad>(1, *sh, nodes, nodal_tractions(*sh, t0), R_WF, frame));
      const Vec3 F = resultant(model, nodes);
      const double area = (sh->nodes == 6 ? 0.5 : 4.0) * e1.cross(e2).norm();
      const Vec3 expected = area * R_f * t0;
      EXPECT_LT((F - expected).norm(), 1e-10 * expected.norm()) << sh->log_name << ": " << F.transpose();
    }
}

// Moved rigidly by R and stretched by 2 in one in-plane direction, the surface carries a relative
// traction turned by R and doubled with the area; an absolute one does not change.
TEST(TractionLoad, RelativeTractionFollowsTheSurfaceAbsoluteDoesNot) {
  const Vec3 t0(1.0, 2.0, -3.0);
  const Mat3 R = Eigen::AngleAxisd(0.7, Vec3(-0.3, 0.4, 0.9).normalized()).toRotationMatrix();
  const Mat3 stretch = Vec3(2.0, 1.0, 1.0).asDiagonal();  // the surface lies in x-y: e1 along x
  for (const SurfaceShape* sh : kShapes) {
    for (const auto frame : {TractionLoad::Frame::Absolute, TractionLoad::Frame::Relative}) {
      Model model;
      const auto nodes = add_surface_nodes(model, *sh, Vec3(0.5, 0, 0), Vec3(0, 0.3, 0));
      const std::vector<Mat3> R_WF(sh->points.size(), Mat3::Identity());
      model.add_element(std::make_unique<TractionLoad>(1, *sh, nodes, nodal_tractions(*sh, t0), R_WF, frame));
      const Vec3 F = resultant(model, nodes, R * stretch, Vec3(0.3, -0.2, 0.1));
      const double A0 = (sh->nodes == 6 ? 0.5 : 4.0) * 0.15;
      const Vec3 expected = frame == TractionLoad::Frame::Relative ? Vec3(2.0 * A0 * R * t0) : Vec3(A0 * t0);
      EXPECT_LT((F - expected).norm(), 1e-10 * expected.norm()) << sh->log_name << ": " << F.transpose();
    }
  }
}

// Warped surfaces, 3- and 6-dof nodes, non-uniform tractions in turned frames.
TEST(TractionLoad, JacobianMatchesFiniteDifferences) {
  for (const SurfaceShape* sh : kShapes) {
    for (const auto frame : {TractionLoad::Frame::Absolute, TractionLoad::Frame::Relative}) {
      Model model;
      const auto nodes = add_warped_nodes(model, *sh);
      std::vector<Mat3> R_WF;
      for (std::size_t i = 0; i < sh->points.size(); ++i)
        R_WF.push_back(Eigen::AngleAxisd(0.3 * i, Vec3(0.1, 0.8, 0.2).normalized()).toRotationMatrix());
      model.add_element(std::make_unique<TractionLoad>(1, *sh, nodes, nodal_tractions(*sh, Vec3(3e2, -1e2, 2e2), 40.0),
                                                       R_WF, frame));
      const auto res = check_moved(model, nodes);
      EXPECT_LT(res.max_error, 1e-6) << sh->log_name << ": " << res.str();
    }
  }
}

// Four point masses m on a free square of side L under a uniform in-plane traction t (a shear
// stress along the card's orientation, here the global y turned onto x): the plate translates with
// x = t L^2 / (8 m) t^2, relative or absolute.
TEST(TractionLoad, FreePlateOfPointMassesAcceleratesAsClosedForm) {
  for (const std::string absolute : {"", "absolute, "}) {
    const std::string deck = plate_deck("", R"(
  template drive caller: 1, 3, component, const, 0., const, 0.5, const, 0.;
  tractionq4: 10, )" + absolute + R"(1, 2, 3, 4, from drives, reference, 1, reference, 1, reference, 1, single, 0., 0.5, 0., const, 1.,
    orientation, 3, 0., 0., 1., 2, 1., 0., 0., 3, 0., 0., 1., 2, 1., 0., 0.,
                 3, 0., 0., 1., 2, 1., 0., 0., 3, 0., 0., 1., 2, 1., 0., 0.;
)");
    const auto run = test::run_deck_text("traction_plate", deck);
    ASSERT_EQ(run.rc, 0) << run.log();
    const double t = 1.0, tau = 0.5, L = 2.0, m = 2.0;
    for (unsigned node = 1; node <= 4; ++node) {
      const auto mov = test::last_record(run.output("mov"), node);
      ASSERT_GE(mov.size(), 3u);
      const Vec3 x0(node == 1 || node == 4 ? 1.0 : -1.0, node <= 2 ? 1.0 : -1.0, 0.0);
      EXPECT_NEAR(mov[0] - x0[0], tau * L * L / (8.0 * m) * t * t, 1e-9) << absolute << node;
      EXPECT_NEAR(mov[1] - x0[1], 0.0, 1e-9) << absolute << node;
      EXPECT_NEAR(mov[2], 0.0, 1e-9) << absolute << node;
    }
    const std::string log = test::read_file(run.output("log"));
    EXPECT_NE(log.find("quadrangle4: 10 1 2 3 4\n"), std::string::npos) << log;
    const auto prl = test::last_record(run.output("prl"), 10);
    ASSERT_EQ(prl.size(), 3u);
    EXPECT_NEAR(prl[0], tau * L * L, 1e-9) << absolute;
    EXPECT_NEAR(prl[1], 0.0, 1e-9) << absolute;
  }
}

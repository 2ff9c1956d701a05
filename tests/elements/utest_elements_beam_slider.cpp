// Beam slider (input manual §8.12.4): Jacobian against finite differences on a curved string of
// two three-node beams (inside a finite volume, in the smearing bands, spherical, classic and
// spline), and a limiting case: on a string of clamped straight beams a free mass pushed along
// the line by a constant force moves as x = F t^2 / (2 m), onto the next beam, and stays on the
// line. `spline` as MBDyn 2024 has it: classic's equations and loads with an extra multiplier
// that nothing determines, so a run stops in the derivatives phase on the singular Jacobian.
#include <gtest/gtest.h>
#include <netcdf.h>

#include "elements/beams/beam.hpp"
#include "elements/joints/beam_slider.hpp"
#include "elements/laws/elastic_laws.hpp"
#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/core/rotations.hpp"
#include "support/jacobian_check.hpp"
#include "support/run_program.hpp"

using namespace mbl;
using namespace mbl::elements;

namespace {

struct SliderFixture {
  Model model;
  std::vector<StructNode*> nodes;
  StructNode* slider = nullptr;
  BeamSlider* joint = nullptr;

  /// Slider node at x_slider with orientation R_slider (defaults: off the line).
  SliderFixture(BeamSlider::Type type, double smearing, bool friction = false,
                const Vec3& x_slider = Vec3(0.4, 0.1, 0.05),
                const Mat3& R_slider = rot::euler123_to_R(Vec3(0.1, 0.3, -0.2))) {
    for (int k = 0; k < 5; ++k) {
      StructNode::InitialConditions ic;
      const double s = 0.5 * k;
      ic.x_W = Vec3(s, 0.2 * s * s, -0.1 * s);
      ic.R_WN = rot::euler123_to_R(Vec3(0.2 * k, -0.1, 0.3 + 0.1 * k));
      ic.v_W = Vec3(0.2 * k, -0.1, 0.3);
      ic.w_W = Vec3(0.5 - k, 0.2, -0.3 + 0.1 * k);
      nodes.push_back(static_cast<StructNode*>(
          &model.add_node(std::make_unique<StructNode>(k + 1, StructNode::Type::Dynamic, ic))));
    }
    StructNode::InitialConditions ic;
    ic.x_W = x_slider;
    ic.R_WN = R_slider;
    ic.v_W = Vec3(0.3, 0.1, -0.2);
    ic.w_W = Vec3(0.2, -0.4, 0.1);
    slider = static_cast<StructNode*>(&model.add_node(std::make_unique<StructNode>(9, StructNode::Type::Dynamic, ic)));
    BeamSlider::Params p;
    p.slider = Attachment{slider, f_slider(), R_slider_hinge()};
    p.type = type;
    p.smearing = smearing;
    if (friction)
      p.friction = std::make_unique<JointFriction>(
          std::make_unique<ModLugreFriction>(20.0, 2.8, 0.1, 0.71, std::make_shared<drives::ConstScalarFunction>(0.3)),
          FrictionShape::Simple, 0.1, 1.0);
    for (int b = 0; b < 2; ++b) {
      std::vector<BeamPoint> pts;
      for (int i = 0; i < 3; ++i) pts.push_back({nodes[2 * b + i]});
      std::vector<BeamSection> secs(2);
      for (auto& s : secs)
        s.law = std::make_unique<laws::LinearViscoElasticLaw<6>>(Mat6(Vec6(1e3, 1e3, 1e3, 10, 10, 10).asDiagonal()),
                                                                Mat6::Zero());
      auto& beam = model.add_element(std::make_unique<Beam>(10 + b, std::move(pts), std::move(secs)));
      BeamSlider::Segment seg{static_cast<const Beam*>(&beam)};
      for (int i = 0; i < 3; ++i) seg.f_N[i] = Vec3(0.01 * i, -0.02, 0.015 * (b + 1));
      p.beams.push_back(seg);
    }
    joint = &static_cast<BeamSlider&>(model.add_element(std::make_unique<BeamSlider>(20, std::move(p))));
  }

  static Vec3 f_slider() { return Vec3(0.02, -0.03, 0.01); }
  static Mat3 R_slider_hinge() { return rot::euler123_to_R(Vec3(0.3, -0.1, 0.2)); }
  static constexpr double t = 0.25, dCoef = 0.37;

  /// A Newton reference state at abscissa s_ref, the joint's other unknowns arbitrary.
  void prepare(double s_ref, Vector& y, Vector& yp) {
    model.setup_elements();
    model.number_dofs();
    model.initial_state(y, yp);
    for (int i = joint->first_index(); i < joint->first_index() + joint->dof_count(); ++i)
      y[i] = 0.5 + 0.3 * std::sin(3.0 * i);
    y[joint->first_index()] = s_ref;
    model.after_predict(t, y, yp);
    for (StructNode* n : {nodes[0], nodes[1], nodes[2], nodes[3], nodes[4], slider})
      yp.segment<6>(n->momentum_dof_index()) << 0.1, -0.2, 0.3, 0.05, 0.4, -0.1;
  }

  test_support::JacobianCheck check(double s_ref) {
    Vector y, yp;
    prepare(s_ref, y, yp);
    return test_support::check_jacobian(model, t, dCoef, y, yp);
  }

  Vector residual(const Vector& y, const Vector& yp) {
    model.update(t, y, yp);
    Vector r = Vector::Zero(model.size());
    model.residual(t, dCoef, r, nullptr);
    return r;
  }
};

}  // namespace

TEST(BeamSliderInitialState, AbscissaStartsAtZeroWhateverTheInitialBeamAndNode) {
  // MBDyn's BeamSliderJoint has no SetValue: the unknown abscissa starts at 0 (the middle of the
  // first beam), the initial beam only picks the current one; an initial beam 2, node 3 must not
  // seed it with 2 k + node - 2 = 3.
  for (int beam : {0, 1})
    for (int node : {1, 3}) {
      Model model;
      std::vector<StructNode*> nodes;
      for (int k = 0; k < 5; ++k) {
        StructNode::InitialConditions ic;
        ic.x_W = Vec3(0.5 * k, 0.0, 0.0);
        nodes.push_back(static_cast<StructNode*>(
            &model.add_node(std::make_unique<StructNode>(k + 1, StructNode::Type::Dynamic, ic))));
      }
      StructNode::InitialConditions ic;
      ic.x_W = Vec3(2.0, 0.0, 0.0);
      auto* slider =
          static_cast<StructNode*>(&model.add_node(std::make_unique<StructNode>(9, StructNode::Type::Dynamic, ic)));
      BeamSlider::Params p;
      p.slider = Attachment{slider, Vec3::Zero(), Mat3::Identity()};
      p.type = BeamSlider::Type::Classic;
      p.initial_beam = beam;
      p.initial_node = node;
      for (int b = 0; b < 2; ++b) {
        std::vector<BeamPoint> pts;
        for (int i = 0; i < 3; ++i) pts.push_back({nodes[2 * b + i]});
        std::vector<BeamSection> secs(2);
        for (auto& sec : secs)
          sec.law = std::make_unique<laws::LinearViscoElasticLaw<6>>(Mat6(Mat6::Identity() * 1e3), Mat6::Zero());
        auto& b_el = model.add_element(std::make_unique<Beam>(10 + b, std::move(pts), std::move(secs)));
        p.beams.push_back(BeamSlider::Segment{static_cast<const Beam*>(&b_el)});
      }
      auto& joint = static_cast<BeamSlider&>(model.add_element(std::make_unique<BeamSlider>(20, std::move(p))));
      model.setup_elements();
      model.number_dofs();
      Vector y, yp;
      model.initial_state(y, yp);
      EXPECT_EQ(y[joint.first_index()], 0.0) << "initial beam " << beam + 1 << ", node " << node;
    }
}

TEST(BeamSliderJacobian, InsideAVolumeAndInTheSmearingBands) {
  // s_ref = s on the first beam: node 1's volume, around -1/sqrt(3) and +1/sqrt(3), node 2's.
  for (auto type : {BeamSlider::Type::Spherical, BeamSlider::Type::Classic, BeamSlider::Type::Spline}) {
    for (double s : {-0.8, -0.55, 0.1, 0.6}) {
      SliderFixture f(type, 0.1);
      const auto r = f.check(s);
      EXPECT_LT(r.max_error, 1e-6) << static_cast<int>(type) << " s " << s << ": " << r.str();
    }
  }
}

TEST(BeamSliderJacobian, WithModLugreFriction) {
  for (auto type : {BeamSlider::Type::Classic, BeamSlider::Type::Spline}) {
    for (double s : {-0.8, -0.55, 0.1}) {
      SliderFixture f(type, 0.1, true);
      const auto r = f.check(s);
      EXPECT_LT(r.max_error, 1e-6) << static_cast<int>(type) << " s " << s << ": " << r.str();
    }
  }
}

TEST(BeamSliderSpline, IsClassicWithAnUndeterminedMomentAboutTheLine) {
  // MBDyn 2024's spline slider: unknowns s, F, m1, m2, m3; equations and loads those of classic
  // with m2, m3; m1 (the moment about the tangent) enters nothing and the third rotation
  // equation is never written, so the Jacobian has an empty row and column.
  for (double s : {-0.8, -0.55, 0.1, 1.3}) {
    SliderFixture classic(BeamSlider::Type::Classic, 0.1), spline(BeamSlider::Type::Spline, 0.1);
    Vector yc, ypc, ys, yps;
    classic.prepare(s, yc, ypc);
    spline.prepare(s, ys, yps);
    const int i0 = classic.joint->first_index();
    ASSERT_EQ(spline.joint->first_index(), i0);
    ASSERT_EQ(spline.joint->dof_count(), classic.joint->dof_count() + 1);
    ASSERT_EQ(ys.size(), yc.size() + 1);
    ys.head(i0 + 4) = yc.head(i0 + 4);  // nodes, s, F
    ys.segment<2>(i0 + 5) = yc.segment<2>(i0 + 4);  // m2, m3
    yps.head(i0 + 4) = ypc.head(i0 + 4);
    for (double m1 : {0.0, 2.5}) {
      ys[i0 + 4] = m1;
      const Vector rc = classic.residual(yc, ypc), rs = spline.residual(ys, yps);
      EXPECT_LT((rs.head(i0 + 6) - rc).cwiseAbs().maxCoeff(), 1e-12) << "s " << s << " m1 " << m1;
      EXPECT_EQ(rs[i0 + 6], 0.0);
    }
    integrators::SparseMatrix J(static_cast<int>(ys.size()));
    spline.model.update(SliderFixture::t, ys, yps);
    J.zero();
    spline.model.jacobian(SliderFixture::t, SliderFixture::dCoef, J);
    const Eigen::MatrixXd Jd = J.to_dense();
    EXPECT_EQ(Jd.col(i0 + 4).cwiseAbs().maxCoeff(), 0.0) << "m1 enters no equation";
    EXPECT_EQ(Jd.row(i0 + 6).cwiseAbs().maxCoeff(), 0.0) << "no third rotation equation";
  }
}

TEST(BeamSliderSpline, OnACurvedBeamTheConstraintHoldsAndTheReactionBalances) {
  // The sliding point placed on the curved line of the first beam at s0, the slider's axis 1
  // along the tangent: every constraint equation vanishes for a force across the line; the
  // reaction (the residual with F, m minus that without) is F on the slider and -F on the beam,
  // balanced in moment, with no moment about the tangent.
  const double s0 = 0.3;
  SliderFixture probe(BeamSlider::Type::Spline, 0.0);
  Vector y, yp;
  probe.prepare(s0, y, yp);
  probe.model.update(SliderFixture::t, y, yp);
  const double N[3] = {0.5 * s0 * (s0 - 1.0), 1.0 - s0 * s0, 0.5 * s0 * (s0 + 1.0)};
  const double dN[3] = {s0 - 0.5, -2.0 * s0, s0 + 0.5};
  Vec3 x_line = Vec3::Zero(), l = Vec3::Zero();
  for (int i = 0; i < 3; ++i) {
    const Vec3 xT = probe.nodes[i]->x_W() + probe.nodes[i]->R_WN() * Vec3(0.01 * i, -0.02, 0.015);
    x_line += N[i] * xT;
    l += dN[i] * xT;
  }
  ASSERT_GT(l.cross(Vec3::UnitX()).norm(), 0.1) << "the line is curved: its tangent is not the x axis";
  const Vec3 e1 = l.normalized(), e2 = e1.cross(Vec3::UnitZ()).normalized(), e3 = e1.cross(e2);
  Mat3 R_b;
  R_b << e1, e2, e3;
  const Mat3 R_node = R_b * SliderFixture::R_slider_hinge().transpose();
  const Vec3 x_node = x_line - R_node * SliderFixture::f_slider();
  SliderFixture f(BeamSlider::Type::Spline, 0.0, false, x_node, R_node);
  f.prepare(s0, y, yp);
  const int i0 = f.joint->first_index();
  const Vec3 F = 1.3 * e2 - 0.4 * e3;
  y.segment<3>(i0 + 1).setZero();
  y.segment<3>(i0 + 4).setZero();
  const Vector r_free = f.residual(y, yp);
  y.segment<3>(i0 + 1) = F;
  y.segment<3>(i0 + 4) = Vec3(0.7, 0.2, -0.5);  // m1 (about the tangent), m2, m3
  const Vector r = f.residual(y, yp);
  EXPECT_LT(r.segment<7>(i0).cwiseAbs().maxCoeff(), 1e-12) << r.segment<7>(i0).transpose();
  const Vector dr = r - r_free;
  EXPECT_LT((dr.segment<3>(f.slider->eq_index()) - F).norm(), 1e-12);
  Vec3 F_beam = Vec3::Zero(), moment_O = Vec3::Zero();
  for (StructNode* n : {f.nodes[0], f.nodes[1], f.nodes[2], f.slider}) {
    const Vec3 Fn = dr.segment<3>(n->eq_index());
    if (n != f.slider) F_beam += Fn;
    moment_O += n->x_W().cross(Fn) + dr.segment<3>(n->eq_index() + 3);
  }
  EXPECT_LT((F_beam + F).norm(), 1e-12);
  EXPECT_LT(moment_O.norm(), 1e-12);
  const Vec3 M = dr.segment<3>(f.slider->eq_index() + 3) - (R_node * SliderFixture::f_slider()).cross(F);
  EXPECT_NEAR(M.dot(e1), 0.0, 1e-12) << "m1 is no moment about the tangent";
  EXPECT_LT((M - l.norm() * (0.2 * e2.cross(e1) - 0.5 * e3.cross(e1))).norm(), 1e-12);
}

namespace {

/// Beams from x = 0 to 2 (two of them), every node clamped, a mass of 2 starting at node 1
/// pushed by 3 along the line (and sideways).
std::string push_deck(const std::string& control, const std::string& type = "classic") {
  std::string deck =
      "begin: data; problem: initial value; end: data;\n"
      "begin: initial value; initial time: 0.; final time: 1.6; time step: 1.e-3; tolerance: 1e-9;\n"
      "  max iterations: 20; end: initial value;\n"
      "begin: control data; structural nodes: 6; rigid bodies: 1; joints: 6; beams: 2; forces: 1;\n" + control +
      "end: control data;\n"
      "begin: nodes;\n";
  for (int k = 0; k < 5; ++k)
    deck += "  structural: " + std::to_string(k + 1) + ", static, " + test::number_text(0.5 * k) +
            ", 0., 0., eye, null, null;\n";
  deck +=
      "  structural: 6, dynamic, null, eye, null, null;\n"
      "end: nodes;\n"
      "begin: elements;\n";
  for (int k = 0; k < 5; ++k)
    deck += "  joint: " + std::to_string(k + 1) + ", clamp, " + std::to_string(k + 1) + ", node, node;\n";
  for (int b = 0; b < 2; ++b)
    deck += "  beam3: " + std::to_string(11 + b) + ", " + std::to_string(2 * b + 1) + ", null, " +
            std::to_string(2 * b + 2) + ", null, " + std::to_string(2 * b + 3) +
            ", null, eye, linear elastic generic, diag, 1e7, 1e7, 1e7, 1e4, 1e4, 1e4, same, same;\n";
  deck +=
      "  joint: 6, beam slider, 6, null, type, " + type + ", 2, 11, null, null, null, 12, same, null, null,\n"
      "    initial beam, 1, initial node, 1, smearing, 0.1;\n"
      "  body: 6, 6, 2., null, diag, 1., 1., 1.;\n"
      "  force: 1, absolute, 6, position, null, 1., 0.5, 0.2, const, 3.;\n"
      "end: elements;\n";
  return deck;
}

}  // namespace

TEST(BeamSliderLimits, FreeMassPushedAlongAStraightString) {
  const auto run = test::run_deck_text("beam_slider_push", push_deck(""));
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto mov = test::records(run.output("mov"), 6);
  ASSERT_GE(mov.size(), 1601u);  // record i at t = i 1e-3 (MBDyn may add one step at the end)
  for (std::size_t i : {400u, 1000u, 1600u}) {
    const double t = 1e-3 * static_cast<double>(i);
    EXPECT_NEAR(mov[i][0], 3.0 * t * t / (2 * 2.0), 1e-6) << t;  // only the axial force component acts
    EXPECT_NEAR(mov[i][1], 0.0, 1e-9) << t;
    EXPECT_NEAR(mov[i][2], 0.0, 1e-9) << t;
  }
  // The slider reached the second beam: .jnt column 14 is its label, 15 the abscissa 2 k + s.
  const auto jnt = test::records(run.output("jnt"), 6);
  ASSERT_GE(jnt.size(), 1601u);
  EXPECT_EQ(jnt[1600][12], 12.0);
  EXPECT_NEAR(jnt[1600][13], 2.0 * (3.0 * 1.6 * 1.6 / 4.0) - 1.0, 1e-6);  // 2 x - 1 on this string
}

TEST(BeamSliderOutput, NetcdfBeamAbscissaAndTangent) {
  const auto run = test::run_deck_text("beam_slider_nc", push_deck("output results: netcdf, no text;\n"));
  ASSERT_EQ(run.rc, 0) << run.log();
  int nc = -1, var = -1;
  ASSERT_EQ(nc_open(run.output("nc").c_str(), NC_NOWRITE, &nc), NC_NOERR);
  const std::size_t start[] = {1600, 0}, count[] = {1, 3};
  int beam = 0;
  double s_ref = 0.0, l[3] = {};
  ASSERT_EQ(nc_inq_varid(nc, "elem.joint.6.Beam", &var), NC_NOERR);
  ASSERT_EQ(nc_get_vara_int(nc, var, start, count, &beam), NC_NOERR);
  ASSERT_EQ(nc_inq_varid(nc, "elem.joint.6.sRef", &var), NC_NOERR);
  ASSERT_EQ(nc_get_vara_double(nc, var, start, count, &s_ref), NC_NOERR);
  ASSERT_EQ(nc_inq_varid(nc, "elem.joint.6.l", &var), NC_NOERR);
  ASSERT_EQ(nc_get_vara_double(nc, var, start, count, l), NC_NOERR);
  nc_close(nc);
  EXPECT_EQ(beam, 12);
  EXPECT_NEAR(s_ref, 2.0 * (3.0 * 1.6 * 1.6 / 4.0) - 1.0, 1e-6);
  EXPECT_NEAR(l[0], 0.5, 1e-9);  // dx/ds on beams of length 1 spanning s in [-1, 1]
  EXPECT_NEAR(l[1], 0.0, 1e-9);
}

TEST(BeamSliderSpline, ARunStopsInTheDerivativesPhaseAsMBDyns) {
  // MBDyn 2024 aborts with "Initial derivatives failed because no pivot element could be found":
  // the spline slider's third rotation multiplier has no equation.
  const auto run = test::run_deck_text("beam_slider_spline", push_deck("", "spline"));
  EXPECT_NE(run.rc, 0) << run.log();
  EXPECT_NE(run.rc, 2) << "not an input error: " << run.log();
  const std::string log = run.log();
  EXPECT_NE(log.find("beam slider type spline"), std::string::npos) << log;
  EXPECT_NE(log.find("derivatives phase failed: singular matrix"), std::string::npos) << log;
  EXPECT_NE(log.find("joint 6 (Beam slider)"), std::string::npos) << log;
}

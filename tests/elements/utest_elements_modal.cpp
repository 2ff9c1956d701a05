// Modal joints (input manual §8.12.31, appendix A.1): the FEM file reader and its errors, the
// inertia invariants, the Jacobian against finite differences, and a cantilever reduced to a few
// modes in the test agreeing with the same beam made of beam3 elements.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "elements/joints/modal/fem_cache.hpp"
#include "elements/joints/modal/fem_file.hpp"
#include "elements/joints/modal/modal_joint.hpp"
#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/core/rotations.hpp"
#include "parser/errors.hpp"
#include "support/jacobian_check.hpp"
#include "support/run_program.hpp"

using namespace mbl;
using namespace mbl::elements;

namespace {

std::shared_ptr<parser::SourceFile> source(const std::string& text) {
  auto f = std::make_shared<parser::SourceFile>();
  f->path = "test.fem";
  f->text = text;
  return f;
}

/// Writes a FEM file (appendix A.1) of `nodes` nodes at x (3 x n), modes as 6 x n shapes,
/// generalized mass and stiffness, lumped masses m and rotary inertias J (3 x n), and
/// optionally the global inertia record.
std::string fem_text(const Eigen::Matrix3Xd& x, const std::vector<Eigen::Matrix<double, 6, Eigen::Dynamic>>& shapes,
                     const Eigen::MatrixXd& M, const Eigen::MatrixXd& K, const Eigen::VectorXd& m,
                     const Eigen::Matrix3Xd& J, int rejected = 0) {
  const int n = static_cast<int>(x.cols()), nm = static_cast<int>(shapes.size()) - rejected;
  std::ostringstream s;
  s.precision(17);
  s << "** MBDyn MODAL DATA FILE\n** RECORD GROUP 1, HEADER\n**   REVISION, NODE, NORMAL, ATTACHMENT, CONSTRAINT, "
       "REJECTED MODES.\n REV0 "
    << n << ' ' << nm + rejected << " 0 0 " << rejected << "\n**\n** RECORD GROUP 2, FINITE ELEMENT NODE LIST\n";
  for (int k = 0; k < n; ++k) s << ' ' << k + 1;
  s << "\n** RECORD GROUP 3, INITIAL MODAL DISPLACEMENTS\n";
  for (int j = 0; j < nm; ++j) s << " 0";
  s << "\n** RECORD GROUP 4, INITIAL MODALVELOCITIES\n";
  for (int j = 0; j < nm; ++j) s << " 0";
  for (int c = 0; c < 3; ++c) {
    s << "\n** RECORD GROUP " << 5 + c << ", NODAL " << "XYZ"[c] << " COORDINATES\n";
    for (int k = 0; k < n; ++k) s << x(c, k) << '\n';
  }
  s << "** RECORD GROUP 8, MODE SHAPES\n";
  for (std::size_t j = 0; j < shapes.size(); ++j) {
    s << "**    NORMAL MODE SHAPE # " << j + 1 << '\n';
    for (int k = 0; k < n; ++k) {
      for (int c = 0; c < 6; ++c) s << ' ' << shapes[j](c, k);
      s << '\n';
    }
  }
  auto square = [&](int rg, const Eigen::MatrixXd& A) {
    s << "**\n** RECORD GROUP " << rg << ", MATRIX\n";
    for (int r = 0; r < nm; ++r) {
      for (int c = 0; c < nm; ++c) s << ' ' << A(r, c);
      s << '\n';
    }
  };
  square(9, M);
  square(10, K);
  s << "**\n** RECORD GROUP 11, DIAGONAL OF LUMPED MASS MATRIX\n";
  for (int k = 0; k < n; ++k) s << m[k] << ' ' << m[k] << ' ' << m[k] << ' ' << J.col(k).transpose() << '\n';
  return s.str();
}

/// Two FEM nodes, two modes with translations and rotations everywhere.
std::string two_node_fem(int rejected = 0) {
  Eigen::Matrix3Xd x(3, 3);
  x << 0.0, 1.0, 0.5, 0.0, 0.1, -0.2, 0.0, 0.0, 0.3;
  std::vector<Eigen::Matrix<double, 6, Eigen::Dynamic>> shapes;
  for (int j = 0; j < 2 + rejected; ++j) {
    Eigen::Matrix<double, 6, Eigen::Dynamic> s(6, 3);
    for (int k = 0; k < 3; ++k)
      for (int c = 0; c < 6; ++c) s(c, k) = 0.1 * std::sin(1.0 + j + 2.0 * k + 0.7 * c);
    shapes.push_back(s);
  }
  Eigen::MatrixXd M(2, 2), K(2, 2);
  M << 1.0, 0.5, 0.5, 2.0;
  K << 50.0, 5.0, 5.0, 300.0;
  Eigen::VectorXd m(3);
  m << 0.5, 0.7, 0.3;
  Eigen::Matrix3Xd J(3, 3);
  J << 0.01, 0.02, 0.03, 0.02, 0.01, 0.04, 0.03, 0.05, 0.01;
  return fem_text(x, shapes, M, K, m, J, rejected);
}

std::string error_of(const std::string& text) {
  try {
    parse_fem_file(source(text));
  } catch (const parser::InputError& e) {
    return e.where().str() + ": " + e.message();
  }
  return "no error";
}

}  // namespace

// ---- FEM file ------------------------------------------------------------------------------------

TEST(ModalFemFile, ReadsEveryRecordGroup) {
  const FemFile f = parse_fem_file(source(two_node_fem()));
  EXPECT_EQ(f.node_count, 3);
  EXPECT_EQ(f.mode_count, 2);
  EXPECT_EQ(f.node_labels[2], "3");
  EXPECT_DOUBLE_EQ(f.x_nodes(2, 2), 0.3);
  EXPECT_DOUBLE_EQ(f.M(0, 1), 0.5);
  EXPECT_DOUBLE_EQ(f.K(1, 1), 300.0);
  ASSERT_TRUE(f.node_mass);
  EXPECT_DOUBLE_EQ((*f.node_mass)[1], 0.7);
  EXPECT_DOUBLE_EQ(f.node_J(2, 1), 0.05);
  EXPECT_NEAR(f.shapes[1](4, 2), 0.1 * std::sin(1.0 + 1 + 4.0 + 2.8), 1e-15);
  EXPECT_FALSE(f.rigid);
}

// `create binary` writes the cache beside the FEM file, `use binary` reads it back (the same data
// bit for bit) while it is newer than the text file; a changed text file or other thresholds make
// the text file decide again, and `update binary` rewrites a stale cache.
TEST(ModalFemFile, BinaryCacheHoldsTheSameDataAndFollowsTheTextFile) {
  const std::filesystem::path dir = mbl::test::fresh_temp_dir("fem_cache");
  const std::string fem_path = (dir / "beam.fem").string();
  const std::string cache = fem_cache_path(fem_path);
  std::ofstream(fem_path) << two_node_fem();
  const parser::SourceLocation at{};
  FemSource from{};
  const FemFile text = load_fem_file(fem_path, at, {}, {.create = true}, cache, &from);
  EXPECT_EQ(from, FemSource::Text);
  ASSERT_TRUE(std::filesystem::exists(cache));

  const FemFile cached = load_fem_file(fem_path, at, {}, {.use = true}, cache, &from);
  EXPECT_EQ(from, FemSource::Cache);
  EXPECT_EQ(cached.node_labels, text.node_labels);
  EXPECT_EQ(cached.M, text.M);
  EXPECT_EQ(cached.K, text.K);
  EXPECT_EQ(cached.x_nodes, text.x_nodes);
  ASSERT_EQ(cached.shapes.size(), text.shapes.size());
  for (std::size_t k = 0; k < text.shapes.size(); ++k) EXPECT_EQ(cached.shapes[k], text.shapes[k]);
  ASSERT_TRUE(cached.node_mass);
  EXPECT_EQ(*cached.node_mass, *text.node_mass);
  EXPECT_EQ(cached.node_J, text.node_J);
  EXPECT_EQ(cached.rigid.has_value(), text.rigid.has_value());
  EXPECT_EQ(cached.file->path, fem_path);

  // Other thresholds: the cache does not stand for what is asked.
  load_fem_file(fem_path, at, {.mass = 1e-3}, {.use = true}, cache, &from);
  EXPECT_EQ(from, FemSource::Text);

  // The text file changes after the cache was written: read from the text, then `update binary`
  // brings the cache up to date.
  std::filesystem::last_write_time(fem_path, std::filesystem::last_write_time(cache) +
                                                 std::chrono::seconds(2));
  load_fem_file(fem_path, at, {}, {.use = true}, cache, &from);
  EXPECT_EQ(from, FemSource::Text);
  std::filesystem::last_write_time(cache, std::filesystem::last_write_time(fem_path) -
                                                                 std::chrono::seconds(1));
  load_fem_file(fem_path, at, {}, {.use = true, .update = true}, cache, &from);
  EXPECT_EQ(from, FemSource::Text);
  std::filesystem::last_write_time(fem_path, std::filesystem::last_write_time(fem_path) - std::chrono::seconds(10));
  load_fem_file(fem_path, at, {}, {.use = true}, cache, &from);
  EXPECT_EQ(from, FemSource::Cache);

  // A damaged cache is ignored.
  std::ofstream(cache, std::ios::trunc) << "MBLFEM1\n garbage";
  std::filesystem::last_write_time(fem_path, std::filesystem::last_write_time(cache) -
                                                 std::chrono::seconds(10));
  const FemFile again = load_fem_file(fem_path, at, {}, {.use = true}, cache, &from);
  EXPECT_EQ(from, FemSource::Text);
  EXPECT_EQ(again.K, text.K);
}

TEST(ModalFemFile, RejectedModesComeFirstAndAreDropped) {
  const FemFile f = parse_fem_file(source(two_node_fem(1)));
  EXPECT_EQ(f.mode_count, 2);
  // The file's third shape (index 2) is the second mode kept.
  EXPECT_NEAR(f.shapes[1](0, 0), 0.1 * std::sin(1.0 + 2), 1e-15);
}

TEST(ModalFemFile, ErrorsNameTheFileLineAndColumn) {
  const std::string good = two_node_fem();
  // A bad number in the stiffness matrix.
  std::string bad = good;
  bad.replace(bad.find(" 300"), 4, " 3x0");
  EXPECT_NE(error_of(bad).find("expected a modal stiffness in record group 10 (modal stiffness matrix), found \"3x0\""),
            std::string::npos)
      << error_of(bad);
  EXPECT_EQ(error_of(bad).rfind("test.fem:", 0), 0u);
  // Too few values: the next record group comes early.
  bad = good;
  bad.replace(bad.find(" 1 0.5\n"), 7, " 1\n");
  EXPECT_NE(error_of(bad).find("found \"** RECORD GROUP 10, MATRIX\""), std::string::npos) << error_of(bad);
  // Missing required group.
  bad = good.substr(0, good.find("** RECORD GROUP 10"));
  EXPECT_NE(error_of(bad).find("expected record group 10 (modal stiffness matrix) in the FEM file"), std::string::npos)
      << error_of(bad);
  // A record before the header, a repeated one, an unknown one.
  EXPECT_NE(error_of("** RECORD GROUP 2, X\n 1\n").find("test.fem:1:17: expected record group 1 (header) first"),
            std::string::npos);
  bad = good + "** RECORD GROUP 9, AGAIN\n";
  EXPECT_NE(error_of(bad).find("record group 9 given twice"), std::string::npos);
  bad = good + "** RECORD GROUP 19, STRESS STIFFENING\n";
  EXPECT_NE(error_of(bad).find("expected a record group from 1 to 18, found 19"), std::string::npos);
  // Header counts.
  EXPECT_NE(error_of("** RECORD GROUP 1\n**\nREV0 2 -1 0 0 0\n").find("test.fem:3:8: expected the number of normal modes"),
            std::string::npos)
      << error_of("** RECORD GROUP 1\n**\nREV0 2 -1 0 0 0\n");
}

TEST(ModalFemFile, LumpedMassInvariantsInClosedForm) {
  const FemFile f = parse_fem_file(source(two_node_fem()));
  ModalBodyOptions o;
  o.modes = {2};
  o.origin_node = "2";
  o.use_invariant_9 = true;
  const ModalBody b = build_modal_body(f, o);
  ASSERT_EQ(b.modes(), 1);
  EXPECT_DOUBLE_EQ(b.M(0, 0), 2.0);
  EXPECT_DOUBLE_EQ(b.mass, 1.5);
  Vec3 S = Vec3::Zero(), I3 = Vec3::Zero(), I4 = Vec3::Zero();
  Mat3 J = Mat3::Zero(), I8 = Mat3::Zero(), I9 = Mat3::Zero();
  for (int k = 0; k < 3; ++k) {
    const double m = (*f.node_mass)[k];
    const Vec3 u = f.x_nodes.col(k) - f.x_nodes.col(1);  // origin at node "2"
    const Vec3 t = f.shapes[1].col(k).head<3>(), r = f.shapes[1].col(k).tail<3>();
    const Mat3 Jk = f.node_J.col(k).asDiagonal();
    S += m * u;
    J += Jk + m * (u.squaredNorm() * Mat3::Identity() - u * u.transpose());
    I3 += m * t;
    I4 += m * u.cross(t) + Jk * r;
    I8 -= m * skew(u) * skew(t);
    I9 += m * skew(t) * skew(t);
  }
  EXPECT_LT((b.S - S).norm(), 1e-14);
  EXPECT_LT((b.J - J).norm(), 1e-14);
  EXPECT_LT((b.inv3.col(0) - I3).norm(), 1e-15);
  EXPECT_LT((b.inv4.col(0) - I4).norm(), 1e-15);
  EXPECT_LT((Mat3(b.inv8.leftCols<3>()) - I8).norm(), 1e-15);
  EXPECT_LT((Mat3(b.inv9.leftCols<3>()) - I9).norm(), 1e-15);
  EXPECT_LT(b.inv5.norm(), 1e-15);  // t x t = 0 for a single mode
}

// ---- Jacobian ------------------------------------------------------------------------------------

namespace {

/// A modal joint on a modal node (or clamped) with two interface nodes, at a predicted state
/// with modal coordinates, rates, accelerations and node velocities all non-zero.
struct ModalFixture {
  Model model;
  StructNode* modal = nullptr;
  std::vector<StructNode*> iface;

  explicit ModalFixture(bool clamped) {
    const FemFile f = parse_fem_file(source(two_node_fem()));
    ModalBodyOptions o;
    o.modes = {1, 2};
    o.use_invariant_9 = true;
    o.damping = ModalDamping::SingleFactor;
    o.damping_factor = 0.05;
    ModalBody b = build_modal_body(f, o);
    const Mat3 R0 = rot::euler123_to_R(Vec3(0.2, -0.1, 0.3));
    const Vec3 x0(0.1, -0.2, 0.3);
    if (!clamped) {
      StructNode::InitialConditions ic{x0, R0, Vec3(0.3, -0.1, 0.2), Vec3(0.5, -0.4, 0.7)};
      modal = static_cast<StructNode*>(&model.add_node(std::make_unique<StructNode>(1, StructNode::Type::Modal, ic)));
    }
    std::vector<ModalJoint::Interface> ifs;
    for (int k : {1, 2}) {
      StructNode::InitialConditions ic;
      ic.x_W = x0 + R0 * b.x_nodes.col(k) + Vec3(0.01, 0.0, -0.02);
      ic.R_WN = R0;
      auto* n = static_cast<StructNode*>(
          &model.add_node(std::make_unique<StructNode>(10 + k, StructNode::Type::Static, ic)));
      iface.push_back(n);
      ModalJoint::Interface i;
      i.node = n;
      i.fem_label = b.node_labels[k];
      i.offset_N = Vec3(-0.01, 0.02, 0.0);
      i.x_fem = b.x_nodes.col(k);
      i.phi_t.resize(3, 2);
      i.phi_r.resize(3, 2);
      for (int j = 0; j < 2; ++j) {
        i.phi_t.col(j) = b.shape_t[j].col(k);
        i.phi_r.col(j) = b.shape_r[j].col(k);
      }
      ifs.push_back(i);
    }
    model.add_element(std::make_unique<ModalJoint>(1, std::move(b), modal, x0, R0, std::move(ifs)));
  }

  Vector y, yp;  ///< the checked state (the model keeps pointing at it)

  /// `at_rest`: node velocities, modal coordinates, reactions and rotations all zero (the
  /// interface nodes aligned with the floating frame).
  test_support::JacobianCheck check(double dCoef,
                                    ModalJoint::Linearisation linearisation = ModalJoint::Linearisation::Exact,
                                    bool at_rest = false, bool reaction_forces = false) {
    model.setup_elements();
    model.number_dofs();
    model.initial_state(y, yp);
    auto& joint = static_cast<ModalJoint&>(*model.elements().front());
    joint.set_linearisation(linearisation);
    const int i0 = joint.first_index();
    if (at_rest) {
      if (modal) {
        y.segment<6>(modal->dof_index() + 6).setZero();
        yp.segment<3>(modal->dof_index() + 3).setZero();  // no reference angular velocity
      }
      if (reaction_forces) {
        y.segment<3>(i0 + 4) << 1.0, -2.0, 0.5;
        y.segment<3>(i0 + 10) << -1.0, 0.7, 0.2;
      }
      return predicted_check(dCoef);
    }
    y.segment<2>(i0) << 0.03, -0.02;   // q
    yp.segment<2>(i0) << 0.2, 0.1;     // q'
    y.segment<2>(i0 + 2) << 0.15, 0.12;  // qP
    yp.segment<2>(i0 + 2) << -0.4, 0.3;  // qP'
    y.segment<12>(i0 + 4) << 1.0, -2.0, 0.5, 0.1, 0.3, -0.2, -1.0, 0.7, 0.2, 0.05, -0.1, 0.2;  // F, M
    for (std::size_t k = 0; k < iface.size(); ++k) {
      const int i = iface[k]->dof_index();
      y.segment<3>(i + 3) = Vec3(0.02, -0.01 * k, 0.03);
      yp.segment<3>(i + 3) = Vec3(0.3, 0.1, -0.2 * k);
    }
    if (modal) {
      const int i = modal->dof_index();
      y.segment<3>(i + 3) = Vec3(0.04, 0.01, -0.02);
      yp.segment<3>(i + 3) = Vec3(0.2, -0.3, 0.1);
      yp.segment<6>(i + 6) << 0.5, -0.2, 0.1, 0.3, 0.2, -0.4;
    }
    return predicted_check(dCoef);
  }

  /// The check at y, yp as a predicted point. The nodes' last update carries the same
  /// accelerations: the first residual after a prediction sees the modal node's accelerations
  /// of that update (MBDyn's prediction does not refresh them).
  test_support::JacobianCheck predicted_check(double dCoef) {
    model.update(0.25, y, yp);
    model.after_predict(0.25, y, yp);
    return test_support::check_jacobian(model, 0.25, dCoef, y, yp);
  }
};

}  // namespace

TEST(ModalJacobian, FloatingFrameMatchesFiniteDifferences) {
  for (double dCoef : {0.37, 1e-3}) {
    ModalFixture f(false);
    const auto r = f.check(dCoef);
    EXPECT_LT(r.max_error, 1e-6) << "dCoef " << dCoef << ": " << r.str();
  }
}

TEST(ModalJacobian, ClampedMatchesFiniteDifferences) {
  ModalFixture f(true);
  const auto r = f.check(0.37);
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

// MBDyn's linearisation (Modal::AssJac) leaves out the derivatives of the inertia coupling with
// q and of terms proportional to the velocities and reactions: it is exact at rest, and not
// away from it (where Newton then converges linearly, as MBDyn's does).
TEST(ModalJacobian, MbdynLinearisationIsExactAtRestOnly) {
  for (bool clamped : {false, true}) {
    ModalFixture rest(clamped);
    const auto r = rest.check(0.37, ModalJoint::Linearisation::Mbdyn, true);
    EXPECT_LT(r.max_error, 1e-6) << (clamped ? "clamped: " : "floating: ") << r.str();
    // The reaction forces' terms (F x d with dCoef) are complete too.
    ModalFixture loaded(clamped);
    const auto l = loaded.check(0.37, ModalJoint::Linearisation::Mbdyn, true, true);
    EXPECT_LT(l.max_error, 1e-6) << (clamped ? "clamped, loaded: " : "floating, loaded: ") << l.str();
  }
  ModalFixture moving(false);
  EXPECT_GT(moving.check(0.37, ModalJoint::Linearisation::Mbdyn).max_error, 1e-3);
}

// MBDyn's modal node refreshes its accelerations in Update(), which the prediction does not
// call: the first residual of a step sees those of the last update (the previous step's), later
// ones the current unknowns'.
TEST(ModalJoint, FirstResidualAfterAPredictionSeesThePreviousAccelerations) {
  ModalFixture f(false);
  f.check(0.37);  // numbers the model and leaves it at a checked state
  const int a = f.modal->dof_index() + 6;
  Vector yp_previous = f.yp;
  yp_previous.segment<6>(a) << 0.1, 0.4, -0.3, -0.2, 0.6, 0.05;
  auto residual = [&](const Vector& yp) {
    f.model.update(0.25, f.y, yp);
    Vector r = Vector::Zero(f.model.size());
    f.model.residual(0.25, 0.37, r, nullptr);
    return r;
  };
  residual(yp_previous);  // the last update of the previous step
  f.model.after_predict(0.25, f.y, f.yp);
  const Vector r_first = residual(f.yp);
  Vector yp_moved = f.yp;
  yp_moved[a] += 1e-3;
  residual(yp_moved);  // a Newton correction moved the accelerations
  const Vector r_later = residual(f.yp);
  // The first residual is the one of the predicted point with the previous accelerations.
  const Vector r_previous = residual(yp_previous);
  EXPECT_LT((r_first - r_previous).norm(), 1e-14 * r_previous.norm());
  EXPECT_GT((r_later - r_first).norm(), 1e-2);
}

TEST(ModalJoint, DescribesItsUnknownsAsMBDyn) {
  // modal.cc Modal::DescribeDof/DescribeEq: q, qP ("a->b" even for one mode), then per interface
  // node (labelled by its multibody node) F, M, and in the initial assembly FP, MP right after.
  ModalFixture f(false);
  const auto& joint = *f.model.elements().front();
  std::ostringstream dofs, eqs, initial;
  joint.describe_dofs(dofs, "  ", 30, false);
  joint.describe_equations(eqs, "  ", 30, false);
  joint.describe_dofs(initial, "  ", 30, true);
  EXPECT_EQ(dofs.str(),
            "  31->32: modal displacements [q(1..2)]\n"
            "  33->34: modal velocities [qP(1..2)]\n"
            "  35->37: StructNode(11) reaction forces [Fx,Fy,Fz]\n"
            "  38->40: StructNode(11) reaction couples [Mx,My,Mz]\n"
            "  41->43: StructNode(12) reaction forces [Fx,Fy,Fz]\n"
            "  44->46: StructNode(12) reaction couples [Mx,My,Mz]\n");
  EXPECT_EQ(eqs.str(),
            "  31->32: modal velocity definitions [q(1..2)=qP(1..2)]\n"
            "  33->34: modal equilibrium equations [1..2]\n"
            "  35->37: StructNode(11) position constraints [Px=PxN,Py=PyN,Pz=PzN]\n"
            "  38->40: StructNode(11) orientation constraints [gx=gxN,gy=gyN,gz=gzN]\n"
            "  41->43: StructNode(12) position constraints [Px=PxN,Py=PyN,Pz=PzN]\n"
            "  44->46: StructNode(12) orientation constraints [gx=gxN,gy=gyN,gz=gzN]\n");
  EXPECT_NE(initial.str().find("  35->37: StructNode(11) reaction forces [Fx,Fy,Fz]\n"
                               "  38->40: StructNode(11) reaction couples [Mx,My,Mz]\n"
                               "  41->43: StructNode(11) reaction force derivatives [FPx,FPy,FPz]\n"
                               "  44->46: StructNode(11) reaction couple derivatives [MPx,MPy,MPz]\n"
                               "  47->49: StructNode(12) reaction forces [Fx,Fy,Fz]\n"),
            std::string::npos)
      << initial.str();
  EXPECT_EQ(30 + joint.initial_dof_count(), 58);  // the last line ends at 58
  EXPECT_NE(initial.str().find("  56->58: StructNode(12) reaction couple derivatives [MPx,MPy,MPz]\n"), std::string::npos);
}

TEST(ModalPrivateData, ModesAndFemNodesOfTheFloatingFrame) {
  ModalFixture f(false);
  f.check(0.37);  // leaves the model updated at the checked state
  auto& joint = static_cast<ModalJoint&>(*f.model.elements().front());
  Vector r = Vector::Zero(f.model.size());
  f.model.residual(0.25, 0.37, r, nullptr);  // the joint keeps q, qP, qPP of this residual
  EXPECT_EQ(joint.private_data_index("q[3]"), 0u);
  EXPECT_DOUBLE_EQ(joint.private_data(joint.private_data_index("q[2]")), joint.q()[1]);
  EXPECT_DOUBLE_EQ(joint.private_data(joint.private_data_index("qP[#1]")), joint.qp()[0]);
  EXPECT_DOUBLE_EQ(joint.private_data(joint.private_data_index("qPP[2]")), joint.qpp()[1]);
  // x[n,i] = x + R (u_n + PHIt_n q) (input manual (8.73)).
  const ModalBody& b = joint.body();
  Vec3 u = b.x_nodes.col(2);
  for (int j = 0; j < 2; ++j) u += b.shape_t[j].col(2) * joint.q()[j];
  const Vec3 x = f.modal->x_W() + f.modal->R_WN() * u;
  for (int c = 0; c < 3; ++c)
    EXPECT_NEAR(joint.private_data(joint.private_data_index(fmt::format("x[3,{}]", c + 1))), x[c], 1e-14);
  EXPECT_EQ(joint.private_data_index("x[4,1]"), 0u);
  EXPECT_EQ(joint.private_data_index("x[3,4]"), 0u);
  EXPECT_EQ(joint.private_data_index("wPP[3,1]"), 0u);
  EXPECT_GT(joint.private_data_index("wP[1,3]"), 0u);
}

// ---- a cantilever reduced by hand agrees with beam3 elements --------------------------------------

namespace {

constexpr double kL = 1.0, kEI = 100.0, kMass = 1.0, kF = 0.1;
constexpr int kElements = 16;

/// The first `modes` bending modes (z deflection) of an Euler-Bernoulli cantilever along x,
/// clamped at x = 0, from cubic Hermite elements with consistent mass, as a FEM file.
std::string cantilever_fem(int modes) {
  const int n = kElements + 1, dofs = 2 * kElements;
  const double h = kL / kElements;
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(dofs + 2, dofs + 2), M = K;
  Eigen::Matrix4d Ke, Me;
  Ke << 12, 6 * h, -12, 6 * h, 6 * h, 4 * h * h, -6 * h, 2 * h * h, -12, -6 * h, 12, -6 * h, 6 * h, 2 * h * h,
      -6 * h, 4 * h * h;
  Me << 156, 22 * h, 54, -13 * h, 22 * h, 4 * h * h, 13 * h, -3 * h * h, 54, 13 * h, 156, -22 * h, -13 * h,
      -3 * h * h, -22 * h, 4 * h * h;
  Ke *= kEI / (h * h * h);
  Me *= kMass * h / 420.0;
  for (int e = 0; e < kElements; ++e) {
    K.block<4, 4>(2 * e, 2 * e) += Ke;
    M.block<4, 4>(2 * e, 2 * e) += Me;
  }
  // Clamped at node 0: drop its deflection and slope.
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> eig(K.bottomRightCorner(dofs, dofs),
                                                                M.bottomRightCorner(dofs, dofs));
  Eigen::Matrix3Xd x = Eigen::Matrix3Xd::Zero(3, n);
  for (int k = 0; k < n; ++k) x(0, k) = k * h;
  std::vector<Eigen::Matrix<double, 6, Eigen::Dynamic>> shapes;
  Eigen::MatrixXd Mg = Eigen::MatrixXd::Identity(modes, modes), Kg = Eigen::MatrixXd::Zero(modes, modes);
  for (int j = 0; j < modes; ++j) {
    const Eigen::VectorXd v = eig.eigenvectors().col(j);  // M-normalised
    Kg(j, j) = eig.eigenvalues()[j];
    Eigen::Matrix<double, 6, Eigen::Dynamic> s = Eigen::Matrix<double, 6, Eigen::Dynamic>::Zero(6, n);
    for (int k = 1; k < n; ++k) {
      s(2, k) = v[2 * (k - 1)];
      s(4, k) = -v[2 * (k - 1) + 1];  // rotation about y of a z deflection: -dw/dx
    }
    shapes.push_back(s);
  }
  Eigen::VectorXd m = Eigen::VectorXd::Constant(n, kMass * h);
  m[0] = m[n - 1] = 0.5 * kMass * h;
  return fem_text(x, shapes, Mg, Kg, m, Eigen::Matrix3Xd::Zero(3, n));
}

const char* kRun = R"(begin: data; problem: initial value; end: data;
begin: initial value;
  initial time: 0.; final time: 2.5; time step: 1e-3;
  method: ms, .6; tolerance: 1e-6; max iterations: 20;
  derivatives tolerance: 1e-6;
end: initial value;
)";

/// The tip load: a smooth half-cosine ramp to F over 2 s (much slower than the first period).
std::string tip_load(unsigned node) {
  return fmt::format("force: 1, absolute, {}, position, null, 0., 0., 1., cosine, 0., pi/2., {}, half, 0.;\n", node,
                     kF / 2.0);
}

/// Tip z displacement per output step of node `label` in a .mov file.
std::vector<double> tip_history(const std::filesystem::path& mov, unsigned label) {
  std::vector<double> z;
  for (const auto& r : test::records(mov, label)) z.push_back(r[2]);
  return z;
}

}  // namespace

TEST(ModalCantilever, ThreeModesAgreeWithBeam3AtSmallAmplitude) {
  const auto dir = test::fresh_temp_dir("modal_cantilever");
  std::ofstream(dir / "cantilever.fem") << cantilever_fem(3);
  const std::string modal_deck = std::string(kRun) + fmt::format(R"(
begin: control data; structural nodes: 1; joints: 1; forces: 1; end: control data;
begin: nodes; structural: 2, static, {0}, 0., 0., eye, null, null; end: nodes;
begin: elements;
  joint: 1, modal, clamped, 3, from file, no damping, "{1}", 1, "{2}", 2, null;
  {3}end: elements;
)",
                                                                 kL, (dir / "cantilever.fem").string(), kElements + 1,
                                                                 tip_load(2));
  const auto modal = test::run_deck_text("modal_cantilever_modal", modal_deck);
  ASSERT_EQ(modal.rc, 0) << modal.log();

  // The same beam: 8 three-node beam3 elements, the mass lumped on the nodes.
  const int n = kElements + 1;
  const double h = kL / kElements;
  std::string nodes, bodies, beams;
  for (int k = 0; k < n; ++k) {
    nodes += fmt::format("  structural: {}, {}, {}, 0., 0., eye, null, null;\n", k + 1, k == 0 ? "static" : "dynamic",
                         k * h);
    const double m = (k == n - 1 ? 0.5 : 1.0) * kMass * h;
    // A small rotary inertia keeps the rotations of the dynamic nodes well conditioned.
    if (k > 0) bodies += fmt::format("  body: {0}, {0}, {1}, null, diag, {2}, {2}, {2};\n", k + 1, m, 5e-3 * m);
  }
  for (int e = 0; e < kElements / 2; ++e)
    beams += fmt::format(
        "  beam3: {}, {}, null, {}, null, {}, null, eye, linear elastic generic, diag, 1e7, 1e7, 1e7, 1e3, {}, {}, "
        "same, same;\n",
        e + 1, 2 * e + 1, 2 * e + 2, 2 * e + 3, kEI, kEI);
  const std::string beam_deck =
      std::string(kRun) +
      fmt::format("begin: control data; structural nodes: {}; rigid bodies: {}; beams: {}; joints: 1; forces: 1; "
                  "end: control data;\nbegin: nodes;\n{}end: nodes;\nbegin: elements;\n  joint: 1, clamp, 1, node, "
                  "node;\n{}{}  {}end: elements;\n",
                  n, n - 1, kElements / 2, nodes, bodies, beams, tip_load(n));
  const auto beam = test::run_deck_text("modal_cantilever_beam3", beam_deck);
  ASSERT_EQ(beam.rc, 0) << beam.log();

  const std::vector<double> zm = tip_history(modal.output("mov"), 2);
  const std::vector<double> zb = tip_history(beam.output("mov"), n);
  ASSERT_EQ(zm.size(), zb.size());
  const double w_static = kF * kL * kL * kL / (3.0 * kEI);
  double worst = 0.0;
  for (std::size_t k = 0; k < zm.size(); ++k) worst = std::max(worst, std::abs(zm[k] - zb[k]));
  EXPECT_LT(worst, 5e-3 * w_static) << "worst tip difference " << worst << " of " << w_static;
  // Measured: 0.27% of the static deflection (three modes keep 99.9% of the static tip
  // flexibility; the rest is the two discretisations). At the end of the ramp both sit at the
  // static deflection of Euler-Bernoulli theory.
  EXPECT_NEAR(zm.back(), w_static, 5e-3 * w_static);
  EXPECT_NEAR(zb.back(), w_static, 5e-3 * w_static);
}

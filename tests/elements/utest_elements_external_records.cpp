// The socket records of the external forces (libmbc's nodal and modal protocols, MBDyn's
// strext.cc and modalext.cc) byte by byte: what the link sends after the command byte (the link
// appends to one buffer kept across exchanges) and how the loads record is decoded.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <sstream>

#include "elements/forces/external_modal_force.hpp"
#include "elements/forces/external_structural_force.hpp"
#include "support/element_fixture.hpp"
#include "support/frc_text_sink.hpp"

namespace mbl::elements {
namespace {

using test_support::ElementFixture;

using FrcSink = test_support::FrcTextSink;

/// Reads the record from its start: doubles and 32-bit words in native order.
struct RecordReader {
  const std::vector<char>& bytes;
  std::size_t at = 0;
  template <class T>
  T take() {
    T v;
    EXPECT_LE(at + sizeof v, bytes.size());
    std::memcpy(&v, bytes.data() + at, sizeof v);
    at += sizeof v;
    return v;
  }
  Vec3 vec3() {
    Vec3 v;
    for (int k = 0; k < 3; ++k) v[k] = take<double>();
    return v;
  }
  Mat3 column_major() {
    Mat3 R;
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r) R(r, c) = take<double>();
    return R;
  }
};

template <class T>
void put(std::vector<char>& bytes, const T& v) {
  const auto* p = reinterpret_cast<const char*>(&v);
  bytes.insert(bytes.end(), p, p + sizeof v);
}
void put(std::vector<char>& bytes, const Vec3& v) {
  for (int k = 0; k < 3; ++k) put(bytes, v[k]);
}

struct StructuralRecords : ElementFixture {
  std::unique_ptr<ExternalStructuralForce> force;
  StructuralRecords() {
    // Three points (an odd count: the labels are padded), relative to the reference node 1.
    ExternalStructuralParams p;
    p.reference = n1;
    p.labels = true;
    p.sorted = false;
    p.points = {{n2, 20, Vec3(0.1, 0.2, 0.3)}, {n2, 30, Vec3(-0.2, 0.1, 0.0)}, {n1, 40, Vec3::Zero()}};
    force = std::make_unique<ExternalStructuralForce>(5, std::move(p));
    Vector y, yp;
    test_support::numbered_initial_state(model, y, yp);
    model.update(0.0, y, yp);
  }
};

TEST(ExternalStructuralRecords, TheMotionIsRelativeToTheReferenceNodeWithPaddedNodeLabels) {
  StructuralRecords s;
  std::vector<char> record(1, char(2));  // the command byte the link writes first
  s.force->append_motion_bytes(record);
  EXPECT_EQ(record.size(), 1 + 2 * 4 + 18 * 8 + 4 * 4 + 3 * 18 * 8u);  // x, R, v, w: 18 doubles a node
  RecordReader in{record, 1};
  EXPECT_EQ(in.take<std::uint32_t>(), 1u);
  EXPECT_EQ(in.take<std::uint32_t>(), 0u);
  const StructNode& r = *s.n1;
  EXPECT_EQ(in.vec3(), r.x_W());
  EXPECT_EQ(in.column_major(), r.R_WN());
  EXPECT_EQ(in.vec3(), r.v_W());
  EXPECT_EQ(in.vec3(), r.w_W());
  // The node labels (not the points'), as MBDyn sends them, then a zero word.
  for (std::uint32_t l : {2u, 2u, 1u, 0u}) EXPECT_EQ(in.take<std::uint32_t>(), l);
  const Mat3 RrT = r.R_WN().transpose();
  const std::pair<const StructNode*, Vec3> points[3] = {
      {s.n2, Vec3(0.1, 0.2, 0.3)}, {s.n2, Vec3(-0.2, 0.1, 0.0)}, {s.n1, Vec3::Zero()}};
  Vec3 x_rel[3], v_rel[3];
  for (int i = 0; i < 3; ++i) {
    const auto& [n, offset_N] = points[i];
    const Vec3 f = n->R_WN() * offset_N, dx = n->x_W() + f - r.x_W();
    x_rel[i] = RrT * dx;
    v_rel[i] = RrT * (n->v_W() + n->w_W().cross(f) - r.v_W() - r.w_W().cross(dx));
  }
  for (int i = 0; i < 3; ++i) EXPECT_LT((in.vec3() - x_rel[i]).norm(), 1e-14) << i;
  for (int i = 0; i < 3; ++i) EXPECT_LT((in.column_major() - RrT * points[i].first->R_WN()).norm(), 1e-14) << i;
  for (int i = 0; i < 3; ++i) EXPECT_LT((in.vec3() - v_rel[i]).norm(), 1e-14) << i;
  for (int i = 0; i < 3; ++i) EXPECT_LT((in.vec3() - RrT * (points[i].first->w_W() - r.w_W())).norm(), 1e-14) << i;
  EXPECT_EQ(in.at, record.size());
}

TEST(ExternalStructuralRecords, UnsortedLoadsGoToThePointsOfTheirLabels) {
  StructuralRecords s;
  std::vector<char> loads;
  put(loads, std::uint32_t(1));
  put(loads, std::uint32_t(0));
  put(loads, Vec3(1, 2, 3));  // the reference node's force and moment
  put(loads, Vec3(4, 5, 6));
  for (std::uint32_t l : {40u, 20u, 30u, 0u}) put(loads, l);
  for (double f : {40.0, 20.0, 30.0}) put(loads, Vec3(f, 0, 0));
  for (double m : {-40.0, -20.0, -30.0}) put(loads, Vec3(0, 0, m));
  ASSERT_EQ(loads.size(), s.force->load_bytes());
  s.force->read_loads(loads);
  FrcSink out;
  s.force->output(out);
  std::istringstream frc(out.frc.str());
  std::string id;
  double v[6];
  frc >> id;
  EXPECT_EQ(id, "5#1");
  for (double& x : v) frc >> x;
  EXPECT_EQ(std::vector<double>(v, v + 6), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  for (int k = 0; k < 12; ++k) frc >> v[0];  // applied and resultant: not computed before a residual
  for (int label : {20, 30, 40}) {
    frc >> id;
    for (double& x : v) frc >> x;
    EXPECT_EQ(id, "5@" + std::to_string(label));
    EXPECT_EQ(v[0], label);
    EXPECT_EQ(v[5], -label);
  }
  // A label the card does not have.
  const std::uint32_t unknown = 99;
  std::memcpy(loads.data() + 2 * 4 + 6 * 8, &unknown, sizeof unknown);
  EXPECT_THROW(s.force->read_loads(loads), EvaluationError);
}

// A NaN or an infinity from the peer is refused where it arrives (issue #30), not as a "not a
// number" residual later.
TEST(ExternalStructuralRecords, NonFiniteLoadsFromThePeerAreRefused) {
  StructuralRecords s;
  for (const double bad : {std::nan(""), HUGE_VAL}) {
    std::vector<char> loads;
    put(loads, std::uint32_t(1));
    put(loads, std::uint32_t(0));
    put(loads, Vec3(1, 2, 3));
    put(loads, Vec3(4, 5, 6));
    for (std::uint32_t l : {40u, 20u, 30u, 0u}) put(loads, l);
    for (double f : {40.0, 20.0, 30.0}) put(loads, Vec3(f, 0, 0));
    put(loads, Vec3(0, 0, -40.0));
    put(loads, Vec3(0, bad, -20.0));  // the moment of point 20
    put(loads, Vec3(0, 0, -30.0));
    ASSERT_EQ(loads.size(), s.force->load_bytes());
    try {
      s.force->read_loads(loads);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const EvaluationError& e) {
      EXPECT_NE(std::string(e.what()).find("external structural force 5: the peer sent a non-finite load for point 20"),
                std::string::npos)
          << e.what();
    }
  }
  ElementFixture f;
  ExternalModalParams p;
  p.node = f.n1;
  p.rigid = true;
  ExternalModalForce modal(6, std::move(p));
  std::vector<char> loads;
  put(loads, Vec3(1, 2, 3));
  put(loads, Vec3(4, std::nan(""), 6));
  ASSERT_EQ(loads.size(), modal.load_bytes());
  EXPECT_THROW(modal.read_loads(loads), EvaluationError);
}

TEST(ExternalStructuralRecords, Euler123AnglesAreSentInDegrees) {
  // Node 2 of the fixture has R = R_123(0.5, -0.4, 1.4 rad).
  ElementFixture f;
  ExternalStructuralParams p;
  p.orientation = ExternalStructuralParams::Orientation::Euler123;
  p.points = {{f.n2, 2, Vec3::Zero()}};
  ExternalStructuralForce force(5, std::move(p));
  Vector y, yp;
  test_support::numbered_initial_state(f.model, y, yp);
  f.model.update(0.0, y, yp);
  std::vector<char> record;
  force.append_motion_bytes(record);
  ASSERT_EQ(record.size(), 12 * 8u);
  RecordReader in{record};
  EXPECT_EQ(in.vec3(), f.n2->x_W());
  EXPECT_LT((in.vec3() - Vec3(0.5, -0.4, 1.4) * (180.0 / M_PI)).norm(), 1e-12);
  std::ostringstream text;
  force.write_motion(text, ExternalCommunicator::Kind::File);
  std::istringstream line(text.str().substr(text.str().find('\n') + 1));
  double v[6];
  for (double& x : v) line >> x;
  EXPECT_NEAR(v[3], 0.5 * 180.0 / M_PI, 1e-4);
  EXPECT_NEAR(v[5], 1.4 * 180.0 / M_PI, 1e-4);
}

// `kinematics` (strext.cc StructExtForce::Output, OUTPUT_KIN): after the `@` lines, one
// `<label>.<point>` line per point, x R v w. With a reference node r, relative to it in its frame:
// R_r^T (x - x_r), R_r^T R (the matrix row by row with `orientation matrix`), R_r^T (v - v_r -
// w_r x (x - x_r)), R_r^T (w - w_r); without, global, `orientation none` as Euler 123 degrees.
TEST(ExternalStructuralRecords, KinematicsLinesGiveEachPointsMotion) {
  StructuralRecords s;
  s.force->set_output_enabled(false);
  s.force->enable_kinematics_output();  // turns the output on, as MBDyn's fOut = 1
  EXPECT_TRUE(s.force->output_enabled());
  FrcSink out;
  out.frc.precision(17);
  s.force->output(out);
  std::istringstream frc(out.frc.str());
  std::vector<std::string> lines;
  for (std::string line; std::getline(frc, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 1u + 3u + 3u) << out.frc.str();
  const StructNode& r = *s.n1;
  const Mat3 RrT = r.R_WN().transpose();
  const std::pair<const StructNode*, Vec3> points[3] = {
      {s.n2, Vec3(0.1, 0.2, 0.3)}, {s.n2, Vec3(-0.2, 0.1, 0.0)}, {s.n1, Vec3::Zero()}};
  const int labels[3] = {20, 30, 40};
  for (int i = 0; i < 3; ++i) {
    std::istringstream line(lines[4 + i]);
    std::string id;
    line >> id;
    EXPECT_EQ(id, "5." + std::to_string(labels[i]));
    std::vector<double> v(18);
    for (double& x : v) line >> x;
    EXPECT_TRUE(line) << lines[4 + i];
    const auto& [n, offset_N] = points[i];
    const Vec3 f = n->R_WN() * offset_N, dx = n->x_W() + f - r.x_W();
    const Vec3 x_rel = RrT * dx, v_rel = RrT * (n->v_W() + n->w_W().cross(f) - r.v_W() - r.w_W().cross(dx));
    const Vec3 w_rel = RrT * (n->w_W() - r.w_W());
    const Mat3 R_rel = RrT * n->R_WN();
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(v[k], x_rel[k], 1e-12) << i;
      EXPECT_NEAR(v[12 + k], v_rel[k], 1e-12) << i;
      EXPECT_NEAR(v[15 + k], w_rel[k], 1e-12) << i;
      for (int c = 0; c < 3; ++c) EXPECT_NEAR(v[3 + 3 * k + c], R_rel(k, c), 1e-12) << i;  // row by row
    }
  }

  // No reference node, `orientation, none`: global motion, Euler 123 angles in degrees.
  ElementFixture f;
  ExternalStructuralParams p;
  p.orientation = ExternalStructuralParams::Orientation::None;
  p.points = {{f.n2, 2, Vec3(0.3, 0., -0.1)}};
  ExternalStructuralForce force(6, std::move(p));
  Vector y, yp;
  test_support::numbered_initial_state(f.model, y, yp);
  f.model.update(0.0, y, yp);
  force.enable_kinematics_output();
  FrcSink out2;
  out2.frc.precision(17);
  force.output(out2);
  const std::string text = out2.frc.str();
  std::istringstream kin(text.substr(text.find("6.2")));
  std::string id;
  kin >> id;
  EXPECT_EQ(id, "6.2");
  std::vector<double> v(12);
  for (double& x : v) kin >> x;
  const Vec3 off = f.n2->R_WN() * Vec3(0.3, 0., -0.1);
  const Vec3 x = f.n2->x_W() + off, vel = f.n2->v_W() + f.n2->w_W().cross(off);
  const Vec3 angles = Vec3(0.5, -0.4, 1.4) * (180.0 / M_PI);  // node 2 of the fixture: R_123(0.5, -0.4, 1.4)
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(v[k], x[k], 1e-12);
    EXPECT_NEAR(v[3 + k], angles[k], 1e-10);
    EXPECT_NEAR(v[6 + k], vel[k], 1e-12);
    EXPECT_NEAR(v[9 + k], f.n2->w_W()[k], 1e-12);
  }
}

TEST(ExternalModalRecords, TheRigidPartIsTheModalNodesMotionAndLoads) {
  ElementFixture f;
  ExternalModalParams p;
  p.node = f.n1;
  p.rigid = true;
  ExternalModalForce force(6, std::move(p));
  Vector y, yp;
  test_support::numbered_initial_state(f.model, y, yp);
  f.model.update(0.0, y, yp);
  std::vector<char> record(1, char(2));
  force.append_motion_bytes(record);
  ASSERT_EQ(record.size(), 1 + 18 * 8u);
  RecordReader in{record, 1};
  EXPECT_EQ(in.vec3(), f.n1->x_W());
  EXPECT_EQ(in.column_major(), f.n1->R_WN());
  EXPECT_EQ(in.vec3(), f.n1->v_W());
  EXPECT_EQ(in.vec3(), f.n1->w_W());
  std::vector<char> loads;
  put(loads, Vec3(1, 2, 3));
  put(loads, Vec3(4, 5, 6));
  ASSERT_EQ(loads.size(), force.load_bytes());
  force.read_loads(loads);
  FrcSink out;
  force.output(out);
  EXPECT_EQ(out.frc.str(), "6#1 1 2 3 4 5 6\n");
}

}  // namespace
}  // namespace mbl::elements

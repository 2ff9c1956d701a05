// Dummy structural nodes (input manual §6.1 "dummy"): the relative frame type and its pivot node,
// against closed forms; the motions of the base and reference nodes are generic (not rigidly
// related) unless a test says otherwise.
#include <gtest/gtest.h>

#include <memory>

#include "mbdyn-like/core/rotations.hpp"
#include "mbdyn-like/core/struct_node.hpp"

using namespace mbl;

namespace {

/// A dynamic node with the given kinematics and accelerations.
std::unique_ptr<StructNode> moving_node(unsigned label, const Vec3& x, const Mat3& R, const Vec3& v, const Vec3& w,
                                        const Vec3& xpp, const Vec3& wp) {
  auto n = std::make_unique<StructNode>(label, StructNode::Type::Dynamic, StructNode::InitialConditions{});
  n->set_kinematics(x, R, v, w);
  n->set_accelerations(xpp, wp);
  return n;
}

std::unique_ptr<StructNode> relative_frame_dummy(StructNode& base, StructNode& reference) {
  auto d = std::make_unique<StructNode>(100, StructNode::Type::DummyRelativeFrame, StructNode::InitialConditions{});
  d->dummy_base = &base;
  d->dummy_reference = &reference;
  return d;
}

double gap(const Vec3& a, const Vec3& b) { return (a - b).norm(); }

}  // namespace

// A point fixed on a body spinning about z: in the body's frame it stays at its offset, with no
// velocity and no acceleration (the centripetal and Coriolis terms cancel exactly).
TEST(DummyNodes, RelativeFrameOfAPointOnASpinningBody) {
  const Vec3 w(0.0, 0.0, 2.0);
  const Mat3 R_r = rot::R3(0.3);
  const Vec3 x_r(1.0, 0.0, 0.0), local(0.5, 0.2, -0.1);
  auto r = moving_node(1, x_r, R_r, w.cross(x_r), w, w.cross(w.cross(x_r)), Vec3::Zero());
  const Vec3 x_n = x_r + R_r * local;
  auto n = moving_node(2, x_n, R_r * rot::R1(0.4), w.cross(x_n), w, w.cross(w.cross(x_n)), Vec3::Zero());
  auto d = relative_frame_dummy(*n, *r);
  d->update_dummy();
  EXPECT_LT(gap(d->x_W(), local), 1e-14);
  EXPECT_LT(gap(d->v_W(), Vec3::Zero()), 1e-14);
  EXPECT_LT(gap(d->w_W(), Vec3::Zero()), 1e-14);
  EXPECT_LT(gap(d->xpp_W(), Vec3::Zero()), 1e-13);
  EXPECT_LT((d->R_WN() - rot::R1(0.4)).norm(), 1e-14);
}

// With `position, f_h, orientation, R_h` the frame sits at x_r + R_r f_h turned by R_h:
// x_n = x_r + R_r (f_h + R_h x).
TEST(DummyNodes, RelativeFrameWithOffsetAndOrientation) {
  const Mat3 R_r = rot::euler123_to_R(Vec3(0.2, -0.3, 0.5)), R_h = rot::euler123_to_R(Vec3(-0.4, 0.1, 0.7));
  const Vec3 x_r(0.3, -0.2, 1.0), f_h(0.1, 0.4, -0.2), x(0.6, -0.5, 0.25);
  auto r = moving_node(1, x_r, R_r, Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero());
  auto n = moving_node(2, x_r + R_r * (f_h + R_h * x), R_r, Vec3::Zero(), Vec3::Zero(), Vec3::Zero(),
                             Vec3::Zero());
  auto d = relative_frame_dummy(*n, *r);
  d->dummy_offset_B = f_h;
  d->dummy_R_BH = R_h;
  d->update_dummy();
  EXPECT_LT(gap(d->x_W(), x), 1e-14);
}

// A pivot that is the reference node itself, with no offsets, maps the relative motion back to
// the base node's absolute motion: position, orientation, velocities and accelerations.
TEST(DummyNodes, PivotOnTheReferenceNodeGivesTheAbsoluteMotion) {
  auto r = moving_node(1, Vec3(0.3, -0.2, 1.0), rot::euler123_to_R(Vec3(0.2, -0.3, 0.5)), Vec3(0.1, 0.5, -0.2),
                             Vec3(0.7, -0.4, 1.3), Vec3(-0.3, 0.2, 0.9), Vec3(0.5, 0.1, -0.6));
  auto n = moving_node(2, Vec3(1.1, 0.4, -0.3), rot::euler123_to_R(Vec3(-0.6, 0.4, 0.1)), Vec3(-0.2, 0.3, 0.8),
                             Vec3(-0.5, 0.9, 0.2), Vec3(0.4, -0.7, 0.3), Vec3(-0.2, 0.6, 0.4));
  auto d = relative_frame_dummy(*n, *r);
  d->dummy_pivot = r.get();
  d->update_dummy();
  EXPECT_LT(gap(d->x_W(), n->x_W()), 1e-14);
  EXPECT_LT((d->R_WN() - n->R_WN()).norm(), 1e-14);
  EXPECT_LT(gap(d->v_W(), n->v_W()), 1e-14);
  EXPECT_LT(gap(d->w_W(), n->w_W()), 1e-14);
  EXPECT_LT(gap(d->xpp_W(), n->xpp_W()), 1e-13);
  EXPECT_LT(gap(d->wp_W(), n->wp_W()), 1e-13);
}

// A pivot elsewhere: the relative configuration is carried to the pivot's frame R_p R_h2 at
// x_p + R_p f_h2.
TEST(DummyNodes, PivotCarriesTheRelativeConfiguration) {
  const Vec3 x_rel(0.2, 0.1, -0.4);
  auto r = moving_node(1, Vec3::Zero(), Mat3::Identity(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero());
  auto n = moving_node(2, x_rel, rot::R2(0.3), Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero());
  const Mat3 R_p = rot::R3(0.8), R_h2 = rot::R1(-0.2);
  const Vec3 x_p(2.0, 1.0, 0.0), f_h2(0.0, 0.5, 0.0), w_p(0.0, 0.0, 1.5);
  auto p = moving_node(3, x_p, R_p, Vec3(0.3, 0.0, 0.0), w_p, Vec3::Zero(), Vec3::Zero());
  auto d = relative_frame_dummy(*n, *r);
  d->dummy_pivot = p.get();
  d->dummy_pivot_offset = f_h2;
  d->dummy_R_pivot = R_h2;
  d->update_dummy();
  const Vec3 arm = R_p * (R_h2 * x_rel + f_h2);
  EXPECT_LT(gap(d->x_W(), x_p + arm), 1e-14);
  EXPECT_LT((d->R_WN() - R_p * R_h2 * rot::R2(0.3)).norm(), 1e-14);
  EXPECT_LT(gap(d->v_W(), Vec3(0.3, 0.0, 0.0) + w_p.cross(arm)), 1e-14);
  EXPECT_LT(gap(d->xpp_W(), w_p.cross(w_p.cross(arm))), 1e-13);
}

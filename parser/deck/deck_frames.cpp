// Relative specifications (input manual §2.4.8 "Use of Reference Frames") and the `reference:`
// card itself. A specification may start with `reference, <where>,` saying in which frame its
// numbers are given; the result is re-expressed in the caller's frame.
#include <Eigen/Geometry>
#include <fmt/format.h>

#include "parser/deck/deck_card_reader.hpp"
#include "parser/errors.hpp"

namespace mbl::parser::deck {

DeckCardReader::GivenIn DeckCardReader::given_in(const RigidFrame& frame, const OtherSide* other, Quantity what) {
  if (!keyword_is("reference")) return {frame, true};
  if (keyword_is("global")) return {RigidFrame{}, false};
  if (peek_keyword_is("node") || peek_keyword_is("local")) {
    if (!node_allowed_) fail_expected("'global' or a reference label (this card has no node)");
    ++next_;
    return {frame, true};
  }
  const bool other_position = peek_keyword_is("other position"), other_orientation = peek_keyword_is("other orientation");
  if (peek_keyword_is("other node") || other_position || other_orientation) {
    if (!other) fail_expected("'global', 'node' or a reference label (this card has no other node)");
    // As MBDyn's GetPosRel/GetRotRel: `other position` only for positions, `other orientation`
    // only for orientations.
    if (other_position && what != Quantity::Position)
      fail_expected("'global', 'node', 'other node' or a reference label ('other position' is for positions)");
    if (other_orientation && what != Quantity::Orientation)
      fail_expected("'global', 'node', 'other node' or a reference label ('other orientation' is for orientations)");
    ++next_;
    RigidFrame f = *other;
    if (other_position) f.x_W += other->R_W * other->offset;  // from the other side's point, in its node's axes
    if (other_orientation) f.R_W = other->R_W * other->R_hinge;  // in the other side's hinge axes
    return {f, false};
  }
  const SourceLocation where = location();
  const std::string written(peek_text());
  const unsigned label = this->label();
  const NamedReference* ref = ctx_.find_reference(label);
  if (!ref)
    throw InputError(where, fmt::format("expected 'global', 'node' or a defined reference label, found "
                                        "\"{}\" (reference {} is not defined)", written, label));
  return {ref->frame, false};
}

Vec3 DeckCardReader::position(const RigidFrame& frame, const OtherSide* other) {
  const GivenIn g = given_in(frame, other, Quantity::Position);
  const Vec3 p = vec3();
  if (g.is_target) return p;
  const Vec3 x_W = g.frame.x_W + g.frame.R_W * p;
  return frame.R_W.transpose() * (x_W - frame.x_W);
}

Vec3 DeckCardReader::direction(const RigidFrame& frame, const OtherSide* other) {
  const GivenIn g = given_in(frame, other);
  const Vec3 d = vec3();
  if (g.is_target) return d;
  return frame.R_W.transpose() * (g.frame.R_W * d);
}

Vec3 DeckCardReader::direction_abs(const RigidFrame& node) {
  const bool given = peek_keyword_is("reference");
  const GivenIn g = given_in(node, nullptr);
  const Vec3 d = vec3();
  return given ? Vec3(g.frame.R_W * d) : d;
}

Mat3 DeckCardReader::tensor(const RigidFrame& frame) {
  const GivenIn g = given_in(frame, nullptr);
  const Mat3 M = mat3();
  if (g.is_target) return M;
  const Mat3 R = frame.R_W.transpose() * g.frame.R_W;
  return R * M * R.transpose();
}

Mat3 DeckCardReader::orientation(const RigidFrame& frame, const OtherSide* other) {
  const GivenIn g = given_in(frame, other, Quantity::Orientation);
  const Mat3 R = orientation_matrix();
  if (g.is_target) return R;
  return frame.R_W.transpose() * g.frame.R_W * R;
}

Vec3 DeckCardReader::velocity(const RigidFrame& frame, const Vec3& x_point_W) {
  const GivenIn g = given_in(frame, nullptr);
  const Vec3 v = vec3();
  if (g.is_target) return v;
  // A point fixed in a moving frame F moves with v_F + w_F x (x - x_F) (§2.4.8 notes).
  const RigidFrame& F = g.frame;
  const Vec3 v_W = F.v_W + F.w_W.cross(x_point_W - F.x_W) + F.R_W * v;
  return frame.R_W.transpose() * (v_W - frame.v_W - frame.w_W.cross(x_point_W - frame.x_W));
}

Vec3 DeckCardReader::angular_velocity(const RigidFrame& frame) {
  const GivenIn g = given_in(frame, nullptr);
  const Vec3 w = vec3();
  if (g.is_target) return w;
  const Vec3 w_W = g.frame.w_W + g.frame.R_W * w;
  return frame.R_W.transpose() * (w_W - frame.w_W);
}

RigidFrame DeckCardReader::reference_frame() {
  const RigidFrame global;
  const bool node_allowed = node_allowed_;
  node_allowed_ = false;
  RigidFrame f;
  if (keyword_is("denavit hartenberg")) {
    // Eq. (2.6): x = x0 + R0 (d e3 + exp(theta e3 x) a e1), R = R0 exp(theta e3 x) exp(alpha e1 x).
    RigidFrame old;
    if (peek_keyword_is("reference")) old = given_in(global, nullptr).frame;
    const double d = real(), theta = real(), a = real(), alpha = real();
    const Mat3 R_theta = Eigen::AngleAxisd(theta, Vec3::UnitZ()).toRotationMatrix();
    const Mat3 R_alpha = Eigen::AngleAxisd(alpha, Vec3::UnitX()).toRotationMatrix();
    const Vec3 arm_W = old.R_W * (d * Vec3::UnitZ() + R_theta * (a * Vec3::UnitX()));
    f.x_W = old.x_W + arm_W;
    f.R_W = old.R_W * R_theta * R_alpha;
    f.v_W = old.v_W + old.w_W.cross(arm_W);
    f.w_W = old.w_W;
  } else {
    keyword_is("position");
    f.x_W = position(global);
    keyword_is("orientation");
    f.R_W = orientation(global);
    keyword_is("velocity");
    f.v_W = velocity(global, f.x_W);
    keyword_is("angular velocity");
    f.w_W = angular_velocity(global);
  }
  node_allowed_ = node_allowed;
  return f;
}

}  // namespace mbl::parser::deck

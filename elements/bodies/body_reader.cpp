// Reader of the `body:` card (input manual §8.4).
#include "elements/bodies/body.hpp"
#include "elements/bodies/variable_mass_body.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "parser/errors.hpp"

#include <Eigen/Eigenvalues>
#include <fmt/format.h>

#include <algorithm>

namespace mbl::elements {
namespace {

/// A mass must not be negative unless the card says `allow negative mass` (input manual §8.4).
double read_mass(parser::CardReader& in, bool allow_negative) {
  if (allow_negative) return in.real();
  return parser::checked_real(in, [](double m) { return m >= 0.0; }, "a non-negative mass (or `allow negative mass`)");
}

/// The inertia about the centre of mass. MBDyn reads any matrix and only warns when it is not
/// symmetric; we warn too when it is not positive semi-definite (without `allow negative mass`),
/// as real decks carry slightly indefinite inertias from rounding (input manual §8.4).
Mat3 read_inertia(parser::CardReader& in, const parser::RigidFrame& node_frame, bool allow_negative) {
  const parser::SourceLocation at = in.location();
  const Mat3 J = in.tensor(node_frame);
  if (!J.allFinite()) throw parser::InputError(at, "expected a finite inertia matrix, found one with inf or nan");
  const double scale = std::max(1.0, J.cwiseAbs().maxCoeff());
  auto warn = [&](std::string message) { in.context().report({at, "warning", std::move(message)}); };
  if ((J - J.transpose()).cwiseAbs().maxCoeff() > 1e-9 * scale) {
    warn("the inertia matrix is not symmetric");
    return J;
  }
  const double smallest = Eigen::SelfAdjointEigenSolver<Mat3>(J, Eigen::EigenvaluesOnly).eigenvalues()(0);
  if (!allow_negative && smallest < -1e-12 * scale)
    warn(fmt::format("the inertia matrix is not positive semi-definite (eigenvalue {:g})", smallest));
  return J;
}

BodyParams read_one_mass(parser::CardReader& in, const StructNode& node, bool allow_negative) {
  BodyParams p;
  p.mass = read_mass(in, allow_negative);
  if (node.is_displacement()) return p;  // <one_pointmass> (input manual §8.4)
  p.b_N = in.position(node.frame());
  p.J_cm_N = read_inertia(in, node.frame(), allow_negative);
  if (in.keyword_is("orientation") || in.keyword_is("inertial")) {
    // The inertia is given in a frame rotated by R_NI with respect to the node.
    Mat3 R_NI = Mat3::Identity();
    if (!in.keyword_is("node")) R_NI = in.orientation(node.frame());
    p.J_cm_N = R_NI * p.J_cm_N * R_NI.transpose();
  }
  return p;
}

void read_body(parser::CardReader& in, BuildContext& ctx, unsigned label) {
  StructNode& node = ctx.struct_node(in, true);
  if (in.keyword_is("variable mass")) {
    if (!node.is_displacement()) return read_variable_mass_body(in, ctx, label, node);
    return in.not_implemented("variable mass body on a displacement-only node");
  }
  bool allow_negative = in.keyword_is("allow negative mass");
  BodyParams p;
  if (in.keyword_is("condense")) {
    const auto n = in.integer();
    allow_negative = in.keyword_is("allow negative mass") || allow_negative;
    std::vector<BodyParams> parts;
    for (std::int64_t k = 0; k < n; ++k) parts.push_back(read_one_mass(in, node, allow_negative));
    p = condense(parts);
  } else {
    p = read_one_mass(in, node, allow_negative);
  }
  auto body = std::make_unique<Body>(label, node, p);
  body->where = in.card_location();
  ctx.read_output_flag(in, *body, "rigid bodies");
  ctx.model().add_element(std::move(body));
}

const bool registered = CardRegistry::family("element").add("body", read_body);

}  // namespace
}  // namespace mbl::elements

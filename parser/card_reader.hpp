#pragma once
// The typed card-reader API: what every card reader (nodes, elements, drives, laws, control data)
// uses to read its arguments. A reader never sees tokens or text; it asks for the next argument as
// a label, a real, a keyword, a vector in a frame, ... Each read value is checked and any mismatch
// throws parser::InputError "expected ..., found ..." at that argument's location.
//
// Interface owned by the parser team (parser/deck/*.cpp implements it).
#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "parser/errors.hpp"
#include "parser/math/math_parser.hpp"
#include "parser/source.hpp"

namespace mbl::parser {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;

/// A rigid frame measured and expressed in the global frame W: origin x_W, orientation R_W,
/// velocity v_W of the origin, angular velocity w_W. `reference:` cards, nodes and the global
/// frame are all RigidFrames.
struct RigidFrame {
  Vec3 x_W = Vec3::Zero();
  Mat3 R_W = Mat3::Identity();
  Vec3 v_W = Vec3::Zero();
  Vec3 w_W = Vec3::Zero();
};

/// The side of a two-node card read first, which the second side's `reference, other node |
/// other position | other orientation` refer to (input manual §2.4.8; MBDyn's GetPosRel and
/// GetRotRel with the other frame): that node's frame, and that side's offset and relative
/// orientation in it.
struct OtherSide : RigidFrame {
  Vec3 offset = Vec3::Zero();
  Mat3 R_hinge = Mat3::Identity();
};

class ReadContext;

/// The arguments of one card, `description: arg, arg, ...;`, read in order.
class CardReader {
 public:
  virtual ~CardReader() = default;

  // ---- the card ------------------------------------------------------------------------------
  /// Normalised description: lower case, inner blanks removed ("structural", "joint",
  /// "timestep"); compare with `card_is`.
  virtual std::string_view description() const = 0;
  /// True when the description matches `words` ignoring case and inner blanks.
  virtual bool card_is(std::string_view words) const = 0;
  virtual const SourceLocation& card_location() const = 0;
  virtual ReadContext& context() = 0;

  // ---- cursor --------------------------------------------------------------------------------
  virtual bool at_end() const = 0;                        ///< no argument left
  /// How many arguments are left: a count read from the card that sizes storage for values that
  /// follow on the card is checked against it before the storage is taken.
  virtual std::size_t arguments_left() const = 0;
  virtual const SourceLocation& location() const = 0;     ///< of the next argument
  virtual std::string_view peek_text() const = 0;         ///< raw text of the next argument
  /// Errors unless every argument was read ("expected ';', found ...").
  virtual void expect_end() = 0;
  /// Skips whatever is left of the card (used after a "not implemented" report).
  virtual void skip_rest() = 0;

  // ---- scalars -------------------------------------------------------------------------------
  /// If the next argument is the keyword `words` (case- and blank-insensitive: "in line" ==
  /// "inline"), consumes it and returns true; otherwise leaves it and returns false.
  virtual bool keyword_is(std::string_view words) = 0;
  /// Non-consuming variant of keyword_is.
  virtual bool peek_keyword_is(std::string_view words) const = 0;
  /// Reads the next argument as a bare keyword (normalised like `description`).
  virtual std::string keyword() = 0;
  virtual math::Value value() = 0;  ///< any expression
  virtual double real() = 0;
  virtual std::int64_t integer() = 0;
  virtual bool boolean() = 0;
  virtual std::string string() = 0;  ///< a quoted string (or string-valued expression)
  virtual unsigned label() = 0;      ///< a non-negative integer expression
  /// Like real() but returns the expression compiled, for values re-evaluated at run time.
  virtual std::shared_ptr<const math::Expression> expression() = 0;

  // ---- vectors and matrices (manual §2.3) ----------------------------------------------------
  virtual Vec3 vec3() = 0;  ///< 3 reals, `null`, `default`; optional `, scale, s`
  virtual Vec6 vec6() = 0;
  virtual Mat3 mat3() = 0;  ///< `eye`, `null`, `diag`, `sym`, `skew`, `matr`, 9 reals; `scale`
  virtual Mat6 mat6() = 0;
  virtual Eigen::MatrixXd mat6xn(int n) = 0;
  /// Orientation matrix in any form of §2.3.5: `eye`, `1, v1, 2, v2` (any axis pair),
  /// `euler123`/`euler`, `euler313`, `euler321`, `orientation vector`, `matr`, 9 reals.
  virtual Mat3 orientation_matrix() = 0;

  // ---- relative specifications (manual §2.4.8 "reference") -----------------------------------
  // Each accepts an optional leading `reference, global|node|other node|<label>,` that says in
  // which frame the numbers are given; without it they are in `frame`. The result is always
  // expressed in `frame` (positions relative to its origin). `other` is the side that `other
  // node` refers to (null where the card has no other node); positions also take `other
  // position` (from the other side's point), orientations `other orientation` (from its hinge).
  virtual Vec3 position(const RigidFrame& frame, const OtherSide* other = nullptr) = 0;
  virtual Vec3 direction(const RigidFrame& frame, const OtherSide* other = nullptr) = 0;
  /// A direction read as MBDyn's GetVecAbs: the numbers are global unless a leading
  /// `reference, ...` says otherwise (`reference, node` is `node`); the result is global.
  virtual Vec3 direction_abs(const RigidFrame& node) = 0;
  /// A 3x3 tensor (mat3 forms) as MBDyn's GetMatRel: in `frame` unless a leading `reference, ...`
  /// says otherwise; re-expressed in `frame` (R M R^T).
  virtual Mat3 tensor(const RigidFrame& frame) = 0;
  virtual Mat3 orientation(const RigidFrame& frame, const OtherSide* other = nullptr) = 0;
  /// Velocity of the point at `x_point_W` (global), returned as absolute velocity in W when
  /// `frame` is the global frame, else relative to `frame` and expressed in it.
  virtual Vec3 velocity(const RigidFrame& frame, const Vec3& x_point_W) = 0;
  virtual Vec3 angular_velocity(const RigidFrame& frame) = 0;

  // ---- diagnostics ---------------------------------------------------------------------------
  /// Throws InputError "expected <what>, found <next argument>" at the next argument.
  [[noreturn]] virtual void fail_expected(std::string_view what) = 0;
  /// Throws InputError with `message` at the next argument.
  [[noreturn]] virtual void fail(std::string_view message) = 0;
  /// Records "file:line:col: not implemented: <what>" (counted, printed by --check) and skips
  /// the rest of the card.
  virtual void not_implemented(std::string_view what) = 0;
  /// The same, reported at `at` (the kind's keyword when it was read already).
  virtual void not_implemented(std::string_view what, const SourceLocation& at) = 0;
};

/// A real that must satisfy `ok`; else InputError "expected <expected>, found <value>" at it.
template <class Pred>
double checked_real(CardReader& in, Pred ok, std::string_view expected) {
  const SourceLocation at = in.location();
  const double v = in.real();
  if (!ok(v)) throw InputError(at, "expected " + std::string(expected) + ", found " + fmt::format("{}", v));
  return v;
}

/// The same for an integer.
template <class Pred>
std::int64_t checked_integer(CardReader& in, Pred ok, std::string_view expected) {
  const SourceLocation at = in.location();
  const std::int64_t v = in.integer();
  if (!ok(v)) throw InputError(at, "expected " + std::string(expected) + ", found " + std::to_string(v));
  return v;
}

}  // namespace mbl::parser

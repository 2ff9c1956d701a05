#pragma once
// A direction relative to a node's frame, normalised: MBDyn's GetUnitVecRel (a null vector is an
// input error there too, ErrNullNorm).
#include "mbdyn-like/core/struct_node.hpp"
#include "parser/card_reader.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {

inline Vec3 read_unit_direction(parser::CardReader& in, const StructNode& node) {
  const parser::SourceLocation at = in.location();
  const Vec3 d = in.direction(node.frame());
  if (d.norm() == 0.0) throw parser::InputError(at, "expected a direction, found a null vector");
  return d.normalized();
}

}  // namespace mbl::elements

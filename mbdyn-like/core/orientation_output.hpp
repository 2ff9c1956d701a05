#pragma once
// Relative orientation columns of joints (.jnt extras and NetCDF), in the format chosen by
// `orientation description` (input manual §5.3.11): Euler angles in degrees, orientation vector
// in radians, or the 9 matrix entries (row by row in text, MBDyn's column order in NetCDF).
#include <string>

#include "mbdyn-like/core/output_sink.hpp"
#include "mbdyn-like/core/rotations.hpp"
#include "mbdyn-like/core/struct_node.hpp"
#include "mbdyn-like/core/nc_catalog.hpp"
#include "parser/card_reader.hpp"

namespace mbl {

using OrientationOutput = StructNode::OrientationOutput;

/// `euler123 | euler313 | euler321 | orientation vector | orientation matrix`.
inline OrientationOutput read_orientation_description(parser::CardReader& in) {
  if (in.keyword_is("euler123")) return OrientationOutput::Euler123;
  if (in.keyword_is("euler313")) return OrientationOutput::Euler313;
  if (in.keyword_is("euler321")) return OrientationOutput::Euler321;
  if (in.keyword_is("orientation vector")) return OrientationOutput::OrientationVector;
  if (in.keyword_is("orientation matrix")) return OrientationOutput::Matrix;
  in.fail_expected(
      "an orientation description (euler123, euler313, euler321, orientation vector, orientation matrix)");
  return OrientationOutput::Euler123;  // not reached
}

/// The three numbers of R in format `kind` (not for Matrix).
inline Vec3 orientation_numbers(const Mat3& R, OrientationOutput kind) {
  constexpr double deg = 180.0 / M_PI;
  switch (kind) {
    case OrientationOutput::Euler123: return rot::R_to_euler123(R) * deg;
    case OrientationOutput::Euler313: return rot::R_to_euler313(R) * deg;
    case OrientationOutput::Euler321: return rot::R_to_euler321(R) * deg;
    case OrientationOutput::OrientationVector: return rot::R_to_rotvec(R);
    case OrientationOutput::Matrix: break;
  }
  return Vec3::Zero();
}

inline void write_orientation(OutputSink& out, std::ostream& os, const Mat3& R, OrientationOutput kind) {
  if (kind != OrientationOutput::Matrix) {
    out.write(os, orientation_numbers(R, kind));
    return;
  }
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) out.write(os, R(r, c));
}

/// Declares `<entity>.E|Phi|R` as MBDyn names a rotation variable: the description is `prefix`
/// followed by the format ("global" for nodes and hinges, "relative orientation, in joint
/// reference frame" for deformable joints); `name_postfix` follows the letter (MBDyn's
/// CreateRotationVar: beam3's "E_I").
inline OutputSink::VarId declare_orientation(OutputSink& out, const std::string& entity,
                                             OrientationOutput kind,
                                             const std::string& prefix = "global",
                                             const std::string& name_postfix = "") {
  namespace nc = output::nc;
  const output::NcVarSpec* spec = &nc::node_E123;
  switch (kind) {
    case OrientationOutput::Euler313: spec = &nc::node_E313; break;
    case OrientationOutput::Euler321: spec = &nc::node_E321; break;
    case OrientationOutput::OrientationVector: spec = &nc::node_Phi; break;
    case OrientationOutput::Matrix: spec = &nc::node_R; break;
    default: break;
  }
  // The catalog's descriptions all start with "global".
  std::string description(spec->description);
  description.replace(0, std::string_view("global").size(), prefix);
  return out.declare(entity + "." + std::string(spec->suffix) + name_postfix, spec->shape, std::string(spec->units),
                     description);
}

inline void put_orientation(OutputSink& out, OutputSink::VarId var, const Mat3& R, OrientationOutput kind) {
  if (kind == OrientationOutput::Matrix)
    out.put(var, R);
  else
    out.put(var, orientation_numbers(R, kind));
}

}  // namespace mbl

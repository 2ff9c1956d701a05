// Readers of the `beam3:` (alias `beam:`) and `beam2:` cards (input manual §8.3.2, §8.3.3).
#include <memory>
#include <vector>

#include "elements/beams/beam.hpp"
#include "elements/beams/beam_custom_output.hpp"
#include "elements/beams/hbeam.hpp"
#include "elements/input/abstract_node_input.hpp"
#include "elements/laws/law_reader.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {
namespace {

using parser::CardReader;

/// `<node>, [position,] <offset> [, {orientation | rot}, <R>]` (offset and orientation in the node frame).
BeamPoint read_point(CardReader& in, BuildContext& ctx) {
  BeamPoint p;
  p.node = &ctx.struct_node(in);
  const parser::RigidFrame frame = p.node->frame();
  in.keyword_is("position");
  p.offset_N = in.position(frame);
  // `rot` is MBDyn's older spelling (beam.cc, ReadBeam).
  if (in.keyword_is("orientation") || in.keyword_is("rot")) p.R_NP = in.orientation(frame);
  return p;
}

/// The 6 x N actuation matrix of a section (MBDyn's GetMat6xN): `null` | [anba | matr,] the 3 x N
/// force rows, the 3 x N moment rows [, scale, <factor>]; `anba` orders the rows as ANBA's
/// (y, z, x) axes.
Eigen::Matrix<double, 6, Eigen::Dynamic> read_piezo_matrix(CardReader& in, int n) {
  Eigen::Matrix<double, 6, Eigen::Dynamic> T = Eigen::Matrix<double, 6, Eigen::Dynamic>::Zero(6, n);
  if (in.keyword_is("null")) return T;
  std::array<int, 3> row{0, 1, 2};
  if (in.keyword_is("anba")) row = {1, 2, 0};
  else in.keyword_is("matr");
  for (int block = 0; block < 2; ++block)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < n; ++j) T(3 * block + row[i], j) = in.real();
  if (in.keyword_is("scale")) T *= in.real();
  return T;
}

void read_beam(CardReader& in, BuildContext& ctx, unsigned label, int nodes) {
  std::vector<BeamPoint> points;
  for (int i = 0; i < nodes; ++i) points.push_back(read_point(in, ctx));
  const int sections = nodes == 3 ? 2 : 1;
  std::vector<BeamSection> secs(sections);
  for (int s = 0; s < sections; ++s) {
    BeamSection& S = secs[s];
    // Orientation of the section frame: absolute unless `reference, ...` says otherwise.
    if (s > 0 && in.keyword_is("same")) {
      S.from_nodes = secs[0].from_nodes;
      S.R_WS = secs[0].R_WS;
    } else if (in.keyword_is("from nodes") || in.keyword_is("node")) {  // `node`: MBDyn's alias
      S.from_nodes = true;
    } else {
      S.R_WS = in.orientation(parser::RigidFrame{});
    }
    if (s > 0 && in.keyword_is("same")) {
      S.law = secs[0].law->clone();
    } else {
      S.law = laws::read_constitutive_law<6>(in, ctx);
      if (!S.law) return;  // reported as not implemented
    }
  }
  std::vector<const AbstractNode*> electrodes;
  if (in.keyword_is("piezoelectric actuator")) {
    const long n = parser::checked_integer(in, [](auto v) { return v > 0; }, "a number of electrodes > 0");
    for (long e = 0; e < n; ++e) electrodes.push_back(&read_abstract_node(in, ctx));
    for (int s = 0; s < sections; ++s)
      secs[s].piezo = s > 0 && in.keyword_is("same") ? secs[0].piezo : read_piezo_matrix(in, static_cast<int>(n));
  }
  if (in.peek_keyword_is("piezoelectric beam")) {
    in.not_implemented("piezoelectric beam (direct and converse effects)");
    return;
  }
  bool viscous = false;
  for (const BeamSection& S : secs) viscous = viscous || S.law->is_viscous();
  // MBDyn's ReadOptionalBeamCustomOutput: `default beam output`, or `custom output, ...`.
  OutputDefaults::CustomOutput custom = beam_output_default(ctx);
  if (in.keyword_is("custom output")) read_beam_custom_output(in, ctx, viscous, custom);
  auto beam = std::make_unique<Beam>(label, std::move(points), std::move(secs), std::move(electrodes));
  beam->where = in.card_location();
  beam->set_custom_output(custom.flags, custom.orientation);
  ctx.read_output_flag(in, *beam, "beams");
  ctx.model().add_element(std::move(beam));
}

/// `hbeam: <label>, <node 1>, [position,] <offset> [, {orientation | rot}, <R>], <node 2>, ...,
/// <6D elastic law> [, output, ...];` (MBDyn's ReadHBeam). An orientation not given is node 1's
/// (for both points, as MBDyn reads it).
void read_hbeam(CardReader& in, BuildContext& ctx, unsigned label) {
  std::array<HBeamPoint, 2> points;
  for (HBeamPoint& p : points) {
    p.node = &ctx.struct_node(in);
    const parser::RigidFrame frame = p.node->frame();
    in.keyword_is("position");
    p.offset_N = in.position(frame);
    p.R_NP = (in.keyword_is("orientation") || in.keyword_is("rot")) ? in.orientation(frame) : points[0].node->R_WN();
  }
  const parser::SourceLocation law_at = in.location();
  auto law = laws::read_constitutive_law<6>(in, ctx);
  if (!law) return;  // reported as not implemented
  if (law->is_viscous())
    throw parser::InputError(law_at, "expected an elastic constitutive law (MBDyn's hbeam has no viscoelastic form)");
  if (in.peek_keyword_is("piezoelectric actuator")) {
    in.not_implemented("piezoelectric hbeam");
    return;
  }
  auto beam = std::make_unique<HBeam>(label, points, std::move(law));
  beam->where = in.card_location();
  ctx.read_output_flag(in, *beam, "beams");
  ctx.model().add_element(std::move(beam));
}

const bool registered =
    CardRegistry::family("element").add("hbeam", read_hbeam) &&
    CardRegistry::family("element").add(
        "beam3", [](CardReader& in, BuildContext& c, unsigned l) { read_beam(in, c, l, 3); }) &&
    CardRegistry::family("element").add(
        "beam", [](CardReader& in, BuildContext& c, unsigned l) { read_beam(in, c, l, 3); }) &&
    CardRegistry::family("element").add(
        "beam2", [](CardReader& in, BuildContext& c, unsigned l) { read_beam(in, c, l, 2); });

}  // namespace
}  // namespace mbl::elements

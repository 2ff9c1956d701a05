// Readers of the `beam3:` (alias `beam:`) and `beam2:` cards (input manual §8.3.2, §8.3.3).
#include <memory>
#include <vector>

#include "elements/beams/beam.hpp"
#include "elements/beams/hbeam.hpp"
#include "elements/laws/law_reader.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {
namespace {

using parser::CardReader;

/// `<node>, [position,] <offset> [, orientation, <R>]` (offset and orientation in the node frame).
BeamPoint read_point(CardReader& in, BuildContext& ctx) {
  BeamPoint p;
  p.node = &ctx.struct_node(in);
  const parser::RigidFrame frame = p.node->frame();
  in.keyword_is("position");
  p.offset_N = in.position(frame);
  if (in.keyword_is("orientation")) p.R_NP = in.orientation(frame);
  return p;
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
    } else if (in.keyword_is("from nodes")) {
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
  if (in.peek_keyword_is("piezoelectric actuator") || in.peek_keyword_is("piezoelectric beam")) {
    in.not_implemented("piezoelectric beam");
    return;
  }
  if (in.peek_keyword_is("custom output")) {
    in.not_implemented("beam custom output");
    return;
  }
  auto beam = std::make_unique<Beam>(label, std::move(points), std::move(secs));
  beam->where = in.card_location();
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

// Readers of the surface loads (input manual §8.17):
//   <pressure type>: <label>, <node 1>, ..., <node N>,
//       {from drives, <drive 1>, ..., <drive N> | from nodes, <abstract node 1>, ..., <abstract node N>}
//       [, output, {yes | no}];
//   <traction type>: <label>, [absolute,] <node 1>, ..., <node N>,
//       from drives, <Vec3 template drive 1>, ..., <Vec3 template drive N>
//       [, orientation, <orientation 1>, ..., <orientation M>] [, output, {yes | no}];
// with M the quadrature points of the shape (table 8.5); the orientations are absolute.
#include "elements/input/drive_input.hpp"
#include "elements/input/abstract_node_input.hpp"
#include "elements/shells/pressure_load.hpp"
#include "elements/shells/traction_load.hpp"
#include "mbdyn-like/core/card_registry.hpp"

namespace mbl::elements {
namespace {

using parser::CardReader;

void read_pressure_load(CardReader& in, BuildContext& ctx, unsigned label, const SurfaceShape& shape) {
  std::vector<StructNode*> nodes;
  for (int k = 0; k < shape.nodes; ++k) nodes.push_back(&ctx.struct_node(in, true));
  std::vector<DriveCallerPtr> drives;
  std::vector<AbstractNode*> pressure_nodes;
  if (in.keyword_is("from nodes")) {
    for (int k = 0; k < shape.nodes; ++k) pressure_nodes.push_back(&read_abstract_node(in, ctx));
  } else if (in.keyword_is("from drives")) {
    for (int k = 0; k < shape.nodes; ++k) drives.push_back(read_drive(in, ctx));
  } else {
    in.fail_expected("\"from nodes\" or \"from drives\"");
  }
  auto e = std::make_unique<PressureLoad>(label, shape, std::move(nodes), std::move(drives), std::move(pressure_nodes));
  e->where = in.card_location();
  ctx.read_output_flag(in, *e, "surface loads");
  ctx.model().add_element(std::move(e));
}

void read_traction_load(CardReader& in, BuildContext& ctx, unsigned label, const SurfaceShape& shape) {
  const auto frame = in.keyword_is("absolute") ? TractionLoad::Frame::Absolute : TractionLoad::Frame::Relative;
  std::vector<StructNode*> nodes;
  for (int k = 0; k < shape.nodes; ++k) nodes.push_back(&ctx.struct_node(in, true));
  if (!in.keyword_is("from drives")) in.fail_expected("\"from drives\"");
  std::vector<std::function<Vec3(double)>> tractions;
  for (int k = 0; k < shape.nodes; ++k) tractions.push_back(read_vec3_drive(in, ctx));
  std::vector<Mat3> R_WF(shape.points.size(), Mat3::Identity());
  if (in.keyword_is("orientation"))
    for (Mat3& R : R_WF) R = in.orientation(parser::RigidFrame{});
  auto e = std::make_unique<TractionLoad>(label, shape, std::move(nodes), std::move(tractions), R_WF, frame);
  e->where = in.card_location();
  ctx.read_output_flag(in, *e, "surface loads");
  ctx.model().add_element(std::move(e));
}

using ShapeReader = void (*)(CardReader&, BuildContext&, unsigned, const SurfaceShape&);

CardReaderFn reader(ShapeReader read, const SurfaceShape& (*shape)()) {
  return [read, shape](CardReader& in, BuildContext& c, unsigned l) { read(in, c, l, shape()); };
}

bool register_shape(const char* suffix, const SurfaceShape& (*shape)()) {
  return CardRegistry::family("element").add(std::string("pressure") + suffix, reader(&read_pressure_load, shape)) &&
         CardRegistry::family("element").add(std::string("traction") + suffix, reader(&read_traction_load, shape));
}

const bool registered = register_shape("q4", &SurfaceShape::quadrangle4) && register_shape("q8", &SurfaceShape::quadrangle8) &&
                        register_shape("q8r", &SurfaceShape::quadrangle8r) && register_shape("q9", &SurfaceShape::quadrangle9) &&
                        register_shape("t6", &SurfaceShape::triangle6);

}  // namespace
}  // namespace mbl::elements

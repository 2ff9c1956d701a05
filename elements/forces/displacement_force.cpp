#include "elements/forces/displacement_force.hpp"

#include <fmt/format.h>

#include "elements/input/drive_input.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/nc_catalog.hpp"

namespace mbl::elements {

DisplacementForce::DisplacementForce(unsigned label, StructNode& a, StructNode* b, std::function<Vec3(double)> value)
    : Element(label), a_(a), b_(b), value_(std::move(value)) {}

void DisplacementForce::residual(ResidualSink& r, const StepContext& c) {
  const Vec3 F = value_(c.t);
  if (a_.dof_count() > 0) r.add(a_.eq_index(), F);
  if (b_ && b_->dof_count() > 0) r.add(b_->eq_index(), Vec3(-F));
}

std::string DisplacementForce::log_line() const {
  // As the other structural forces (appendix E.2.26), with no arm: "structural [internal]
  // absolute displacement force: <label> <node 1> 0 0 0 [<node 2> 0 0 0]".
  std::string line = fmt::format("structural {}absolute displacement force: {} {} 0 0 0", b_ ? "internal " : "",
                                 label(), a_.label());
  if (b_) line += fmt::format(" {} 0 0 0", b_->label());
  return line;
}

void DisplacementForce::output_setup(OutputSink& out) {
  if (!output_enabled() || !out.netcdf()) return;
  const std::string name = "elem.force." + std::to_string(label());
  out.declare_entity(name, std::string(type_name()));
  nc_F_ = output::nc_declare(out, name, output::nc::force_displacement_F);
}

void DisplacementForce::output(OutputSink& out) const {
  if (!output_enabled()) return;
  // .frc: label, node 1, F, x_1 [, node 2, -F, x_2].
  if (std::ostream* os = out.text(OutputFile::Frc)) {
    out.write_label(*os, label());
    *os << ' ' << a_.label();
    out.write(*os, F_W_);
    out.write(*os, a_.x_W());
    if (b_) {
      *os << ' ' << b_->label();
      out.write(*os, Vec3(-F_W_));
      out.write(*os, b_->x_W());
    }
    *os << '\n';
  }
  if (nc_F_ >= 0) out.put(nc_F_, F_W_);
}

namespace {

void read_displacement_force(parser::CardReader& in, BuildContext& ctx, unsigned label, bool internal) {
  StructNode& a = ctx.struct_node(in, true);
  StructNode* b = internal ? &ctx.struct_node(in, true) : nullptr;
  auto e = std::make_unique<DisplacementForce>(label, a, b, read_vec3_drive(in, ctx));
  e->where = in.card_location();
  ctx.read_output_flag(in, *e, "forces");
  ctx.model().add_element(std::move(e));
}

const bool registered =
    CardRegistry::family("force type")
        .add("absolute displacement",
             [](parser::CardReader& in, BuildContext& c, unsigned l) { read_displacement_force(in, c, l, false); }) &&
    CardRegistry::family("force type")
        .add("absolute internal displacement",
             [](parser::CardReader& in, BuildContext& c, unsigned l) { read_displacement_force(in, c, l, true); }) &&
    CardRegistry::family("force type")
        .add("internal absolute displacement",
             [](parser::CardReader& in, BuildContext& c, unsigned l) { read_displacement_force(in, c, l, true); });

}  // namespace
}  // namespace mbl::elements

#include "elements/input/drive_input.hpp"

#include "elements/drives/drive_reader.hpp"
#include "elements/drives/scalar_function.hpp"
#include "elements/drives/template_drive.hpp"

namespace mbl::elements {

DriveCallerPtr read_drive(parser::CardReader& in, BuildContext& ctx) {
  return drives::read_drive_caller(in, ctx.model().drive_env());
}

std::function<Vec3(double)> read_vec3_drive(parser::CardReader& in, BuildContext& ctx,
                                            const parser::RigidFrame* frame, drives::VecIn vec_in) {
  drives::TplDriveCallerPtr<Vec3> d = drives::read_tpl_drive_caller<Vec3>(in, ctx.model().drive_env(), frame, vec_in);
  return [d](double t) { return d->value(t); };
}

namespace {

// Definition cards that may appear in any block, and the drivers block.
const bool registered =
    CardRegistry::family("definition")
        .add("drive caller",
             [](parser::CardReader& in, BuildContext& ctx, unsigned) {
               drives::read_drive_caller_card(in, ctx.model().drive_env());
             }) &&
    CardRegistry::family("definition")
        .add("template drive caller",
             [](parser::CardReader& in, BuildContext& ctx, unsigned) {
               drives::read_template_drive_caller_card(in, ctx.model().drive_env());
             }) &&
    CardRegistry::family("definition")
        .add("scalar function", [](parser::CardReader& in, BuildContext&, unsigned) { drives::read_scalar_function_card(in); }) &&
    // The drivers-block cards read their own label.
    CardRegistry::family("driver").add("file", [](parser::CardReader& in, BuildContext& ctx, unsigned) {
      if (auto hook = drives::read_file_driver_card(in, ctx.model().drive_env())) ctx.model().add_step_observer(hook);
    });

}  // namespace
}  // namespace mbl::elements

#pragma once
// How element readers read drive callers: one place that connects the element readers to the
// drive-caller registry of elements/drives.
#include <functional>

#include "mbdyn-like/core/card_registry.hpp"
#include "elements/drives/template_drive.hpp"
#include "mbdyn-like/core/drive_caller.hpp"

namespace mbl::elements {

/// Reads a (scalar) drive caller at the cursor.
DriveCallerPtr read_drive(parser::CardReader& in, BuildContext& ctx);
/// Reads a TplDriveCaller<Vec3> and returns it as a function of time; `frame` and `vec_in` say
/// how its vectors are read (drives::VecIn; none: global).
std::function<Vec3(double)> read_vec3_drive(parser::CardReader& in, BuildContext& ctx,
                                            const parser::RigidFrame* frame = nullptr,
                                            drives::VecIn vec_in = drives::VecIn::Relative);

}  // namespace mbl::elements

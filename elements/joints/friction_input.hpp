#pragma once
// The `friction` sub-card of the joints that accept one (input manual §2.8, and the cards of
// §8.12 in line, revolute hinge, axial rotation, screw):
//   friction, [<average_radius>,] [preload, <p>,] <friction_model>, <shape_function>
#include <memory>
#include <string_view>

#include "elements/joints/friction.hpp"
#include "mbdyn-like/core/card_registry.hpp"

namespace mbl::elements {

/// Where the joint card has the average radius of the friction surface (revolute joints); the
/// screw joint has none and takes only the `screw joint` shape function (its thread).
enum class FrictionRadius { None, Required, Screw };

/// If the next argument is `friction`, reads the sub-card into `out`; returns false (the caller
/// must not build the joint) when it uses a form that is not implemented, reported at the
/// `friction` keyword as "friction in <joint>" (none today: the `screw joint` shape function is
/// MBDyn's in every joint). Without `friction`, reads nothing, leaves `out` empty and returns true.
bool read_friction(parser::CardReader& in, BuildContext& ctx, std::string_view joint, FrictionRadius radius,
                   std::unique_ptr<JointFriction>& out);

}  // namespace mbl::elements

#pragma once
// The `friction` sub-card of the joints that accept one (input manual §2.8, and the cards of
// §8.12 in line, revolute hinge, axial rotation). Friction is not implemented yet: the sub-card is
// read completely (so that its syntax errors are reported as such) and then reported as
// "not implemented: friction in <joint>" at the `friction` keyword.
#include <string_view>

#include "mbdyn-like/core/card_registry.hpp"

namespace mbl::elements {

/// Where the joint card has the average radius of the friction surface (revolute joints).
enum class FrictionRadius { None, Required };

/// If the next argument is `friction`, reads `friction, [<average_radius>,] [preload, <p>,]
/// <friction_model>, <shape_function>`, reports it not implemented and returns true (the caller
/// must not build the joint). Returns false, reading nothing, otherwise.
bool read_unimplemented_friction(parser::CardReader& in, BuildContext& ctx, std::string_view joint,
                                 FrictionRadius radius);

}  // namespace mbl::elements

#pragma once
// NetCDF variables of the joints with friction (MBDyn's "FF" and "fc" of elem.joint.<label>).
#include "mbdyn-like/core/nc_catalog.hpp"

namespace mbl::elements {

inline constexpr output::NcVarSpec nc_friction_force{"FF", NcShape::Scalar, "Force", "friction force (x, y, z)"};
inline constexpr output::NcVarSpec nc_friction_coefficient{"fc", NcShape::Scalar, "Dimensionless",
                                                           "friction coefficient"};

}  // namespace mbl::elements

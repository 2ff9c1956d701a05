#pragma once
// Numbers of the .log model description (input manual appendix E) as MBDyn prints them: C++
// stream defaults, i.e. 6 significant digits ("%g").
#include <fmt/format.h>

#include <string>

#include "mbdyn-like/core/types.hpp"

namespace mbl {

inline std::string log_text(double x) { return fmt::format("{:g}", x); }
inline std::string log_text(const Vec3& v) { return fmt::format("{:g} {:g} {:g}", v[0], v[1], v[2]); }
/// Row by row.
inline std::string log_text(const Mat3& R) {
  return fmt::format("{} {} {}", log_text(Vec3(R.row(0))), log_text(Vec3(R.row(1))), log_text(Vec3(R.row(2))));
}

}  // namespace mbl

#include "mbdyn-like/core/drive_caller.hpp"

#include <fmt/format.h>

namespace mbl {

std::string ConstDrive::describe() const { return fmt::format("const, {}", v_); }

}  // namespace mbl

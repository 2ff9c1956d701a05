#pragma once
#include <optional>

#include "parser/card_reader.hpp"

namespace mbl::parser {

/// What follows `output`: `yes`, `no`, a boolean, or `default` (MBDyn's DataManager::fReadOutput,
/// dataman.h), which keeps the entity's default flag: nothing is returned for it.
inline std::optional<bool> output_flag(CardReader& in) {
  if (in.keyword_is("default")) return std::nullopt;
  return in.boolean();
}

}  // namespace mbl::parser

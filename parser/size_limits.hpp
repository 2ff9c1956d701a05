#pragma once
// Bounds on sizes read from input (a deck's counters, the counts of a FEM, c81 or data file) that
// size storage before the values are read: an absurd count (`structural nodes: 1e9`, a FEM file
// declaring 1e9 modes) is an input error at the count, never an allocation failure.
// docs/robustness.md lists the limits.
#include <cstdint>
#include <istream>

namespace mbl::parser {

/// The largest count of entities of one kind (nodes, elements, modes, channels, steps of a file
/// driver): ten million; no real deck comes near.
inline constexpr std::int64_t kMaxCount = 10'000'000;

/// True when a text of `bytes` bytes can hold `values` numbers (each takes at least a digit and
/// a separator): storage for more values than that would never be filled.
inline bool text_can_hold(std::uintmax_t bytes, std::int64_t values) {
  return values >= 0 && static_cast<std::uintmax_t>(values) <= bytes / 2 + 1;
}

/// The bytes left in `in` from its current position (no bound if the stream cannot tell).
inline std::uintmax_t bytes_left(std::istream& in) {
  const std::istream::pos_type here = in.tellg();
  constexpr std::uintmax_t unknown = UINTMAX_MAX;
  if (here == std::istream::pos_type(-1)) return unknown;
  in.seekg(0, std::ios::end);
  const std::istream::pos_type end = in.tellg();
  in.seekg(here);
  if (end == std::istream::pos_type(-1) || end < here) {
    in.clear();
    in.seekg(here);
    return unknown;
  }
  return static_cast<std::uintmax_t>(end - here);
}

}  // namespace mbl::parser

#pragma once
// One line of MBDyn's description of unknowns or equations (`print: dof description`, the .dof
// listing; DescribeDof/DescribeEq of its nodes and elements): "<prefix><a>-><b>: <what>", the
// indices 1-based, "<prefix><a>: <what>" for a single one.
#include <ostream>
#include <string_view>

namespace mbl {

/// `first` is 0-based; `count` unknowns from it.
inline void describe_range(std::ostream& os, std::string_view prefix, int first, int count, std::string_view what) {
  os << prefix << first + 1;
  if (count > 1) os << "->" << first + count;
  os << ": " << what << '\n';
}

}  // namespace mbl

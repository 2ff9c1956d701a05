#pragma once
// Building blocks of the private data listings (PrivateDataOwner::private_data_info): each node
// and element kind keeps one list of MBDyn's names in MBDyn's numbering (the kind's
// iGetPrivDataIdx in MBDyn's source), from which drives, `bind`, the model:: functions and the
// generated table docs/conformance/private-data.md all read.
#include <fmt/format.h>

#include <string>
#include <string_view>
#include <vector>

#include "parser/read_context.hpp"

namespace mbl {

using PrivateDatum = parser::PrivateDataOwner::DatumInfo;
using PrivateDataListing = std::vector<PrivateDatum>;

/// Appends `name` (one scalar).
inline PrivateDataListing& add_datum(PrivateDataListing& l, std::string name, std::string meaning,
                                     bool extension = false) {
  l.push_back({std::move(name), std::move(meaning), extension});
  return l;
}
/// Appends "<base>x", "<base>y", "<base>z" (MBDyn's joints: "Fx", "rz", ...).
inline PrivateDataListing& add_xyz(PrivateDataListing& l, std::string_view base, std::string_view meaning,
                                   bool extension = false) {
  for (const char c : {'x', 'y', 'z'}) l.push_back({fmt::format("{}{}", base, c), std::string(meaning), extension});
  return l;
}
/// Appends "<base>[first]" ... "<base>[first + n - 1]" (MBDyn's nodes: "X[1]", "PE[0]", ...).
inline PrivateDataListing& add_indexed(PrivateDataListing& l, std::string_view base, std::string_view meaning,
                                       int n = 3, int first = 1) {
  for (int i = first; i < first + n; ++i) l.push_back({fmt::format("{}[{}]", base, i), std::string(meaning)});
  return l;
}
/// Entry `index` (1-based) of a listing, empty past its end.
inline PrivateDatum listed(const PrivateDataListing& l, unsigned index) {
  return index >= 1 && index <= l.size() ? l[index - 1] : PrivateDatum{};
}

}  // namespace mbl

#pragma once
// The private data an element exposes from its constitutive law, after its own (MBDyn's
// ConstitutiveLaw{1D,3D,6D}Owner as rodj.cc, vehj.cc, vehj2.cc, vehj3.cc, vehj4.cc, vb.cc
// forward them): "constitutiveLaw.<name>" at the element's count + the law's number. The law's
// data are its first private_data_count() output items (constitutive_law.hpp; in MBDyn 2024
// only the shock absorber has any: p, A, Fe, Fv, shockabsorber.h; wrappers forward none).
#include <string>
#include <string_view>

#include "mbdyn-like/core/constitutive_law.hpp"
#include "parser/read_context.hpp"

namespace mbl {

inline constexpr std::string_view kLawPrivateDataPrefix = "constitutiveLaw.";

template <int N>
unsigned law_private_data_count(const ConstitutiveLaw<N>* law) {
  return law ? static_cast<unsigned>(law->private_data_count()) : 0u;
}

/// Datum k (1-based) of the law, under the element's name for it.
template <int N>
parser::PrivateDataOwner::DatumInfo law_private_data_info(const ConstitutiveLaw<N>* law, unsigned k) {
  if (k < 1 || k > law_private_data_count(law)) return {};
  const LawOutputItem item = law->output_item(static_cast<int>(k) - 1);
  return {std::string(kLawPrivateDataPrefix) + std::string(item.name),
          "constitutive law: " + std::string(item.description)};
}

template <int N>
double law_private_data(const ConstitutiveLaw<N>* law, unsigned k) {
  return k >= 1 && k <= law_private_data_count(law) ? law->output_value(static_cast<int>(k) - 1) : 0.0;
}

}  // namespace mbl

#pragma once
// Reading constitutive laws (input manual §2.10): `<law name>, <data> [, prestress, <Entity>]
// [, prestrain, <TplDriveCaller>]` or `reference, <label>` (a `constitutive law:` card, §2.4.1).
// Each dimension N (1, 3, 6) has a registry keyword -> reader, filled in law_reader.cpp; other
// families (e.g. beam-specific laws) may add to it with LawRegistry<N>::instance().add(...).
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/constitutive_law.hpp"

namespace mbl::laws {

template <int N>
using LawReaderFn = std::function<std::unique_ptr<ConstitutiveLaw<N>>(parser::CardReader&, BuildContext&)>;

template <int N>
class LawRegistry {
 public:
  static LawRegistry& instance();
  /// Registers `keyword` (normalised like card keywords); returns true to initialise a static.
  bool add(std::string_view keyword, LawReaderFn<N> fn);
  const LawReaderFn<N>* find(std::string_view keyword) const;

 private:
  std::map<std::string, LawReaderFn<N>> readers_;
};

/// Reads a constitutive law of dimension N at the cursor (a definition or `reference, <label>`).
/// Returns nullptr when the law is known but not implemented: the card was then reported with
/// CardReader::not_implemented (and skipped), and the caller must not build its element.
/// Throws parser::InputError on bad input.
template <int N>
std::unique_ptr<ConstitutiveLaw<N>> read_constitutive_law(parser::CardReader& in, BuildContext& ctx);

/// Name of the ReadContext named-definition family of `constitutive law:` cards of dimension N.
std::string named_law_family(int N);

extern template class LawRegistry<1>;
extern template class LawRegistry<3>;
extern template class LawRegistry<6>;
extern template std::unique_ptr<ConstitutiveLaw<1>> read_constitutive_law<1>(parser::CardReader&, BuildContext&);
extern template std::unique_ptr<ConstitutiveLaw<3>> read_constitutive_law<3>(parser::CardReader&, BuildContext&);
extern template std::unique_ptr<ConstitutiveLaw<6>> read_constitutive_law<6>(parser::CardReader&, BuildContext&);

}  // namespace mbl::laws

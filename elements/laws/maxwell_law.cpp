// Readers of the linear viscoelastic Maxwell laws (input manual §2.10.35), 3D and 6D as in MBDyn:
//   linear viscoelastic maxwell 1, E0, <E0>, E1, <E1>, eta1, <eta1>, C, <C>
//   linear viscoelastic maxwell n, E0, <E0>, <n>, {E1, <E1>, eta1, <eta1>} x n, C, <C>
#include "elements/laws/maxwell_law.hpp"

#include "elements/laws/keyed_input.hpp"
#include "elements/laws/law_reader.hpp"

namespace mbl::laws {
namespace {

using parser::CardReader;

template <int N>
typename LinearViscoelasticMaxwellLaw<N>::Branch read_branch(CardReader& in) {
  const double E1 = keyed(in, "E1", "E1", [](double v) { return v >= 0.0; }, "a non-negative E1");
  const double eta1 = keyed_positive(in, "eta1", "eta1");
  return {E1, eta1};
}

template <int N>
std::unique_ptr<ConstitutiveLaw<N>> read_maxwell(CardReader& in, bool single) {
  const double E0 = keyed_positive(in, "E0", "E0");
  const std::int64_t n = single ? 1 : parser::checked_integer(in, [](std::int64_t v) { return v >= 1; }, "a number of Maxwell elements >= 1");
  std::vector<typename LinearViscoelasticMaxwellLaw<N>::Branch> branches;
  for (std::int64_t i = 0; i < n; ++i) branches.push_back(read_branch<N>(in));
  if (!in.keyword_is("C")) in.fail_expected("`C, <matrix>`");
  typename ConstitutiveLaw<N>::MatN C;
  if constexpr (N == 3) C = in.mat3();
  else C = in.mat6();
  return std::make_unique<LinearViscoelasticMaxwellLaw<N>>(E0, std::move(branches), C);
}

template <int N>
bool register_maxwell() {
  auto& r = LawRegistry<N>::instance();
  return r.add("linear viscoelastic maxwell 1", [](CardReader& in, BuildContext&) { return read_maxwell<N>(in, true); }) &&
         r.add("linear viscoelastic maxwell n", [](CardReader& in, BuildContext&) { return read_maxwell<N>(in, false); });
}

const bool registered = register_maxwell<3>() && register_maxwell<6>();

}  // namespace
}  // namespace mbl::laws

#include "elements/genels/swashplate.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "elements/genels/genels.hpp"
#include "elements/input/bare_word.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {

std::array<double, 3> SwashPlate::pitch(const StepContext& c, std::array<bool, 3>* free) const {
  std::array<double, 3> theta{};
  for (int j = 0; j < 3; ++j) {
    const Input& in = p_.inputs[j];
    const double v = (*c.y)[in.node->first_index()];
    theta[j] = in.limited ? std::clamp(v, in.min, in.max) : v;
    if (free) (*free)[j] = !in.limited || (v >= in.min && v <= in.max);
  }
  return theta;
}

std::array<std::array<double, 3>, 3> SwashPlate::strokes_per_pitch() const {
  const double kc = p_.collective_factor, ky = p_.collective_factor * p_.cyclic_factor;
  const double s = std::sqrt(3.0) / 2.0;
  return {{{kc, -ky, 0.0}, {kc, 0.5 * ky, -s * ky}, {kc, 0.5 * ky, s * ky}}};
}

void SwashPlate::residual(ResidualSink& r, const StepContext& c) {
  for (const Input& in : p_.inputs) r.add(in.node->first_index(), -(*c.y)[in.node->first_index()]);
  const std::array<double, 3> theta = pitch(c);
  const auto D = strokes_per_pitch();
  for (int i = 0; i < 3; ++i) {
    const int a = p_.actuators[i]->first_index();
    double f = 0.0;
    for (int j = 0; j < 3; ++j) f += D[i][j] * theta[j];
    r.add(a, f - (*c.y)[a] - p_.dynamic_coef * (*c.yp)[a]);
  }
}

// All nodes are differential: a value moves by dCoef times the Newton update.
void SwashPlate::jacobian(JacobianSink& J, const StepContext& c) {
  for (const Input& in : p_.inputs) J.add(in.node->first_index(), in.node->first_index(), c.dCoef);
  std::array<bool, 3> free{};
  pitch(c, &free);
  const auto D = strokes_per_pitch();
  for (int i = 0; i < 3; ++i) {
    const int a = p_.actuators[i]->first_index();
    J.add(a, a, p_.dynamic_coef + c.dCoef);
    for (int j = 0; j < 3; ++j)
      if (free[j] && D[i][j] != 0.0) J.add(a, p_.inputs[j].node->first_index(), -c.dCoef * D[i][j]);
  }
}

namespace {

using parser::CardReader;

// `<coll> [, limits, min, max], <fore/aft> [, limits, ...], <lat> [, limits, ...], <act 1>, <act 2>,
// <act 3> [, <dynamic coef> [, <cyclic factor> [, <collective factor>]]]`
void read_swashplate(CardReader& in, BuildContext& ctx, unsigned label) {
  SwashPlate::Params p;
  for (auto& input : p.inputs) {
    input.node = read_differential_abstract_node(in, ctx);
    if (in.keyword_is("limits")) {
      input.limited = true;
      input.min = in.real();
      input.max = in.real();
    }
  }
  for (auto& a : p.actuators) a = read_differential_abstract_node(in, ctx);
  if (real_follows(in)) p.dynamic_coef = parser::checked_real(in, [](double v) { return v >= 0.0; }, "a non-negative dynamic coefficient");
  if (real_follows(in)) p.cyclic_factor = in.real();
  if (real_follows(in)) p.collective_factor = in.real();
  add_genel(in, ctx, std::make_unique<SwashPlate>(label, p));
}

// "swash plate" (the manual's spelling) is the same keyword: blanks do not count.
const bool registered = CardRegistry::family("genel").add("swashplate", read_swashplate);

}  // namespace
}  // namespace mbl::elements

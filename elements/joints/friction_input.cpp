#include "elements/joints/friction_input.hpp"

#include "elements/drives/scalar_function.hpp"

namespace mbl::elements {
namespace {

using parser::CardReader;

// §2.8.1: `modlugre, sigma0, sigma1, sigma2, kappa, (ScalarFunction)` or
// `discrete coulomb, (ScalarFunction) [, sigma2, s2] [, velocity ratio, r]`.
void read_friction_model(CardReader& in) {
  if (in.keyword_is("modlugre")) {
    for (int i = 0; i < 4; ++i) in.real();  // sigma0, sigma1, sigma2, kappa
    drives::read_scalar_function(in);
  } else if (in.keyword_is("discrete coulomb")) {
    drives::read_scalar_function(in);
    if (in.keyword_is("sigma2")) in.real();
    if (in.keyword_is("velocity ratio")) in.real();
  } else {
    in.fail_expected("a friction model (modlugre, discrete coulomb)");
  }
}

// §2.8.2: `simple`, `simple plane hinge`, or `screw joint, radius, r, half thread angle, g`.
void read_shape_function(CardReader& in) {
  if (in.keyword_is("simple plane hinge") || in.keyword_is("simple")) return;
  if (in.keyword_is("screw joint")) {
    if (!in.keyword_is("radius")) in.fail_expected("\"radius\"");
    in.real();
    if (!in.keyword_is("half thread angle")) in.fail_expected("\"half thread angle\"");
    in.real();
    return;
  }
  in.fail_expected("a friction shape function (simple, simple plane hinge, screw joint)");
}

}  // namespace

bool read_unimplemented_friction(CardReader& in, BuildContext& ctx, std::string_view joint, FrictionRadius radius) {
  const parser::SourceLocation where = in.location();
  if (!in.keyword_is("friction")) return false;
  if (radius == FrictionRadius::Required) in.real();  // average radius of the friction surface
  if (in.keyword_is("preload")) in.real();
  read_friction_model(in);
  read_shape_function(in);
  ctx.read().report(parser::Diagnostic{where, "not implemented", "friction in " + std::string(joint)});
  return true;
}

}  // namespace mbl::elements

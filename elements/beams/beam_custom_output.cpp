#include "elements/beams/beam_custom_output.hpp"

#include <string>

#include "mbdyn-like/core/orientation_output.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {

OutputDefaults::CustomOutput beam_output_default(BuildContext& ctx) {
  auto& custom = ctx.output_defaults().custom;
  if (auto it = custom.find("beams"); it != custom.end()) return it->second;
  return {beam_output::kDefault, ctx.output_defaults().orientation};
}

void read_beam_custom_output(parser::CardReader& in, BuildContext& ctx, bool viscous,
                             OutputDefaults::CustomOutput& out) {
  namespace bo = beam_output;
  struct Flag {
    const char* words;
    unsigned bits;
  };
  // Longer spellings first: `linear strain rate` before `linear strain`.
  static constexpr Flag flags[] = {
      {"position", bo::kPosition},
      {"orientation", bo::kOrientation},
      {"configuration", bo::kPosition | bo::kOrientation},
      {"forces", bo::kForce | bo::kMoment},
      {"force", bo::kForce},
      {"moment", bo::kMoment},
      {"linear strain rate", bo::kLinearStrainRate},
      {"angular strain rate", bo::kAngularStrainRate},
      {"linear strain", bo::kLinearStrain},
      {"angular strain", bo::kAngularStrain},
      {"strains", bo::kLinearStrain | bo::kAngularStrain},
      {"strain rates", bo::kStrainRates},
      {"all", bo::kAll},
      {"none", 0u},
  };
  out.flags = 0;
  while (!in.at_end()) {
    const parser::SourceLocation at = in.location();
    const Flag* found = nullptr;
    for (const Flag& f : flags)
      if (in.keyword_is(f.words)) {
        found = &f;
        break;
      }
    if (!found) break;  // not a flag: the rest of the card (e.g. `output`)
    unsigned bits = found->bits;
    if (out.flags & bits)
      throw parser::InputError(at, std::string("expected a beam output flag not given before, found `") +
                                       found->words + "` overlapping an earlier one");
    if ((bits & bo::kStrainRates) && !viscous) {
      in.context().report({at, "warning", "strain rates only allowed for viscoelastic beams (ignored)"});
      bits &= ~bo::kStrainRates;
    }
    if (bits & bo::kOrientation) {
      // MBDyn's ReadOptionalOrientationDescription: the model's `default orientation` otherwise.
      out.orientation = in.keyword_is("orientation description") ? read_orientation_description(in)
                                                                 : ctx.output_defaults().orientation;
    }
    if (found->bits == 0) out.flags = 0;  // `none` resets
    out.flags |= bits;
  }
}

}  // namespace mbl::elements

// Reader of the `gravity:` card (input manual §8.10).
#include "elements/forces/gravity.hpp"
#include "elements/input/drive_input.hpp"
#include "mbdyn-like/core/card_registry.hpp"

namespace mbl::elements {
namespace {

void read_gravity(parser::CardReader& in, BuildContext& ctx, unsigned) {
  std::unique_ptr<Gravity> g;
  if (in.keyword_is("central")) {
    Vec3 x0 = Vec3::Zero();
    if (in.keyword_is("origin")) x0 = in.position(parser::RigidFrame{});
    if (!in.keyword_is("mass")) in.fail_expected("\"mass\"");
    const double M = in.real();
    if (!in.keyword_is("G")) in.fail_expected("\"G\"");
    const double G = in.keyword_is("si") ? 6.67384e-11 : in.real();
    g = std::make_unique<Gravity>(x0, G * M);
  } else {
    in.keyword_is("uniform");
    g = std::make_unique<Gravity>(read_vec3_drive(in, ctx));
  }
  g->where = in.card_location();
  ctx.model().add_element(std::move(g));
}

// The gravity card has no label: the builder passes 0.
const bool registered = CardRegistry::family("unlabelled element").add("gravity", read_gravity);

}  // namespace
}  // namespace mbl::elements

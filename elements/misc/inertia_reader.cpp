// Reader of the `inertia:` card (input manual §8.20.3):
//   inertia: <label> [, name, "..."] [, position, <Vec3>] [, orientation, <Mat3x3>],
//            <type>, { all | <label> [, ...] } [, ...] [, output, {no|yes|log|both|always} [, ...]];
#include <fmt/format.h>

#include <set>

#include "elements/joints/modal/modal_joint.hpp"
#include "elements/misc/inertia.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {
namespace {

using parser::CardReader;

bool at_type_or_option(CardReader& in) {
  for (const char* k : {"body", "joint", "solid", "loadable", "output"})
    if (in.peek_keyword_is(k)) return true;
  return false;
}

void read_inertia(CardReader& in, BuildContext& ctx, unsigned label) {
  const parser::RigidFrame global;
  Vec3 x_ref = Vec3::Zero();
  Mat3 R_ref = Mat3::Identity();
  if (in.keyword_is("position")) x_ref = in.position(global);
  if (in.keyword_is("orientation")) R_ref = in.orientation(global);
  std::vector<const Element*> members;
  std::set<const Element*> seen;
  auto log = Inertia::Log::Log;
  bool always = false;
  Model& model = ctx.model();
  while (!in.at_end()) {
    if (in.keyword_is("output")) {
      do {
        if (in.keyword_is("no")) log = Inertia::Log::No;
        else if (in.keyword_is("yes")) log = Inertia::Log::Yes;
        else if (in.keyword_is("log")) log = Inertia::Log::Log;
        else if (in.keyword_is("both")) log = Inertia::Log::Both;
        else if (in.keyword_is("always")) always = true;
        else in.fail_expected("an inertia output mode (no, yes, log, both, always)");
      } while (!in.at_end() && !at_type_or_option(in));
      continue;
    }
    if (in.keyword_is("joint")) {
      // Joints with inertia: the modal joints.
      do {
        const parser::SourceLocation at = in.location();
        const unsigned l = in.label();
        const Element* e = model.find_element("joint", l);
        if (!dynamic_cast<const ModalJoint*>(e))
          throw parser::InputError(at, fmt::format("expected the label of a modal joint, found {}", l));
        if (!seen.insert(e).second) throw parser::InputError(at, fmt::format("joint {} is listed twice", l));
        members.push_back(e);
      } while (!in.at_end() && !at_type_or_option(in));
      continue;
    }
    if (!in.keyword_is("body")) {
      // MBDyn (dataman4.cc, ReadOneElem) reads `user defined` as `loadable`.
      if (in.peek_keyword_is("solid") || in.peek_keyword_is("loadable") || in.peek_keyword_is("user defined"))
        return in.not_implemented("inertia of \"" + in.keyword() + "\" elements");
      in.fail_expected("an element type (body, joint, solid, user defined, loadable) or output");
    }
    if (in.keyword_is("all")) {
      for (const auto& e : model.elements())
        if (e->kind() == "body" && seen.insert(e.get()).second) members.push_back(e.get());
      continue;
    }
    do {
      const parser::SourceLocation at = in.location();
      const unsigned l = in.label();
      const Element* e = model.find_element("body", l);
      if (!e) throw parser::InputError(at, fmt::format("expected a body label, found {} (no such body)", l));
      if (!seen.insert(e).second) throw parser::InputError(at, fmt::format("body {} is listed twice", l));
      members.push_back(e);
    } while (!in.at_end() && !at_type_or_option(in));
  }
  auto e = std::make_unique<Inertia>(label, std::move(members), x_ref, R_ref, log, always);
  e->where = in.card_location();
  model.add_element(std::move(e));
}

const bool registered = CardRegistry::family("element").add("inertia", read_inertia);

}  // namespace
}  // namespace mbl::elements

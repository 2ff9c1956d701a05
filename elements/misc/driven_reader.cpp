// Reader of the `driven:` card (input manual §8.20.2):
//   driven: <label>, <drive caller> [, initial state, {from drive|active|inactive|<bool>}]
//           [, hint, "<hint>" [, "<hint>" ...]], {<element card> | existing: <type>, <label>};
// The inner card's `<family>:` arrives as a plain argument (the lexer splits at the colon). The
// inner reader adds its element to the model; it is taken back and wrapped.
#include <fmt/format.h>

#include "elements/drives/template_drive.hpp"
#include "elements/input/drive_input.hpp"
#include "elements/joints/total_joint.hpp"
#include "elements/misc/driven.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {
namespace {

using parser::CardReader;

struct HintText {
  std::string text;
  parser::SourceLocation where;
};

/// `name{body}` -> name, body.
std::pair<std::string, std::string> split_hint(const HintText& h) {
  const auto open = h.text.find('{');
  const auto close = h.text.rfind('}');
  if (open == std::string::npos || close == std::string::npos || close < open)
    throw parser::InputError(h.where, fmt::format("expected a hint \"name{{...}}\", found \"{}\"", h.text));
  return {h.text.substr(0, open), h.text.substr(open + 1, close - open - 1)};
}

/// Builds the hint for the wrapped element; nullptr (after a not-implemented report) when the
/// element does not honour it.
Driven::Hint make_hint(CardReader& in, BuildContext& ctx, const HintText& h, Element& inner) {
  auto [name, body] = split_hint(h);
  auto* total = dynamic_cast<TotalJoint*>(&inner);
  parser::ReadContext* rc = &ctx.read();
  DriveEnvironment* env = &ctx.model().drive_env();
  const std::string origin = h.where.str() + " (hint)";
  if (total && (name == "position-drive3" || name == "orientation-drive3")) {
    const bool position = name == "position-drive3";
    // Read when the element becomes active: `model::` values are those of that time.
    // (body copied by an init-capture: clang 14, the sanitized build's compiler, cannot capture
    // a structured binding.)
    return [=, text = body](Element&) {
      auto d = drives::tpl_drive_caller_from_text<Vec3>(text, origin, *rc, *env);
      if (position) total->set_position_drive(std::move(d));
      else total->set_orientation_drive(std::move(d));
    };
  }
  in.context().report({h.where, "not implemented",
                       fmt::format("driven hint \"{}\" for {} \"{}\"", name, inner.kind(), inner.type_name())});
  return nullptr;
}

/// `existing: <type>, <label> [, output, <bool>]`: wraps an element read before; the wrapper takes
/// its place in the input order (the order the unknowns are numbered in). Model has no removal by
/// position, so the elements read after it are taken back and added again.
void wrap_existing(CardReader& in, BuildContext& ctx, unsigned label, DriveCallerPtr drive,
                   Driven::InitialState initial, const std::vector<HintText>& hints) {
  const parser::SourceLocation type_at = in.location();
  const std::string type = in.keyword();
  const parser::SourceLocation label_at = in.location();
  const unsigned existing_label = in.label();
  if (existing_label != label)
    throw parser::InputError(label_at, fmt::format("expected the label of the driven element ({}), found {}", label, existing_label));
  Model& model = ctx.model();
  Element* target = model.find_element(type, label);
  if (!target) ctx.skip_if_depends_on_skipped(in, type, label);
  if (!target) throw parser::InputError(type_at, fmt::format("expected an existing element, found no {} {}", type, label));
  if (dynamic_cast<Driven*>(target))
    throw parser::InputError(type_at, fmt::format("expected an element not driven yet, found {} {} driven already", type, label));
  // Take back the elements added after the target, wrap it, and add them again in their order.
  std::vector<std::unique_ptr<Element>> after;
  while (model.elements().back().get() != target) after.push_back(model.release_last_element());
  std::unique_ptr<Element> inner = model.release_last_element();
  std::vector<Driven::Hint> applied;
  for (const HintText& h : hints) {
    Driven::Hint f = make_hint(in, ctx, h, *inner);
    if (!f) break;
    applied.push_back(std::move(f));
  }
  auto wrapper = std::make_unique<Driven>(label, std::move(inner), std::move(drive), std::move(applied), initial);
  // A trailing output flag overrides the wrapped element's (§8.20.2).
  if (applied.size() == hints.size() && in.keyword_is("output")) wrapper->set_output_enabled(in.boolean());
  model.add_element(std::move(wrapper));
  for (auto it = after.rbegin(); it != after.rend(); ++it) model.add_element(std::move(*it));
  if (applied.size() != hints.size()) return in.skip_rest();
  in.expect_end();
}

void read_driven(CardReader& in, BuildContext& ctx, unsigned label) {
  DriveCallerPtr drive = read_drive(in, ctx);
  auto initial = Driven::InitialState::FromDrive;
  if (in.keyword_is("initial state")) {
    if (in.keyword_is("from drive")) initial = Driven::InitialState::FromDrive;
    else if (in.keyword_is("active")) initial = Driven::InitialState::Active;
    else if (in.keyword_is("inactive")) initial = Driven::InitialState::Inactive;
    else initial = in.boolean() ? Driven::InitialState::Active : Driven::InitialState::Inactive;
  }
  std::vector<HintText> hints;
  while (in.keyword_is("hint")) {
    do {
      const parser::SourceLocation at = in.location();
      hints.push_back({in.string(), at});
    } while (!in.at_end() && !in.peek_text().empty() && in.peek_text().front() == '"');
  }
  if (in.keyword_is("existing")) return wrap_existing(in, ctx, label, std::move(drive), initial, hints);

  const parser::SourceLocation family_at = in.location();
  const std::string family = in.at_end() ? std::string() : in.keyword();
  if (family.empty()) in.fail_expected("an element card (joint, body, force, ...)");
  const CardReaderFn* reader = CardRegistry::family("element").find(family);
  if (!reader) {
    // An element kind MBDyn has and we do not: the driven card is skipped with it.
    ctx.skip(family, label);
    return in.not_implemented(fmt::format("element kind \"{}\"", family));
  }
  const parser::SourceLocation label_at = in.location();
  const unsigned inner_label = in.label();
  if (inner_label != label)
    throw parser::InputError(label_at, fmt::format("expected the label of the driven element ({}), found {}", label, inner_label));
  if (in.keyword_is("name")) in.string();

  Model& model = ctx.model();
  const std::size_t before = model.elements().size();
  const std::size_t reported = in.context().count("not implemented");
  try {
    (*reader)(in, ctx, label);
  } catch (const CardSkipped&) {
    ctx.skip(family, label);
    throw;
  }
  if (in.context().count("not implemented") != reported) ctx.skip(family, label);
  if (in.context().count("not implemented") != reported || model.elements().size() != before + 1) return;
  std::unique_ptr<Element> inner = model.release_last_element();

  std::vector<Driven::Hint> applied;
  for (const HintText& h : hints) {
    Driven::Hint f = make_hint(in, ctx, h, *inner);
    if (!f) return;
    applied.push_back(std::move(f));
  }
  auto d = std::make_unique<Driven>(label, std::move(inner), std::move(drive), std::move(applied), initial);
  model.add_element(std::move(d));
}

const bool registered = CardRegistry::family("element").add("driven", read_driven);

}  // namespace
}  // namespace mbl::elements

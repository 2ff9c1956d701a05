#include "mbdyn-like/core/card_registry.hpp"

#include "parser/deck/card_lexer.hpp"
#include "parser/errors.hpp"
#include "parser/output_flag.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <memory>

namespace mbl {

CardRegistry& CardRegistry::family(std::string_view name) {
  // Function-local static: filled by static initialisers in any order, read-only afterwards.
  static std::map<std::string, std::unique_ptr<CardRegistry>> families;
  auto& slot = families[normalise(name)];
  if (!slot) slot = std::make_unique<CardRegistry>();
  return *slot;
}

// The deck reader's own keyword rule, so registry keys match what CardReader::keyword() returns.
std::string CardRegistry::normalise(std::string_view keyword) { return parser::deck::normalize_keyword(keyword); }

bool CardRegistry::add(std::string_view keyword, CardReaderFn fn) {
  readers_[normalise(keyword)] = std::move(fn);
  return true;
}

const CardReaderFn* CardRegistry::find(std::string_view keyword) const {
  auto it = readers_.find(normalise(keyword));
  return it == readers_.end() ? nullptr : &it->second;
}

const CardReaderFn* CardRegistry::match_keyword(parser::CardReader& in) const {
  if (in.at_end()) return nullptr;
  const std::string next = normalise(in.peek_text());
  auto it = readers_.find(next);
  if (it == readers_.end()) return nullptr;
  in.keyword();
  return &it->second;
}

std::vector<std::string> CardRegistry::keywords() const {
  std::vector<std::string> out;
  for (const auto& [k, v] : readers_) out.push_back(k);
  return out;
}

bool OutputDefaults::enabled(const std::string& family) const {
  auto it = by_family.find(CardRegistry::normalise(family));
  return it == by_family.end() ? true : it->second;
}

StructNode& BuildContext::struct_node(parser::CardReader& in, bool displacement_ok) {
  const parser::SourceLocation where = in.location();
  const unsigned label = in.label();
  StructNode* n = model_.find_struct_node(label);
  if (!n) skip_if_depends_on_skipped(in, "structural", label);
  if (!n) throw parser::InputError(where, fmt::format("expected a structural node label, found {} (no such node)", label));
  if (n->is_displacement() && !displacement_ok)
    throw parser::InputError(where, fmt::format("expected a structural node with orientation (6 dofs), found {} "
                                                "(a displacement-only node)", label));
  note_connected(n);
  return *n;
}

Node* BuildContext::find_node(std::string_view kind, unsigned label) {
  Node* n = model_.find_node(kind, label);
  if (n) note_connected(n);
  return n;
}

void BuildContext::note_connected(const Node* n) {
  if (std::find(connected_nodes_.begin(), connected_nodes_.end(), n) == connected_nodes_.end())
    connected_nodes_.push_back(n);
}

void BuildContext::skip(std::string_view kind, unsigned label) {
  skipped_.emplace(CardRegistry::normalise(kind), label);
}

bool BuildContext::skipped(std::string_view kind, unsigned label) const {
  return skipped_.count({CardRegistry::normalise(kind), label}) != 0;
}

void BuildContext::skip_if_depends_on_skipped(parser::CardReader& in, std::string_view kind, unsigned label) {
  if (!skipped(kind, label)) return;
  in.not_implemented(fmt::format("this card uses {} {}, whose card is not implemented", kind, label));
  throw CardSkipped{};
}

void BuildContext::read_output_flag(parser::CardReader& in, Element& e, const std::string& family) {
  e.set_output_enabled(output_defaults_.enabled(family));
  if (in.keyword_is("output"))
    if (const auto out = parser::output_flag(in)) e.set_output_enabled(*out);
}

}  // namespace mbl

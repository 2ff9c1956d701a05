#pragma once
// Reads a deck into a Model and RunSettings (MBDyn's DataManager reading, without its giant
// switches): blocks are tracked here, every card is dispatched through a registry
// (mbdyn-like/core/card_registry.hpp). Reading stops after `end: elements;`.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/model/settings.hpp"
#include "parser/read_context.hpp"

namespace mbl {

struct BuildResult {
  std::unique_ptr<Model> model;
  RunSettings settings;
  std::unique_ptr<parser::ReadContext> read_context;
  /// Counts per kind for --check ("structural node (dynamic)" -> 2, "joint (revolute pin)" -> 1).
  std::map<std::string, int> summary;
  std::size_t not_implemented = 0;
};

/// `mbdyn-like -D name[:type]=value`: a deck variable declared before the deck is read, as a
/// `set:` at its top would (`set: ifndef` keeps it; a plain `set:` of the name is an error).
struct DeckDefine {
  std::string name;
  std::string type;   ///< bool, integer, real, string; empty: the value's own type
  std::string value;
  std::string text;   ///< as given, for messages
};
/// Parses "name[:type]=value"; throws std::invalid_argument saying what is wrong.
DeckDefine parse_define(const std::string& arg);

/// Reads `path`. Throws parser::InputError on bad input; cards that name features not implemented
/// yet are recorded as "not implemented" diagnostics (see BuildResult::not_implemented).
BuildResult read_deck(const std::string& path, const std::vector<DeckDefine>& defines = {});
/// Same, from memory (tests).
BuildResult read_deck_text(const std::string& name, const std::string& text);

}  // namespace mbl

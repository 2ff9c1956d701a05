#pragma once
// Reads a deck into a Model and RunSettings (MBDyn's DataManager reading, without its giant
// switches): blocks are tracked here, every card is dispatched through a registry
// (mbdyn-like/core/card_registry.hpp). Reading stops after `end: elements;`.
#include <map>
#include <memory>
#include <string>

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

/// Reads `path`. Throws parser::InputError on bad input; cards that name features not implemented
/// yet are recorded as "not implemented" diagnostics (see BuildResult::not_implemented).
BuildResult read_deck(const std::string& path);
/// Same, from memory (tests).
BuildResult read_deck_text(const std::string& name, const std::string& text);

}  // namespace mbl

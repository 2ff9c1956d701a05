#pragma once
// Reads a deck card by card. Input-related cards that may appear anywhere (`set:`, `include:`,
// `reference:`, `remark:`, `print: symbol table`, `setenv:`) are handled here and never returned;
// every other card (including `begin:`/`end:`) is returned as a CardReader for the model builder.
//
// Interface owned by the parser team (parser/deck/*.cpp implements it).
#include <memory>
#include <string>

#include "parser/card_reader.hpp"
#include "parser/read_context.hpp"

namespace mbl::parser {

class DeckReader {
 public:
  /// Opens `path` (errors: InputError at <path>:0:0 if it cannot be read).
  DeckReader(const std::string& path, ReadContext& ctx);
  /// Reads from memory (tests, fuzzing); `name` is used in locations.
  DeckReader(std::string name, std::string text, ReadContext& ctx);
  ~DeckReader();

  /// The next card, or nullptr at the end of input. The previous card must be finished (fully
  /// read, or skipped) before asking for the next; unread arguments are an error unless skipped.
  CardReader* next_card();
  /// Just after the last character of the main deck that is not a blank (1:1 for an empty
  /// file): where "found the end of the input" errors point.
  SourceLocation end_location() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace mbl::parser

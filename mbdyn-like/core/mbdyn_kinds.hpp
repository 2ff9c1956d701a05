#pragma once
// MBDyn's kinds per card family (node kinds, element kinds, joint types, force types, genel types,
// constitutive laws, drive callers, integration methods, ...), each with the section of the input
// manual that describes it. One table decides, for a kind no reader takes, between "not
// implemented" (MBDyn has it; the card is skipped and the run refused) and an input error
// (MBDyn does not have it: `unknown joint type "revolute pinn"; did you mean "revolute pin"?`).
#include <span>
#include <string>
#include <string_view>

#include "parser/card_reader.hpp"

namespace mbl::kinds {

struct Kind {
  std::string_view keyword;  ///< as the manual spells it
  std::string_view section;  ///< of the input manual, e.g. "8.12.39"
};

/// Every kind MBDyn has in `family`; empty for a family the table does not know.
std::span<const Kind> of(std::string_view family);
/// MBDyn's kind of `family` spelt `keyword` (compared as card keywords: case and blanks ignored).
const Kind* find(std::string_view family, std::string_view keyword);
/// The kind of `family` nearest to `keyword` by edit distance, if one is near enough to be a
/// plausible misspelling; empty otherwise.
std::string nearest(std::string_view family, std::string_view keyword);
/// `unknown <what> "<keyword>"[; did you mean "<nearest>"?]`.
std::string unknown_message(std::string_view family, std::string_view what, std::string_view keyword);

/// Records that the deck loads run-time module `name` (`module load:`), which we do not have.
void note_unimplemented_module(parser::ReadContext& ctx, std::string_view name);

/// The next argument of `in` names a kind of `family` that no reader took. If MBDyn has it, it is
/// reported as not implemented with its manual section (the card is skipped); so is any kind
/// after a run-time module we do not have was loaded (modules register kinds of their own).
/// Otherwise an InputError at it says it is unknown and suggests the nearest spelling. `what`
/// names the family in messages ("joint type").
void reject(parser::CardReader& in, std::string_view family, std::string_view what);
/// As above for a kind already consumed: `raw` as written, found at `at`.
void reject(parser::CardReader& in, std::string_view family, std::string_view what, const parser::SourceLocation& at,
            std::string_view raw);

}  // namespace mbl::kinds

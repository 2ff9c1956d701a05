#pragma once
// File and socket names as MBDyn reads them (every `GetFileName` of its parser: include, c81 data,
// module load, file drivers, FEM files, socket paths, external force files, ...): environment
// variables `$NAME` and `${NAME}` are replaced by their values (`$$` is a `$`), then a leading
// `~/` or `~user/` by the home directory (MBDyn's resolve_filename, libmbutil/parsinc.cc).
// Variables set by `setenv:` earlier in the deck are seen, since that card sets the process
// environment.
#include <string>
#include <string_view>

#include "parser/card_reader.hpp"

namespace mbl::parser {

struct ExpandedFileName {
  std::string name;   ///< the expanded name (valid when `error` is empty)
  std::string error;  ///< why the name cannot be expanded, e.g. `environment variable "X" is not set`
};

/// `given` with its environment variables and leading `~` expanded as MBDyn does: a variable
/// name after `$` starts with a letter or '_' and goes on with letters, digits and '_'; `${...}`
/// takes everything up to the next '}'. An unset variable, a missing '}' or a bad leading
/// character is an error (MBDyn refuses the name). `~/...` takes $HOME, `~user/...` the user's
/// home directory; a `~` form that cannot be resolved is left as given (MBDyn's too).
ExpandedFileName expand_file_name(std::string_view given);

/// Reads a quoted file name (CardReader::string) and expands it; an unexpandable name is an
/// input error at the argument: `expected a file name, found "<name>" (<why>)`.
std::string read_file_name(CardReader& in);

}  // namespace mbl::parser

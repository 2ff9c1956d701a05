#pragma once
// Argument parsing shared by the `compare` and `plot` subcommands.
#include <CLI/CLI.hpp>
#include <optional>

namespace mbl::output {

/// Parses argv into `app`. Returns the exit status when the command must stop here: 0 after
/// --help, 2 on bad arguments (CLI11 has printed why); nullopt to go on.
inline std::optional<int> parse_cli(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  return std::nullopt;
}

}  // namespace mbl::output

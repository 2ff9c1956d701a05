// mbdyn-like: the command-line program, invoked like MBDyn:
//   mbdyn-like -f deck [-o prefix] | mbdyn-like deck | mbdyn-like --check deck
//   mbdyn-like compare RUN REF [...] | mbdyn-like plot RUN VAR... -o fig | mbdyn-like view RUN
// Exit codes: 0 ok, 2 input error, 3 solution failure (1: compare found differences).
#include <CLI/CLI.hpp>
#include "parser/console.hpp"
#include <fmt/format.h>

#include <malloc.h>

#include <filesystem>
#include <iostream>

#include "mbdyn-like/cli/run_command.hpp"
#include "mbdyn-like/cli/sweep.hpp"
#include "mbdyn-like/view/view_page.hpp"
#include "parser/errors.hpp"
#include "scripting/lua_engine.hpp"

int main(int argc, char** argv) {
  // A fixed mmap threshold: glibc's sliding one keeps freed large blocks (the sparse matrix's
  // growing arrays, KLU's factors) resident, which raised the peak RSS of the beam N = 10 000 by
  // a fifth; the numbers computed do not change.
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  // Sub-commands that have their own options.
  if (argc >= 2) {
    const std::string sub = argv[1];
    if (sub == "compare") return mbl::cli::compare_command(argc - 1, argv + 1);
    if (sub == "plot") return mbl::cli::plot_command(argc - 1, argv + 1);
    if (sub == "sweep") return mbl::cli::sweep_command(argc - 1, argv + 1);
    if (sub == "view") return mbl::view::run_view_cli(argc - 1, argv + 1);
  }

  CLI::App app{"mbdyn-like: a multibody dynamics solver that runs MBDyn input decks"};
  app.set_version_flag("--version", mbl::cli::version_string());
  mbl::cli::RunOptions opt;
  std::string input_flag, input_positional;
  app.add_option("-f,--input-file", input_flag, "input deck");
  app.add_option("deck", input_positional, "input deck (same as -f)");
  app.add_option("-o,--output-file", opt.output_prefix,
                 "output prefix (default: the deck's name without its extension)");
  app.add_option("-D,--define", opt.defines,
                 "name[:type]=value: declare a deck variable before reading, as a `set:` at the top "
                 "(`set: ifndef` keeps it); type bool, integer, real or string, default the value's")
      ->allow_extra_args(false);
  app.add_option("--metric", opt.metrics,
                 "name=max|min|final|rms(<expression>): a math-language expression evaluated after "
                 "every converged step, reduced to one number (printed at the end)");
  app.add_option("--metrics-file", opt.metrics_file, "write the metrics there instead of stdout");
  app.add_flag("--check", opt.check_only, "read and validate the deck, print a model summary, and exit");
  app.add_flag("-s,-q,--silent,--quiet", opt.quiet, "print only errors");
  bool lua_unsafe = false;
  app.add_flag("--lua-unsafe", lua_unsafe,
               "give Lua scripts every standard library (io, os, package, require, dofile); trusted decks only");
  app.footer(
      "Subcommands:\n"
      "  mbdyn-like compare RUN REF [--tol 1e-4] [--vars ...] [--json]   compare two runs\n"
      "  mbdyn-like plot RUN VAR... -o fig.svg                              plot variables\n"
      "  mbdyn-like sweep deck --grid 'K=1e3,1e4' [--metric ...] [-o DIR]   parameter study\n"
      "  mbdyn-like view RUN [-o RUN.html] [--every N] [--from T0] [--to T1] animate a run in a browser\n"
      "Exit codes: 0 ok, 2 input error, 3 solution failure.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  if (!input_flag.empty() && !input_positional.empty() && input_flag != input_positional) {
    std::cerr << "mbdyn-like: error: two input decks given (" << input_flag << ", " << input_positional << ")\n";
    return 2;
  }
  mbl::scripting::set_unsafe_libraries(lua_unsafe);
  mbl::set_console_quiet(opt.quiet);
  opt.deck = input_flag.empty() ? input_positional : input_flag;
  if (opt.deck.empty()) {
    std::cerr << "mbdyn-like: error: no input deck (use -f <deck> or give it as argument; --help for usage)\n";
    return 2;
  }
  return mbl::cli::run_command(opt);
}

#include "mbdyn-like/cli/run_command.hpp"
#include "parser/console.hpp"

#include <fmt/format.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <fstream>
#include <vector>
#include <iostream>

#include "elements/drives/drive_reader.hpp"
#include "mbdyn-like/core/interruption.hpp"
#include "mbdyn-like/model/model_builder.hpp"
#include "mbdyn-like/output/compare.hpp"
#include "mbdyn-like/output/plot.hpp"
#include "mbdyn-like/phases/metrics_observer.hpp"
#include "mbdyn-like/phases/model_output.hpp"
#include "mbdyn-like/phases/progress_observer.hpp"
#include "mbdyn-like/phases/simulation.hpp"
#include "parser/errors.hpp"
#include "parser/math/math_parser.hpp"

namespace mbl::cli {

namespace fs = std::filesystem;

std::string version_string() {
#ifdef MBL_HAVE_MPI
  return "mbdyn-like 0.1.0 (sweep: MPI)";
#else
  return "mbdyn-like 0.1.0";
#endif
}

int compare_command(int argc, char** argv) { return output::run_compare_cli(argc, argv); }
int plot_command(int argc, char** argv) { return output::run_plot_cli(argc, argv); }

namespace {

void print_diagnostics(const parser::ReadContext& ctx, bool quiet) {
  for (const auto& d : ctx.diagnostics()) {
    // -q: errors only (a card not implemented stops the run: it is one)
    if (quiet && (d.severity == "info" || d.severity == "warning")) continue;
    std::cerr << parser::format_diagnostic(d.where, d.severity, d.message);
  }
}

const char* signal_name(int signal) { return signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "a signal"; }

std::string default_prefix(const std::string& deck) {
  fs::path p(deck);
  return (p.parent_path() / p.stem()).string();
}

/// What the output writers need of a deck as read (its drives and frames: a repeated run's are
/// its own reading's).
output::OutputConfig output_config(const BuildResult& built, const RunOptions& opt) {
  output::OutputConfig oc;
  oc.prefix = opt.output_prefix.empty() ? default_prefix(opt.deck) : opt.output_prefix;
  const RunSettings& s = built.settings;
  oc.frequency = s.output_frequency;
  oc.meter = s.output_meter;
  oc.precision = s.output_precision;
  oc.precision_given = s.output_precision_given;
  oc.netcdf = s.netcdf;
  oc.netcdf_sync = s.netcdf_sync;
  oc.text = s.text;
  oc.step_lines = s.output_messages;
  oc.step_key = !s.inverse_dynamics.enabled;
  oc.reference_frames = s.output_reference_frames;
  oc.dof_stats.flags = s.print_flags;
  oc.dof_stats.initial_assembly = !s.skip_initial_joint_assembly && !s.inverse_dynamics.enabled;
  oc.dof_stats.assembly_kinds = s.assembly_use;
  oc.dof_stats.silent = opt.quiet;
  // MBDyn's dynamic nodes with output write their automatic structural element's .ine line
  // unless `output inertia, no` (strnode.cc keeps the legacy default, autostr.cc writes it).
  oc.inertia_text = true;
  for (const auto& [label, ref] : built.read_context->references())
    oc.reference_frame_lines.push_back({label, ref.frame.x_W, ref.frame.R_W, ref.frame.v_W, ref.frame.w_W,
                                        static_cast<StructNode::OrientationOutput>(ref.orientation_description)});
  for (const drives::DriveCallerDefinition& d : drives::drive_caller_definitions(*built.read_context))
    if (d.output || d.output_derivative) oc.drives.push_back({d.label, d.drive, d.output, d.output_derivative});
  return oc;
}

}  // namespace

int run_command(const RunOptions& opt) {
  BuildResult built;
  std::vector<DeckDefine> defines;
  try {
    for (const std::string& d : opt.defines) defines.push_back(parse_define(d));
  } catch (const std::invalid_argument& e) {
    std::cerr << "mbdyn-like: error: " << e.what() << '\n';
    return 2;
  }
  try {
    built = read_deck(opt.deck, defines);
  } catch (const parser::InputError& e) {
    std::cerr << e.format();
    return 2;
  } catch (const math::StopRequest& stop) {
    // stop() or a card's `stop` while reading (MBDyn's NoErr): the run ends before it starts.
    std::cerr << "mbdyn-like: " << stop.what() << '\n';
    return stop.exit_code;
  }
  print_diagnostics(*built.read_context, opt.quiet);
  if (opt.check_only) {
    std::cout << fmt::format("{}: model summary\n", opt.deck);
    for (const auto& [kind, n] : built.summary) std::cout << fmt::format("  {:>6}  {}\n", n, kind);
    std::cout << fmt::format("not implemented: {}\n", built.not_implemented);
    return 0;
  }
  if (built.not_implemented > 0) {
    std::cerr << fmt::format("mbdyn-like: error: {} card(s) use features that are not implemented yet (listed above); "
                             "not running the simulation\n",
                             built.not_implemented);
    return 2;
  }

  output::OutputConfig oc = output_config(built, opt);
  const RunSettings& s = built.settings;
  // The output folder is created if missing (e.g. -o build/examples/pendulum).
  {
    std::error_code ec;
    const fs::path dir = fs::path(oc.prefix).parent_path();
    if (!dir.empty() && !fs::exists(dir)) fs::create_directories(dir, ec);
    if (!ec && !dir.empty() && !fs::is_directory(dir)) ec = std::make_error_code(std::errc::not_a_directory);
    if (ec) {
      std::cerr << fmt::format("mbdyn-like: error: cannot create the output folder {}: {}\n", dir.string(), ec.message());
      return 2;
    }
  }
  // Outputs are `<prefix>.<extension>`: never the deck itself (`-o deck` for a deck named
  // deck.mov, or a deck named pendulum.out run without -o).
  {
    std::vector<std::string> extensions = {"nc"};
    for (int f = 0; f < kOutputFileKinds; ++f)
      extensions.emplace_back(output::extension(static_cast<OutputFile>(f)));
    for (const std::string& ext : extensions) {
      std::error_code ec;
      const std::string out_path = oc.prefix + "." + ext;
      if (fs::exists(out_path, ec) && fs::equivalent(out_path, opt.deck, ec)) {
        std::cerr << fmt::format("mbdyn-like: error: output file {} would overwrite the input deck; choose another "
                                 "output prefix with -o\n", out_path);
        return 2;
      }
    }
  }
  // `strategy: error control, ..., global` (docs/adaptive.md, "Global error"): a run whose global
  // error estimate passed the tolerance is read and run again, once, with the tolerances scaled
  // by 0.8 over that estimate (the global error of a run under error control per unit step is
  // proportional to the tolerance); the second run's outputs replace the first's.
  RunSettings settings = s;
  double tolerance_scale = 1.0;
  for (int pass = 1;; ++pass) {
    if (pass > 1) {
      try {
        built = read_deck(opt.deck, defines);
      } catch (const parser::InputError& e) {
        std::cerr << e.format();
        return 2;
      }
      settings = built.settings;
      oc = output_config(built, opt);
      settings.strategy.relative_tolerance *= tolerance_scale;
      if (settings.strategy.absolute_tolerance >= 0.0) settings.strategy.absolute_tolerance *= tolerance_scale;
    }
    bool repeat = false;
    std::vector<Metric> metrics;
    try {
      for (const std::string& m : opt.metrics) metrics.push_back(parse_metric(m, built.read_context->math()));
    } catch (const parser::InputError& e) {
      std::cerr << e.format();
      return 2;
    } catch (const std::invalid_argument& e) {
      std::cerr << "mbdyn-like: error: " << e.what() << '\n';
      return 2;
    }
    try {
      ModelOutput output(oc);
      auto metrics_observer = std::make_shared<MetricsObserver>(built.read_context->math(), std::move(metrics));
      if (!metrics_observer->metrics().empty()) built.model->add_step_observer(metrics_observer);
      // The progress line, on a terminal only (never with -s, nor into a pipe or a file).
      std::shared_ptr<ProgressObserver> progress;
      if (!opt.quiet && isatty(STDERR_FILENO)) {
        progress = std::make_shared<ProgressObserver>(stderr, s.initial_time,
                                                      s.forever ? std::numeric_limits<double>::infinity() : s.final_time);
        built.model->add_step_observer(progress);
      }
      struct EraseProgress {
        std::shared_ptr<ProgressObserver> p;
        ~EraseProgress() { if (p) p->finish(); }
      } erase_progress{progress};
      std::ostream& log = console_out();  // -q: nothing but errors
      // The metrics are written however the run ends (a failed case of a sweep keeps what it
      // had), by the run that is not repeated.
      struct WriteMetrics {
        const MetricsObserver& metrics;
        const RunOptions& opt;
        const bool& repeat;
        ~WriteMetrics() {
          if (metrics.metrics().empty() || repeat) return;
          if (opt.metrics_file.empty()) {
            metrics.write(std::cout);
          } else {
            std::ofstream f(opt.metrics_file);
            metrics.write(f);
          }
        }
      } write_metrics{*metrics_observer, opt, repeat};
      // SIGINT/SIGTERM end the run after the current step with its outputs complete and closed; a
      // second signal, or the first one left unanswered for StopWatchdog::kGraceSeconds (a step
      // that never ends), closes the outputs at the last step written and ends the program there.
      const StopWatchdog watchdog([&output](int signal, bool second_signal) {
        const ModelOutput::Written w = output.close_now();
        const std::string why = second_signal ? "a second signal"
                                              : fmt::format("no end of the step within {:g} s", StopWatchdog::kGraceSeconds);
        const std::string message =
            fmt::format("mbdyn-like: stopped inside a step by {} ({}); outputs are complete up to time {:g} (step {})\n",
                        signal_name(signal), why, w.time, w.step);
        std::fwrite(message.data(), 1, message.size(), stderr);
        std::fflush(stderr);
        std::_Exit(128 + signal);
      });
      const RunReport r = run_simulation(*built.model, settings, output, log);
      if (progress) progress->finish();
      if (r.status == RunStatus::Interrupted) {
        std::cerr << fmt::format("mbdyn-like: {} by {}; outputs are complete up to time {:g} (step {})\n", r.message,
                                 signal_name(r.signal), r.final_time, r.steps);
        return 128 + r.signal;
      }
      if (r.status == RunStatus::SolutionFailure) {
        std::cerr << "mbdyn-like: error: " << r.message << "\n"
                  << fmt::format("mbdyn-like: outputs are complete up to time {:g} (step {})\n", r.final_time, r.steps);
        return 3;
      }
      if (pass == 1 && r.global_error > 1.0 && std::isfinite(r.global_error)) {
        repeat = true;
        // At most a thousandth of the deck's tolerances: an estimate beyond that is more likely a
        // model out of the estimate's reach than an error to chase.
        tolerance_scale = std::max(0.8 / r.global_error, 1e-3);
        log << fmt::format("error control: the run is repeated with the tolerances times {:.3g} to bring its global "
                           "error within them (`global`); its outputs are rewritten\n",
                           tolerance_scale);
      } else {
        if (pass > 1)
          log << fmt::format("error control: the repeated run's global error estimate is {:.3g} times the deck's "
                             "tolerance\n",
                             r.global_error * tolerance_scale);
        if (!opt.quiet)
          std::cout << fmt::format("mbdyn-like: {} steps to time {:g} ({} Newton iterations)\n", r.steps,
                                   r.final_time, r.total_iterations);
      }
    } catch (const parser::InputError& e) {
      std::cerr << e.format();
      return 2;
    } catch (const output::OutputError& e) {
      // Outputs that cannot be created: nothing was solved (they are opened before the first phase).
      std::cerr << "mbdyn-like: error: " << e.what() << "\n";
      return 2;
    } catch (const std::exception& e) {
      std::cerr << "mbdyn-like: error: " << e.what() << "\n";
      return 3;
    }
    if (!repeat) break;
  }
  return 0;
}

}  // namespace mbl::cli

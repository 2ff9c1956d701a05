#pragma once
// Runs a deck inside the test process (no child program), up to a given phase, with its outputs
// under a prefix: for tests that only need the headers, the .log or the first record.
#include <exception>
#include <sstream>
#include <string>

#include "mbdyn-like/model/model_builder.hpp"
#include "mbdyn-like/phases/model_output.hpp"
#include "mbdyn-like/phases/simulation.hpp"
#include "parser/errors.hpp"

namespace mbl::test {

/// Reads and runs `deck` up to `abort_after` (input: the .log, the headers and the configuration as read,
/// derivatives: the first record too) with text output, and NetCDF when `netcdf`; outputs
/// go to `prefix`. Returns false, with the reason in `why`, when the deck uses something we do not
/// implement yet or the run fails.
inline bool run_in_process(const std::string& deck, const std::string& prefix, AbortAfter abort_after,
                           bool netcdf, std::string& why) {
  BuildResult built;
  try {
    built = read_deck(deck);
  } catch (const parser::InputError& e) {
    why = e.what();
    return false;
  }
  if (built.not_implemented > 0) {
    why = "not implemented features";
    return false;
  }
  RunSettings s = built.settings;
  s.abort_after = abort_after;
  output::OutputConfig oc;
  oc.prefix = prefix;
  oc.frequency = s.output_frequency;
  oc.meter = s.output_meter;
  oc.precision = s.output_precision;
  oc.precision_given = s.output_precision_given;
  oc.netcdf = netcdf;
  oc.text = true;
  std::ostringstream log;
  try {
    ModelOutput out(oc);
    const RunReport r = run_simulation(*built.model, s, out, log);
    if (r.status == RunStatus::SolutionFailure) {
      why = r.message;
      return false;
    }
  } catch (const std::exception& e) {
    why = e.what();
    return false;
  }
  return true;
}

}  // namespace mbl::test

#pragma once
// `mbdyn-like compare RUN REF`: agreement of two results (ours or MBDyn's, NetCDF or text) per
// variable, aligned on time.
//
//   mbdyn-like compare RUN REF [--tol 1e-4] [--vars 'node.struct.*.X,...'] [--norm range|model]
//                              [--json] [--partial] [--ref-stride N]
//
// Per variable: the max absolute error over time and components, that error normalised (by the
// reference's range, or with --norm model by the model size = bounding-box diagonal of every
// node.struct.*.X of REF over the run, the measure of decks/INDEX.md), and the time of the worst
// point. Exit 0 when every normalised error is within --tol, 1 otherwise, 2 on bad input.
#include <string>
#include <vector>

#include "mbdyn-like/output/results.hpp"

namespace mbl::output {

enum class Normalisation { Range, Model };

struct CompareOptions {
  double tol = 1e-4;
  std::vector<std::string> patterns;  ///< empty: every variable present in both
  Normalisation norm = Normalisation::Range;
  /// Accept RUN covering only part of REF's time span or writing another number of records (by
  /// default a run that stopped early, or outputs that do not overlap fully, fail).
  bool partial = false;
  /// REF keeps only every ref_stride-th record of its run (../shared/corpus' ref.mov.gz).
  std::size_t ref_stride = 1;
  /// Smallest scale a variable is divided by (range norm): variables whose reference is at
  /// round-off level (e.g. reactions of an unloaded model) are compared in absolute terms.
  double floor = 0.0;
};

struct VariableError {
  std::string name;
  double max_abs = 0.0;      ///< max |run - ref| over time and components
  double scale = 1.0;        ///< what max_abs is divided by
  double normalised = 0.0;   ///< max_abs / scale
  double worst_time = 0.0;
  int worst_component = 0;   ///< 0-based
  bool within = true;
};

struct CompareReport {
  std::vector<VariableError> vars;
  /// What the errors were divided by: "range" (each variable's reference range), "model" (the
  /// model size) or "absolute" (nothing: --norm model on a model of size 0, e.g. no node moves,
  /// or a single record); `note` says why when it differs from the request.
  std::string normalisation;
  std::string note;
  std::size_t points = 0;     ///< aligned time points compared
  double t_begin = 0.0, t_end = 0.0;  ///< compared span
  double ref_begin = 0.0, ref_end = 0.0;
  bool covers_ref = true;             ///< the compared span is REF's whole span
  /// Records each side wrote (REF's before striding); a run of the same deck must write exactly
  /// MBDyn's records (same step loop, same last step). 0 where unknown.
  std::size_t run_records = 0, ref_records = 0;
  bool records_match() const {
    return run_records == 0 || ref_records == 0 || run_records == ref_records;
  }
  bool partial_allowed = false;
  double model_size = 0.0;    ///< 0 when REF has no node positions
  std::vector<std::string> only_in_run, only_in_ref;
  /// Every variable within tolerance, over REF's whole span and with REF's number of records
  /// (unless partial was allowed).
  bool all_within() const;
};

/// Bounding-box diagonal of all node.struct.*.X over the run (0 if there are none).
double model_size(const Results& r);
/// Compares `run` with `ref`. Throws ResultsError when nothing can be compared (no common
/// variable, no time overlap, a pattern matching nothing). With --norm model and a reference of
/// size 0 the errors stay absolute (see CompareReport::note).
CompareReport compare_results(const Results& run, const Results& ref, const CompareOptions& o);

/// The CLI; argv[0] is "compare". Returns the exit status.
int run_compare_cli(int argc, char** argv);

}  // namespace mbl::output

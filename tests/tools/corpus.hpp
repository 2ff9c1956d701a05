#pragma once
// The conformance corpus (../shared/corpus, see its README.md): real MBDyn decks with how the
// real MBDyn ended on each and its strided .mov. `mbl-corpus` reads every deck with
// `mbdyn-like --check` and, with --run, runs those that use only implemented cards and compares
// the node positions with MBDyn's .mov (1e-4 of the model size). The sample test runs a fixed
// few of them.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace mbl::corpus {

namespace fs = std::filesystem;

/// One entry of corpus/index.json (the fields used here).
struct Deck {
  std::string id;
  std::string main;           ///< main file, relative to <id>/deck/
  std::string mbdyn_status;   ///< complete, mbdyn-solve-fail, timeout
  double mbdyn_wall_s = 0.0;
  std::size_t stride = 1;
  std::size_t records = 0;    ///< records MBDyn wrote (before striding)
  bool from_netcdf = false;
  bool has_reference = false; ///< <id>/mbdyn/ref.mov.gz exists
  /// MBDyn read the deck (it completed or failed while solving): we must read it too.
  bool mbdyn_reads() const { return mbdyn_status == "complete" || mbdyn_status == "mbdyn-solve-fail"; }
};

std::vector<Deck> read_index(const fs::path& corpus_dir);

enum class Outcome {
  Read,            ///< --check: no error, every card implemented
  NotImplemented,  ///< --check: only `not implemented` refusals
  InputError,      ///< --check: an input error (exit 2 with error:)
  Crash,           ///< killed by a signal, or an unexpected exit status
  Timeout,
  Agree,           ///< --run: positions within tolerance, same number of records
  Disagree,        ///< --run: above tolerance, or another number of records
  SolveFail,       ///< --run: stopped with a solution failure (exit 3)
  NoReference,     ///< --run: ran to the end; MBDyn wrote no .mov to compare with
};
const char* outcome_name(Outcome o);

struct Result {
  std::string id;
  Outcome check = Outcome::Read;    ///< what --check gave
  bool ran = false;                 ///< run (and compared, if MBDyn wrote a .mov)
  Outcome outcome = Outcome::Read;  ///< the run's outcome if it ran, else `check`
  std::vector<std::string> not_implemented;  ///< kinds reported `not implemented`
  std::string message;                       ///< first error line, or the comparison summary
  double error = -1.0;                       ///< --run: worst position error / model size
  /// --run, decks agreeing in positions: worst velocity error (XP, Omega) / each variable's range
  /// (ranges below 1e-3 count as 1e-3); -1 when not compared.
  double velocity_error = -1.0;
  std::string velocity_worst;  ///< the variable and time of velocity_error
  bool velocities_agree = false;  ///< velocity_error within the tolerance
  std::size_t run_records = 0, ref_records = 0;
  double wall_s = 0.0;
};

struct Options {
  fs::path program;            ///< mbdyn-like
  fs::path corpus;             ///< ../shared/corpus
  fs::path work;               ///< where runs write their outputs
  bool run = false;            ///< also run and compare the decks that read cleanly
  double check_timeout_s = 60.0;
  double run_timeout_s = 600.0;
  double tol = 1e-4;           ///< position error / model size
  int jobs = 1;
};

/// Checks (and, with Options::run, runs and compares) `decks`, `jobs` at a time.
std::vector<Result> process(const std::vector<Deck>& decks, const Options& o);

/// The text summary: counts per outcome for decks MBDyn reads / completes, the not-implemented
/// kinds by number of decks, and the decks with input errors.
std::string summary(const std::vector<Deck>& decks, const std::vector<Result>& results, bool run);

}  // namespace mbl::corpus

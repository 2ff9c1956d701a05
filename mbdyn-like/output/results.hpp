#pragma once
// Readers of MBDyn's results, for `compare` and `plot`: the NetCDF file (any variable with time as
// first dimension) and the text files (.mov, .jnt, .frc, .act, timed by the .out file). Both give
// the same variable names, those of MBDyn's NetCDF output (appendix C): node.struct.<L>.X,
// node.struct.<L>.E|Phi|R, .XP, .Omega, .XPP, .OmegaP; elem.joint.<L>.f/.m/.F/.M (+ .X/.Phi/.V/
// .Omega for total joints, .extra for other joints' extra columns); elem.force.<L>.F/.Arm/.Arm1/
// .Arm2; elem.couple.<L>.M; elem.beam.<L>.F/.M or .F_I/.M_I/.F_II/.M_II.
// Matrices (R) are held row by row (R11, R12, R13, R21, ...) whichever file they came from.
#include <cstddef>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace mbl::output {

/// The results cannot be read (missing file, unknown format, inconsistent contents).
class ResultsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One variable over the run: values[t * ncomp + c].
struct Series {
  int ncomp = 1;
  std::vector<double> values;
  std::string units;
  bool degrees = false;  ///< angles in degrees (Euler angles): differences wrap at 360
  /// Per record, whether the entity wrote it (text output of an inactive driven element skips
  /// records); empty when every record is present.
  std::vector<unsigned char> present;
  double at(std::size_t t, int c) const { return values[t * std::size_t(ncomp) + std::size_t(c)]; }
  bool has(std::size_t t) const { return present.empty() || present[t] != 0; }
  std::size_t times() const { return ncomp > 0 ? values.size() / std::size_t(ncomp) : 0; }
};

struct Results {
  std::string source;         ///< what was read (for messages)
  std::vector<double> time;   ///< time of each record
  std::vector<long> step;     ///< step of each record, when known
  bool time_is_index = false; ///< no time information: records numbered 0, 1, ...
  std::map<std::string, Series> vars;
  /// Records the run wrote: records() unless only every `stride`-th one was kept (a strided
  /// reference such as ../shared/corpus' ref.mov.gz), then the count its .out file lists.
  std::size_t written_records = 0;
  std::size_t stride = 1;
  std::size_t records() const { return time.size(); }
};

/// Reads every time-dependent variable of a NetCDF file.
Results read_netcdf(const std::string& path);
/// Reads the text output <prefix>.mov/.jnt/.frc/.act (those present; at least one is needed),
/// with the orientation kinds and joint types from <prefix>.log and the times from <prefix>.out.
/// An incomplete last record (a run that stopped while writing) is dropped.
/// With `stride` > 1 the text files hold only every stride-th record of the run, starting with
/// the first; the .out file (unstrided) then times them and counts the records written.
Results read_text(const std::string& prefix, std::size_t stride = 1);
/// `what` is a .nc file, a text output file (<prefix>.mov, .out, ...) or an output prefix.
Results read_results(const std::string& what, std::size_t stride = 1);

/// Times of the output steps listed in an .out file (Step lines with the Out flag set).
struct OutSteps {
  std::vector<long> step;
  std::vector<double> time;
};
OutSteps read_out_file(const std::string& path);

/// Glob match with '*' (any run of characters, dots included) and '?'.
bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace mbl::output

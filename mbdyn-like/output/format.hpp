#pragma once
// Number formats of MBDyn's text output, as found in the files it writes:
//  - entity files (.mov, .jnt, .frc, .act, ...): each value is a blank followed by C's "%.<p>e"
//    (`output precision` p, default 6: " 1.000000e+00", negative zero " -0.000000e+00");
//    lines of nodes and of most elements start with the label right-aligned in 8 characters;
//  - the .out file: C++ default stream formatting ("%.<p>g"), see OutFormat below.
#include <string>
#include <string_view>

namespace mbl::output {

/// Default `output precision` (input manual §5.3.9).
inline constexpr int kDefaultPrecision = 6;

/// Appends " <v>" in "%.<precision>e" form to `out`.
void append_real(std::string& out, double v, int precision);
/// " <v>" in "%.<precision>e" form.
std::string format_real(double v, int precision);
/// The label as MBDyn starts node/joint lines: right-aligned in 8 characters.
std::string format_label(unsigned label);
/// "%.<precision>g" (C++ default float formatting with that precision), as in the .out file.
std::string format_general(double v, int precision);

/// The numbers of one "Step" line of the .out file (input manual, solution phases).
struct StepLine {
  long step = 0;
  double time = 0.0;
  double time_step = 0.0;
  int iterations = 0;
  double residual_error = 0.0;
  double solution_error = 0.0;
  bool solution_converged = false;  ///< MBDyn's SolConv column (0 when the residual test passed)
  bool output = true;               ///< whether this step was an output step
};

/// "Step <n> <time> <dt> <iterations> <residual> <solution error> <sol conv> <out>" with the
/// numbers in "%.<precision>g" form (no newline).
std::string format_step_line(const StepLine& s, int precision);

/// Precision MBDyn's .out file uses: the `output precision` when given; otherwise 6 digits until
/// the integration method proper takes over, 16 digits from then on. In the reference files that
/// is the first Step line for single-step multistage methods (Bathe: step 1) and the third Step
/// line for multistep methods, whose step 1 is taken by the starter (ms, bdf: step 2).
struct OutFormat {
  int precision = kDefaultPrecision;
  bool precision_given = false;
  bool regular_steps = false;  ///< set by OutputManager::begin_regular_steps()
  int precision_for_step_line(long step_lines_written) const {
    if (precision_given) return precision;
    return regular_steps || step_lines_written >= 2 ? 16 : kDefaultPrecision;
  }
  int precision_for_header() const { return precision_given ? precision : kDefaultPrecision; }
};

/// "# Derivatives solution step at time <t> performed in <n> iterations with <e> error"
std::string format_derivatives_line(double time, int iterations, double error, int precision);
/// "# Initial solution after dummy steps at time <t> performed in <n> iterations with <e> error"
std::string format_dummy_steps_line(double time, int iterations, double error, int precision);
/// The two comment lines that precede the first Step line.
std::string_view step_key_lines();

}  // namespace mbl::output

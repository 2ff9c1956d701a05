#pragma once
// The OutputSink of a run: MBDyn's text files <prefix>.out/.log/.mov/.jnt/... and the NetCDF file
// <prefix>.nc, with the control-data output settings (input manual §5.3.5-5.3.11).
//
// How the solution phases drive it:
//
//   OutputManager out(config);
//   out.begin_setup();                                  // .log ("output frequency: ..."), .nc
//   out.declare_group("node", "struct", labels_of_all_structural_nodes);
//   for (node : nodes)    if (node->output_enabled()) node->output_setup(out);
//   out.declare_group("elem", "autostruct", ...); out.declare_group("elem", "joint", ...); ...
//   for (elem : elements) if (elem->output_enabled()) elem->output_setup(out);
//   out.end_setup();                                    // NetCDF leaves define mode
//   out.write_derivatives_line(t0, iterations, error);  // first line of the .out file
//   for each converged step:
//     if (out.begin_step(step, time, dt)) {             // honours output frequency / meter
//       for (node : nodes)    if (node->output_enabled()) node->output(out);
//       for (elem : elements) if (elem->output_enabled()) elem->output(out);
//     }
//     out.end_step({step, time, dt, iterations, residual, 0, false, /*output*/ ignored});
//   out.close();
//
// Text files are created on first use (only the files some entity writes, as MBDyn). Between
// begin_step() of a non-output step and end_step(), text() returns nullptr for entity files and
// NetCDF puts are ignored, so an entity that writes anyway does no harm.
#include <array>
#include <chrono>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "mbdyn-like/core/drive_caller.hpp"
#include "mbdyn-like/core/output_sink.hpp"
#include "mbdyn-like/core/struct_node.hpp"
#include "mbdyn-like/output/dof_stats.hpp"
#include "mbdyn-like/output/format.hpp"
#include "mbdyn-like/output/nc_writer.hpp"

namespace mbl::output {

/// Control-data output settings.
struct OutputConfig {
  std::string prefix = "mbdyn-like";  ///< files are <prefix>.<ext>
  int precision = kDefaultPrecision;  ///< `output precision`
  bool precision_given = false;
  long frequency = 1;                 ///< `output frequency`
  DriveCallerPtr meter;               ///< `output meter` (replaces frequency when set)
  bool netcdf = false;                ///< `output results: netcdf`
  NcFormat netcdf_format = NcFormat::Classic;
  bool netcdf_sync = false;           ///< `, sync`
  bool text = true;                   ///< `, no text` clears it (.out and .log are still written)
  /// The .out "Step" lines (`output: none` clears MBDyn's messages flag) and their key lines
  /// (MBDyn's inverse dynamics solver writes none).
  bool step_lines = true, step_key = true;
  /// node.struct.<L>.B/G/BP/GP of the automatic structural elements in the NetCDF file (MBDyn
  /// writes them by default; `default output: none` turns them off).
  bool autostruct_netcdf = true;
  /// The .ine file of the automatic structural elements (the program sets it, as MBDyn writes it
  /// for every dynamic node with output; off by default here for the writer's unit tests).
  bool inertia_text = false;
  /// Drive callers defined with `output, yes` (the .drv file).
  struct OutputDrive {
    unsigned label;
    DriveCallerPtr drive;
    bool value = true;
    bool derivative = false;
  };
  std::vector<OutputDrive> drives;
  /// `default output: reference frames`: the `reference:` frames of the deck (global x, R, v, w),
  /// by label, each with the orientation description it was read with (the .rfm file).
  struct ReferenceFrameLine {
    unsigned label;
    Vec3 x_W;
    Mat3 R_W;
    Vec3 v_W, w_W;
    StructNode::OrientationOutput orientation;
  };
  bool reference_frames = false;
  std::vector<ReferenceFrameLine> reference_frame_lines;
  /// `print:` (the unknowns' listing on stdout, or the .dof file with `to file`).
  DofStatsSettings dof_stats;
};

/// File name extension of each text file.
std::string_view extension(OutputFile f);

class OutputManager : public OutputSink {
 public:
  explicit OutputManager(OutputConfig config);
  ~OutputManager() override;
  OutputManager(const OutputManager&) = delete;
  OutputManager& operator=(const OutputManager&) = delete;

  const OutputConfig& config() const { return config_; }

  // ---- setup -------------------------------------------------------------------------------------
  /// Opens the .log (first line "output frequency: <n>|custom") and the .nc file. Throws
  /// OutputError when a file cannot be created.
  void begin_setup();
  /// Label list of one node or element type (`level` "node" or "elem"; `type_key` as in MBDyn's
  /// NetCDF: "struct", "autostruct", "joint", "beam", "force" (forces and couples), "gravity").
  /// List every entity of the type, output enabled or not. Empty description: MBDyn's.
  void declare_group(const std::string& level, const std::string& type_key,
                     const std::vector<unsigned>& labels, const std::string& description = {});
  void end_setup();

  // ---- steps -------------------------------------------------------------------------------------
  /// Whether `step` at `time` is an output step (`output meter` != 0 at `time`, else
  /// step % frequency == 0). Starts a NetCDF record when it is.
  bool begin_step(long step, double time, double dt);
  bool in_output_step() const { return in_output_step_; }
  /// Output steps begun so far (MBDyn's OutputHandler::GetCurrentStep once that step is out).
  long output_records() const { return output_records_; }
  /// Writes the .out Step line of the step (its `output` field is taken from begin_step; none
  /// without `step_line`) and ends the NetCDF record.
  void end_step(const StepLine& line, bool step_line = true);
  /// "# Derivatives solution step at time ..." (before the first Step line).
  void write_derivatives_line(double time, int iterations, double error);
  /// "# Initial solution after dummy steps at time ..." (after the derivatives line).
  void write_dummy_steps_line(double time, int iterations, double error);
  /// The integration method proper (not its starter) takes over from this step on: the .out
  /// numbers get 16 digits (see OutFormat). Call before end_step() of that step; without the call
  /// the switch happens at the third Step line, right for multistep methods.
  void begin_regular_steps() { out_format_.regular_steps = true; }
  /// Precision the .out stream has reached (MBDyn's is sticky: the one of the last Step line,
  /// the header's before any).
  int out_precision() const {
    return step_lines_ > 0 ? out_format_.precision_for_step_line(step_lines_ - 1) : out_format_.precision_for_header();
  }
  /// Any other line of the .out file (e.g. "End of derivatives; no simulation is required.").
  void write_out_line(const std::string& line);
  /// Flushes text files and syncs the NetCDF file.
  void flush();
  void close();

  // ---- OutputSink --------------------------------------------------------------------------------
  std::ostream* text(OutputFile f) override;
  void write(std::ostream& os, double v) override;
  using OutputSink::write;
  /// Right-aligned in 8 characters, except in the .frc file where MBDyn writes the plain label.
  void write_label(std::ostream& os, unsigned label) override;
  bool netcdf() const override { return nc_ != nullptr; }
  void declare_entity(const std::string& name, const std::string& type) override;
  VarId declare(const std::string& name, NcShape shape, const std::string& units,
                const std::string& description) override;
  void put(VarId var, double v) override;
  void put(VarId var, const Vec3& v) override;
  void put(VarId var, const Mat3& m) override;

  /// The NetCDF file, when written (for variables outside the records, e.g. eig.*).
  NcWriter* nc_file() { return nc_.get(); }
  /// Path of a text file (whether written or not).
  std::string path(OutputFile f) const;

 private:
  std::ofstream& open(OutputFile f);
  void write_step_key_once();

  OutputConfig config_;
  OutFormat out_format_;
  static constexpr std::size_t kFiles = kOutputFileKinds;
  std::array<std::unique_ptr<std::ofstream>, kFiles> files_;
  std::unique_ptr<NcWriter> nc_;
  bool setup_done_ = false;
  bool in_step_ = false;
  bool in_output_step_ = false;
  bool step_key_written_ = false;
  long step_lines_ = 0;
  long output_records_ = 0;
  static constexpr std::chrono::milliseconds kOutFlushInterval{200};
  std::chrono::steady_clock::time_point last_out_flush_{};
  std::string buffer_;
};

}  // namespace mbl::output

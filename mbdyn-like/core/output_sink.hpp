#pragma once
// Where nodes and elements write their results: MBDyn's text files (one stream per file kind,
// one line per entity per output step) and NetCDF variables (manual appendix C). Implemented by
// mbdyn-like/output; entities only say what they write.
#include <ostream>
#include <string>

#include "mbdyn-like/core/types.hpp"

namespace mbl {

/// The text files of MBDyn, by extension.
enum class OutputFile { Out, Log, Mov, Jnt, Frc, Ine, Act, Drv, Grv, Abs, Rot, Prm, Prs, Hyd, Mod, Aer, Air, Thn, Prl, Rfm, Pla, Dof };
/// The number of OutputFile kinds (Dof, the `print: ..., to file` listing, is the last).
inline constexpr int kOutputFileKinds = static_cast<int>(OutputFile::Dof) + 1;

/// Shape of a NetCDF variable per time record (time is always the first, unlimited dimension).
/// Scalar is a double ("doublereal"); IntScalar an int ("integer", e.g. elem.driven.<L>.activation,
/// written with put(var, double) rounded); Mat3 is stored (time, Vec3, Vec3) in MBDyn's order
/// R11, R21, R31, R12, ... (column-major).
enum class NcShape { Scalar, Vec3, Mat3, IntScalar };

class OutputSink {
 public:
  virtual ~OutputSink() = default;

  // ---- text ----------------------------------------------------------------------------------
  /// The stream of file `f`, or nullptr when it is not written (no text output, entity off).
  virtual std::ostream* text(OutputFile f) = 0;
  /// Writes `v` as MBDyn does (scientific, `output precision` digits), preceded by one blank.
  virtual void write(std::ostream& os, double v) = 0;
  void write(std::ostream& os, const Vec3& v) {
    for (int i = 0; i < 3; ++i) write(os, v[i]);
  }
  /// Writes a label the way MBDyn starts each line (right-aligned in 8 characters).
  virtual void write_label(std::ostream& os, unsigned label) = 0;

  // ---- NetCDF --------------------------------------------------------------------------------
  virtual bool netcdf() const = 0;
  using VarId = int;
  /// Declares (during setup) a per-entity label variable `name` (e.g. "elem.joint.2") with its
  /// `type` attribute ("Clamp", "dynamic").
  virtual void declare_entity(const std::string& name, const std::string& type) = 0;
  /// Declares (during setup) `name` with its attributes; returns the id to put() with.
  virtual VarId declare(const std::string& name, NcShape shape, const std::string& units,
                        const std::string& description) = 0;
  virtual void put(VarId var, double v) = 0;
  virtual void put(VarId var, const Vec3& v) = 0;
  virtual void put(VarId var, const Mat3& m) = 0;
};

}  // namespace mbl

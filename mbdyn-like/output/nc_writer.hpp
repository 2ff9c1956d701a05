#pragma once
// Writer of MBDyn's NetCDF results (input manual appendix C.1), on the NetCDF-C API.
//
// Layout, as in the files of the real MBDyn: dimensions `time` (unlimited), `Vec1` (1), `Vec3` (3),
// then per level `node_types_dim`/`elem_types_dim` (1) and one `<type>_node_labels_dim` /
// `<type>_elem_labels_dim` per type; variables `run.step`, `time`, `run.timestep`; `node` and
// `elem` (number of types, attribute `types` = "struct", "autostruct;joint;..."); the label lists
// `node.<type>` / `elem.<type>`; per entity a `char <name>(Vec1)` with its `type` attribute and the
// per-record variables (time[, Vec3[, Vec3]]) with `units`, `type`, `description`.
//
// Robustness: define mode ends with end_define(); every record is written as it comes, and the
// file is synced every `sync_every` records (1 with `output results: netcdf, sync`) and at
// close(), so a run that stops early leaves a valid file with the records synced so far.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "mbdyn-like/core/output_sink.hpp"
#include "mbdyn-like/core/types.hpp"

namespace mbl::output {

/// An output file could not be created or written.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class NcFormat { Classic, Classic64, Nc4, Nc4Classic };

class NcWriter {
 public:
  /// Creates (overwrites) `path`. Throws OutputError.
  NcWriter(const std::string& path, NcFormat format = NcFormat::Classic, int sync_every = 50);
  ~NcWriter();
  NcWriter(const NcWriter&) = delete;
  NcWriter& operator=(const NcWriter&) = delete;

  const std::string& path() const { return path_; }

  // ---- define mode -------------------------------------------------------------------------------
  /// `level` is "node" or "elem"; declares `<level>.<type_key>` listing `labels` (all entities of
  /// that type, output enabled or not, as MBDyn does) and adds the type to `<level>:types`.
  void declare_group(const std::string& level, const std::string& type_key,
                     const std::string& description, const std::vector<unsigned>& labels);
  void declare_entity(const std::string& name, const std::string& type);
  /// Returns an id for put(); declaring the same name twice returns the first id.
  int declare(const std::string& name, NcShape shape, const std::string& units,
              const std::string& description);
  /// A variable outside the records (the eigenanalysis' eig.*, appendix C.1.5): dimensions by
  /// name (defined when new), NC_INT or NC_DOUBLE, attributes as MBDyn's (empty units: none).
  int declare_array(const std::string& name, bool integer,
                    const std::vector<std::pair<std::string, std::size_t>>& dims, const std::string& units,
                    const std::string& type, const std::string& description);
  /// A dimension of its own (defined when new), for variables declared later.
  void declare_dimension(const std::string& name, std::size_t length);
  /// One more text attribute of a declare_array() variable (e.g. eig.<k>.Aplus "matrix type").
  void put_text_attribute(int var, const std::string& name, const std::string& value);
  /// Writes `values` (row-major over `count`) at `start` of a declare_array() variable.
  void put_array(int var, const std::vector<std::size_t>& start, const std::vector<std::size_t>& count,
                 const double* values);
  /// Leaves define mode and writes the label lists. Declarations after this re-enter define mode.
  void end_define();

  // ---- records -----------------------------------------------------------------------------------
  /// Starts a new record (run.step, time, run.timestep).
  void begin_record(long step, double time, double dt);
  void end_record();
  void put(int var, double v);
  void put(int var, const Vec3& v);
  /// Stored (time, Vec3, Vec3) in MBDyn's order R11, R21, R31, R12, ... (column-major).
  void put(int var, const Mat3& m);
  std::size_t records() const { return records_; }

  void sync();
  void close();

 private:
  struct Var {
    int ncvar;
    NcShape shape;
  };
  struct Group {
    std::string level;
    int ncvar;
    std::vector<unsigned> labels;
  };
  void check(int status, const std::string& what) const;
  void ensure_define_mode();
  int level_var(const std::string& level);
  void put_values(int var, const double* values, int count);

  std::string path_;
  int ncid_ = -1;
  bool define_mode_ = true;
  int sync_every_ = 50;
  int dim_time_ = -1, dim_vec1_ = -1, dim_vec3_ = -1;
  int var_step_ = -1, var_time_ = -1, var_dt_ = -1;
  std::vector<Var> vars_;
  std::vector<std::string> var_names_;
  std::vector<Group> groups_;
  struct Level {
    std::string name;
    int ncvar;
    std::string types;
    int count;
    bool written;
  };
  std::vector<Level> levels_;
  std::size_t records_ = 0;   ///< records completed or in progress
  bool in_record_ = false;
};

}  // namespace mbl::output

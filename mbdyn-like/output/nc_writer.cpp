#include "mbdyn-like/output/nc_writer.hpp"

#include <fmt/format.h>
#include <netcdf.h>

#include <cmath>
#include <cstring>

namespace mbl::output {

namespace {

std::string_view type_attribute(NcShape shape) {
  switch (shape) {
    case NcShape::Scalar: return "doublereal";
    case NcShape::IntScalar: return "integer";
    case NcShape::Vec3: return "Vec3";
    case NcShape::Mat3: return "Mat3x3";
  }
  return "";
}

int shape_size(NcShape shape) {
  switch (shape) {
    case NcShape::Scalar:
    case NcShape::IntScalar: return 1;
    case NcShape::Vec3: return 3;
    case NcShape::Mat3: return 9;
  }
  return 1;
}

}  // namespace

void NcWriter::check(int status, const std::string& what) const {
  if (status != NC_NOERR)
    throw OutputError(fmt::format("NetCDF output {}: {}: {}", path_, what, nc_strerror(status)));
}

NcWriter::NcWriter(const std::string& path, NcFormat format, int sync_every)
    : path_(path), sync_every_(sync_every < 1 ? 1 : sync_every) {
  int mode = NC_CLOBBER;
  switch (format) {
    case NcFormat::Classic: break;
    case NcFormat::Classic64: mode |= NC_64BIT_OFFSET; break;
    case NcFormat::Nc4: mode |= NC_NETCDF4; break;
    case NcFormat::Nc4Classic: mode |= NC_NETCDF4 | NC_CLASSIC_MODEL; break;
  }
  check(nc_create(path.c_str(), mode, &ncid_), "cannot create the file");
  // Fill values are never read back (every record is written completely); skipping the prefill
  // halves the I/O of each new record.
  int old_fill = 0;
  nc_set_fill(ncid_, NC_NOFILL, &old_fill);
  check(nc_def_dim(ncid_, "time", NC_UNLIMITED, &dim_time_), "time dimension");
  check(nc_def_dim(ncid_, "Vec1", 1, &dim_vec1_), "Vec1 dimension");
  check(nc_def_dim(ncid_, "Vec3", 3, &dim_vec3_), "Vec3 dimension");

  auto run_var = [&](const char* name, nc_type type, const char* units, const char* tattr,
                     const char* description) {
    int id = -1;
    check(nc_def_var(ncid_, name, type, 1, &dim_time_, &id), name);
    nc_put_att_text(ncid_, id, "units", std::strlen(units), units);
    nc_put_att_text(ncid_, id, "type", std::strlen(tattr), tattr);
    nc_put_att_text(ncid_, id, "description", std::strlen(description), description);
    return id;
  };
  var_step_ = run_var("run.step", NC_INT, "Dimensionless", "integer", "time step index");
  var_time_ = run_var("time", NC_DOUBLE, "Time", "doublereal", "simulation time");
  var_dt_ = run_var("run.timestep", NC_DOUBLE, "Time", "doublereal", "integration time step");
}

NcWriter::~NcWriter() {
  try {
    close();
  } catch (...) {
    // destructors never throw; close() errors surface when called explicitly
  }
}

void NcWriter::ensure_define_mode() {
  if (ncid_ < 0) throw OutputError(fmt::format("NetCDF output {}: file already closed", path_));
  if (!define_mode_) {
    check(nc_redef(ncid_), "re-entering define mode");
    define_mode_ = true;
  }
}

int NcWriter::level_var(const std::string& level) {
  for (auto& l : levels_)
    if (l.name == level) return l.ncvar;
  int dim = -1, var = -1;
  const std::string dim_name = level + "_types_dim";
  check(nc_def_dim(ncid_, dim_name.c_str(), 1, &dim), dim_name);
  check(nc_def_var(ncid_, level.c_str(), NC_INT, 1, &dim, &var), level);
  const std::string description =
      level == "node" ? "Node types (in attribute \"types\", semicolon-separated)"
                      : "Element types (in attribute \"types\", semicolon-separated)";
  nc_put_att_text(ncid_, var, "description", description.size(), description.c_str());
  levels_.push_back({level, var, "", 0, false});
  return var;
}

void NcWriter::declare_group(const std::string& level, const std::string& type_key,
                             const std::string& description, const std::vector<unsigned>& labels) {
  ensure_define_mode();
  const int lvar = level_var(level);
  for (auto& l : levels_) {
    if (l.name != level) continue;
    l.types += (l.types.empty() ? "" : ";") + type_key;
    ++l.count;
    l.written = false;
    check(nc_put_att_text(ncid_, lvar, "types", l.types.size(), l.types.c_str()), level);
  }
  const std::string dim_name = fmt::format("{}_{}_labels_dim", type_key, level);
  int dim = -1, var = -1;
  // A zero-length fixed dimension would be taken as unlimited; an empty group gets length 1.
  check(nc_def_dim(ncid_, dim_name.c_str(), labels.empty() ? 1 : labels.size(), &dim), dim_name);
  const std::string name = level + "." + type_key;
  check(nc_def_var(ncid_, name.c_str(), NC_INT, 1, &dim, &var), name);
  nc_put_att_text(ncid_, var, "description", description.size(), description.c_str());
  groups_.push_back({level, var, labels});
}

void NcWriter::declare_entity(const std::string& name, const std::string& type) {
  ensure_define_mode();
  int var = -1;
  if (nc_inq_varid(ncid_, name.c_str(), &var) == NC_NOERR) return;
  check(nc_def_var(ncid_, name.c_str(), NC_CHAR, 1, &dim_vec1_, &var), name);
  if (!type.empty()) nc_put_att_text(ncid_, var, "type", type.size(), type.c_str());
}

int NcWriter::declare(const std::string& name, NcShape shape, const std::string& units,
                      const std::string& description) {
  for (std::size_t i = 0; i < var_names_.size(); ++i)
    if (var_names_[i] == name) return int(i);
  ensure_define_mode();
  int dims[3] = {dim_time_, dim_vec3_, dim_vec3_};
  const int ndims = shape == NcShape::Vec3 ? 2 : shape == NcShape::Mat3 ? 3 : 1;
  const nc_type type = shape == NcShape::IntScalar ? NC_INT : NC_DOUBLE;
  int var = -1;
  check(nc_def_var(ncid_, name.c_str(), type, ndims, dims, &var), name);
  if (!units.empty()) nc_put_att_text(ncid_, var, "units", units.size(), units.c_str());
  const auto tattr = type_attribute(shape);
  nc_put_att_text(ncid_, var, "type", tattr.size(), tattr.data());
  if (!description.empty())
    nc_put_att_text(ncid_, var, "description", description.size(), description.c_str());
  vars_.push_back({var, shape});
  var_names_.push_back(name);
  return int(vars_.size() - 1);
}

int NcWriter::declare_array(const std::string& name, bool integer,
                            const std::vector<std::pair<std::string, std::size_t>>& dims, const std::string& units,
                            const std::string& type, const std::string& description) {
  ensure_define_mode();
  std::vector<int> ids;
  for (const auto& [dim_name, len] : dims) {
    int id = -1;
    if (nc_inq_dimid(ncid_, dim_name.c_str(), &id) != NC_NOERR)
      check(nc_def_dim(ncid_, dim_name.c_str(), len, &id), dim_name);
    ids.push_back(id);
  }
  int var = -1;
  check(nc_def_var(ncid_, name.c_str(), integer ? NC_INT : NC_DOUBLE, static_cast<int>(ids.size()), ids.data(), &var),
        name);
  if (!units.empty()) nc_put_att_text(ncid_, var, "units", units.size(), units.c_str());
  nc_put_att_text(ncid_, var, "type", type.size(), type.c_str());
  nc_put_att_text(ncid_, var, "description", description.size(), description.c_str());
  return var;
}

void NcWriter::declare_dimension(const std::string& name, std::size_t length) {
  if (ncid_ < 0) return;
  int id = -1;
  if (nc_inq_dimid(ncid_, name.c_str(), &id) == NC_NOERR) return;
  ensure_define_mode();
  check(nc_def_dim(ncid_, name.c_str(), length, &id), name);
}

void NcWriter::put_text_attribute(int var, const std::string& name, const std::string& value) {
  if (ncid_ < 0) return;
  ensure_define_mode();
  check(nc_put_att_text(ncid_, var, name.c_str(), value.size(), value.c_str()), name);
}

void NcWriter::put_array(int var, const std::vector<std::size_t>& start, const std::vector<std::size_t>& count,
                         const double* values) {
  if (ncid_ < 0) return;
  if (define_mode_) end_define();
  check(nc_put_vara_double(ncid_, var, start.data(), count.data(), values), "eigenanalysis variable");
}

void NcWriter::end_define() {
  if (ncid_ < 0) return;
  if (define_mode_) {
    check(nc_enddef(ncid_), "leaving define mode");
    define_mode_ = false;
  }
  for (auto& l : levels_) {
    if (l.written) continue;
    check(nc_put_var_int(ncid_, l.ncvar, &l.count), l.name);
    l.written = true;
  }
  for (auto& g : groups_) {
    if (g.labels.empty()) continue;
    std::vector<int> labels(g.labels.begin(), g.labels.end());
    check(nc_put_var_int(ncid_, g.ncvar, labels.data()), "label list");
    g.labels.clear();
  }
  sync();
}

void NcWriter::begin_record(long step, double time, double dt) {
  if (ncid_ < 0) return;
  if (define_mode_) end_define();
  if (in_record_) end_record();
  in_record_ = true;
  const std::size_t start[1] = {records_};
  const std::size_t count[1] = {1};
  const int istep = int(step);
  check(nc_put_vara_int(ncid_, var_step_, start, count, &istep), "run.step");
  check(nc_put_vara_double(ncid_, var_time_, start, count, &time), "time");
  check(nc_put_vara_double(ncid_, var_dt_, start, count, &dt), "run.timestep");
  ++records_;
}

void NcWriter::end_record() {
  if (!in_record_) return;
  in_record_ = false;
  if (records_ % std::size_t(sync_every_) == 0) sync();
}

void NcWriter::put_values(int var, const double* values, int count) {
  if (ncid_ < 0 || !in_record_ || var < 0 || std::size_t(var) >= vars_.size()) return;
  const Var& v = vars_[std::size_t(var)];
  if (count != shape_size(v.shape)) {
    throw OutputError(fmt::format("NetCDF output {}: variable {} takes {} values, got {}", path_,
                                  var_names_[std::size_t(var)], shape_size(v.shape), count));
  }
  const std::size_t start[3] = {records_ - 1, 0, 0};
  const std::size_t count3[3] = {1, 3, 3};
  const std::size_t count1[1] = {1};
  if (v.shape == NcShape::IntScalar) {
    const int iv = std::isfinite(values[0]) ? int(std::lround(values[0])) : 0;
    check(nc_put_vara_int(ncid_, v.ncvar, start, count1, &iv), var_names_[std::size_t(var)]);
    return;
  }
  check(nc_put_vara_double(ncid_, v.ncvar, start, v.shape == NcShape::Scalar ? count1 : count3,
                           values),
        var_names_[std::size_t(var)]);
}

void NcWriter::put(int var, double v) { put_values(var, &v, 1); }
void NcWriter::put(int var, const Vec3& v) { put_values(var, v.data(), 3); }
void NcWriter::put(int var, const Mat3& m) {
  // Eigen stores column-major: data() is R11, R21, R31, R12, ... which is MBDyn's order.
  put_values(var, m.data(), 9);
}

void NcWriter::sync() {
  if (ncid_ < 0 || define_mode_) return;
  check(nc_sync(ncid_), "sync");
}

void NcWriter::close() {
  if (ncid_ < 0) return;
  const int id = ncid_;
  if (define_mode_) {
    // Label lists must reach the file even when no record was written.
    end_define();
  }
  ncid_ = -1;
  check(nc_close(id), "close");
}

}  // namespace mbl::output

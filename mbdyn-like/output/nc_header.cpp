#include "mbdyn-like/output/nc_header.hpp"

#include <fmt/format.h>
#include <netcdf.h>

#include <algorithm>
#include <map>
#include <set>

#include "mbdyn-like/output/results.hpp"

namespace mbl::output {

const NcHeader::Var* NcHeader::find(const std::string& name) const {
  for (const auto& v : vars)
    if (v.name == name) return &v;
  return nullptr;
}

namespace {

std::string type_text(nc_type t) {
  switch (t) {
    case NC_BYTE: return "byte";
    case NC_CHAR: return "char";
    case NC_SHORT: return "short";
    case NC_INT: return "int";
    case NC_FLOAT: return "float";
    case NC_DOUBLE: return "double";
    default: return fmt::format("type{}", int(t));
  }
}

/// An attribute's value as text: strings as they are, numbers comma-separated.
std::string attribute_text(int ncid, int varid, const char* name) {
  nc_type t = NC_NAT;
  size_t len = 0;
  if (nc_inq_att(ncid, varid, name, &t, &len) != NC_NOERR) return "?";
  if (t == NC_CHAR) {
    std::string s(len, '\0');
    if (len > 0) nc_get_att_text(ncid, varid, name, s.data());
    while (!s.empty() && s.back() == '\0') s.pop_back();
    return s;
  }
  std::vector<double> v(len);
  if (len > 0) nc_get_att_double(ncid, varid, name, v.data());
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + fmt::format("{:g}", v[i]);
  return out;
}

std::vector<std::pair<std::string, std::string>> attributes(int ncid, int varid, int natts) {
  std::vector<std::pair<std::string, std::string>> out;
  for (int a = 0; a < natts; ++a) {
    char name[NC_MAX_NAME + 1] = {};
    if (nc_inq_attname(ncid, varid, a, name) != NC_NOERR) continue;
    out.emplace_back(name, attribute_text(ncid, varid, name));
  }
  return out;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
  return s;
}

void diff_attributes(const std::string& where,
                     const std::vector<std::pair<std::string, std::string>>& ours,
                     const std::vector<std::pair<std::string, std::string>>& ref,
                     std::vector<std::string>& out) {
  std::map<std::string, std::string> a(ours.begin(), ours.end()), b(ref.begin(), ref.end());
  for (const auto& [k, v] : b) {
    auto it = a.find(k);
    if (it == a.end())
      out.push_back(fmt::format("{}: missing attribute {} = \"{}\"", where, k, v));
    else if (it->second != v)
      out.push_back(fmt::format("{}: attribute {} is \"{}\", MBDyn has \"{}\"", where, k,
                                it->second, v));
  }
  for (const auto& [k, v] : a)
    if (!b.count(k)) out.push_back(fmt::format("{}: extra attribute {} = \"{}\"", where, k, v));
}

}  // namespace

NcHeader read_nc_header(const std::string& path) {
  int ncid = -1;
  if (const int st = nc_open(path.c_str(), NC_NOWRITE, &ncid); st != NC_NOERR)
    throw ResultsError(fmt::format("{}: cannot open as NetCDF: {}", path, nc_strerror(st)));
  NcHeader h;
  int ndims = 0, nvars = 0, ngatts = 0, unlimited = -1;
  nc_inq(ncid, &ndims, &nvars, &ngatts, &unlimited);
  std::vector<std::string> dim_names(std::size_t(std::max(ndims, 0)));
  for (int d = 0; d < ndims; ++d) {
    char name[NC_MAX_NAME + 1] = {};
    size_t len = 0;
    nc_inq_dim(ncid, d, name, &len);
    dim_names[std::size_t(d)] = name;
    h.dims.push_back({name, long(len), d == unlimited});
  }
  for (int v = 0; v < nvars; ++v) {
    char name[NC_MAX_NAME + 1] = {};
    nc_type t = NC_NAT;
    int nd = 0, natts = 0;
    int dimids[NC_MAX_VAR_DIMS] = {};
    nc_inq_var(ncid, v, name, &t, &nd, dimids, &natts);
    NcHeader::Var var{name, type_text(t), {}, attributes(ncid, v, natts)};
    for (int k = 0; k < nd; ++k) var.dims.push_back(dim_names[std::size_t(dimids[k])]);
    h.vars.push_back(std::move(var));
  }
  h.global_attrs = attributes(ncid, NC_GLOBAL, ngatts);
  nc_close(ncid);
  return h;
}

std::vector<std::string> diff_nc_headers(const NcHeader& ours, const NcHeader& ref,
                                         const NcHeaderDiffOptions& o) {
  std::vector<std::string> out;
  // Dimensions (by name; their order is not significant to readers).
  for (const auto& d : ref.dims) {
    auto it = std::find_if(ours.dims.begin(), ours.dims.end(),
                           [&](const NcHeader::Dim& x) { return x.name == d.name; });
    if (it == ours.dims.end()) {
      out.push_back(fmt::format("missing dimension {} = {}", d.name, d.length));
    } else if (it->unlimited != d.unlimited) {
      out.push_back(fmt::format("dimension {}: unlimited {} , MBDyn {}", d.name, it->unlimited,
                                d.unlimited));
    } else if ((!d.unlimited || o.check_record_count) && it->length != d.length) {
      out.push_back(fmt::format("dimension {} = {}, MBDyn has {}", d.name, it->length, d.length));
    }
  }
  for (const auto& d : ours.dims) {
    auto it = std::find_if(ref.dims.begin(), ref.dims.end(),
                           [&](const NcHeader::Dim& x) { return x.name == d.name; });
    if (it == ref.dims.end()) out.push_back(fmt::format("extra dimension {} = {}", d.name, d.length));
  }
  // Variables.
  std::set<std::string> ref_names, our_names;
  for (const auto& v : ref.vars) ref_names.insert(v.name);
  for (const auto& v : ours.vars) our_names.insert(v.name);
  for (const auto& v : ref.vars) {
    const NcHeader::Var* mine = ours.find(v.name);
    if (!mine) {
      out.push_back(fmt::format("missing variable {} {}({})", v.type, v.name, join(v.dims)));
      continue;
    }
    if (mine->type != v.type)
      out.push_back(fmt::format("variable {}: type {}, MBDyn has {}", v.name, mine->type, v.type));
    if (mine->dims != v.dims)
      out.push_back(fmt::format("variable {}: dimensions ({}), MBDyn has ({})", v.name,
                                join(mine->dims), join(v.dims)));
    diff_attributes("variable " + v.name, mine->attrs, v.attrs, out);
  }
  for (const auto& v : ours.vars)
    if (!ref_names.count(v.name))
      out.push_back(fmt::format("extra variable {} {}({})", v.type, v.name, join(v.dims)));
  diff_attributes("global", ours.global_attrs, ref.global_attrs, out);
  if (o.check_order) {
    // The relative order of the variables both files have.
    std::vector<std::string> a, b;
    for (const auto& v : ours.vars)
      if (ref_names.count(v.name)) a.push_back(v.name);
    for (const auto& v : ref.vars)
      if (our_names.count(v.name)) b.push_back(v.name);
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
      if (a[i] != b[i]) {
        out.push_back(fmt::format("variable order: #{} is {}, MBDyn has {}{}", i, a[i], b[i],
                                  i > 0 ? fmt::format(" (after {})", b[i - 1]) : ""));
        break;
      }
    }
  }
  return out;
}

}  // namespace mbl::output

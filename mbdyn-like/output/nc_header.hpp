#pragma once
// The structure of a NetCDF file (what `ncdump -h` shows): dimensions, variables with their type,
// dimensions and attributes, in file order; and a structural diff of two such headers, used to
// check that our .nc files have MBDyn's layout (input manual appendix C).
#include <string>
#include <utility>
#include <vector>

namespace mbl::output {

struct NcHeader {
  struct Dim {
    std::string name;
    long length = 0;  ///< current length (records so far for the unlimited one)
    bool unlimited = false;
  };
  struct Var {
    std::string name;
    std::string type;  ///< "int", "double", "char", ...
    std::vector<std::string> dims;
    std::vector<std::pair<std::string, std::string>> attrs;  ///< values as text
  };
  std::vector<Dim> dims;
  std::vector<Var> vars;
  std::vector<std::pair<std::string, std::string>> global_attrs;

  const Var* find(const std::string& name) const;
};

/// Reads the header of `path`. Throws ResultsError (results.hpp) when it is not a NetCDF file.
NcHeader read_nc_header(const std::string& path);

struct NcHeaderDiffOptions {
  bool check_order = true;          ///< variable order must match too
  bool check_record_count = false;  ///< the unlimited dimension's length must match
};

/// Differences of `ours` from `ref`, one line each ("missing variable ...", "attribute ... is
/// "x", MBDyn has "y"", ...); empty when the structures agree.
std::vector<std::string> diff_nc_headers(const NcHeader& ours, const NcHeader& ref,
                                         const NcHeaderDiffOptions& o = {});

}  // namespace mbl::output

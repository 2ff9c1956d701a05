#pragma once
// The binary cache of a FEM file (input manual §8.12.31, `create binary`, `use binary`,
// `update binary`): large FEM files take long to parse, so their data can be kept in binary form
// beside them and read from there while the text file is unchanged.
//
// The cache is our own format, in `<FEM file>.mbl.bin`: it never takes the name of MBDyn's own
// binary file, so a user's MBDyn cache is neither read as ours nor overwritten. A cache whose
// header does not match (other program version, other byte order, other thresholds, other size of
// the text file) is ignored and, when asked, rewritten.
#include <string>

#include "elements/joints/modal/fem_file.hpp"

namespace mbl::elements {

/// What the modal joint card asks of the cache.
struct FemCacheRequest {
  bool use = false;     ///< read the cache when it is newer than the text file
  bool create = false;  ///< write the cache after reading the text file
  bool update = false;  ///< rewrite the cache when the text file is newer
};

/// The cache of the FEM file named `fem_name` in the deck: that name plus `.mbl.bin`, from the
/// working directory as MBDyn opens its files (so a run from another folder never writes beside
/// someone else's FEM file).
std::string fem_cache_path(const std::string& fem_name);

/// How the data were obtained (for tests and the log).
enum class FemSource { Text, Cache };

/// Reads the FEM file `path` (errors at `where`), through the cache file `cache` as `request`
/// says; writes the cache when asked. A cache that cannot be written is not an error.
FemFile load_fem_file(const std::string& path, const parser::SourceLocation& where, const FemThresholds& thresholds,
                      const FemCacheRequest& request, const std::string& cache, FemSource* source = nullptr);

}  // namespace mbl::elements

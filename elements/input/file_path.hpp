#pragma once
// Data files named by a card (file drivers, FEM files of modal joints, local sockets); the names
// come from parser::read_file_name ($VAR, ${VAR}, ~ expanded as MBDyn's GetFileName).
#include <cstdlib>
#include <filesystem>
#include <string>

#include "parser/file_name.hpp"
#include "parser/source.hpp"

namespace mbl::elements {

/// Relative names are taken from the directory of the deck file that names them (else as given,
/// i.e. from the working directory, as MBDyn opens them).
inline std::string resolve_path(const parser::SourceLocation& where, const std::string& given) {
  namespace fs = std::filesystem;
  const std::string& name = given;  // expanded by parser::read_file_name
  if (fs::path(name).is_absolute() || !where.file) return name;
  const fs::path candidate = fs::path(where.file->path).parent_path() / name;
  return fs::exists(candidate) ? candidate.string() : name;
}

}  // namespace mbl::elements

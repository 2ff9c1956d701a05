#pragma once
// Data files named by a card (file drivers, FEM files of modal joints, local sockets).
#include <pwd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "parser/source.hpp"

namespace mbl::elements {

/// `~/...` and `~user/...` expanded as MBDyn's GetFileName does (the name as given when the
/// home directory is unknown).
inline std::string expand_home(const std::string& name) {
  const std::size_t slash = name.find('/');
  if (name.empty() || name[0] != '~' || slash == std::string::npos) return name;
  const std::string user = name.substr(1, slash - 1);
  const passwd* pw = user.empty() ? nullptr : ::getpwnam(user.c_str());
  const char* home = user.empty() ? std::getenv("HOME") : pw ? pw->pw_dir : nullptr;
  return home ? std::string(home) + name.substr(slash) : name;
}

/// Relative names are taken from the directory of the deck file that names them (else as given,
/// i.e. from the working directory, as MBDyn opens them).
inline std::string resolve_path(const parser::SourceLocation& where, const std::string& given) {
  namespace fs = std::filesystem;
  const std::string name = expand_home(given);
  if (fs::path(name).is_absolute() || !where.file) return name;
  const fs::path candidate = fs::path(where.file->path).parent_path() / name;
  return fs::exists(candidate) ? candidate.string() : name;
}

}  // namespace mbl::elements

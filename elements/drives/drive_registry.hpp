#pragma once
// Internals shared by the drive caller readers: the per-deck tables kept in the ReadContext, the
// built-in reader families, and small argument helpers.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "elements/drives/drive_composite.hpp"
#include "elements/drives/drive_reader.hpp"

namespace mbl::drives {

/// Per-deck bookkeeping (stored in the ReadContext under the family "drive tables").
struct DriveTables {
  std::vector<DriveCallerPtr> stateful;  ///< in creation order (inner drives first)
  std::map<unsigned, std::shared_ptr<PostponedSlot>> postponed;
  std::vector<DriveCallerDefinition> definitions;
};

DriveTables& drive_tables(parser::ReadContext& ctx);

using DriveCallerRegistry = std::map<std::string, DriveCallerReader>;

// Built-in families, each in its own file.
void register_function_drives(DriveCallerRegistry& r);   // drive_readers_function.cpp
void register_composite_drives(DriveCallerRegistry& r);  // drive_readers_composite.cpp
void register_stateful_drives(DriveCallerRegistry& r);   // drive_readers_stateful.cpp
void register_entity_drives(DriveCallerRegistry& r);     // drive_readers_entity.cpp
void register_file_drive(DriveCallerRegistry& r);        // file_driver.cpp

/// `<node_dof>` (§2.5) as a drive: the dof's value (or derivative) passed through the function
/// `read_function` reads (none: the value itself). drive_readers_entity.cpp
DriveCallerPtr read_node_dof_value(parser::CardReader& in,
                                   const std::function<DriveCallerPtr()>& read_function = {});

// ---- argument helpers ----------------------------------------------------------------------

/// `forever` or a time.
double read_end_time(parser::CardReader& in);
/// `{ [-]n | half | one | forever }`; forever is 0, half is -1, one is 1.
long read_cycles(parser::CardReader& in, bool allow_half);
/// A count that must be >= `min`, checked at its location.
long read_count(parser::CardReader& in, long min, std::string_view what);

}  // namespace mbl::drives

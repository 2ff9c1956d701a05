#pragma once
// MBDyn's `print:` listing of the unknowns (control data `print: <item> [, ...]`, input manual
// §5.3.2; dataman3.cc reads it, dataman2.cc DofOwnerInit and InitialJointAssembly write it): on
// stdout, or in <prefix>.dof with `to file`. Sections, each line as MBDyn writes it:
//
//   Initial assembly dof stats          (when the initial assembly runs)
//   Structural(1): 12 1->12              <node kind>(<label>): <count> <first>[-><last>]
//           1->3: position [px,py,pz]    (dof description / equation description)
//   Joint(1): 12 13->24                  elements with unknowns in the assembly
//   Regular steps dof stats
//   Structural(1): 6 1->6                every node, then every element with unknowns, in
//   Joint(1): 6 7->12                    input order (indices by MBDyn's DofOwner type order)
#include <iosfwd>
#include <string_view>
#include <vector>
#include <string>

namespace mbl {
class Model;
}

namespace mbl::output {

/// MBDyn's print flags (DataManager::PrintFlags, dataman.h).
namespace print_flag {
inline constexpr unsigned kDofStats = 0x01, kDofDescription = 0x02, kEquationDescription = 0x04,
                          kNodeConnection = 0x10, kElementConnection = 0x20, kToFile = 0x1000;
/// `all`: every flag but `to file`, as MBDyn's `~PRINT_TO_FILE`.
inline constexpr unsigned kAll = ~kToFile;
}  // namespace print_flag

/// MBDyn's name of a node kind (psNodeNames: "Structural", "Abstract", ...).
std::string_view mbdyn_node_name(std::string_view kind);
/// MBDyn's name of an element kind (psElemNames: "Joint", "GENEL", "Aerodynamic Element", ...).
std::string_view mbdyn_element_name(std::string_view kind);

struct DofStatsSettings {
  unsigned flags = 0;
  /// The initial assembly is not skipped (`skip initial joint assembly`, inverse dynamics): its
  /// section is written when an element of a type used in it is defined, as MBDyn runs it.
  bool initial_assembly = false;
  /// `-s`: MBDyn's silent output writes no stats (the .dof of `to file` is created empty).
  bool silent = false;
  /// Kinds other than joints whose elements take part in the assembly (`use: ..., in assembly`).
  std::vector<std::string> assembly_kinds;
};

/// Writes the sections `flags` ask for. Returns false, writing nothing of the initial section,
/// when an element with unknowns there has no known initial count (see Element::initial_dof_count).
bool write_dof_stats(std::ostream& os, const Model& model, const DofStatsSettings& settings);

/// `print: element connection` / `node connection` (DofOwnerInit, after the dof stats, written
/// whatever `-s` says):
///
///   Element connections                 every element, automatic structural ones first
///   Joint(1) connecting                 (one per dynamic structural node, by label), then
///           Structural(1)               the others in input order; "Gravity(0) not connected"
///   Node connections                    every node connected to an element, by node type then
///   Structural(1) connected to          input order, with its elements in the order above
///           Automatic Structural(1)
void write_connections(std::ostream& os, const Model& model, unsigned flags);

}  // namespace mbl::output

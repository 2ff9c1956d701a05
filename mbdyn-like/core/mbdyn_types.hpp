#pragma once
// MBDyn's node and element types, by our kinds: their order (Node::Type, base/node.h;
// Elem::Type, base/elem.h; DofOwner::Type, base/dofown.h) and their names (psNodeNames,
// psElemNames, base/enums.cc). Numbering (Model::number_dofs) and the `print:` listings
// (output/dof_stats.cpp) both follow them.
#include <cstddef>
#include <iterator>
#include <string_view>

namespace mbl::mbdyn_types {

struct TypeName {
  std::string_view kind;  ///< our kind ("" where we have none)
  std::string_view name;  ///< MBDyn's name
};

/// Node::Type order with psNodeNames (abstract first).
inline constexpr TypeName kNodeTypes[] = {
    {"abstract", "Abstract"}, {"structural", "Structural"}, {"electric", "Electric"},
    {"thermal", "Thermal"},   {"parameter", "Parameter"},   {"hydraulic", "Hydraulic"},
};

/// The node types owning unknowns in DofOwner::Type order, which differs from Node::Type's:
/// MBDyn numbers the structural nodes first, the abstract ones after the thermal ones.
inline constexpr std::string_view kNodeDofOwnerOrder[] = {"structural", "electric", "thermal", "abstract", "hydraulic"};

/// Elem::Type order with psElemNames. "Automatic Structural" has no element of ours.
inline constexpr TypeName kElementTypes[] = {
    {"air properties", "Air Properties"},
    {"induced velocity", "Rotor"},
    {"", "Automatic Structural"},
    {"gravity", "Gravity"},
    {"body", "Rigid Body"},
    {"joint", "Joint"},
    {"joint regularization", "Joint Regularization"},
    {"beam", "Beam"},
    {"plate", "Plate"},
    {"solid", "Solid"},
    {"surface load", "Surface Load"},
    {"force", "Force"},
    {"inertia", "Inertia"},
    {"electric bulk", "Electric Bulk"},
    {"electric", "Electric"},
    {"thermal", "Thermal"},
    {"hydraulic", "Hydraulic"},
    {"bulk", "Bulk"},
    {"user defined", "Loadable"},
    {"driven", "Driven"},
    {"external", "External"},
    {"aeromodal", "Aeromodal"},
    {"aerodynamic", "Aerodynamic Element"},
    {"genel", "GENEL"},
    {"output element", "Socket Stream Output"},
};

/// The element types owning unknowns, in DofOwner::Type order (after the node types): MBDyn
/// gives each type one block of DofOwners (dofman.cc DofDataInit), numbered in that order
/// (DofInit), the elements of a type in input order (dataman4.cc ReadElems).
inline constexpr std::string_view kElementDofOwnerOrder[] = {
    "joint",       "plate",     "genel",         "induced velocity", "aerodynamic",
    "aeromodal",   "electric bulk", "electric",  "thermal",          "hydraulic",
    "user defined",
};

/// A couple is MBDyn's Force type.
constexpr std::string_view element_type_kind(std::string_view kind) { return kind == "couple" ? "force" : kind; }

/// Index in `table` of `kind`, or the table's size when MBDyn has no such type.
template <std::size_t N>
constexpr int index_of(const TypeName (&table)[N], std::string_view kind) {
  for (std::size_t i = 0; i < N; ++i)
    if (!kind.empty() && table[i].kind == kind) return int(i);
  return int(N);
}

constexpr int node_type_index(std::string_view kind) { return index_of(kNodeTypes, kind); }
constexpr int element_type_index(std::string_view kind) { return index_of(kElementTypes, element_type_kind(kind)); }

template <std::size_t N>
constexpr int position_in(const std::string_view (&order)[N], std::string_view kind) {
  for (std::size_t i = 0; i < N; ++i)
    if (order[i] == kind) return int(i);
  return int(N);
}

/// Position of a node kind among the DofOwner types (parameter nodes, without unknowns, last).
constexpr int node_dof_owner_index(std::string_view kind) { return position_in(kNodeDofOwnerOrder, kind); }

/// Position of an element kind among the DofOwner types; kinds MBDyn gives no unknowns come
/// last (input order among them).
constexpr int element_dof_owner_index(std::string_view kind) { return position_in(kElementDofOwnerOrder, kind); }

}  // namespace mbl::mbdyn_types

#include "mbdyn-like/output/dof_stats.hpp"

#include <algorithm>
#include <ostream>

#include "mbdyn-like/core/mbdyn_types.hpp"
#include "mbdyn-like/core/model.hpp"

namespace mbl::output {

namespace {

std::string_view element_kind(const Element& e) { return mbdyn_types::element_type_kind(e.kind()); }

/// The elements in the order of MBDyn's ElemData[type] containers: by type, then input order.
std::vector<const Element*> by_element_type(const Model& model) {
  std::vector<const Element*> order;
  for (const auto& e : model.elements()) order.push_back(e.get());
  std::stable_sort(order.begin(), order.end(), [](const Element* a, const Element* b) {
    return mbdyn_types::element_type_index(a->kind()) < mbdyn_types::element_type_index(b->kind());
  });
  return order;
}

/// "<Name>(<label>): <count> <first>[-><last>]", as DofOwnerInit and InitialJointAssembly.
void owner_line(std::ostream& os, std::string_view name, unsigned label, int count, int first) {
  os << name << '(' << label << "): " << count << ' ' << first + 1;
  if (count > 1) os << "->" << first + count;
  os << '\n';
}

constexpr std::string_view kIndent = "        ";

template <class Owner>
void describe(std::ostream& os, const Owner& o, unsigned flags, int first, bool initial) {
  if (flags & print_flag::kDofDescription) o.describe_dofs(os, kIndent, first, initial);
  if (flags & print_flag::kEquationDescription) o.describe_equations(os, kIndent, first, initial);
}

/// Element types MBDyn uses in the initial assembly by default (elman.cc) or by `use: ..., in
/// assembly`.
bool in_assembly(const Element& e, const DofStatsSettings& s) {
  static constexpr std::string_view by_default[] = {"joint", "joint regularization", "beam", "plate", "solid", "surface load"};
  const std::string_view k = element_kind(e);
  return std::find(std::begin(by_default), std::end(by_default), k) != std::end(by_default) ||
         std::find(s.assembly_kinds.begin(), s.assembly_kinds.end(), k) != s.assembly_kinds.end();
}

// InitialJointAssembly (dataman2.cc): the structural nodes, then the elements used in the
// assembly with unknowns there, numbered from 1 in that order.
bool write_initial_section(std::ostream& os, const Model& model, const std::vector<const Element*>& elements,
                           const DofStatsSettings& s) {
  std::vector<const Element*> parts;
  for (const Element* e : elements)
    if (in_assembly(*e, s) && e->dof_count() > 0) {
      if (e->initial_dof_count() < 0) return false;
      if (e->initial_dof_count() > 0) parts.push_back(e);
    }
  os << "Initial assembly dof stats\n";
  int next = 0;
  for (const auto& n : model.nodes()) {
    if (n->kind() != "structural" || n->initial_dof_count() == 0) continue;
    owner_line(os, mbdyn_node_name(n->kind()), n->label(), n->initial_dof_count(), next);
    describe(os, *n, s.flags, next, true);
    next += n->initial_dof_count();
  }
  for (const Element* e : parts) {
    owner_line(os, mbdyn_element_name(element_kind(*e)), e->label(), e->initial_dof_count(), next);
    describe(os, *e, s.flags, next, true);
    next += e->initial_dof_count();
  }
  return true;
}

// DofOwnerInit (dataman2.cc): every node with unknowns, then every element with unknowns, each
// in input order (the Nodes and Elems vectors, filled as ReadNodes and ReadElems read); their
// indices are those of Model::number_dofs (by type), so they need not increase down the list.
void write_regular_section(std::ostream& os, const Model& model, unsigned flags) {
  os << "Regular steps dof stats\n";
  for (const auto& n : model.nodes()) {
    if (n->dof_count() == 0) continue;
    owner_line(os, mbdyn_node_name(n->kind()), n->label(), n->dof_count(), n->first_index());
    describe(os, *n, flags, n->first_index(), false);
  }
  for (const auto& e : model.elements()) {
    if (e->dof_count() == 0) continue;
    owner_line(os, mbdyn_element_name(element_kind(*e)), e->label(), e->dof_count(), e->first_index());
    describe(os, *e, flags, e->first_index(), false);
  }
}

}  // namespace

std::string_view mbdyn_node_name(std::string_view kind) {
  const int i = mbdyn_types::node_type_index(kind);
  return i < int(std::size(mbdyn_types::kNodeTypes)) ? mbdyn_types::kNodeTypes[i].name : "Abstract";
}

std::string_view mbdyn_element_name(std::string_view kind) {
  const int i = mbdyn_types::element_type_index(kind);
  return i < int(std::size(mbdyn_types::kElementTypes)) ? mbdyn_types::kElementTypes[i].name : kind;
}

bool write_dof_stats(std::ostream& os, const Model& model, const DofStatsSettings& s) {
  if (!(s.flags & print_flag::kDofStats)) return true;
  const std::vector<const Element*> elements = by_element_type(model);
  bool whole = true;
  // MBDyn runs its initial assembly when an element of a type used in it is defined (dataman.cc).
  const bool assembly = s.initial_assembly && std::any_of(elements.begin(), elements.end(), [&](const Element* e) {
                          return in_assembly(*e, s);
                        });
  if (assembly) whole = write_initial_section(os, model, elements, s);
  write_regular_section(os, model, s.flags);
  os.flush();
  return whole;
}

void write_connections(std::ostream& os, const Model& model, unsigned flags) {
  const bool elements_listed = flags & print_flag::kElementConnection, nodes_listed = flags & print_flag::kNodeConnection;
  if (!elements_listed && !nodes_listed) return;
  // MBDyn's Elems: an automatic structural element per dynamic structural node, by label
  // (dataman4.cc ReadElems), then the elements in input order.
  struct Entry {
    std::string_view name;
    unsigned label;
    std::vector<const Node*> nodes;
  };
  std::vector<Entry> entries;
  std::vector<const StructNode*> dynamic_nodes;
  for (const auto& n : model.nodes())
    if (const auto* s = dynamic_cast<const StructNode*>(n.get()); s && s->is_dynamic()) dynamic_nodes.push_back(s);
  std::stable_sort(dynamic_nodes.begin(), dynamic_nodes.end(),
                   [](const StructNode* a, const StructNode* b) { return a->label() < b->label(); });
  for (const StructNode* s : dynamic_nodes) entries.push_back({"Automatic Structural", s->label(), {s}});
  for (const auto& e : model.elements())
    entries.push_back({mbdyn_element_name(element_kind(*e)), e->label(), model.connected_nodes(*e)});

  if (elements_listed) {
    os << "Element connections\n";
    for (const Entry& e : entries) {
      os << e.name << '(' << e.label << (e.nodes.empty() ? ") not connected\n" : ") connecting\n");
      for (const Node* n : e.nodes) os << kIndent << mbdyn_node_name(n->kind()) << '(' << n->label() << ")\n";
    }
  }
  if (nodes_listed) {
    // By Node::Type, then (MBDyn: by address, i.e. creation) input order; each node's elements
    // once, in the order of the element list.
    os << "Node connections\n";
    std::vector<const Node*> nodes;
    for (const auto& n : model.nodes()) nodes.push_back(n.get());
    std::stable_sort(nodes.begin(), nodes.end(), [](const Node* a, const Node* b) {
      return mbdyn_types::node_type_index(a->kind()) < mbdyn_types::node_type_index(b->kind());
    });
    for (const Node* n : nodes) {
      bool listed = false;
      for (const Entry& e : entries) {
        if (std::find(e.nodes.begin(), e.nodes.end(), n) == e.nodes.end()) continue;
        if (!listed) os << mbdyn_node_name(n->kind()) << '(' << n->label() << ") connected to\n";
        listed = true;
        os << kIndent << e.name << '(' << e.label << ")\n";
      }
    }
  }
  os.flush();
}

}  // namespace mbl::output

// Readers of the node, element and dof drives (manual §2.6.22, 2.6.13, 2.6.9): an entity's
// private datum fed to an inner drive caller. Entities are found through the ReadContext's
// EntityDirectory (the model builder); the private data names are the entity's own, as listed in
// the manual for each node and element type ("X[1]", "XP[3]", "Omega[2]", "x", "xP", "rz", ...).
#include <fmt/format.h>

#include "elements/drives/drive_callers.hpp"
#include "elements/drives/drive_registry.hpp"
#include "elements/genels/node_dof.hpp"
#include "mbdyn-like/core/model.hpp"
#include "parser/errors.hpp"

namespace mbl::drives {

namespace {

struct EntityRef {
  const parser::PrivateDataOwner* owner = nullptr;
  unsigned label = 0;
  std::string kind;
};

/// Node and element cards share kind names (electric, hydraulic, thermal): with the model at
/// hand, a node drive looks among the nodes and an element drive among the elements only.
parser::PrivateDataOwner* find_owner(parser::EntityDirectory* dir, std::string_view family, const std::string& kind,
                                     unsigned label) {
  if (auto* model = dynamic_cast<Model*>(dir)) {
    if (family == "node") return model->find_node(kind, label);
    return model->find_element_data(kind, label);
  }
  return dir ? dir->find_entity(kind, label) : nullptr;
}

EntityRef find_entity(parser::CardReader& in, const char* family) {
  EntityRef ref;
  const parser::SourceLocation label_at = in.location();
  ref.label = in.label();
  ref.kind = in.keyword();
  ref.owner = find_owner(in.context().entities(), family, ref.kind, ref.label);
  if (!ref.owner)
    throw parser::InputError(label_at, fmt::format("{} {} {} is not defined (a {} drive can only "
                                                   "refer to an entity defined before it)",
                                                   ref.kind, family, ref.label, family));
  return ref;
}

/// `[ string, "name" | index, i , ]` (§2.6.22); may be omitted when there is one datum only.
unsigned read_private_data_index(parser::CardReader& in, const EntityRef& ref, const char* family,
                                 std::string& what) {
  const unsigned count = ref.owner->private_data_count();
  const parser::SourceLocation at = in.location();
  if (in.keyword_is("string")) {
    const parser::SourceLocation name_at = in.location();
    const std::string name = in.string();
    const unsigned i = ref.owner->private_data_index(name);
    if (i == 0)
      throw parser::InputError(name_at, fmt::format("{} {} {} has no private datum \"{}\"",
                                                    ref.kind, family, ref.label, name));
    what += fmt::format(", string, \"{}\"", name);
    return i;
  }
  if (in.keyword_is("index")) {
    const parser::SourceLocation index_at = in.location();
    const auto i = in.integer();
    if (const std::string e =
            parser::private_data_index_error(*ref.owner, i, fmt::format("{} {} {}", ref.kind, family, ref.label));
        !e.empty())
      throw parser::InputError(index_at, e);
    what += fmt::format(", index, {}", i);
    return unsigned(i);
  }
  if (count == 1) return 1;
  throw parser::InputError(at, fmt::format("expected `string, \"<name>\"` or `index, <i>` to "
                                           "select one of the {} private data of {} {} {}",
                                           count, ref.kind, family, ref.label));
}

DriveCallerPtr read_private_data_drive(parser::CardReader& in, DriveEnvironment& env,
                                       const char* family) {
  const EntityRef ref = find_entity(in, family);
  std::string what = fmt::format("{}, {}, {}", family, ref.label, ref.kind);
  const unsigned index = read_private_data_index(in, ref, family, what);
  auto f = read_drive_caller(in, env);
  return std::make_shared<PrivateDataDrive>(what, *ref.owner, index, std::move(f));
}

/// `dof, <node_dof>, <drive>`: the NodeDof's value through the drive.
DriveCallerPtr read_dof_drive(parser::CardReader& in, DriveEnvironment& env) {
  return read_node_dof_value(in, [&] { return read_drive_caller(in, env); });
}

}  // namespace

/// The NodeDof of §2.5 mapped to the node's private data: for a structural node dof 1-3 are
/// "X[i]" (algebraic) / "XP[i]" (differential), dof 4-6 are "Omega[i-3]" (differential only); for
/// scalar nodes "x" / "xP".
DriveCallerPtr read_node_dof_value(parser::CardReader& in,
                                   const std::function<DriveCallerPtr()>& read_function) {
  const EntityRef ref = find_entity(in, "node");
  const bool structural = ref.kind == "structural";
  int dof = 1;
  parser::SourceLocation dof_at = in.location();
  if (structural) {
    const auto n = in.integer();
    if (n < 1 || n > 6)
      throw parser::InputError(dof_at, fmt::format("expected a degree of freedom number in "
                                                   "[1, 6] for structural node {}, found {}",
                                                   ref.label, n));
    dof = int(n);
  }
  bool differential = false;
  const parser::SourceLocation order_at = in.location();
  differential = elements::read_dof_differential(in);
  std::string name;
  if (structural && dof <= 3)
    name = fmt::format("{}[{}]", differential ? "XP" : "X", dof);
  else if (structural) {
    if (!differential)
      throw parser::InputError(order_at, fmt::format("degree of freedom {} of structural node {} "
                                                     "(a rotation) can only be addressed as "
                                                     "differential",
                                                     dof, ref.label));
    name = fmt::format("Omega[{}]", dof - 3);
  } else {
    name = differential ? "xP" : "x";
  }
  const unsigned index = ref.owner->private_data_index(name);
  if (index == 0)
    throw parser::InputError(dof_at, fmt::format("{} node {} does not provide \"{}\" (needed by "
                                                 "the dof drive)",
                                                 ref.kind, ref.label, name));
  auto f = read_function ? read_function() : std::make_shared<DirectDrive>();
  std::string what = fmt::format("dof, {}, {}", ref.label, ref.kind);
  if (structural) what += fmt::format(", {}", dof);
  what += differential ? ", differential" : ", algebraic";
  return std::make_shared<PrivateDataDrive>(what, *ref.owner, index, std::move(f));
}

void register_entity_drives(DriveCallerRegistry& r) {
  r["node"] = [](parser::CardReader& in, DriveEnvironment& env) {
    return read_private_data_drive(in, env, "node");
  };
  r["element"] = [](parser::CardReader& in, DriveEnvironment& env) {
    return read_private_data_drive(in, env, "element");
  };
  r["dof"] = read_dof_drive;
}

}  // namespace mbl::drives

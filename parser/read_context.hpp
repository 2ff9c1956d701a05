#pragma once
// Everything a card reader may consult besides its own arguments, passed explicitly (no globals):
// the math environment, `reference:` frames, named definitions (drive callers, constitutive
// laws, scalar functions, ...), the entities already read (for node/element drives), and the
// diagnostics sink.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parser/card_reader.hpp"
#include "parser/math/math_parser.hpp"

namespace mbl::parser {

/// A reference frame defined by a `reference:` card (already resolved to global).
struct NamedReference {
  RigidFrame frame;
  SourceLocation where;
  /// The model's `default orientation` when the card was read (ReadContext::
  /// default_orientation_description): MBDyn's ReferenceFrame keeps it for its .rfm line.
  int orientation_description = 0;
};

/// Something that exposes MBDyn "private data" (node drives, element drives, `model::` functions):
/// named scalar outputs such as "X[1]", "Phi[3]", "omega[2]".
class PrivateDataOwner {
 public:
  virtual ~PrivateDataOwner() = default;
  /// 1-based index of the private datum called `name`, or 0 when there is none.
  virtual unsigned private_data_index(std::string_view name) const = 0;
  virtual unsigned private_data_count() const = 0;
  virtual double private_data(unsigned index) const = 0;
  /// The listing of the kind: MBDyn's name of datum `index` (1..count, MBDyn's iGetPrivDataIdx
  /// numbering) and what it is; empty for kinds not listed yet. docs/conformance/private-data.md
  /// is generated from it; private_data_index_in_listing() looks names up in it.
  struct DatumInfo {
    std::string name;
    std::string meaning;
    bool extension = false;  ///< ours only: MBDyn's kind has no such datum
    bool refused = false;    ///< MBDyn's dGetPrivData refuses it (an error): no drive may read it
  };
  virtual DatumInfo private_data_info(unsigned /*index*/) const { return {}; }
};

/// 1-based index of `name` in the owner's listing (private_data_info), 0 when absent.
inline unsigned private_data_index_in_listing(const PrivateDataOwner& o, std::string_view name) {
  const unsigned n = o.private_data_count();
  for (unsigned i = 1; i <= n; ++i)
    if (o.private_data_info(i).name == name) return i;
  return 0;
}

/// Index `i` (1-based) of a private datum of `o` read by a drive, `bind` or a plugin: `i`, or an
/// error message (out of 1..count, or a datum MBDyn refuses to return) for `what`.
inline std::string private_data_index_error(const PrivateDataOwner& o, std::int64_t i, std::string_view what) {
  const unsigned n = o.private_data_count();
  if (n == 0) return "expected an entity with private data, found " + std::string(what) + ", which has none";
  if (i < 1 || i > std::int64_t(n))
    return "expected a private data index in [1, " + std::to_string(n) + "] for " + std::string(what) +
           ", found " + std::to_string(i);
  if (o.private_data_info(unsigned(i)).refused)
    return "expected a private data index of " + std::string(what) + ", found " + std::to_string(i) +
           ", which MBDyn does not return (" + o.private_data_info(unsigned(i)).meaning + ")";
  return {};
}

/// Lookup of entities read so far, implemented by the model builder.
class EntityDirectory {
 public:
  virtual ~EntityDirectory() = default;
  /// `kind` is the card family ("structural" node, "joint", "body", "abstract" node, ...);
  /// returns nullptr when there is no such entity.
  virtual PrivateDataOwner* find_entity(std::string_view kind, unsigned label) = 0;
};

struct Diagnostic {
  SourceLocation where;
  std::string severity;  ///< "warning", "not implemented", "info"
  std::string message;
};

class ReadContext {
 public:
  explicit ReadContext(math::MathParser& math) : math_(math) {}

  math::MathParser& math() { return math_; }

  // `reference:` cards
  const NamedReference* find_reference(unsigned label) const {
    auto it = references_.find(label);
    return it == references_.end() ? nullptr : &it->second;
  }
  void add_reference(unsigned label, NamedReference ref) { references_[label] = std::move(ref); }
  const std::map<unsigned, NamedReference>& references() const { return references_; }
  /// The model builder's current `default orientation` (an opaque code it owns; 0 = euler123).
  int default_orientation_description = 0;

  /// Named definitions of a card family ("drive caller", "constitutive law 3D", "scalar
  /// function", "template drive caller 3", ...). The stored type is the family's own.
  template <class T>
  std::shared_ptr<T> find_named(const std::string& family, const std::string& name) const {
    auto it = named_.find({family, name});
    return it == named_.end() ? nullptr : std::static_pointer_cast<T>(it->second);
  }
  void add_named(const std::string& family, const std::string& name, std::shared_ptr<void> def) {
    named_[{family, name}] = std::move(def);
  }

  void set_entities(EntityDirectory* d) { entities_ = d; }
  EntityDirectory* entities() const { return entities_; }

  void report(Diagnostic d) { diagnostics_.push_back(std::move(d)); }
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  std::size_t count(std::string_view severity) const {
    std::size_t n = 0;
    for (const auto& d : diagnostics_) n += (d.severity == severity);
    return n;
  }

 private:
  math::MathParser& math_;
  std::map<unsigned, NamedReference> references_;
  std::map<std::pair<std::string, std::string>, std::shared_ptr<void>> named_;
  EntityDirectory* entities_ = nullptr;
  std::vector<Diagnostic> diagnostics_;
};

}  // namespace mbl::parser

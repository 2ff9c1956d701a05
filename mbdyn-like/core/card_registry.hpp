#pragma once
// Card families are registries: keyword -> reader. A reader registers itself once, from its own
// file (a static `const bool registered = CardRegistry::family("joint").add(...)`), so adding a
// joint kind touches one place. Keys are normalised like card keywords (lower case, no blanks).
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mbdyn-like/core/model.hpp"
#include "parser/card_reader.hpp"
#include "parser/read_context.hpp"

namespace mbl {

/// Defaults from the control data block that readers apply to what they create.
struct OutputDefaults {
  bool nodes = true;
  bool elements = true;
  StructNode::OrientationOutput orientation = StructNode::OrientationOutput::Euler123;
  bool accelerations = false;
  /// `default output:` per family, keyed by the normalised family keyword ("structuralnodes",
  /// "joints", ...); a family not listed is output. MBDyn does not output abstract nodes unless
  /// asked (its runs of web.pid and web.cantilever1piezo write no .abs); `all` clears the map.
  std::map<std::string, bool> by_family{{"abstractnodes", false}};
  bool enabled(const std::string& family) const;
  /// `default <family> output:` (input manual §5.3.13): the custom output flags (the family's
  /// own bits, e.g. MBDyn's Beam::OUTPUT_EP_*) and orientation format its elements start from;
  /// keyed like by_family ("beams"); a family not listed uses its own default.
  struct CustomOutput {
    unsigned flags = 0;
    StructNode::OrientationOutput orientation = StructNode::OrientationOutput::Euler123;
  };
  std::map<std::string, CustomOutput> custom;
};

/// What a card reader may use besides its arguments.
class BuildContext {
 public:
  BuildContext(Model& model, parser::ReadContext& read) : model_(model), read_(read) {}
  Model& model() { return model_; }
  parser::ReadContext& read() { return read_; }
  OutputDefaults& output_defaults() { return output_defaults_; }
  /// `model: static;` (input manual §5.3.16): dynamic structural nodes are read as static
  /// (inertia ignored; gravity stays a forcing term).
  bool& static_model() { return static_model_; }
  /// `problem: inverse dynamics` (input manual §5.1.1): cards read their inverse-dynamics forms.
  bool& inverse_dynamics() { return inverse_dynamics_; }

  /// Reads a structural node label and returns the node; InputError at the label otherwise.
  /// A label whose node card was not implemented throws CardSkipped (the card is reported as
  /// not implemented, since it depends on that node).
  /// Displacement-only nodes (3 dofs) are an input error unless `displacement_ok` (elements
  /// that use positions only, input manual §6.5).
  StructNode& struct_node(parser::CardReader& in, bool displacement_ok = false);
  /// The node of family `kind` with `label`, or nullptr, noted as connected to the element being
  /// read (as struct_node notes the nodes it returns).
  Node* find_node(std::string_view kind, unsigned label);
  /// The nodes the element card being read refers to, in the order it read them, each once: the
  /// model keeps them as the element's connections (MBDyn's Elem::GetConnectedNodes, written by
  /// `print: element connection`). The model builder clears them before each card.
  void clear_connected_nodes() { connected_nodes_.clear(); }
  std::vector<const Node*> take_connected_nodes() { return std::exchange(connected_nodes_, {}); }
  /// Records that the card `<kind>: <label>` (a node kind: "structural", "hydraulic", ...; or an
  /// element family: "joint", "force", ...) was reported as not implemented.
  void skip(std::string_view kind, unsigned label);
  bool skipped(std::string_view kind, unsigned label) const;
  /// When `<kind> <label>` was skipped, reports the card being read as not implemented (it
  /// depends on that one) and throws CardSkipped; otherwise returns.
  void skip_if_depends_on_skipped(parser::CardReader& in, std::string_view kind, unsigned label);
  /// Applies a trailing `output, yes|no` (if present) and the family default.
  void read_output_flag(parser::CardReader& in, Element& e, const std::string& family);

 private:
  Model& model_;
  parser::ReadContext& read_;
  OutputDefaults output_defaults_;
  std::set<std::pair<std::string, unsigned>> skipped_;
  std::vector<const Node*> connected_nodes_;
  void note_connected(const Node* n);
  bool static_model_ = false;
  bool inverse_dynamics_ = false;
};

/// Thrown by a reader when its card depends on something not implemented (already reported).
struct CardSkipped {};

/// A reader consumes the arguments after the card's label (element and node cards) or after the
/// description (control data and initial value cards); `label` is 0 where there is none.
using CardReaderFn = std::function<void(parser::CardReader& in, BuildContext& ctx, unsigned label)>;

class CardRegistry {
 public:
  /// The registry of one family: "control data", "initial value", "node", "element", "joint",
  /// "drivers", "force", "couple", ...
  static CardRegistry& family(std::string_view name);
  static std::string normalise(std::string_view keyword);

  /// Registers `keyword` (any spelling; normalised); returns true so it can initialise a static.
  bool add(std::string_view keyword, CardReaderFn fn);
  const CardReaderFn* find(std::string_view keyword) const;
  /// Tries every registered keyword against the next argument (longest first) and consumes the
  /// one that matches; returns its reader or nullptr.
  const CardReaderFn* match_keyword(parser::CardReader& in) const;
  std::vector<std::string> keywords() const;

 private:
  std::map<std::string, CardReaderFn> readers_;
};

}  // namespace mbl

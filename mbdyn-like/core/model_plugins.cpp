// Plugin variables of the math language (input manual §2.2.2):
//   [dof, <var>, <node label>, <node type> [, <index>], {algebraic|differential} [, prev=<bool>]]
//   [node, <var>, <node label>, <node type> [, {string=<name> | index=<i> | <name>}]]
//   [element, <var>, <element label>, <element type> [, {string=<name> | index=<i> | <name>}]]
// Each makes <var> read a value of the model every time it is used.
#include <fmt/format.h>

#include <cctype>
#include <cstdlib>

#include "mbdyn-like/core/model.hpp"
#include "parser/errors.hpp"

namespace mbl {
namespace {

using math::Value;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// `key=value` -> value when `word` starts with `key=` (blanks around '=' allowed).
bool option(const std::string& word, const std::string& key, std::string& value) {
  const auto eq = word.find('=');
  if (eq == std::string::npos) return false;
  std::string k = word.substr(0, eq);
  while (!k.empty() && std::isspace(static_cast<unsigned char>(k.back()))) k.pop_back();
  if (lower(k) != key) return false;
  value = word.substr(eq + 1);
  const auto b = value.find_first_not_of(" \t");
  value = b == std::string::npos ? std::string() : value.substr(b);
  return true;
}

}  // namespace

void Model::install_plugins() {
  // Labels and indices may be expressions (`NODELABEL`); they are evaluated once, here.
  auto integer = [this](const std::string& text, const parser::SourceLocation& where, const char* what) {
    try {
      return math_.evaluate(text, where).to_integer();
    } catch (const parser::InputError&) {
      throw;
    } catch (const std::exception&) {
      throw parser::InputError(where, fmt::format("expected {}, found \"{}\"", what, text));
    }
  };
  auto need = [](std::span<const std::string> a, std::size_t n, const parser::SourceLocation& where,
                 const char* plugin) {
    if (a.size() < n)
      throw parser::InputError(where, fmt::format("expected the label and the type after the {} plugin variable", plugin));
  };

  math_.register_plugin("dof", [this, integer, need](std::span<const std::string> a, const parser::SourceLocation& where)
                                   -> math::PluginGetter {
    need(a, 3, where, "dof");
    const auto label = static_cast<unsigned>(integer(a[0], where, "a node label"));
    const std::string type = lower(a[1]);
    const Node* n = find_node(type, label);
    if (!n) throw parser::InputError(where, fmt::format("expected an existing node, found no {} node {}", type, label));
    std::size_t k = 2;
    int index = 1;
    if (k < a.size() && !a[k].empty() && lower(a[k]) != "algebraic" && lower(a[k]) != "differential")
      index = static_cast<int>(integer(a[k++], where, "a degree of freedom index"));
    if (k >= a.size()) throw parser::InputError(where, "expected algebraic or differential, found the end of the plugin variable");
    const std::string order = lower(a[k++]);
    if (order != "algebraic" && order != "differential")
      throw parser::InputError(where, fmt::format("expected algebraic or differential, found \"{}\"", a[k - 1]));
    const bool derivative = order == "differential";
    bool prev = false;
    for (; k < a.size(); ++k) {
      std::string v;
      if (!option(a[k], "prev", v))
        throw parser::InputError(where, fmt::format("expected prev=<bool>, found \"{}\"", a[k]));
      v = lower(v);
      prev = v == "true" || v == "1" || v == "yes";
    }
    if (const auto* s = dynamic_cast<const StructNode*>(n)) {
      if (index < 1 || index > 3)
        throw parser::InputError(where, fmt::format("expected a position degree of freedom index (1..3) of structural node {}, found {}", label, index));
      const int i = index - 1;
      return [s, i, derivative, prev]() {
        const Vec3& q = derivative ? (prev ? s->v_prev_W() : s->v_W()) : (prev ? s->x_prev_W() : s->x_W());
        return Value(q[i]);
      };
    }
    // Scalar nodes (abstract, parameter, ...): the value and its derivative are the private data
    // "x" and "xP".
    if (index != 1) throw parser::InputError(where, fmt::format("expected index 1 of scalar {} node {}, found {}", type, label, index));
    if (prev) throw parser::InputError(where, fmt::format("prev=true is not available for {} nodes", type));
    const unsigned datum = n->private_data_index(derivative ? "xP" : "x");
    if (datum == 0)
      throw parser::InputError(where, fmt::format("{} node {} has no {} value", type, label, derivative ? "differential" : "algebraic"));
    return [n, datum]() { return Value(n->private_data(datum)); };
  });

  // node and element plugins: a private datum by name or index.
  auto datum_of = [integer](const parser::PrivateDataOwner& o, std::span<const std::string> a,
                            const parser::SourceLocation& where, const std::string& what) -> unsigned {
    if (a.size() < 3) return 1;
    std::string v;
    unsigned i = 0;
    if (option(a[2], "index", v)) {
      const auto k = integer(v, where, "a private datum index");
      if (const std::string e = parser::private_data_index_error(o, k, what); !e.empty())
        throw parser::InputError(where, e);
      return static_cast<unsigned>(k);
    }
    if (!option(a[2], "string", v) && !option(a[2], "name", v)) v = a[2];
    i = o.private_data_index(v);
    if (i == 0) throw parser::InputError(where, fmt::format("expected a private datum of {}, found \"{}\"", what, v));
    return i;
  };
  // `find(type, label)`: the node or element the plugin reads, or nullptr.
  auto datum_plugin = [integer, need, datum_of](const char* plugin, auto find) -> math::PluginFactory {
    return [=](std::span<const std::string> a, const parser::SourceLocation& where) -> math::PluginGetter {
      need(a, 2, where, plugin);
      const auto label = static_cast<unsigned>(integer(a[0], where, "a label"));
      const std::string type = lower(a[1]);
      const parser::PrivateDataOwner* o = find(type, label);
      if (!o) throw parser::InputError(where, fmt::format("expected an existing {}, found no {} {} {}", plugin, type, plugin, label));
      const unsigned i = datum_of(*o, a, where, fmt::format("{} {} {}", type, plugin, label));
      return [o, i]() { return Value(o->private_data(i)); };
    };
  };
  math_.register_plugin("node", datum_plugin("node", [this](const std::string& t, unsigned l) -> const parser::PrivateDataOwner* {
                          return find_node(t, l);
                        }));
  math_.register_plugin("element", datum_plugin("element", [this](const std::string& t, unsigned l) -> const parser::PrivateDataOwner* {
                          return find_element_data(t, l);
                        }));
}

}  // namespace mbl

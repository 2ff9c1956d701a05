// MathParser: the symbol table (predefined constants of manual table 2.2), namespaces and
// registered functions, and the entry points used by the deck reader.
#include "parser/math/math_parser.hpp"

#include <cctype>
#include <cfloat>
#include <cmath>
#include <ostream>

#include <fmt/format.h>

#include "parser/errors.hpp"
#include "parser/math/math_internal.hpp"
#include "parser/math/math_nodes.hpp"

namespace mbl::math {

namespace {

std::string_view strip_default_namespace(std::string_view name) {
  constexpr std::string_view prefix = "default::";
  if (name.substr(0, prefix.size()) == prefix) name.remove_prefix(prefix.size());
  return name;
}

bool blank(std::string_view text) {
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) return false;
  return true;
}

/// Marks the evaluation of a read-time expression (MathParser::Impl::eager) for its scope.
class EagerScope {
 public:
  explicit EagerScope(MathParser::Impl& env) : env_(env), before_(env.eager) { env.eager = true; }
  ~EagerScope() { env_.eager = before_; }
  EagerScope(const EagerScope&) = delete;
  EagerScope& operator=(const EagerScope&) = delete;

 private:
  MathParser::Impl& env_;
  bool before_;
};

/// The owner of a compiled tree: keeps the text and its place in the deck to locate errors.
class CompiledExpression final : public Expression {
 public:
  CompiledExpression(std::string text, parser::SourceLocation where, detail::NodePtr root)
      : text_(std::move(text)), where_(std::move(where)), root_(std::move(root)) {}

  Value eval(MathParser& env) const override {
    try {
      return root_->eval(MathParser::Impl::of(env));
    } catch (const detail::LocatedError& e) {
      throw parser::InputError(where_.advanced(text_, e.offset), e.message);
    }
  }

  void check_names(MathParser& env) const override {
    std::set<std::string, std::less<>> declared;
    try {
      root_->check_names(MathParser::Impl::of(env), declared);
    } catch (const detail::LocatedError& e) {
      throw parser::InputError(where_.advanced(text_, e.offset), e.message);
    }
  }

 private:
  std::string text_;
  parser::SourceLocation where_;
  detail::NodePtr root_;
};

}  // namespace

MathParser::Impl::Impl(MathParser& p) : owner(p) {
  // Manual table 2.2 / figure 2.1; INT_* are those of MBDyn's C int.
  add_constant("FALSE", Value(false));
  add_constant("TRUE", Value(true));
  add_constant("INT_MAX", Value(detail::kIntMax));
  add_constant("INT_MIN", Value(detail::kIntMin));
  add_constant("RAND_MAX", Value(detail::kRandMax));
  add_constant("REAL_MAX", Value(DBL_MAX));
  add_constant("REAL_MIN", Value(DBL_MIN));
  add_constant("e", Value(M_E));
  add_constant("pi", Value(M_PI));
  add_constant("in2m", Value(0.0254));
  add_constant("m2in", Value(1.0 / 0.0254));
  add_constant("in2mm", Value(25.4));
  add_constant("mm2in", Value(1.0 / 25.4));
  add_constant("ft2m", Value(0.3048));
  add_constant("m2ft", Value(1.0 / 0.3048));
  add_constant("lb2kg", Value(0.45359237));
  add_constant("kg2lb", Value(1.0 / 0.45359237));
  add_constant("deg2rad", Value(M_PI / 180.0));
  add_constant("rad2deg", Value(180.0 / M_PI));
  add_constant("slug2kg", Value(14.5939));
  add_constant("kg2slug", Value(1.0 / 14.5939));
  // Variables set by the solver (not const: decks may assign them too).
  add_constant("Time", Value(0.0)).is_const = false;
  add_constant("TimeStep", Value(0.0)).is_const = false;
  add_constant("Step", Value(std::int64_t{0})).is_const = false;
  add_constant("Var", Value(0.0)).is_const = false;
  detail::register_builtins(*this);
}

detail::Variable& MathParser::Impl::add_constant(std::string name, Value v) {
  auto var = std::make_unique<detail::Variable>();
  var->name = name;
  var->value = std::move(v);
  var->is_const = true;
  auto& slot = variables[std::move(name)];
  slot = std::move(var);
  return *slot;
}

detail::Variable* MathParser::Impl::find(std::string_view name) {
  auto it = variables.find(strip_default_namespace(name));
  return it == variables.end() ? nullptr : it->second.get();
}

const detail::FunctionEntry* MathParser::Impl::find_function(std::string_view ns,
                                                             std::string_view name) const {
  if (ns == "default") ns = "";
  auto n = functions.find(ns);
  if (n == functions.end()) return nullptr;
  auto f = n->second.find(name);
  return f == n->second.end() ? nullptr : &f->second;
}

void MathParser::Impl::add_function(std::string_view ns, std::string_view name,
                                    detail::FunctionEntry e) {
  if (ns == "default") ns = "";
  auto& table = functions[std::string(ns)];
  // Assign in place: compiled expressions may hold the address of the entry.
  table[std::string(name)] = std::move(e);
}

MathParser::MathParser() : impl_(std::make_unique<Impl>(*this)) {}
MathParser::~MathParser() = default;

std::shared_ptr<const Expression> MathParser::compile(std::string_view text,
                                                      const parser::SourceLocation& where) {
  detail::NodePtr root;
  try {
    root = detail::parse_statements(text, *impl_, where);
  } catch (const detail::LocatedError& e) {
    throw parser::InputError(where.advanced(text, e.offset), e.message);
  }
  auto compiled = std::make_shared<CompiledExpression>(std::string(text), where, std::move(root));
  impl_->run_time.push_back(compiled);
  return compiled;
}

std::shared_ptr<const Expression> MathParser::compile_drive_string(
    std::string_view text, const parser::SourceLocation& where) {
  detail::NodePtr root;
  try {
    root = detail::parse_statements(text, *impl_, where);
    // MBDyn's parser loops over the statements and keeps only the tree of the last one; the
    // earlier ones take effect at parse time (their assignments are not repeated later).
    // Only a top-level list: a parenthesised one `(s1; s2)` is one expression (the parser
    // returns its list as the root, starting after the parenthesis).
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    const auto* list = dynamic_cast<const detail::StatementListNode*>(root.get());
    if (list && first != std::string_view::npos && list->offset() <= first) {
      const auto& stmts = list->statements();
      EagerScope eager(*impl_);  // executed once, now
      for (std::size_t i = 0; i + 1 < stmts.size(); ++i) stmts[i]->eval(*impl_);
      root = stmts.back();
    }
  } catch (const detail::LocatedError& e) {
    throw parser::InputError(where.advanced(text, e.offset), e.message);
  }
  auto compiled = std::make_shared<CompiledExpression>(std::string(text), where, std::move(root));
  if (!impl_->eager) impl_->run_time.push_back(compiled);  // evaluate() uses it once, now
  return compiled;
}

void MathParser::check_run_time_names() {
  auto& kept = impl_->run_time;
  std::erase_if(kept, [](const std::weak_ptr<const Expression>& e) { return e.expired(); });
  for (const auto& weak : kept)
    if (auto e = weak.lock()) e->check_names(*this);
}

Value MathParser::evaluate(std::string_view text, const parser::SourceLocation& where) {
  EagerScope eager(*impl_);
  return compile(text, where)->eval(*this);
}

void MathParser::execute_set(std::string_view text, const parser::SourceLocation& where) {
  if (blank(text))
    parser::fail_expected(where.advanced(text, text.size()),
                          "a declaration, an assignment or an expression", "nothing");
  evaluate(text, where);
}

void MathParser::define(std::string_view name, std::string_view type, std::string_view value,
                        const std::string& origin) {
  auto source = std::make_shared<parser::SourceFile>();
  source->path = "<command line>";
  std::string value_text(value);
  std::string type_text(type);
  if (type_text == "string") {
    std::string quoted = "\"";
    for (char c : value_text) quoted += c == '"' ? std::string("\\\"") : std::string(1, c);
    value_text = quoted + "\"";
  } else if (type_text.empty()) {
    // The value's own type; a word that is not an expression is a string (-D tag=a).
    source->text = value_text;
    try {
      type_text = detail::type_name(evaluate(value_text, parser::SourceLocation{source, 1, 1}).type());
    } catch (const parser::InputError&) {
      return define(name, "string", value, origin);
    }
  }
  source->text = fmt::format("{} {} = {}", type_text, name, value_text);
  execute_set(source->text, parser::SourceLocation{source, 1, 1});
  if (detail::Variable* v = impl_->find(name)) v->defined_outside = origin;
}

void MathParser::set_variable(std::string_view name, Value value) {
  if (detail::Variable* v = impl_->find(name)) {
    if (v->is_const || v->plugin)
      throw std::invalid_argument(fmt::format("cannot set const variable '{}'", name));
    // Keep the declared type when the value converts to it (Time stays real, Step integer).
    if (value.type() == v->value.type() || (value.is_number() && v->value.is_number()))
      v->value = detail::convert_for_store(v->value.type(), value);
    else
      v->value = std::move(value);
    return;
  }
  auto var = std::make_unique<detail::Variable>();
  var->name = std::string(strip_default_namespace(name));
  var->value = std::move(value);
  impl_->variables.emplace(var->name, std::move(var));
}

const Value* MathParser::find_variable(std::string_view name) const {
  detail::Variable* v = impl_->find(name);
  if (!v) return nullptr;
  if (v->plugin) v->value = v->plugin();
  return &v->value;
}

void MathParser::register_function(std::string_view ns, std::string_view name, Function f) {
  impl_->add_function(ns, name, detail::FunctionEntry{std::move(f), -1, -1});
}

void MathParser::register_plugin(std::string_view name, PluginFactory factory) {
  std::string key(name);
  for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  impl_->plugins[key] = std::move(factory);
}

void MathParser::set_allow_redefinition(bool allow) { impl_->allow_redefinition = allow; }

void MathParser::set_print_stream(std::ostream& os) { impl_->print_stream = &os; }

void MathParser::print_symbol_table(std::ostream& os) const {
  for (const auto& [name, var] : impl_->variables) {
    Value v = var->value;
    if (var->plugin) {
      try {
        v = var->plugin();
      } catch (const std::exception&) {
        // keep the last value read: printing the table must not fail
      }
    }
    os << "  " << (var->is_const ? "const " : "") << detail::type_name(v.type()) << ' ' << name
       << " = " << v.str() << '\n';
  }
}

}  // namespace mbl::math

// Evaluation of the compiled math tree (input manual §2.2): variables, declarations with
// const/ifndef, assignments, statement lists, calls and plugin variables.
#include <algorithm>
#include <atomic>
#include <cctype>

#include <fmt/format.h>

#include "parser/errors.hpp"
#include "parser/math/math_nodes.hpp"

namespace mbl::math::detail {

std::uint64_t next_declaration_id() {
  static std::atomic<std::uint64_t> counter{0};
  return ++counter;
}

namespace {
Value default_of(Type t) {
  switch (t) {
    case Type::Bool: return Value(false);
    case Type::Integer: return Value(std::int64_t{0});
    case Type::Real: return Value(0.0);
    case Type::String: return Value(std::string());
  }
  return Value();
}

/// Runs `f`, turning position-less errors into errors located at `offset`.
template <class F>
Value located(std::size_t offset, F&& f) {
  try {
    return f();
  } catch (const MathError& e) {
    throw LocatedError{offset, e.what()};
  } catch (const std::invalid_argument& e) {
    throw LocatedError{offset, e.what()};
  }
}
}  // namespace

Value VariableNode::eval(MathParser::Impl& env) const {
  if (cached_env_ != &env) {
    Variable* v = env.find(name_);
    if (!v) throw LocatedError{offset(), fmt::format("unknown variable '{}'", name_)};
    cached_ = v;
    cached_env_ = &env;
  }
  if (!cached_->plugin) return cached_->value;
  try {
    return cached_->plugin();
  } catch (const parser::InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw LocatedError{offset(), fmt::format("plugin variable '{}': {}", name_, e.what())};
  }
}

void VariableNode::check_names(MathParser::Impl& env, std::set<std::string, std::less<>>& declared) const {
  if (!declared.count(name_) && !env.find(name_))
    throw LocatedError{offset(), fmt::format("unknown variable '{}'", name_)};
}

void CallNode::check_names(MathParser::Impl& env, std::set<std::string, std::less<>>& declared) const {
  // The function itself was found when the expression was compiled.
  for (const NodePtr& a : args_) a->check_names(env, declared);
}

void AssignNode::check_names(MathParser::Impl& env, std::set<std::string, std::less<>>& declared) const {
  value_->check_names(env, declared);
  if (!declared.count(name_) && !env.find(name_))
    throw LocatedError{offset(), fmt::format("unknown variable '{}' (declare it first, e.g. 'real {} = ...')", name_, name_)};
}

Value UnaryNode::eval(MathParser::Impl& env) const {
  Value a = arg_->eval(env);
  return located(offset(), [&] { return apply(op_, a); });
}

Value BinaryNode::eval(MathParser::Impl& env) const {
  Value a = lhs_->eval(env);
  if (op_ == BinOp::And || op_ == BinOp::Or) {
    const char* what = op_ == BinOp::And ? "operator &&" : "operator ||";
    const bool x = located(offset(), [&] { return Value(truth(a, what)); }).to_bool();
    if (op_ == BinOp::And ? !x : x) return Value(x);
    Value b = rhs_->eval(env);
    return located(offset(), [&] { return Value(truth(b, what)); });
  }
  Value b = rhs_->eval(env);
  if (env.eager && op_ == BinOp::Div && a.is_number() && b.is_number() && b.to_real() == 0.0)
    throw LocatedError{offset(), fmt::format("division by zero in {} / {}", a.str(), b.str())};
  return located(offset(), [&] { return apply(op_, a, b); });
}

Value CallNode::eval(MathParser::Impl& env) const {
  if (cached_env_ != &env) {
    const FunctionEntry* f = env.find_function(ns_, name_);
    if (!f) throw LocatedError{offset(), fmt::format("unknown function '{}'", qualified_name())};
    cached_ = f;
    cached_env_ = &env;
  }
  const std::size_t n = args_.size();
  std::array<Value, 4> small;
  std::vector<Value> large;
  Value* argv = small.data();
  if (n > small.size()) {
    large.resize(n);
    argv = large.data();
  }
  for (std::size_t i = 0; i < n; ++i) argv[i] = args_[i]->eval(env);
  try {
    return cached_->f(std::span<const Value>(argv, n));
  } catch (const parser::InputError&) {
    throw;
  } catch (const StopRequest&) {
    throw;
  } catch (const LocatedError&) {
    throw;
  } catch (const std::exception& e) {
    throw LocatedError{offset(), fmt::format("{}(): {}", qualified_name(), e.what())};
  }
}

Value AssignNode::eval(MathParser::Impl& env) const {
  Variable* v = env.find(name_);
  if (!v)
    throw LocatedError{offset(), fmt::format("unknown variable '{}' (declare it first, e.g. "
                                             "'real {} = ...')",
                                             name_, name_)};
  if (v->is_const || v->plugin)
    throw LocatedError{offset(), fmt::format("cannot assign to const variable '{}'", name_)};
  Value x = value_->eval(env);
  return located(offset(), [&] { return v->value = convert_for_store(v->value.type(), x); });
}

DeclareNode::DeclareNode(std::size_t offset, Declaration d)
    : Node(offset), d_(std::move(d)), id_(next_declaration_id()) {}

Value DeclareNode::eval(MathParser::Impl& env) const {
  auto initial = [&] {
    if (!d_.init) return default_of(d_.type);
    Value x = d_.init->eval(env);
    return located(offset(), [&] { return convert_for_store(d_.type, x); });
  };
  Variable* v = env.find(d_.name);
  if (!v) {
    auto var = std::make_unique<Variable>();
    var->name = d_.name;
    var->value = initial();
    var->is_const = d_.is_const;
    var->declared_by = id_;
    v = var.get();
    env.variables.emplace(d_.name, std::move(var));
    return v->value;
  }
  // `ifndef`: an existing variable is kept as it is (manual §2.2).
  if (d_.ifndef) return v->read();
  if (v->declared_by == id_) {
    // The same declaration run again (e.g. inside a string drive evaluated at every step).
    v->value = initial();
    return v->value;
  }
  if (v->is_const || v->plugin)
    throw LocatedError{offset(), fmt::format("cannot redefine const variable '{}'", d_.name)};
  if (!env.allow_redefinition)
    throw LocatedError{offset(),
                       fmt::format("variable '{}' is already defined{} (use an assignment "
                                   "'{} = ...' to change it, or 'ifndef' to keep it)",
                                   d_.name,
                                   v->defined_outside.empty() ? "" : " " + v->defined_outside,
                                   d_.name)};
  v->value = initial();
  v->is_const = d_.is_const;
  v->declared_by = id_;
  return v->value;
}

Value StatementListNode::eval(MathParser::Impl& env) const {
  for (std::size_t i = 0; i + 1 < stmts_.size(); ++i) stmts_[i]->eval(env);
  return stmts_.back()->eval(env);
}

PluginNode::PluginNode(std::size_t offset, parser::SourceLocation where,
                       std::vector<std::string> words)
    : Node(offset), where_(std::move(where)), words_(std::move(words)), id_(next_declaration_id()) {}

Value PluginNode::eval(MathParser::Impl& env) const {
  const std::string& plugin = words_[0];
  const std::string& name = words_[1];
  if (Variable* v = env.find(name)) {
    if (v->declared_by == id_) return v->read();
    throw LocatedError{offset(), fmt::format("variable '{}' is already defined", name)};
  }
  std::string key = plugin;
  std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return std::tolower(c); });
  auto it = env.plugins.find(key);
  if (it == env.plugins.end()) {
    std::string known;
    for (const auto& [k, f] : env.plugins) known += (known.empty() ? "" : ", ") + k;
    throw LocatedError{offset(), fmt::format("expected a plugin name{}, found '{}'",
                                             known.empty() ? "" : " (" + known + ")", plugin)};
  }
  PluginGetter getter;
  try {
    getter = it->second(std::span<const std::string>(words_).subspan(2), where_);
  } catch (const parser::InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw LocatedError{offset(), fmt::format("plugin '{}': {}", plugin, e.what())};
  }
  if (!getter) throw LocatedError{offset(), fmt::format("plugin '{}' gave no value", plugin)};
  auto var = std::make_unique<Variable>();
  var->name = name;
  var->is_const = true;
  var->plugin = std::move(getter);
  var->declared_by = id_;
  Variable* v = var.get();
  env.variables.emplace(name, std::move(var));
  v->value = v->read();  // first evaluation, also the type shown by the symbol table
  return v->value;
}

}  // namespace mbl::math::detail

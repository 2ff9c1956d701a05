#pragma once
// The compiled form of the math language: one Node subclass per construct. Variables and
// functions are looked up by name on first evaluation and the slot is cached per parser, so a
// string drive evaluated at every step costs a handful of virtual calls.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "parser/math/math_internal.hpp"

namespace mbl::math::detail {

class LiteralNode final : public Node {
 public:
  LiteralNode(std::size_t offset, Value v) : Node(offset), v_(std::move(v)) {}
  Value eval(MathParser::Impl&) const override { return v_; }
  bool is_literal() const override { return true; }

 private:
  Value v_;
};

/// A variable read; `name` is the unqualified name (all variables live in the default namespace).
class VariableNode final : public Node {
 public:
  VariableNode(std::size_t offset, std::string name) : Node(offset), name_(std::move(name)) {}
  Value eval(MathParser::Impl& env) const override;
  void check_names(MathParser::Impl& env, std::set<std::string, std::less<>>& declared) const override;

 private:
  std::string name_;
  mutable const MathParser::Impl* cached_env_ = nullptr;
  mutable Variable* cached_ = nullptr;
};

class UnaryNode final : public Node {
 public:
  UnaryNode(std::size_t offset, UnOp op, NodePtr arg) : Node(offset), op_(op), arg_(std::move(arg)) {}
  Value eval(MathParser::Impl& env) const override;
  void check_names(MathParser::Impl& env, std::set<std::string, std::less<>>& declared) const override {
    arg_->check_names(env, declared);
  }

 private:
  UnOp op_;
  NodePtr arg_;
};

/// Binary operators; && and || evaluate their right operand only when needed.
class BinaryNode final : public Node {
 public:
  BinaryNode(std::size_t offset, BinOp op, NodePtr lhs, NodePtr rhs)
      : Node(offset), op_(op), lhs_(std::move(lhs)), rhs_(std::move(rhs)) {}
  Value eval(MathParser::Impl& env) const override;
  void check_names(MathParser::Impl& env, std::set<std::string, std::less<>>& declared) const override {
    lhs_->check_names(env, declared);
    rhs_->check_names(env, declared);
  }

 private:
  BinOp op_;
  NodePtr lhs_, rhs_;
};

class CallNode final : public Node {
 public:
  CallNode(std::size_t offset, std::string ns, std::string name, std::vector<NodePtr> args)
      : Node(offset), ns_(std::move(ns)), name_(std::move(name)), args_(std::move(args)) {}
  Value eval(MathParser::Impl& env) const override;
  void check_names(MathParser::Impl& env, std::set<std::string, std::less<>>& declared) const override;
  std::string qualified_name() const { return ns_.empty() ? name_ : ns_ + "::" + name_; }

 private:
  std::string ns_, name_;
  std::vector<NodePtr> args_;
  mutable const MathParser::Impl* cached_env_ = nullptr;
  mutable const FunctionEntry* cached_ = nullptr;
};

class AssignNode final : public Node {
 public:
  AssignNode(std::size_t offset, std::string name, NodePtr value)
      : Node(offset), name_(std::move(name)), value_(std::move(value)) {}
  Value eval(MathParser::Impl& env) const override;
  void check_names(MathParser::Impl& env, std::set<std::string, std::less<>>& declared) const override;

 private:
  std::string name_;
  NodePtr value_;
};

struct Declaration {
  bool ifndef = false;
  bool is_const = false;
  Type type = Type::Real;
  std::string name;
  NodePtr init;  ///< may be null: `real x;` gives 0 / false / ""
  std::size_t name_offset = 0;
};

class DeclareNode final : public Node {
 public:
  DeclareNode(std::size_t offset, Declaration d);
  Value eval(MathParser::Impl& env) const override;
  void check_names(MathParser::Impl& env, std::set<std::string, std::less<>>& declared) const override {
    if (d_.init) d_.init->check_names(env, declared);
    declared.insert(d_.name);
  }

 private:
  Declaration d_;
  std::uint64_t id_;  ///< re-running the same declaration (a string drive) is not a redefinition
};

class StatementListNode final : public Node {
 public:
  StatementListNode(std::size_t offset, std::vector<NodePtr> stmts)
      : Node(offset), stmts_(std::move(stmts)) {}
  Value eval(MathParser::Impl& env) const override;
  void check_names(MathParser::Impl& env, std::set<std::string, std::less<>>& declared) const override {
    for (const NodePtr& s : stmts_) s->check_names(env, declared);
  }
  const std::vector<NodePtr>& statements() const { return stmts_; }

 private:
  std::vector<NodePtr> stmts_;
};

/// `[<plugin>, <var>, <args>...]` (§2.2.2): defines <var> bound to the plugin's getter.
class PluginNode final : public Node {
 public:
  PluginNode(std::size_t offset, parser::SourceLocation where, std::vector<std::string> words);
  Value eval(MathParser::Impl& env) const override;
  void check_names(MathParser::Impl&, std::set<std::string, std::less<>>& declared) const override {
    declared.insert(words_[1]);
  }

 private:
  parser::SourceLocation where_;
  std::vector<std::string> words_;  ///< plugin name, variable name, arguments
  std::uint64_t id_;
};

std::uint64_t next_declaration_id();

}  // namespace mbl::math::detail

// The grammar of the math language (input manual §2.2, table 2.3) in Boost.Spirit X3. Declared,
// defined and instantiated in this one translation unit. Semantic actions build the Node tree
// of math_nodes.hpp directly.
//
// Precedence, from tighter to looser, as MBDyn's parser implements table 2.3:
//   unary + - !  (applies to the operand right after it, so -2^2 == (-2)^2 == 4)
//   ^            right associative
//   * / %        left
//   + -          left
//   > >= == <= < !=   one level, left (MBDyn evaluates them in one loop)
//   && || ~|          one level, left
//   =            assignment, only as a statement `name = expr`
// Statements: [ifndef] [const] <type> <name> [= expr] | name = expr | expr, separated by ';'
// inside parentheses and function arguments.
#include <boost/spirit/home/x3.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cerrno>
#include <cstdlib>
#include <functional>

#include <fmt/format.h>

#include "parser/math/math_nodes.hpp"

namespace mbl::math::detail {

namespace {

namespace x3 = boost::spirit::x3;
using It = const char*;

struct CompileState {
  std::string_view text;
  MathParser::Impl& env;
  const parser::SourceLocation& where;

  /// Offset of the first significant character at or after `p` (skips blanks and comments).
  std::size_t offset_of(It p) const {
    It end = text.data() + text.size();
    for (;;) {
      while (p != end && std::isspace(static_cast<unsigned char>(*p))) ++p;
      if (p != end && *p == '#') {
        while (p != end && *p != '\n') ++p;
        continue;
      }
      if (end - p >= 2 && p[0] == '/' && p[1] == '*') {
        It close = p + 2;
        while (end - close >= 2 && !(close[0] == '*' && close[1] == '/')) ++close;
        if (end - close < 2) break;  // unterminated: leave it to the parser
        p = close + 2;
        continue;
      }
      break;
    }
    return static_cast<std::size_t>(p - text.data());
  }
};

struct state_tag;

template <class Ctx>
CompileState& state(const Ctx& ctx) {
  return x3::get<state_tag>(ctx).get();
}

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// "found ..." part of a syntax error: the token at `offset`.
std::string found_at(std::string_view text, std::size_t offset) {
  if (offset >= text.size()) return "end of expression";
  const char c = text[offset];
  std::size_t n = 1;
  if (is_ident_start(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
    while (offset + n < text.size() && (is_ident_char(text[offset + n]) || text[offset + n] == '.')) ++n;
  } else if (c == '"') {
    return "a string";
  } else if (offset + 1 < text.size()) {
    static constexpr std::string_view two[] = {"&&", "||", "~|", ">=", "<=", "==", "!=", "::"};
    for (auto t : two)
      if (text.substr(offset, 2) == t) n = 2;
  }
  return fmt::format("'{}'", text.substr(offset, n));
}

// ---- node construction -----------------------------------------------------------------------

NodePtr make_binary(std::size_t offset, BinOp op, NodePtr lhs, NodePtr rhs, MathParser::Impl& env) {
  const bool literal = lhs->is_literal() && rhs->is_literal();
  NodePtr n = std::make_shared<BinaryNode>(offset, op, std::move(lhs), std::move(rhs));
  if (literal) return std::make_shared<LiteralNode>(offset, n->eval(env));
  return n;
}

NodePtr make_unary(std::size_t offset, UnOp op, NodePtr arg, MathParser::Impl& env) {
  const bool literal = arg->is_literal();
  NodePtr n = std::make_shared<UnaryNode>(offset, op, std::move(arg));
  if (literal) return std::make_shared<LiteralNode>(offset, n->eval(env));
  return n;
}

bool is_keyword(std::string_view name, const MathParser::Impl& env) {
  static constexpr std::string_view words[] = {"bool", "integer", "real", "string", "const", "ifndef"};
  for (auto w : words)
    if (name == w) return true;
  return env.find_function("", name) != nullptr;
}

/// A variable name: `x` or `default::x` (only the default namespace holds variables).
std::string variable_name(const std::vector<std::string>& parts, std::size_t offset) {
  if (parts.size() == 1) return parts[0];
  if (parts.size() == 2 && parts[0] == "default") return parts[1];
  throw LocatedError{offset, fmt::format("namespace '{}' has no variables (did you mean a call "
                                         "'{}::{}(...)'?)",
                                         parts[0], parts[0], parts[1])};
}

/// Yields the offset of the next significant character (X3's _where is not reliable here).
struct position_parser : x3::parser<position_parser> {
  using attribute_type = std::size_t;
  template <class Ctx, class RCtx, class Attr>
  bool parse(It& first, const It& last, const Ctx& ctx, RCtx&, Attr& attr) const {
    x3::skip_over(first, last, ctx);
    x3::traits::move_to(static_cast<std::size_t>(first - state(ctx).text.data()), attr);
    return true;
  }
};
const auto pos = position_parser{};

// ---- lexemes as custom parsers ---------------------------------------------------------------

/// Numbers as MBDyn reads them: digits with at most one '.', then an optional exponent
/// introduced by e, E, d, D, f, F, g or G (Fortran style). No '.' and no exponent: integer.
struct number_parser : x3::parser<number_parser> {
  using attribute_type = NodePtr;
  template <class Ctx, class RCtx, class Attr>
  bool parse(It& first, const It& last, const Ctx& ctx, RCtx&, Attr& attr) const {
    x3::skip_over(first, last, ctx);
    It p = first;
    auto digits = [&] {
      It s = p;
      while (p != last && std::isdigit(static_cast<unsigned char>(*p))) ++p;
      return p != s;
    };
    const bool int_part = digits();
    bool is_real = false;
    if (p != last && *p == '.') {
      ++p;
      is_real = true;
      const bool frac = digits();
      if (!int_part && !frac) return false;
    } else if (!int_part) {
      return false;
    }
    std::string spelled(first, p);
    if (p != last && std::string_view("eEdDfFgG").find(*p) != std::string_view::npos) {
      It q = p + 1;
      if (q != last && (*q == '+' || *q == '-')) ++q;
      if (q != last && std::isdigit(static_cast<unsigned char>(*q))) {
        spelled += 'e';
        spelled.append(p + 1, q);
        p = q;
        while (p != last && std::isdigit(static_cast<unsigned char>(*p))) spelled += *p++;
        is_real = true;
      }
    }
    CompileState& st = state(ctx);
    const std::size_t offset = static_cast<std::size_t>(first - st.text.data());
    if (p != last && (is_ident_char(*p) || *p == '.'))
      throw LocatedError{offset, fmt::format("expected a number, found '{}'",
                                             std::string(first, p + 1))};
    Value v;
    if (is_real) {
      errno = 0;
      const double d = std::strtod(spelled.c_str(), nullptr);
      if (errno == ERANGE && std::isinf(d))
        throw LocatedError{offset, fmt::format("real number {} is out of range (REAL_MAX is "
                                               "1.79769e+308)",
                                               std::string(first, p))};
      v = Value(d);
    } else {
      std::int64_t i = 0;
      auto [end, ec] = std::from_chars(spelled.data(), spelled.data() + spelled.size(), i);
      if (ec != std::errc() || i > kIntMax)
        throw LocatedError{offset, fmt::format("integer {} is out of range (INT_MAX is {}); "
                                               "write {}. or use an exponent for a real",
                                               spelled, kIntMax, spelled)};
      v = Value(i);
    }
    x3::traits::move_to(NodePtr(std::make_shared<LiteralNode>(offset, std::move(v))), attr);
    first = p;
    return true;
  }
};

/// "text": backslash escapes the next character (\" \\), drops a following newline, and
/// \<hexpair> gives that character (manual §2.1.2).
struct string_parser : x3::parser<string_parser> {
  using attribute_type = NodePtr;
  template <class Ctx, class RCtx, class Attr>
  bool parse(It& first, const It& last, const Ctx& ctx, RCtx&, Attr& attr) const {
    x3::skip_over(first, last, ctx);
    if (first == last || *first != '"') return false;
    CompileState& st = state(ctx);
    const std::size_t offset = static_cast<std::size_t>(first - st.text.data());
    std::string s;
    It p = first + 1;
    auto hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
    for (;;) {
      if (p == last)
        throw LocatedError{offset, "unterminated string: expected a closing '\"', found end of expression"};
      const char c = *p++;
      if (c == '"') break;
      if (c != '\\') {
        s += c;
        continue;
      }
      if (p == last) continue;  // reported as unterminated on the next turn
      if (*p == '\n') {
        ++p;
      } else if (*p == '\r' && p + 1 != last && p[1] == '\n') {
        p += 2;
      } else if (last - p >= 2 && hex(p[0]) && hex(p[1])) {
        s += static_cast<char>(std::stoi(std::string(p, p + 2), nullptr, 16));
        p += 2;
      } else {
        s += *p++;
      }
    }
    x3::traits::move_to(NodePtr(std::make_shared<LiteralNode>(offset, Value(std::move(s)))), attr);
    first = p;
    return true;
  }
};

/// [<plugin>, <var>, <args>...]: words split at commas outside quotes, trimmed, unquoted.
struct plugin_parser : x3::parser<plugin_parser> {
  using attribute_type = NodePtr;
  template <class Ctx, class RCtx, class Attr>
  bool parse(It& first, const It& last, const Ctx& ctx, RCtx&, Attr& attr) const {
    x3::skip_over(first, last, ctx);
    if (first == last || *first != '[') return false;
    CompileState& st = state(ctx);
    const std::size_t offset = static_cast<std::size_t>(first - st.text.data());
    std::vector<std::string> words(1);
    bool quoted = false;
    It p = first + 1;
    for (;;) {
      if (p == last) throw LocatedError{offset, "expected ']' closing the plugin variable, found end of expression"};
      const char c = *p++;
      if (c == '\\' && quoted && p != last) {
        words.back() += *p++;
      } else if (c == '"') {
        quoted = !quoted;
      } else if (!quoted && c == ',') {
        words.emplace_back();
      } else if (!quoted && c == ']') {
        break;
      } else {
        words.back() += c;
      }
    }
    for (auto& w : words) {
      const auto b = w.find_first_not_of(" \t\r\n");
      const auto e = w.find_last_not_of(" \t\r\n");
      w = b == std::string::npos ? std::string() : w.substr(b, e - b + 1);
    }
    if (words.size() < 2 || words[0].empty())
      throw LocatedError{offset, "expected '[<plugin>, <variable>, ...]', found no plugin name"};
    const std::string& var = words[1];
    if (var.empty() || !is_ident_start(var[0]) ||
        !std::all_of(var.begin(), var.end(), is_ident_char))
      throw LocatedError{offset, fmt::format("expected a variable name after the plugin name, "
                                             "found '{}'",
                                             var)};
    auto loc = st.where.advanced(st.text, offset);
    x3::traits::move_to(NodePtr(std::make_shared<PluginNode>(offset, loc, std::move(words))), attr);
    first = p;
    return true;
  }
};

// ---- grammar -----------------------------------------------------------------------------------

// Blanks and word characters as explicit sets, not x3::space / x3::alnum: those call the standard
// encoding's classifiers, which assert (and index their tables) with the negative value of a byte
// above 127 read through a signed char (a UTF-8 byte in a comment or a name; issue #30).
const auto blank_char = x3::char_(" \t\n\v\f\r");
const auto skipper = blank_char | x3::lexeme['#' >> *(x3::char_ - x3::eol)] |
                     x3::lexeme["/*" >> *(x3::char_ - "*/") >> "*/"];

struct mult_ops_ : x3::symbols<BinOp> {
  mult_ops_() { add("*", BinOp::Mul)("/", BinOp::Div)("%", BinOp::Mod); }
} const mult_ops;
struct add_ops_ : x3::symbols<BinOp> {
  add_ops_() { add("+", BinOp::Add)("-", BinOp::Sub); }
} const add_ops;
struct rel_ops_ : x3::symbols<BinOp> {
  rel_ops_() {
    add(">", BinOp::Gt)(">=", BinOp::Ge)("==", BinOp::Eq)("<=", BinOp::Le)("<", BinOp::Lt)(
        "!=", BinOp::Ne);
  }
} const rel_ops;
struct logic_ops_ : x3::symbols<BinOp> {
  logic_ops_() { add("&&", BinOp::And)("||", BinOp::Or)("~|", BinOp::Xor); }
} const logic_ops;
struct type_names_ : x3::symbols<Type> {
  type_names_() {
    add("bool", Type::Bool)("integer", Type::Integer)("real", Type::Real)("string", Type::String);
  }
} const type_names;

const auto word_end = !x3::char_("a-zA-Z0-9_");

x3::rule<class identifier_id, std::string> const identifier = "a name";
x3::rule<class qname_id, std::vector<std::string>> const qname = "a name";
x3::rule<class type_kw_id, Type> const type_kw = "a type (bool, integer, real or string)";
x3::rule<class ifndef_kw_id> const ifndef_kw = "'ifndef'";
x3::rule<class const_kw_id> const const_kw = "'const'";
x3::rule<class primary_id, NodePtr> const primary = "an operand";
x3::rule<class unary_id, NodePtr> const unary = "an operand";
x3::rule<class power_id, NodePtr> const power = "an operand";
x3::rule<class mult_id, NodePtr> const mult = "an operand";
x3::rule<class additive_id, NodePtr> const additive = "an operand";
x3::rule<class relational_id, NodePtr> const relational = "an operand";
x3::rule<class logical_id, NodePtr> const logical = "an expression";
x3::rule<class call_id, NodePtr> const call = "a function call";
x3::rule<class arglist_id, std::vector<NodePtr>> const arglist = "function arguments";
x3::rule<class close_args_id> const close_args = "',' or ')'";
x3::rule<class close_paren_id> const close_paren = "')'";
x3::rule<class decl_id, NodePtr> const declaration = "a declaration";
x3::rule<class type_expected_id> const type_expected = "a type (bool, integer, real or string) and a name";
x3::rule<class decl_init_id, NodePtr> const decl_init = "an initial value";
x3::rule<class assignment_id, NodePtr> const assignment = "an assignment";
x3::rule<class stmt_id, NodePtr> const stmt = "an expression";
x3::rule<class stmt_seq_id, std::vector<NodePtr>> const stmt_seq = "an expression";
x3::rule<class stmtlist_id, NodePtr> const stmtlist = "an expression";

const auto set_val = [](auto& ctx) { x3::_val(ctx) = x3::_attr(ctx); };
const auto push_back = [](auto& ctx) { x3::_val(ctx).push_back(x3::_attr(ctx)); };

const auto identifier_def = x3::lexeme[x3::char_("a-zA-Z_") >> *x3::char_("a-zA-Z0-9_")];
const auto qname_def = identifier[push_back] >> *((x3::lit("::") > identifier)[push_back]);
const auto type_kw_def = x3::lexeme[type_names >> word_end];
const auto ifndef_kw_def = x3::lexeme[x3::lit("ifndef") >> word_end];
const auto const_kw_def = x3::lexeme[x3::lit("const") >> word_end];
const auto close_args_def = x3::lit(')');
const auto close_paren_def = x3::lit(')');

// primary: number | string | plugin | '(' statements ')' | call | variable
const auto make_variable = [](auto& ctx) {
  using boost::fusion::at_c;
  const std::size_t offset = at_c<0>(x3::_attr(ctx));
  x3::_val(ctx) = std::make_shared<VariableNode>(offset, variable_name(at_c<1>(x3::_attr(ctx)), offset));
};
const auto make_call = [](auto& ctx) {
  using boost::fusion::at_c;
  CompileState& st = state(ctx);
  const std::size_t offset = at_c<0>(x3::_attr(ctx));
  const std::vector<std::string>& parts = at_c<1>(x3::_attr(ctx));
  std::vector<NodePtr> args = at_c<2>(x3::_attr(ctx));
  // `model::node::electric(...)`: namespace "model", function "node::electric".
  std::string ns = parts.size() > 1 ? parts[0] : std::string();
  std::string name = parts.back();
  if (parts.size() > 2) {
    name = parts[1];
    for (std::size_t i = 2; i < parts.size(); ++i) name += "::" + parts[i];
  }
  if (ns == "default") ns.clear();
  const FunctionEntry* f = st.env.find_function(ns, name);
  if (!f && ns.empty())
    throw LocatedError{offset, fmt::format("unknown function '{}'", name)};
  if (f && f->min_args >= 0 &&
      (static_cast<int>(args.size()) < f->min_args || static_cast<int>(args.size()) > f->max_args))
    throw LocatedError{offset, fmt::format("expected {} argument{} for {}(), found {}",
                                           f->min_args, f->min_args == 1 ? "" : "s", name,
                                           args.size())};
  auto node = std::make_shared<CallNode>(offset, ns, name, std::move(args));
  // <type>_eval(...) (table 2.5): evaluated now, while the deck is read, not at run time.
  const bool eval_now = ns.empty() && name.size() > 5 && name.ends_with("_eval");
  if (eval_now)
    x3::_val(ctx) = std::make_shared<LiteralNode>(offset, node->eval(st.env));
  else
    x3::_val(ctx) = node;
};
const auto call_def = (pos >> qname >> '(' >> arglist > close_args)[make_call];
const auto arglist_def = -(stmtlist % ',');
const auto number = number_parser{};
const auto string_literal = string_parser{};
const auto plugin = plugin_parser{};
const auto primary_def = number[set_val] | string_literal[set_val] | plugin[set_val] |
                         (x3::lit('(') > stmtlist > close_paren)[set_val] | call[set_val] |
                         (pos >> qname)[make_variable];

// unary operators bind to the operand right after them (-2^2 == 4, manual §2.2)
template <UnOp Op>
const auto make_unary_action = [](auto& ctx) {
  using boost::fusion::at_c;
  x3::_val(ctx) = make_unary(at_c<0>(x3::_attr(ctx)), Op, at_c<1>(x3::_attr(ctx)), state(ctx).env);
};
const auto unary_def = (pos >> x3::lit('-') > unary)[make_unary_action<UnOp::Neg>] |
                       (pos >> x3::lit('+') > unary)[make_unary_action<UnOp::Plus>] |
                       (pos >> (x3::lit('!') >> !x3::lit('=')) > unary)[make_unary_action<UnOp::Not>] |
                       primary[set_val];

const auto make_power = [](auto& ctx) {
  using boost::fusion::at_c;
  x3::_val(ctx) = make_binary(at_c<0>(x3::_attr(ctx)), BinOp::Pow, x3::_val(ctx),
                              at_c<1>(x3::_attr(ctx)), state(ctx).env);
};
const auto make_chain = [](auto& ctx) {
  using boost::fusion::at_c;
  x3::_val(ctx) = make_binary(at_c<0>(x3::_attr(ctx)), at_c<1>(x3::_attr(ctx)), x3::_val(ctx),
                              at_c<2>(x3::_attr(ctx)), state(ctx).env);
};
const auto power_def = unary[set_val] >> -((pos >> x3::lit('^') > power)[make_power]);  // right assoc.
const auto mult_def = power[set_val] >> *((pos >> mult_ops > power)[make_chain]);
const auto additive_def = mult[set_val] >> *((pos >> add_ops > mult)[make_chain]);
const auto relational_def = additive[set_val] >> *((pos >> rel_ops > additive)[make_chain]);
const auto logical_def = relational[set_val] >> *((pos >> logic_ops > relational)[make_chain]);

// declarations: [ifndef] [const] <type> <name> [= <expr>]
const auto make_declaration = [](auto& ctx) {
  using boost::fusion::at_c;
  auto& a = x3::_attr(ctx);
  Declaration d;
  d.ifndef = at_c<0>(a);
  d.is_const = at_c<1>(a);
  d.type = at_c<2>(a);
  d.name_offset = at_c<3>(a);
  d.name = variable_name(at_c<4>(a), d.name_offset);
  if (at_c<5>(a)) d.init = *at_c<5>(a);
  if (is_keyword(d.name, state(ctx).env))
    throw LocatedError{d.name_offset, fmt::format("expected a variable name, found keyword '{}'", d.name)};
  if (d.is_const && !d.init)
    throw LocatedError{d.name_offset,
                       fmt::format("expected '= <value>' initializing const variable '{}', found "
                                   "none (const variables must be initialized)",
                                   d.name)};
  const std::size_t offset = d.name_offset;
  x3::_val(ctx) = std::make_shared<DeclareNode>(offset, std::move(d));
};
const auto decl_init_def = (x3::lit('=') >> !x3::lit('=')) > logical;
const auto type_expected_def = !x3::eps;
const auto declaration_def =
    // `real(x)` is the cast function, not a declaration
    ((x3::matches[ifndef_kw] >> x3::matches[const_kw] >> type_kw >> !x3::lit('(')) > pos > qname >
     -decl_init)[make_declaration] |
    ((ifndef_kw | const_kw) > type_expected);

// assignment: <name> = <expr> (the variable must exist and not be const)
const auto make_assignment = [](auto& ctx) {
  using boost::fusion::at_c;
  const std::size_t offset = at_c<0>(x3::_attr(ctx));
  x3::_val(ctx) = std::make_shared<AssignNode>(
      offset, variable_name(at_c<1>(x3::_attr(ctx)), offset), at_c<2>(x3::_attr(ctx)));
};
const auto assignment_def = (pos >> qname >> (x3::lit('=') >> !x3::lit('=')) > logical)[make_assignment];

const auto stmt_def = declaration[set_val] | assignment[set_val] | logical[set_val];
const auto stmt_seq_def = stmt[push_back] >> *((x3::lit(';') > stmt)[push_back]);
const auto make_list = [](auto& ctx) {
  using boost::fusion::at_c;
  std::vector<NodePtr>& stmts = at_c<1>(x3::_attr(ctx));
  if (stmts.size() == 1)
    x3::_val(ctx) = stmts.front();
  else
    x3::_val(ctx) = std::make_shared<StatementListNode>(at_c<0>(x3::_attr(ctx)), std::move(stmts));
};
const auto stmtlist_def = (pos >> stmt_seq)[make_list];

BOOST_SPIRIT_DEFINE(identifier, qname, type_kw, ifndef_kw, const_kw, primary, unary, power, mult,
                    additive, relational, logical, call, arglist, close_args, close_paren,
                    declaration, type_expected, decl_init, assignment, stmt, stmt_seq, stmtlist)

}  // namespace

namespace {
/// The parser and the tree are recursive: bound the nesting so that no input can exhaust the
/// stack (parentheses and unary/power chains nest; long operator chains make deep trees).
void check_nesting(std::string_view text) {
  constexpr int kMaxDepth = 256;
  constexpr int kMaxOperators = 4000;
  int depth = 0, operators = 0, run = 0, powers = 0;  // ^ is right-recursive
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    const bool op = std::string_view("+-*/%^<>=!&|~;,").find(c) != std::string_view::npos;
    run = (c == '(' || c == '[' || c == '^' || c == '-' || c == '+' || c == '!') ? run + 1 : 0;
    if (c == '"') in_string = true;
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (op) ++operators;
    if (c == '^') ++powers;
    if (depth > kMaxDepth || run > kMaxDepth || powers > kMaxDepth)
      throw LocatedError{i, fmt::format("expression nested too deeply (more than {} levels)", kMaxDepth)};
    if (operators > kMaxOperators)
      throw LocatedError{i, fmt::format("expression too long (more than {} operators)", kMaxOperators)};
  }
}
}  // namespace

NodePtr parse_statements(std::string_view text, MathParser::Impl& env,
                         const parser::SourceLocation& where) {
  check_nesting(text);
  CompileState st{text, env, where};
  It first = text.data();
  const It last = text.data() + text.size();
  // An empty field reads as zero (manual §2.2) unless the caller supplies a default.
  if (st.offset_of(first) == text.size()) return std::make_shared<LiteralNode>(0, Value(0.0));
  NodePtr root;
  bool ok = false;
  try {
    ok = x3::phrase_parse(first, last, x3::with<state_tag>(std::ref(st))[stmtlist], skipper, root);
  } catch (const x3::expectation_failure<It>& e) {
    const std::size_t off = st.offset_of(e.where());
    throw LocatedError{off, fmt::format("expected {}, found {}", e.which(), found_at(text, off))};
  }
  if (!ok) {
    const std::size_t off = st.offset_of(text.data());
    throw LocatedError{off, fmt::format("expected an expression, found {}", found_at(text, off))};
  }
  const std::size_t off = st.offset_of(first);
  if (off != text.size())
    throw LocatedError{off, fmt::format("expected an operator or the end of the expression, "
                                        "found {}",
                                        found_at(text, off))};
  return root;
}

}  // namespace mbl::math::detail

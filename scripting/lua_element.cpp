// `user defined: <label>, lua, <n>, <node_1>, ..., <node_n>, function, "<f>" [, jacobian, "<j>"]
//     [, after convergence, "<a>"] [, output, yes|no];` (input manual §8.19.2 user-defined
// elements; docs/lua.md): forces and couples on n structural nodes computed by a Lua function
// f(t, nodes, state) that returns one {F = {...}, M = {...}} per node, global frame, applied at
// the node. `state` is the element's own table, kept between calls; a(t, nodes, state) is called
// at every converged point (MBDyn's AfterConvergence) to commit the step's memory into it. A step
// that is abandoned (rejected by the error control, or a failed Newton iteration after some
// stages converged) gives the table back as it was when the step began (a deep copy).
//
// Jacobian (assembly.hpp: J = -(dF/dy' + dCoef dF/dy) for a load F added to r). With
// K = -dL/dq (q = positions and rotation vectors) and C = -dL/dq' (q' = velocities and angular
// velocities), L the stacked loads {F_1, M_1, ..., F_n, M_n}, the Newton update moves
// dx = dCoef dx', dtheta = dCoef dg' and d omega = (I - dCoef [w_ref x]) dg' (technical manual
// §5.1), so the position columns are C + dCoef K and the rotation columns
// C (I - dCoef [w_ref x]) + dCoef K. K and C come from the user's jacobian(t, nodes) as
// {K = <6n x 6n>, C = <6n x 6n>} or from central differences over the node states.
#include <fmt/format.h>

#include <cmath>
#include <lua.hpp>

#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/nc_catalog.hpp"
#include "mbdyn-like/core/rotations.hpp"
#include "parser/errors.hpp"
#include "scripting/lua_engine.hpp"

namespace mbl::scripting {
namespace {

using Loads = Eigen::VectorXd;  ///< {F_1, M_1, ..., F_n, M_n}

/// Restores the Lua stack however the reading of a result ends (errors are C++ exceptions here:
/// no Lua frame is active).
class StackGuard {
 public:
  explicit StackGuard(lua_State* L) : L_(L), top_(lua_gettop(L)) {}
  ~StackGuard() { lua_settop(L_, top_); }

 private:
  lua_State* L_;
  int top_;
};

class LuaUserElement final : public Element {
 public:
  struct Params {
    std::shared_ptr<LuaEngine> engine;
    std::vector<StructNode*> nodes;
    std::string function, jacobian, after_convergence;
    int function_ref = -1, jacobian_ref = -1, after_convergence_ref = -1;
  };
  LuaUserElement(unsigned label, Params p)
      : Element(label),
        p_(std::move(p)),
        loads_(Loads::Zero(size())),
        residual_loads_(Loads::Zero(size())),
        what_function_(fmt::format("user defined {} function \"{}\"", label, p_.function)),
        what_jacobian_(fmt::format("user defined {} jacobian \"{}\"", label, p_.jacobian)),
        what_after_convergence_(fmt::format("user defined {} after convergence \"{}\"", label, p_.after_convergence)),
        state_ref_(p_.engine->new_table()),
        saved_state_ref_(p_.engine->new_table()) {}

  std::string_view kind() const override { return "user defined"; }
  std::string_view type_name() const override { return "lua"; }

  void residual(ResidualSink& r, const StepContext& c) override {
    evaluate(c.t, states(), residual_loads_);
    for (std::size_t i = 0; i < p_.nodes.size(); ++i)
      r.add(p_.nodes[i]->eq_index(), residual_loads_.segment<6>(6 * i));
  }

  void jacobian(JacobianSink& J, const StepContext& c) override {
    const std::vector<NodeKinematics>& x = states();
    Eigen::MatrixXd& K = K_;
    Eigen::MatrixXd& C = C_;
    if (p_.jacobian_ref >= 0) user_jacobian(c.t, x, K, C);
    else difference_jacobian(c.t, x, K, C);
    const int n = static_cast<int>(p_.nodes.size());
    for (int j = 0; j < n; ++j) {
      const Mat3 rotation_rate = Mat3::Identity() - c.dCoef * skew(p_.nodes[j]->w_ref());
      for (int i = 0; i < n; ++i) {
        const int row = p_.nodes[i]->eq_index(), col = p_.nodes[j]->dof_index();
        const Mat3 pos = C.block<3, 3>(6 * i, 6 * j) + c.dCoef * K.block<3, 3>(6 * i, 6 * j);
        const Mat3 mom_pos = C.block<3, 3>(6 * i + 3, 6 * j) + c.dCoef * K.block<3, 3>(6 * i + 3, 6 * j);
        const Mat3 rot = C.block<3, 3>(6 * i, 6 * j + 3) * rotation_rate + c.dCoef * K.block<3, 3>(6 * i, 6 * j + 3);
        const Mat3 mom_rot =
            C.block<3, 3>(6 * i + 3, 6 * j + 3) * rotation_rate + c.dCoef * K.block<3, 3>(6 * i + 3, 6 * j + 3);
        J.add(row, col, pos);
        J.add(row + 3, col, mom_pos);
        J.add(row, col + 3, rot);
        J.add(row + 3, col + 3, mom_rot);
      }
    }
  }

  void after_convergence(const StepContext& c) override {
    evaluate(c.t, states(), loads_);
    if (p_.after_convergence_ref < 0) return;
    lua_State* L = p_.engine->state();
    StackGuard guard(L);
    p_.engine->call_with_nodes(p_.after_convergence_ref, c.t, states(), nodes_ref_, what("after convergence"),
                               where, state_ref_, 0);
  }

  /// The state table as the step began, and back to it (a deep copy, its identity kept).
  void save_step_state() override {
    p_.engine->copy_table(state_ref_, saved_state_ref_, "saving the state table of " + what_function_, where);
  }
  void restore_step_state() override {
    p_.engine->copy_table(saved_state_ref_, state_ref_, "restoring the state table of " + what_function_, where);
  }

  void output_setup(OutputSink& out) override {
    if (!out.netcdf() || !output_enabled()) return;
    const std::string base = "elem.force." + std::to_string(label());
    out.declare_entity(base, "lua");
    for (std::size_t i = 0; i < p_.nodes.size(); ++i) {
      const std::string k = p_.nodes.size() == 1 ? "" : std::to_string(i + 1);
      const std::string at = fmt::format(" at node {}", p_.nodes[i]->label());
      nc_F_.push_back(out.declare(base + ".F" + k, NcShape::Vec3, "Force", "global force components (x, y, z)" + at));
      nc_M_.push_back(out.declare(base + ".M" + k, NcShape::Vec3, "Moment", "global moment components (x, y, z)" + at));
    }
  }

  /// .frc: the label, then per node its label, F and M (global frame).
  void output(OutputSink& out) const override {
    if (!output_enabled()) return;
    for (std::size_t i = 0; i < nc_F_.size(); ++i) {
      out.put(nc_F_[i], Vec3(loads_.segment<3>(6 * i)));
      out.put(nc_M_[i], Vec3(loads_.segment<3>(6 * i + 3)));
    }
    if (std::ostream* os = out.text(OutputFile::Frc)) {
      out.write_label(*os, label());
      for (std::size_t i = 0; i < p_.nodes.size(); ++i) {
        *os << ' ' << p_.nodes[i]->label();
        out.write(*os, Vec3(loads_.segment<3>(6 * i)));
        out.write(*os, Vec3(loads_.segment<3>(6 * i + 3)));
      }
      *os << '\n';
    }
  }

  std::string log_line() const override {
    std::string s = fmt::format("user defined: {} lua {}", label(), p_.nodes.size());
    for (const StructNode* n : p_.nodes) s += fmt::format(" {}", n->label());
    return s;
  }

 private:
  int size() const { return 6 * static_cast<int>(p_.nodes.size()); }

  /// The nodes' states (kept: no allocation per call).
  const std::vector<NodeKinematics>& states() const {
    states_.clear();
    for (const StructNode* n : p_.nodes) states_.push_back({n->x_W(), n->v_W(), n->w_W(), n->R_WN()});
    return states_;
  }

  const std::string& what(std::string_view part) const {
    return part == "function" ? what_function_ : part == "jacobian" ? what_jacobian_ : what_after_convergence_;
  }

  [[noreturn]] void wrong(std::string_view part, const std::string& msg) const {
    throw EvaluationError(fmt::format("{}: Lua {} {}", where.str(), what(part), msg));
  }

  /// Field `key` of the table on the stack top: 3 finite numbers (absent: zero).
  Vec3 vec3_field(lua_State* L, const char* key, std::size_t node) const {
    Vec3 v = Vec3::Zero();
    lua_getfield(L, -1, key);
    if (lua_isnil(L, -1)) return lua_pop(L, 1), v;
    if (!lua_istable(L, -1) || lua_rawlen(L, -1) != 3)
      wrong("function", fmt::format("returned for node {} a {} that is not a table of 3 numbers", node + 1, key));
    for (int k = 0; k < 3; ++k) {
      if (lua_rawgeti(L, -1, k + 1) != LUA_TNUMBER)
        wrong("function", fmt::format("returned for node {} {}[{}] = {} instead of a number", node + 1, key, k + 1,
                                      luaL_typename(L, -1)));
      v[k] = lua_tonumber(L, -1);
      if (!std::isfinite(v[k]))
        wrong("function", fmt::format("returned for node {} {}[{}] = {}", node + 1, key, k + 1,
                                      std::isnan(v[k]) ? "NaN" : fmt::format("{}", v[k])));
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return v;
  }

  void evaluate(double t, const std::vector<NodeKinematics>& x, Loads& out) const {
    lua_State* L = p_.engine->state();
    StackGuard guard(L);
    p_.engine->call_with_nodes(p_.function_ref, t, x, nodes_ref_, what("function"), where, state_ref_);
    const std::size_t n = p_.nodes.size();
    if (!lua_istable(L, -1) || lua_rawlen(L, -1) != n)
      wrong("function", fmt::format("returned {} instead of a table of {} node loads {{F = {{...}}, M = {{...}}}}",
                                    lua_istable(L, -1) ? fmt::format("a table of {}", lua_rawlen(L, -1))
                                                       : std::string(luaL_typename(L, -1)),
                                    n));
    out.resize(size());
    for (std::size_t i = 0; i < n; ++i) {
      lua_rawgeti(L, -1, static_cast<lua_Integer>(i + 1));
      if (!lua_istable(L, -1)) wrong("function", fmt::format("returned {} for node {}", luaL_typename(L, -1), i + 1));
      out.segment<3>(6 * i) = vec3_field(L, "F", i);
      out.segment<3>(6 * i + 3) = vec3_field(L, "M", i);
      lua_pop(L, 1);
    }
  }

  /// K = -dL/dq, C = -dL/dq' by central differences (steps scaled by the states).
  void difference_jacobian(double t, const std::vector<NodeKinematics>& x, Eigen::MatrixXd& K,
                           Eigen::MatrixXd& C) const {
    K.setZero(size(), size());
    C.setZero(size(), size());
    for (std::size_t j = 0; j < x.size(); ++j)
      for (int k = 0; k < 6; ++k) {
        const Vec3 e = Vec3::Unit(k % 3);
        const int col = 6 * static_cast<int>(j) + k;
        auto column = [&](auto perturb, double h) {
          std::vector<NodeKinematics> xp = x, xm = x;
          perturb(xp[j], h * e);
          perturb(xm[j], -h * e);
          Loads plus, minus;
          evaluate(t, xp, plus);
          evaluate(t, xm, minus);
          return Loads(-(plus - minus) / (2.0 * h));
        };
        if (k < 3) {
          K.col(col) = column([](NodeKinematics& s, const Vec3& d) { s.x_W += d; }, 1e-6 * (1.0 + x[j].x_W.norm()));
          C.col(col) = column([](NodeKinematics& s, const Vec3& d) { s.v_W += d; }, 1e-6 * (1.0 + x[j].v_W.norm()));
        } else {
          K.col(col) = column([](NodeKinematics& s, const Vec3& d) { s.R_WN = rot::rotvec_to_R(d) * s.R_WN; }, 1e-6);
          C.col(col) = column([](NodeKinematics& s, const Vec3& d) { s.w_W += d; }, 1e-6 * (1.0 + x[j].w_W.norm()));
        }
      }
  }

  /// The user's {K = ..., C = ...} (6n x 6n tables of rows; either may be absent: zero).
  void user_jacobian(double t, const std::vector<NodeKinematics>& x, Eigen::MatrixXd& K, Eigen::MatrixXd& C) const {
    lua_State* L = p_.engine->state();
    StackGuard guard(L);
    p_.engine->call_with_nodes(p_.jacobian_ref, t, x, nodes_ref_, what("jacobian"), where, state_ref_);
    if (!lua_istable(L, -1)) wrong("jacobian", fmt::format("returned {} instead of {{K = ..., C = ...}}", luaL_typename(L, -1)));
    const int n = size();
    for (auto [key, M] : {std::pair<const char*, Eigen::MatrixXd*>{"K", &K}, {"C", &C}}) {
      M->setZero(n, n);
      lua_getfield(L, -1, key);
      if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        continue;
      }
      if (!lua_istable(L, -1) || lua_rawlen(L, -1) != static_cast<lua_Unsigned>(n))
        wrong("jacobian", fmt::format("returned a {} that is not a table of {} rows", key, n));
      // A row's numbers are pushed together and popped at once (one settop per row).
      if (!lua_checkstack(L, n + 2)) wrong("jacobian", "needs more Lua stack than there is");
      for (int r = 0; r < n; ++r) {
        lua_rawgeti(L, -1, r + 1);
        if (!lua_istable(L, -1) || lua_rawlen(L, -1) != static_cast<lua_Unsigned>(n))
          wrong("jacobian", fmt::format("returned {} row {} that is not a table of {} numbers", key, r + 1, n));
        const int row = lua_gettop(L);
        for (int c = 1; c <= n; ++c) lua_rawgeti(L, row, c);
        for (int c = 0; c < n; ++c) {
          int number = 0;
          const double v = lua_tonumberx(L, row + 1 + c, &number);
          if (!number || lua_type(L, row + 1 + c) != LUA_TNUMBER || !std::isfinite(v))
            wrong("jacobian", fmt::format("returned {}[{}][{}] that is not a finite number", key, r + 1, c + 1));
          (*M)(r, c) = v;
        }
        lua_settop(L, row - 1);
      }
      lua_pop(L, 1);
    }
  }

  Params p_;
  Loads loads_;  ///< at the last converged point (output)
  mutable int nodes_ref_ = LuaEngine::kNoRef;  ///< the nodes' tables handed to the functions
  Eigen::MatrixXd K_, C_;  ///< -dL/dq, -dL/dq' (kept: no allocation per Jacobian)
  Loads residual_loads_;   ///< kept: no allocation per residual
  mutable std::vector<NodeKinematics> states_;
  std::string what_function_, what_jacobian_, what_after_convergence_;  ///< names in error messages
  int state_ref_, saved_state_ref_;  ///< the element's state table, and its copy as the step began
  std::vector<OutputSink::VarId> nc_F_, nc_M_;
};

void read_user_defined(parser::CardReader& in, BuildContext& ctx, unsigned label) {
  if (!in.peek_keyword_is("lua"))
    return in.not_implemented(fmt::format("user defined element \"{}\"", in.peek_text()));
  in.keyword();
  LuaUserElement::Params p;
  p.engine = engine_for(in.context(), ctx.model().drive_env());
  const auto n = parser::checked_integer(in, [](auto v) { return v >= 1; }, "a number of nodes >= 1");
  for (std::int64_t i = 0; i < n; ++i) p.nodes.push_back(&ctx.struct_node(in));
  if (!in.keyword_is("function")) in.fail_expected("function, \"<name>\"");
  parser::SourceLocation at = in.location();
  p.function = in.string();
  p.function_ref = p.engine->function_ref(p.function, at);
  if (in.keyword_is("jacobian")) {
    at = in.location();
    p.jacobian = in.string();
    p.jacobian_ref = p.engine->function_ref(p.jacobian, at);
  }
  if (in.keyword_is("after convergence")) {
    at = in.location();
    p.after_convergence = in.string();
    p.after_convergence_ref = p.engine->function_ref(p.after_convergence, at);
  }
  auto e = std::make_unique<LuaUserElement>(label, std::move(p));
  e->where = in.card_location();
  ctx.read_output_flag(in, *e, "userdefinedelements");
  ctx.model().add_element(std::move(e));
}

const bool registered = CardRegistry::family("element").add("user defined", read_user_defined);

}  // namespace
}  // namespace mbl::scripting

// `user defined: <label>, lua, ...` elements (docs/lua.md): Jacobians (finite-difference and the
// user's) against finite differences of the residual, agreement with the built-in deformable
// displacement joint, output, and wrong results.
#include <gtest/gtest.h>

#include "mbdyn-like/model/model_builder.hpp"
#include "mbdyn-like/output/results.hpp"
#include "scripting_test_util.hpp"
#include "support/jacobian_check.hpp"

using namespace mbl;
using namespace mbl::test;
namespace fs = std::filesystem;

namespace {

/// Two dynamic nodes, moving and turning, joined by a Lua element whose loads depend on the
/// positions, velocities, orientations and angular velocities of both (`jacobian` optional).
std::string two_node_deck(const std::string& jacobian) {
  return R"D(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-2; end: initial value;
begin: control data; structural nodes: 2; user defined elements: 1; end: control data;
module load: "lua", chunk, "
  function loads(t, n)
    local a, b = n[1], n[2]
    local F, M = {}, {}
    for i = 1, 3 do
      local d = b.X[i] - a.X[i]
      F[i] = 3*d + 0.5*d^3 + 0.7*(b.V[i] - a.V[i]) + 2*(b.R[i][1] - a.R[i][1]) + 0.1*t
      M[i] = 1.5*(b.R[i][2] - a.R[i][2]) + 0.4*(b.W[i] - a.W[i]) + 0.2*a.W[i]*b.V[i]
    end
    return {{F = F, M = M}, {F = {-F[1], -F[2], -F[3]}, M = {-M[1], -M[2], -M[3]}}}
  end
  -- a wrong Jacobian on purpose where the test needs one (zero)
  function zero(t, n) return {} end
  -- the exact Jacobian of a linear spring between positions only (for loads_linear)
  function loads_linear(t, n)
    local F = {}
    for i = 1, 3 do F[i] = 3*(n[2].X[i] - n[1].X[i]) + 0.7*(n[2].V[i] - n[1].V[i]) end
    return {{F = F}, {F = {-F[1], -F[2], -F[3]}}}
  end
  local function blocks(s)
    local m = {}
    for r = 1, 12 do m[r] = {} for c = 1, 12 do m[r][c] = 0 end end
    for i = 1, 3 do m[i][i], m[i][6+i], m[6+i][i], m[6+i][6+i] = s, -s, -s, s end
    return m
  end
  function linear_jacobian(t, n) return {K = blocks(3), C = blocks(0.7)} end
";
begin: nodes;
  structural: 1, dynamic, 0.1, 0.2, 0.3, euler123, 0.2, -0.1, 0.3, 0.5, -0.2, 0.1, 0.3, 0.4, -0.6;
  structural: 2, dynamic, 1.0, -0.4, 0.6, euler123, -0.3, 0.2, 0.1, -0.1, 0.3, 0.2, -0.5, 0.2, 0.7;
end: nodes;
begin: elements;
  user defined: 1, lua, 2, 1, 2, )D" + jacobian + R"D(;
end: elements;
)D";
}

test_support::JacobianCheck check(const std::string& element_arguments, double dCoef) {
  BuildResult b = read_deck_text("lua_element.mbd", two_node_deck(element_arguments));
  Model& m = *b.model;
  m.number_dofs();
  Vector y, yp;
  m.initial_state(y, yp);
  m.set_time(0.3, 1e-2, 30);
  m.update(0.3, y, yp);
  m.after_predict(0.3, y, yp);  // the reference state of a Newton iteration (g = 0, w_ref)
  return test_support::check_jacobian(m, 0.3, dCoef, y, yp);
}

}  // namespace

// Without a `jacobian` function: central differences over positions, rotations and velocities.
TEST(LuaElement, FiniteDifferenceJacobianMatchesTheResidual) {
  for (double dCoef : {1.0, 2.5e-3}) {
    const test_support::JacobianCheck c = check(R"(function, "loads")", dCoef);
    EXPECT_LT(c.max_error, 1e-6) << "dCoef " << dCoef << ": " << c.str();
  }
}

TEST(LuaElement, UserJacobianIsAssembledWithTheIntegratorsCoefficient) {
  for (double dCoef : {1.0, 2.5e-3}) {
    const test_support::JacobianCheck c = check(R"(function, "loads_linear", jacobian, "linear_jacobian")", dCoef);
    EXPECT_LT(c.max_error, 1e-7) << "dCoef " << dCoef << ": " << c.str();
  }
  // The check sees a wrong Jacobian (so the two tests above prove something).
  BuildResult b = read_deck_text("lua_element.mbd", two_node_deck(R"(function, "loads", jacobian, "zero")"));
  Model& m = *b.model;
  m.number_dofs();
  Vector y, yp;
  m.initial_state(y, yp);
  m.update(0.0, y, yp);
  EXPECT_GT(test_support::check_jacobian(m, 0.0, 1e-2, y, yp).max_error, 1e-2);
}

// examples/lua/spring_damper: the Lua spring-damper moves the mass as the deformable
// displacement joint with a linear viscoelastic isotropic law does.
TEST(LuaElement, SpringDamperAgreesWithTheDeformableDisplacementJoint) {
  const fs::path src = fs::path(MBL_SOURCE_DIR) / "examples" / "lua" / "spring_damper";
  const fs::path out = fresh_temp_dir("lua_spring_damper");
  ASSERT_EQ(run_deck(src / "spring_damper.mbd", out / "lua", out / "lua.messages"), 0) << read_file(out / "lua.messages");
  ASSERT_EQ(run_deck(src / "spring_damper_reference.mbd", out / "ref", out / "ref.messages"), 0);
  const output::Results a = output::read_results((out / "lua").string()), b = output::read_results((out / "ref").string());
  ASSERT_EQ(a.records(), b.records());
  ASSERT_EQ(a.records(), 2002u);  // MBDyn's loop: steps while the accumulated time is below 2 s
  const double model_size = 0.6;  // |x2(0) - x1| ~ 0.6 m
  double worst = 0.0, travel = 0.0;
  for (const char* var : {"node.struct.2.X", "node.struct.2.XP"}) {
    const output::Series &sa = a.vars.at(var), &sb = b.vars.at(var);
    for (std::size_t t = 0; t < a.records(); ++t)
      for (int k = 0; k < 3; ++k) {
        worst = std::max(worst, std::abs(sa.at(t, k) - sb.at(t, k)));
        travel = std::max(travel, std::abs(sa.at(t, k) - sa.at(0, k)));
      }
  }
  EXPECT_LT(worst, 1e-7 * model_size);
  EXPECT_GT(travel, 0.1);  // the mass really moved
  // .frc: the element's loads, opposite on its two nodes.
  const std::string frc = read_file(out / "lua.frc");
  EXPECT_NE(frc.find(" 1 "), std::string::npos);
  EXPECT_NE(frc.find(" 2 "), std::string::npos);
}

TEST(LuaElement, WrongShapesAndNaNAreErrors) {
  const fs::path dir = fresh_temp_dir("lua_element_errors");
  const std::string base = R"(begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 0.1; time step: 1.e-2; end: initial value;
begin: control data; structural nodes: 1; rigid bodies: 1; end: control data;
begin: nodes; structural: 1, dynamic, null, eye, null, null; end: nodes;
module load: "lua", chunk, "function f(t, n) return RESULT end";
begin: elements;
  body: 1, 1, 1., null, eye;
  user defined: 2, lua, 1, 1, function, "f";
end: elements;
)";
  const std::pair<const char*, const char*> cases[] = {
      {"nil", "returned nil instead of a table of 1 node loads"},
      {"{}", "returned a table of 0 instead of a table of 1 node loads"},
      {"{{F = {1, 2}}}", "returned for node 1 a F that is not a table of 3 numbers"},
      {"{{F = {1, 2, 'x'}}}", "returned for node 1 F[3] = string instead of a number"},
      {"{{M = {0, 0/0, 0}}}", "returned for node 1 M[2] = NaN"},
  };
  int i = 0;
  for (const auto& [result, message] : cases) {
    std::string deck = base;
    deck.replace(deck.find("RESULT"), 6, result);
    const DeckRun r = run_deck_text(dir, "case" + std::to_string(i++), deck);
    EXPECT_EQ(r.exit_code, 3) << result;
    EXPECT_NE(r.messages.find(":8:3: Lua user defined 2 function \"f\" " + std::string(message)), std::string::npos)
        << result << "\n" << r.messages;
  }
}

// NetCDF: elem.force.<label>.F1, M1, F2, M2 (global, per node), as in the .frc.
TEST(LuaElement, NetCDFOutputPerNode) {
  const fs::path src = fs::path(MBL_SOURCE_DIR) / "examples" / "lua" / "spring_damper";
  const fs::path dir = fresh_temp_dir("lua_element_nc");
  std::string deck = read_file(src / "spring_damper.mbd");
  deck.replace(deck.find("\toutput precision"), 0, "\toutput results: netcdf;\n");
  deck.replace(deck.find("\"spring_damper.lua\""), 19, "\"" + (src / "spring_damper.lua").string() + "\"");
  const DeckRun r = run_deck_text(dir, "nc", deck);
  ASSERT_EQ(r.exit_code, 0) << r.messages;
  const output::Results res = output::read_results(r.prefix.string() + ".nc");
  const output::Series &F1 = res.vars.at("elem.force.3.F1"), &F2 = res.vars.at("elem.force.3.F2");
  const output::Series &M1 = res.vars.at("elem.force.3.M1"), &X2 = res.vars.at("node.struct.2.X");
  const std::size_t last = res.records() - 1;
  for (int k = 0; k < 3; ++k) {
    EXPECT_DOUBLE_EQ(F1.at(last, k), -F2.at(last, k));
    EXPECT_EQ(M1.at(last, k), 0.0);
  }
  // At t = 0: F1 = k (x2 - x1) + c (v2 - v1), node 1 at rest at the origin (k = 100, c = 2).
  EXPECT_NEAR(F1.at(0, 2), 100.0 * X2.at(0, 2) + 2.0 * 0.4, 1e-9);
}

// The examples of examples/lua (docs/lua.md), each checked against a number it must reproduce,
// and the `mbdyn` table with its hooks.
#include <gtest/gtest.h>

#include <cmath>

#include "mbdyn-like/output/results.hpp"
#include "scripting_test_util.hpp"

using namespace mbl;
using namespace mbl::test;
namespace fs = std::filesystem;

namespace {

output::Results run_lua_example(const std::string& name) {
  const fs::path deck = fs::path(MBL_SOURCE_DIR) / "examples" / "lua" / name / (name + ".mbd");
  const fs::path out = fresh_temp_dir("lua_examples") / name;
  const fs::path log = out.string() + ".messages";
  EXPECT_EQ(run_deck(deck, out, log), 0) << read_file(log);
  return output::read_results(out.string());
}

}  // namespace

// crank.lua's rate integrates to OMEGA T_UP / 2 + OMEGA (2 - T_UP) = 1.5 rad at t = 2 s.
TEST(LuaExamples, CrankTurnsByTheIntegralOfTheLuaRate) {
  const output::Results r = run_lua_example("crank");
  const output::Series& E = r.vars.at("node.struct.2.E");
  // The record at t = 2 s (MBDyn's loop may take one more step, the accumulated time being below 2).
  std::size_t last = r.records() - 1;
  while (last > 0 && r.time[last] > 2.0 + 1e-9) --last;
  EXPECT_NEAR(r.time[last], 2.0, 1e-9);
  EXPECT_NEAR(E.at(last, 2), 1.5 * 180.0 / M_PI, 1e-4);  // degrees, about z
  // Half way through the start: the integral of OMEGA (1 - cos(pi t))/2 to t = 0.5.
  const std::size_t half = 500;
  EXPECT_NEAR(r.time[half], 0.5, 1e-9);
  EXPECT_NEAR(E.at(half, 2), (0.25 - 0.5 / M_PI) * 180.0 / M_PI, 1e-3);
}

// The after_step PD controller brings the inverted pendulum from 0.2 rad to upright.
TEST(LuaExamples, PendulumIsHeldUprightByTheLuaController) {
  const output::Results r = run_lua_example("upright_pendulum");
  const output::Series& X = r.vars.at("node.struct.1.X");
  auto angle = [&](std::size_t t) { return std::atan2(X.at(t, 0), X.at(t, 2)); };
  EXPECT_NEAR(angle(0), 0.2, 1e-6);  // 7 digits in the .mov
  const std::size_t last = r.records() - 1;
  EXPECT_LT(std::abs(angle(last)), 1e-6);
  double lowest = 1.0;
  for (std::size_t t = 0; t < r.records(); ++t) lowest = std::min(lowest, X.at(t, 2));
  EXPECT_GT(lowest, 0.97);  // never fell
}

// Dropped from 1 m: contact at sqrt(2 g 0.9) m/s, a penetration of about v sqrt(m/K) and a
// rebound that loses a little energy to the contact damping.
TEST(LuaExamples, BallBouncesOnTheLuaPenaltyContact) {
  const output::Results r = run_lua_example("bouncing_ball");
  const output::Series &X = r.vars.at("node.struct.1.X"), &V = r.vars.at("node.struct.1.XP");
  double lowest = 1.0, fastest_down = 0.0, highest_after = 0.0;
  std::size_t bottom = 0;
  for (std::size_t t = 0; t < r.records(); ++t) {
    if (X.at(t, 2) < lowest) lowest = X.at(t, 2), bottom = t;
    fastest_down = std::min(fastest_down, V.at(t, 2));
  }
  for (std::size_t t = bottom; t < r.records(); ++t) highest_after = std::max(highest_after, X.at(t, 2));
  const double v_impact = std::sqrt(2 * 9.81 * 0.9);
  EXPECT_NEAR(-fastest_down, v_impact, 0.01 * v_impact);
  const double depth = 0.1 - lowest;
  EXPECT_NEAR(depth, v_impact * std::sqrt(1.0 / 1.0e5), 0.15 * depth);
  EXPECT_GT(highest_after, 0.75);
  EXPECT_LT(highest_after, 0.99);
}

// The mbdyn table: hooks in order, deck variables both ways, node states and private data.
TEST(LuaExamples, MbdynTableAndHooks) {
  const fs::path dir = fresh_temp_dir("lua_hooks");
  const std::string deck = force_deck(R"(string, "seen + 100*outs + 1000*mismatch")", R"D(
set: real seen = 0.;
set: integer outs = 0;
set: real mismatch = 0.;
module load: "lua", chunk, "
  local before = 0
  mbdyn.on('before_step', function(t)
    before = before + 1
    if t ~= mbdyn.time or mbdyn.step ~= before or mbdyn.time_step ~= 0.01 then mbdyn.set('mismatch', 1) end
  end)
  mbdyn.on('after_step', function(t)
    local n = mbdyn.node(1)
    if n.X[1] ~= mbdyn.private_data('structural', 1, 'X[1]') or n.R[1][1] ~= 1 then mbdyn.set('mismatch', 1) end
    mbdyn.set('seen', mbdyn.step)
  end)
  mbdyn.on('output', function(t) mbdyn.set('outs', mbdyn.get('outs') + 1) end)
  assert(K == 100 and mbdyn.get('K') == 100 and mbdyn.get('nothere') == nil)
";)D");
  const DeckRun r = run_deck_text(dir, "hooks", deck);
  ASSERT_EQ(r.exit_code, 0) << r.messages;
  const output::Results res = output::read_results(r.prefix.string());
  const output::Series& F = res.vars.at("elem.force.1.F");
  // Record k is written after the after_step hooks of step k (seen = k) and before its output
  // hooks (outs = k - 1); every before_step saw the clock it expected (mismatch = 0).
  for (std::size_t k = 1; k < res.records(); ++k) EXPECT_DOUBLE_EQ(F.at(k, 0), 101.0 * k - 100.0) << k;
}

TEST(LuaExamples, HookErrorStopsTheRunAtItsModuleCard) {
  const fs::path dir = fresh_temp_dir("lua_hook_error");
  const DeckRun r = run_deck_text(
      dir, "hook", force_deck("1.", R"D(module load: "lua", chunk, "mbdyn.on('after_step', function(t) if t > 0.2 then mbdyn.node(7) end end)";)D"));
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.messages.find("hook.mbd:20:28: Lua error in after_step hook: chunk:1: mbdyn.node(7): no structural node 7"),
            std::string::npos)
      << r.messages;
}

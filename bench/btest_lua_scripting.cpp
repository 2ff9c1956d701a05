// Cost of Lua scripting (docs/lua.md "Speed"): one `lua` drive call against the equivalent
// `string` drive, a whole deck with either drive, and a chain of N masses joined by Lua
// spring-dampers (with their Lua Jacobian) against the same chain built from deformable
// displacement joints with a linear viscoelastic isotropic law. Compare the pairs' times.
#include <benchmark/benchmark.h>

#include <fmt/format.h>

#include <sstream>
#include <string>

#include "fixture.hpp"

namespace {

const char* kHeader = R"(begin: data; problem: initial value; end: data;
set: real K = 100.;
begin: initial value; initial time: 0.; final time: {}; time step: 1.e-3; tolerance: 1.e-9;
	max iterations: 20; method: ms, 0.6; end: initial value;
)";

std::string one_drive_deck(const std::string& drive, double final_time) {
  return fmt::format(fmt::runtime(kHeader), final_time) + R"(begin: control data; structural nodes: 1; rigid bodies: 1; forces: 1; end: control data;
drive caller: 1, )" + drive + R"(;
begin: nodes; structural: 1, dynamic, null, eye, null, null; end: nodes;
begin: elements;
	body: 1, 1, 1., null, eye;
	force: 1, absolute, 1, position, null, 1., 0., 0., reference, 1;
end: elements;
)";
}

const std::string kLuaDrive = R"D(lua, "0.1*math.sin(2*math.pi*Time)")D";
const std::string kStringDrive = R"D(string, "0.1*sin(2*pi*Time)")D";

void drive_call(benchmark::State& state, const std::string& drive) {
  mbl::BuildResult b = mbl::read_deck_text("drive.mbd", one_drive_deck(drive, 1.0));
  const mbl::DriveCallerPtr d = b.read_context->find_named<mbl::DriveCaller>("drive caller", "1");
  double t = 0.0, sum = 0.0;
  for (auto _ : state) {
    b.model->set_time(t, 1e-3, 1);
    sum += d->value(t);
    t += 1e-6;
  }
  benchmark::DoNotOptimize(sum);
}
void BM_LuaDriveCall(benchmark::State& state) { drive_call(state, kLuaDrive); }
void BM_StringDriveCall(benchmark::State& state) { drive_call(state, kStringDrive); }
BENCHMARK(BM_LuaDriveCall);
BENCHMARK(BM_StringDriveCall);

void run_deck_text(benchmark::State& state, const std::string& text) {
  long steps = 0;
  for (auto _ : state) {
    mbl::BuildResult built = mbl::read_deck_text("bench.mbd", text);
    mbl::bench::NullOutput out;
    std::ostringstream log;
    steps = mbl::run_simulation(*built.model, built.settings, out, log).steps;
  }
  state.counters["steps"] = static_cast<double>(steps);
}
void BM_DeckLuaDrive(benchmark::State& state) { run_deck_text(state, one_drive_deck(kLuaDrive, 2.0)); }
void BM_DeckStringDrive(benchmark::State& state) { run_deck_text(state, one_drive_deck(kStringDrive, 2.0)); }
BENCHMARK(BM_DeckLuaDrive)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DeckStringDrive)->Unit(benchmark::kMillisecond);

// examples/lua/spring_damper/spring_damper.lua, as a chunk.
const char* kSpringDamper = R"(module load: "lua", chunk, "
k, c = 100.0, 2.0
function spring_damper(t, nodes)
  local a, b = nodes[1], nodes[2]
  local F = {}
  for i = 1, 3 do F[i] = k * (b.X[i] - a.X[i]) + c * (b.V[i] - a.V[i]) end
  return {{F = F}, {F = {-F[1], -F[2], -F[3]}}}
end
local function blocks(s)
  local m = {}
  for r = 1, 12 do m[r] = {} for col = 1, 12 do m[r][col] = 0 end end
  for i = 1, 3 do m[i][i], m[i][6 + i], m[6 + i][i], m[6 + i][6 + i] = s, -s, -s, s end
  return m
end
local jacobian = {K = blocks(k), C = blocks(c)}
function spring_damper_jacobian(t, nodes) return jacobian end
";
)";

/// N masses in a line along x, node 0 clamped, each joined to the previous one.
std::string chain_deck(int n, bool lua) {
  std::string s = fmt::format(fmt::runtime(kHeader), 0.05);
  s += fmt::format("begin: control data; structural nodes: {}; rigid bodies: {}; joints: {}; {} gravity; end: control data;\n",
                   n + 1, n, lua ? 1 : n + 1, lua ? fmt::format("user defined elements: {};", n) : "");
  if (lua) s += kSpringDamper;
  s += "begin: nodes;\n\tstructural: 0, static, null, eye, null, null;\n";
  for (int i = 1; i <= n; ++i) s += fmt::format("\tstructural: {}, dynamic, {}, 0., 0., eye, null, null;\n", i, 0.1 * i);
  s += "end: nodes;\nbegin: elements;\n\tjoint: 0, clamp, 0, node, node;\n";
  for (int i = 1; i <= n; ++i) {
    s += fmt::format("\tbody: {}, {}, 1., null, diag, 1.e-2, 1.e-2, 1.e-2;\n", i, i);
    if (lua)
      s += fmt::format("\tuser defined: {}, lua, 2, {}, {}, function, \"spring_damper\", jacobian, \"spring_damper_jacobian\";\n",
                       i, i - 1, i);
    else
      s += fmt::format("\tjoint: {}, deformable displacement joint, {}, position, null, orientation, eye, "
                       "{}, position, null, orientation, eye, linear viscoelastic isotropic, 100., 2.;\n",
                       i, i - 1, i);
  }
  s += "\tgravity: uniform, 0., 0., -1., const, 9.81;\nend: elements;\n";
  return s;
}
void BM_ChainLuaSpringDamper(benchmark::State& state) { run_deck_text(state, chain_deck(int(state.range(0)), true)); }
void BM_ChainDeformableJoint(benchmark::State& state) { run_deck_text(state, chain_deck(int(state.range(0)), false)); }
BENCHMARK(BM_ChainLuaSpringDamper)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ChainDeformableJoint)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();

// Cost per step of the decks of ../shared/scaling (chain: N rigid links with spherical hinges,
// 200 steps; beam: N three-node beams, 100 steps; ms 0.6, KLU), reported next to the real MBDyn's
// cost per step from scaling/README.md: the counter `ratio_to_mbdyn` < 1 means faster than MBDyn.
#include <benchmark/benchmark.h>

#include <fmt/format.h>

#include <chrono>
#include <map>
#include <sstream>
#include <string>

#include "fixture.hpp"

namespace {

// MBDyn's wall seconds per step (scaling/README.md).
const std::map<std::pair<std::string, int>, double> kMBDynSecondsPerStep = {
    {{"chain", 10}, 0.00015}, {{"chain", 100}, 0.00095}, {{"chain", 1000}, 0.0126},
    {{"beam", 10}, 0.0009},   {{"beam", 100}, 0.0077},   {{"beam", 1000}, 0.144}};

void run_scaling_deck(benchmark::State& state, const std::string& kind) {
  const int n = static_cast<int>(state.range(0));
  const std::string deck = mbl::bench::shared_path(fmt::format("scaling/{}_{}.mbd", kind, n));
  long steps = 0, iterations = 0;
  double wall = 0.0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    mbl::BuildResult built = mbl::read_deck(deck);
    mbl::bench::NullOutput out;
    std::ostringstream log;
    const mbl::RunReport r = mbl::run_simulation(*built.model, built.settings, out, log);
    steps = r.steps;
    iterations = out.iterations;
    wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  const double mbdyn = kMBDynSecondsPerStep.at({kind, n});
  const double s_per_step = steps ? wall / static_cast<double>(state.iterations()) / steps : 0.0;
  state.counters["steps"] = static_cast<double>(steps);
  state.counters["it_per_step"] = steps ? static_cast<double>(iterations) / steps : 0.0;
  state.counters["s_per_step"] = s_per_step;
  state.counters["mbdyn_s_per_step"] = mbdyn;
  state.counters["ratio_to_mbdyn"] = s_per_step / mbdyn;
}

void BM_Chain(benchmark::State& state) { run_scaling_deck(state, "chain"); }
void BM_Beam(benchmark::State& state) { run_scaling_deck(state, "beam"); }

BENCHMARK(BM_Chain)->Arg(10)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_Beam)->Arg(10)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond)->MinTime(1.0);

}  // namespace

BENCHMARK_MAIN();

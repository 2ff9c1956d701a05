// Cost per step of the beam decks of ../shared/scaling (N three-node beams, ms 0.6, 100 steps),
// next to the real MBDyn's cost per step from scaling/README.md.
#include <benchmark/benchmark.h>

#include <fmt/format.h>

#include <chrono>

#include <map>
#include <sstream>

#include "fixture.hpp"

namespace {

const std::map<int, double> kMBDynSecondsPerStep = {{10, 0.0009}, {100, 0.0077}, {1000, 0.144}};

void BM_BeamRun(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const std::string deck = mbl::bench::shared_path(fmt::format("scaling/beam_{}.mbd", n));
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
  state.counters["steps"] = static_cast<double>(steps);
  state.counters["it_per_step"] = steps ? static_cast<double>(iterations) / steps : 0.0;
  const double s_per_step = steps ? wall / static_cast<double>(state.iterations()) / steps : 0.0;
  state.counters["s_per_step"] = s_per_step;
  state.counters["mbdyn_s_per_step"] = kMBDynSecondsPerStep.at(n);
  state.counters["ratio_to_mbdyn"] = s_per_step / kMBDynSecondsPerStep.at(n);
}

BENCHMARK(BM_BeamRun)->Arg(10)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond)->MinTime(1.0);

}  // namespace

BENCHMARK_MAIN();

// Google Benchmark: a full run of seed 000's Andrew's squeezer deck (../shared/paper) with
// `method: ms, .6` (the paper's Δt/n = 1e-4, 500 steps): reading the deck, the derivatives
// phase and every step, without writing outputs. MBDyn's wall time for the same deck (paper
// README table) is 0.34 s; docs/integrators.md has the per-method ratios. Not a test: no timing
// is asserted.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <sstream>
#include <string>

#include "mbdyn-like/model/model_builder.hpp"
#include "mbdyn-like/phases/simulation.hpp"

namespace fs = std::filesystem;

namespace {

class NoOutput : public mbl::RunOutput {
 public:
  void setup(mbl::Model&) override {}
  void derivatives(mbl::Model&, double, int, double, bool) override {}
  void step(mbl::Model&, long, double, double, const mbl::integrators::StepResult&) override {}
  void close() override {}
};

void run_method(benchmark::State& state, const std::string& method) {
  const fs::path dir = fs::path(MBL_SHARED_DIR) / "paper" / "andrewssqueezer" / "deck";
  const std::string deck = (dir / ("andrewssqueezer_" + method + ".mbd")).string();
  long iterations = 0, steps = 0;
  for (auto _ : state) {
    mbl::BuildResult built = mbl::read_deck(deck);
    NoOutput out;
    std::ostringstream log;
    const mbl::RunReport r = mbl::run_simulation(*built.model, built.settings, out, log);
    if (r.status != mbl::RunStatus::Completed) {
      state.SkipWithError(r.message.c_str());
      break;
    }
    iterations = r.total_iterations;
    steps = r.steps;
    benchmark::DoNotOptimize(r.final_time);
  }
  state.counters["steps"] = static_cast<double>(steps);
  state.counters["it_per_step"] = steps ? static_cast<double>(iterations) / steps : 0.0;
}

void BM_AndrewsSqueezer_ms06(benchmark::State& state) { run_method(state, "ms_0.6"); }
BENCHMARK(BM_AndrewsSqueezer_ms06)->Unit(benchmark::kMillisecond);

void BM_AndrewsSqueezer_dirk54(benchmark::State& state) { run_method(state, "dirk54_0.0"); }
BENCHMARK(BM_AndrewsSqueezer_dirk54)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();

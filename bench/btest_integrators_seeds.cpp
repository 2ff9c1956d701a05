// Google Benchmark: seed 003 §3.2 (figs. 4-5) on our double pendulum deck (examples/): CPU time
// and Newton iterations per step of the half-implicit method against the fully implicit
// `implicit euler`, `ms` and `Bathe`, at h = 1e-4, 1e-3, 1e-2 over 1 s, with the error of the
// second mass at t = 1 (counter "err", against generalized-alpha at h = 1e-4) so that equal
// accuracy can be read off. Not a test: no timing is asserted.
#include <benchmark/benchmark.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "fixture.hpp"

namespace {

std::string double_pendulum(const std::string& method, const std::string& h) {
  std::ifstream f(std::string(MBL_SOURCE_DIR) + "/examples/double_pendulum/double_pendulum.mbd");
  std::stringstream s;
  s << f.rdbuf();
  std::string d = s.str();
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"method: ms, 0.9;", "method: " + method + ";"},
                                 {"time step: 1.e-4;", "time step: " + h + ";"},
                                 {"final time: 2.;", "final time: 1.;"}})
    d.replace(d.find(from), from.size(), to);
  return d;
}

/// Keeps the position of node 2 (x, z) at t = 1 (MBDyn's loop may run one step past the final
/// time when the accumulated time falls short of it).
class AtOneSecond final : public mbl::bench::NullOutput {
 public:
  void step(mbl::Model& model, long n, double t, double dt, const mbl::integrators::StepResult& r) override {
    NullOutput::step(model, n, t, dt, r);
    if (std::abs(t - 1.0) > 1e-9) return;
    const mbl::StructNode* node = model.find_struct_node(2);
    x = {node->x_W().x(), node->x_W().z()};
  }
  std::pair<double, double> x{NAN, NAN};
};

/// Runs the deck; returns the position of node 2 at t = 1 (x, z).
std::pair<double, double> run(const std::string& text, long& iterations, long& steps, std::string& error) {
  mbl::BuildResult built = mbl::read_deck_text("double_pendulum", text);
  AtOneSecond out;
  std::ostringstream log;
  const mbl::RunReport r = mbl::run_simulation(*built.model, built.settings, out, log);
  if (r.status != mbl::RunStatus::Completed) error = r.message;
  iterations = r.total_iterations;
  steps = r.steps;
  return out.x;
}

const std::pair<double, double>& reference() {
  static const std::pair<double, double> ref = [] {
    long it = 0, steps = 0;
    std::string error;
    return run(double_pendulum("generalized alpha, 0.8", "1.e-4"), it, steps, error);
  }();
  return ref;
}

void run_method(benchmark::State& state, const std::string& method, const std::string& h) {
  const std::string text = double_pendulum(method, h);
  long iterations = 0, steps = 0;
  std::pair<double, double> end;
  for (auto _ : state) {
    std::string error;
    end = run(text, iterations, steps, error);
    if (!error.empty()) {
      state.SkipWithError(error.c_str());
      return;
    }
  }
  state.counters["it_per_step"] = steps ? static_cast<double>(iterations) / steps : 0.0;
  state.counters["err"] = std::hypot(end.first - reference().first, end.second - reference().second);
}

#define MBL_SEED_BENCH(name, method)                                                              \
  void BM_DoublePendulum_##name(benchmark::State& s) {                                             \
    const char* h[] = {"1.e-4", "1.e-3", "1.e-2"};                                                 \
    run_method(s, method, h[s.range(0)]);                                                          \
  }                                                                                                \
  BENCHMARK(BM_DoublePendulum_##name)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)

MBL_SEED_BENCH(half_implicit, "half implicit");
MBL_SEED_BENCH(implicit_euler, "implicit euler");
MBL_SEED_BENCH(ms, "ms, 0.6");
MBL_SEED_BENCH(Bathe, "Bathe, 0.");
MBL_SEED_BENCH(generalized_alpha, "generalized alpha, 0.8");

}  // namespace

BENCHMARK_MAIN();

// Seed 003 §3.2 (figs. 4-7) on its slider-crank and four-link mechanisms (examples/seeds/): CPU
// time and Newton iterations per step of the half-implicit method against the fully implicit
// `implicit euler`, `ms` and `Bathe` over 1 s, for a range of steps, with the RMS velocity error
// against the closed-form motion (counter "err"); after the runs, the CPU time and iterations of
// each method at equal accuracy (log-log interpolation in the error between the steps that
// bracket it), printed and written to build/seeds_benchmark_mechanisms.txt (docs/seeds.md).
// Timings, not a test.
#include <benchmark/benchmark.h>

#include <cmath>
#include <ctime>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "fixture.hpp"
#include "tests/support/seed_mechanisms.hpp"

namespace {

using mbl::test::seed003::Vec;

struct Mechanism {
  const char* name;
  const char* deck;
  unsigned node;  ///< whose velocity is compared
  Vec (*reference)(double);
  std::vector<double> targets;  ///< RMS errors at which the methods are compared
};
const Mechanism kMechanisms[] = {
    {"slider-crank", "slider_crank.mbd", 3, mbl::test::seed003::slider_velocity, {3e-3, 1e-3}},
    {"four-link", "four_link.mbd", 2, mbl::test::seed003::bar2_velocity, {3e-2, 1e-2}},
};
const char* kMethods[] = {"half implicit", "implicit euler", "ms, 0.6", "Bathe, 0."};
const char* kSteps[] = {"5.e-2", "2.e-2", "1.e-2", "5.e-3", "2.e-3", "1.e-3", "5.e-4", "2.e-4"};

std::string deck_text(const Mechanism& m, const std::string& method, const std::string& h) {
  std::ifstream f(std::string(MBL_SOURCE_DIR) + "/examples/seeds/" + m.deck);
  std::stringstream s;
  s << f.rdbuf();
  std::string d = s.str();
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"method: half implicit;", "method: " + method + ";"},
                                 {"time step: 1.e-3;", "time step: " + h + ";"}})
    d.replace(d.find(from), from.size(), to);
  return d;
}

/// Accumulates the squared velocity error of one node after every step (no files).
class ErrorOutput final : public mbl::bench::NullOutput {
 public:
  ErrorOutput(unsigned node, Vec (*ref)(double)) : node_(node), ref_(ref) {}
  void step(mbl::Model& model, long n, double t, double dt, const mbl::integrators::StepResult& r) override {
    NullOutput::step(model, n, t, dt, r);
    const mbl::Vec3 v = model.find_struct_node(node_)->v_W();
    const Vec e = ref_(t);
    for (int c = 0; c < 3; ++c) sum_ += std::pow(v[c] - e[c], 2);
    ++count_;
  }
  double rms() const { return count_ ? std::sqrt(sum_ / count_) : NAN; }

 private:
  unsigned node_;
  Vec (*ref_)(double);
  double sum_ = 0.0;
  long count_ = 0;
};

struct Point {
  double h, err, cpu, it_per_step;
};
std::map<std::pair<std::string, std::string>, std::vector<Point>> g_points;  ///< (mechanism, method)

void run_case(benchmark::State& state, const Mechanism& m, const std::string& method, const std::string& h) {
  const std::string text = deck_text(m, method, h);
  double err = 0, cpu = 0, it_per_step = 0;
  for (auto _ : state) {
    mbl::BuildResult built = mbl::read_deck_text(m.deck, text);
    ErrorOutput out(m.node, m.reference);
    std::ostringstream log;
    const std::clock_t c0 = std::clock();
    const mbl::RunReport r = mbl::run_simulation(*built.model, built.settings, out, log);
    cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
    if (r.status != mbl::RunStatus::Completed) {
      state.SkipWithError(r.message.c_str());
      return;
    }
    err = out.rms();
    it_per_step = r.steps ? double(r.total_iterations) / r.steps : 0.0;
  }
  state.counters["err"] = err;
  state.counters["it_per_step"] = it_per_step;
  g_points[{m.name, method}].push_back({std::stod(h), err, cpu, it_per_step});
}

/// CPU time and iterations per step at error `target`, between the two runs that bracket it.
std::string at_accuracy(std::vector<Point> p, double target) {
  std::sort(p.begin(), p.end(), [](const Point& a, const Point& b) { return a.h > b.h; });
  for (std::size_t k = 0; k + 1 < p.size(); ++k) {
    const Point &a = p[k], &b = p[k + 1];
    if (a.err >= target && b.err <= target) {
      const double s = std::log(a.err / target) / std::log(a.err / b.err);
      const double cpu = std::exp(std::log(a.cpu) + s * std::log(b.cpu / a.cpu));
      const double h = std::exp(std::log(a.h) + s * std::log(b.h / a.h));
      return fmt::format("{:<10.3g} {:<10.4f} {:.2f}", h, cpu, a.it_per_step + s * (b.it_per_step - a.it_per_step));
    }
  }
  if (!p.empty() && p.front().err <= target)
    return fmt::format("<= {:<7.3g} <= {:<7.4f} (error {:.2g} at the largest step)", p.front().h, p.front().cpu, p.front().err);
  return "not reached at the smallest step";
}

}  // namespace

int main(int argc, char** argv) {
  for (const Mechanism& m : kMechanisms)
    for (const char* method : kMethods)
      for (const char* h : kSteps)
        benchmark::RegisterBenchmark(fmt::format("{}/{}/h={}", m.name, method, h).c_str(),
                                     [&m, method, h](benchmark::State& s) { run_case(s, m, method, h); })
            ->Unit(benchmark::kMillisecond)
            ->Iterations(1);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  std::ofstream file(std::string(MBL_SOURCE_DIR) + "/build/seeds_benchmark_mechanisms.txt");
  auto say = [&](const std::string& s) {
    std::cout << s;
    file << s;
  };
  say("\nSeed 003 §3.2 at equal accuracy (RMS velocity error over 1 s against the closed-form motion)\n");
  for (const Mechanism& m : kMechanisms) {
    for (double target : m.targets) {
      say(fmt::format("\n{}, error {:g} m/s\nmethod           h          CPU s      Newton it/step\n", m.name, target));
      for (const char* method : kMethods) {
        const auto it = g_points.find({m.name, method});
        if (it != g_points.end()) say(fmt::format("{:<16} {}\n", method, at_accuracy(it->second, target)));
      }
    }
  }
  say("\nAll runs (h, error, CPU s, Newton iterations per step)\n");
  for (const auto& [key, pts] : g_points)
    for (const Point& p : pts)
      say(fmt::format("{:<13} {:<15} {:<7g} {:<11.4e} {:<8.4f} {:.2f}\n", key.first, key.second, p.h, p.err, p.cpu, p.it_per_step));
  benchmark::Shutdown();
}

#pragma once
// Shared set-up of the benchmarks: read a deck of ../shared once, run it without output files.
#include <string>

#include "mbdyn-like/model/model_builder.hpp"
#include "mbdyn-like/phases/run_output.hpp"
#include "mbdyn-like/phases/simulation.hpp"

namespace mbl::bench {

/// A RunOutput that writes nothing (benchmarks time the solver, not the disk).
class NullOutput : public RunOutput {
 public:
  void setup(Model&) override {}
  void derivatives(Model&, double, int, double, bool) override {}
  void step(Model&, long, double, double, const integrators::StepResult& r) override { iterations += r.iterations; }
  void close() override {}
  long iterations = 0;
};

inline std::string shared_path(const std::string& rel) { return std::string(MBL_SHARED_DIR) + "/" + rel; }

}  // namespace mbl::bench

#pragma once
// RunOutput on top of the OutputManager: declares the entity groups, writes the .log model
// description, and asks every node and element for its output at each output step.
#include <memory>

#include "mbdyn-like/output/output_manager.hpp"
#include "mbdyn-like/phases/run_output.hpp"

namespace mbl {

class ModelOutput final : public RunOutput {
 public:
  explicit ModelOutput(output::OutputConfig config);
  void setup(Model& model) override;
  void derivatives(Model& model, double t, int iterations, double residual_error) override;
  void step(Model& model, long step, double t, double dt, const integrators::StepResult& r) override;
  void close() override;
  output::OutputManager& manager() { return manager_; }

 private:
  void write_entities(Model& model);
  void write_log(Model& model);
  output::OutputManager manager_;
};

}  // namespace mbl

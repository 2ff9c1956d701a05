#pragma once
// The swashplate genel (input manual §8.9.2): collective, fore/aft and lateral pitch, values of
// three abstract nodes (optionally clamped to limits), drive the strokes of three actuators 120 deg
// apart, three more abstract nodes, through alpha x_i' + x_i = f_i:
//   f_1 = k_coll (theta_0 - k_cyc theta_fa),
//   f_2,3 = k_coll (theta_0 + k_cyc (theta_fa / 2 -+ sqrt(3)/2 theta_lat)).
// The input nodes' equations receive -theta (a unit spring, as MBDyn).
#include <array>

#include "mbdyn-like/core/element.hpp"
#include "mbdyn-like/core/node.hpp"

namespace mbl::elements {

class SwashPlate final : public Element {
 public:
  struct Input {
    Node* node = nullptr;
    bool limited = false;
    double min = 0.0, max = 0.0;
  };
  struct Params {
    std::array<Input, 3> inputs;  // collective, fore/aft, lateral
    std::array<Node*, 3> actuators{};
    double dynamic_coef = 0.0, cyclic_factor = 1.0, collective_factor = 1.0;
  };
  SwashPlate(unsigned label, Params p) : Element(label), p_(p) {}

  std::string_view kind() const override { return "genel"; }
  std::string_view type_name() const override { return "swashplate"; }
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;

 private:
  /// The three pitch inputs (limited) and, per input, whether it is inside its limits.
  std::array<double, 3> pitch(const StepContext& c, std::array<bool, 3>* free = nullptr) const;
  /// d f_i / d theta_j.
  std::array<std::array<double, 3>, 3> strokes_per_pitch() const;
  Params p_;
};

}  // namespace mbl::elements

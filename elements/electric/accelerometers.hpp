#pragma once
// Accelerometers (input manual §8.7.1). Each measures a velocity of a structural node as an own
// differential unknown v and writes its derivative into the equation of an abstract node:
//   translational: v = d . (x' + w x f),  rotational: v = d . w,  abstract node equation x = v'
// (d = R measure_direction, f = R position, both given in the node frame; MBDyn 2024,
// elec/accelerometer.cc). The legacy form filters the acceleration through
//   e0 / a = kappa tau s / ((1 + tau s) (1 + 2 csi s / omega + s^2 / omega^2))
// with two more states y1, y2 (realised as MBDyn's: y1' = -omega^2/tau y2,
// y2' = z - (2 csi omega + 1/tau) y2, z' = y1 - omega (omega + 2 csi / tau) y2 + kappa omega^2 v').
#include "elements/electric/electric_element.hpp"

namespace mbl::elements::electric {

struct AccelerometerParams {
  const StructNode* node = nullptr;
  const AbstractNode* output = nullptr;  ///< differential abstract node receiving the measure
  Vec3 direction_N = Vec3::UnitX();      ///< unit, node frame
  Vec3 position_N = Vec3::Zero();        ///< translational only, node frame
};

/// The translational or rotational accelerometer (`translational` / `rotational`).
class Accelerometer final : public ElectricElement {
 public:
  enum class Kind { Translational, Rotational };
  Accelerometer(unsigned label, Kind kind, AccelerometerParams p) : ElectricElement(label), kind_(kind), p_(p) {}
  std::string_view type_name() const override { return "accelerometer"; }
  int dof_count() const override { return 1; }
  DofOrder dof_order(int) const override { return DofOrder::Differential; }
  void initial_state(Vector& y, Vector& yp) const override;

 protected:
  void assemble(LocalAssembly& a, const StepContext& c, bool record) override;

 private:
  Kind kind_;
  AccelerometerParams p_;
};

struct FilteredAccelerometerParams {
  AccelerometerParams measure;  ///< position unused
  double omega = 1.0, tau = 1.0, csi = 1.0, kappa = 1.0;
};

/// The legacy accelerometer with its built-in transfer function.
class FilteredAccelerometer final : public ElectricElement {
 public:
  FilteredAccelerometer(unsigned label, FilteredAccelerometerParams p) : ElectricElement(label), p_(p) {}
  std::string_view type_name() const override { return "accelerometer"; }
  int dof_count() const override { return 3; }
  DofOrder dof_order(int) const override { return DofOrder::Differential; }
  void initial_state(Vector& y, Vector& yp) const override;

 protected:
  void assemble(LocalAssembly& a, const StepContext& c, bool record) override;

 private:
  FilteredAccelerometerParams p_;
};

}  // namespace mbl::elements::electric

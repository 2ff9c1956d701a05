#pragma once
// Thermal elements (input manual §8.18) on thermal nodes (§6.6, the temperature T a differential
// scalar unknown, its equation the heat flow balance):
//   capacitance: q = -C T' into the node;
//   resistance:  q21 = (T2 - T1) / R into node 1, -q21 into node 2;
//   source:      q = drive(t) into the node.
// MBDyn writes no text output for them.
#include "elements/misc/local_assembly.hpp"
#include "elements/nodes/abstract_node.hpp"
#include "mbdyn-like/core/drive_caller.hpp"

namespace mbl::elements::thermal {

class ThermalElement : public AssembledElement<LocalAssembly> {
 public:
  using AssembledElement::AssembledElement;
  std::string_view kind() const override { return "thermal"; }

 protected:
  static AD temperature(LocalAssembly& a, const AbstractNode& n) { return a.scalar(n.first_index(), true).x; }
  static AD temperature_rate(LocalAssembly& a, const AbstractNode& n) { return a.scalar(n.first_index(), true).xp; }
};

class ThermalCapacitance final : public ThermalElement {
 public:
  ThermalCapacitance(unsigned label, const AbstractNode& node, double capacitance)
      : ThermalElement(label), node_(node), capacitance_(capacitance) {}
  std::string_view type_name() const override { return "capacitance"; }

 protected:
  void assemble(LocalAssembly& a, const StepContext& c, bool record) override;

 private:
  const AbstractNode& node_;
  double capacitance_;
};

class ThermalResistance final : public ThermalElement {
 public:
  ThermalResistance(unsigned label, const AbstractNode& node1, const AbstractNode& node2, double resistance)
      : ThermalElement(label), node1_(node1), node2_(node2), resistance_(resistance) {}
  std::string_view type_name() const override { return "resistance"; }

 protected:
  void assemble(LocalAssembly& a, const StepContext& c, bool record) override;

 private:
  const AbstractNode& node1_;
  const AbstractNode& node2_;
  double resistance_;
};

class ThermalSource final : public ThermalElement {
 public:
  ThermalSource(unsigned label, const AbstractNode& node, DriveCallerPtr source)
      : ThermalElement(label), node_(node), source_(std::move(source)) {}
  std::string_view type_name() const override { return "source"; }

 protected:
  void assemble(LocalAssembly& a, const StepContext& c, bool record) override;

 private:
  const AbstractNode& node_;
  DriveCallerPtr source_;
};

}  // namespace mbl::elements::thermal

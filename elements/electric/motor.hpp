#pragma once
// DC motor (input manual §8.7.4, MBDyn 2024 elec/motor.cc): an internal couple between two
// structural nodes about e = R1 Rn e3 and a current i (own differential unknown) between two
// electric nodes:
//   M = M0(phi_e) + (G + M1(phi_e)) i,   couple -M e on node 1, +M e on node 2,
//   current -i into electric node 1, +i into node 2,
//   V2 - V1 = L i' + R(|i|) i + G e . (w2 - w1).
// The resistance is a drive caller of |i|; the cogging terms M0, M1 are drive callers of the
// electric angle phi_e = p phi_m (mod 2 pi), phi_m the angle of node 2's axis 1 about e in the
// frame R1 Rn.
#include "elements/electric/electric_element.hpp"
#include "mbdyn-like/core/drive_caller.hpp"

namespace mbl::elements::electric {

struct MotorParams {
  const StructNode* node1 = nullptr;  ///< stator
  const StructNode* node2 = nullptr;  ///< rotor
  Mat3 Rn_N1 = Mat3::Identity();      ///< motor frame in node 1's frame; axis e = column 3
  const AbstractNode* elec1 = nullptr;
  const AbstractNode* elec2 = nullptr;
  double gain = 0.0;         ///< torque / back-EMF constant G
  double inductance = 0.0;   ///< L
  DriveCallerPtr resistance;  ///< R(|i|)
  double i0 = 0.0;
  DriveCallerPtr cogging_M0, cogging_M1;  ///< functions of phi_e; null: none
  int terminal_pairs = 0;
};

class Motor final : public ElectricElement {
 public:
  Motor(unsigned label, MotorParams p)
      : ElectricElement(label), p_(std::move(p)), i_(p_.i0), torque_(p_.gain * p_.i0) {}
  std::string_view type_name() const override { return "motor"; }
  int dof_count() const override { return 1; }
  DofOrder dof_order(int) const override { return DofOrder::Differential; }
  void initial_state(Vector& y, Vector& yp) const override;

  DatumInfo private_data_info(unsigned i) const override;
  unsigned private_data_count() const override { return 12; }
  double private_data(unsigned i) const override;

 protected:
  void assemble(LocalAssembly& a, const StepContext& c, bool record) override;

 private:
  double omega() const;
  double voltage() const;
  double phi_mechanical() const;
  double phi_electric(double phi_m) const;
  double cogging(const DriveCallerPtr& d, double phi_e) const { return d ? d->value(phi_e) : 0.0; }

  MotorParams p_;
  double i_, ip_ = 0.0, torque_;
};

}  // namespace mbl::elements::electric

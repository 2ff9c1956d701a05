#pragma once
// What an aerodynamic element needs from an induced velocity element (input manual §8.1.6): the
// induced velocity at a point, the rotor speed, and where to send its loads (the rotor sums
// them into thrust and moments).
#include "mbdyn-like/core/element.hpp"

namespace mbl::elements::aero {

class InducedVelocity : public Element {
 public:
  using Element::Element;
  std::string_view kind() const override { return "induced velocity"; }
  /// Induced velocity at x_W (added to the section's velocity relative to the air).
  virtual Vec3 velocity(const Vec3& x_W) const = 0;
  /// Rotor angular speed (0 when not a rotor).
  virtual double omega() const { return 0.; }
  /// Load of aerodynamic element `element_label`, applied at point x_W (force and moment about
  /// x_W); the label selects the rotor's resultant sets it enters (resultant_set.hpp).
  virtual void add_load(unsigned element_label, const Vec3& F_W, const Vec3& M_W, const Vec3& x_W) = 0;
  /// True if the elements send the load of each integration point (at the point) rather than
  /// their resultant (MBDyn's InducedVelocity::bSectionalForces, `uniform sectional`).
  virtual bool sectional_loads() const { return false; }
};

}  // namespace mbl::elements::aero

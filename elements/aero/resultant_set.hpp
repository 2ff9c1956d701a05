#pragma once
// Resultant force sets of a rotor (MBDyn's ResForceSet, base/resforces.cc; read by ReadResSets
// after any rotor's induced velocity model, before `output`):
//     set, <n>, { external | node, <node> [, local] }, <count>, <element label> [, ...]   (n times)
// Each set sums the loads the listed aerodynamic elements send to the rotor (any element type:
// MBDyn matches the element label alone, InducedVelocity::AddForce), with their moments about a
// pole (ResForces::AddForces: M += m + (x - pole) x f):
//   - `external`: the origin (ExternResForces; the rotor never moves the pole of these sets);
//   - `node`: the node's position when the load arrives (NodeResForces);
//   - `node, ..., local`: the same, written in the node's frame, R_WN^T F and R_WN^T M, at output
//     (LocalNodeResForces).
// The rotor resets the sums with its own (at each residual assembly) and writes one line per set
// after its own in the .rot file: `<rotor label>:<set number> F M`, sets numbered from 1.
#include <set>

#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements::aero {

struct ResultantSet {
  enum class Pole { Origin, Node, NodeLocal } pole = Pole::Origin;
  const StructNode* node = nullptr;  ///< `node` and `local` poles
  std::set<unsigned> elements;       ///< labels of the elements whose loads it sums
  Vec3 F_W = Vec3::Zero(), M_W = Vec3::Zero();

  void reset() { F_W.setZero(), M_W.setZero(); }
  /// Load of element `element_label` applied at x_W (force, and moment about x_W).
  void add(unsigned element_label, const Vec3& f_W, const Vec3& m_W, const Vec3& x_W) {
    if (!elements.contains(element_label)) return;
    const Vec3 pole_W = pole == Pole::Origin ? Vec3::Zero() : node->x_W();
    F_W += f_W;
    M_W += m_W + (x_W - pole_W).cross(f_W);
  }
  /// Force and moment as written: global, or in the node's frame for `local`.
  Vec3 force_out() const { return pole == Pole::NodeLocal ? Vec3(node->R_WN().transpose() * F_W) : F_W; }
  Vec3 moment_out() const { return pole == Pole::NodeLocal ? Vec3(node->R_WN().transpose() * M_W) : M_W; }
};

}  // namespace mbl::elements::aero

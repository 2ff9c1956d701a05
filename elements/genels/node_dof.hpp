#pragma once
// NodeDof (input manual §2.5): one degree of freedom of a node, `<label>, <type> [, <dof number>]
// [, {algebraic|differential}]`, used by genels and abstract forces to address the unknown (its
// value or derivative) and the equation of that degree of freedom.
#include "mbdyn-like/core/assembly.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/node.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements {

struct NodeDof {
  Node* node = nullptr;
  int k = 0;                  ///< 0-based degree of freedom of the node
  bool differential = false;  ///< the derivative (differential order) rather than the value

  /// Column of the unknown in y (and y').
  int unknown() const {
    if (auto* s = dynamic_cast<const StructNode*>(node)) return s->dof_index() + k;
    return node->first_index() + k;
  }
  /// Row of the equation of this degree of freedom.
  int equation() const {
    if (auto* s = dynamic_cast<const StructNode*>(node)) return s->eq_index() + k;
    return node->first_index() + k;
  }
  /// Whether the unknown has a derivative (a differential unknown of the integrator).
  bool has_derivative() const { return node->dof_order(dof_offset()) == DofOrder::Differential; }
  double value(const StepContext& c) const { return differential ? (*c.yp)[unknown()] : (*c.y)[unknown()]; }
  /// The value of a differential unknown: a holonomic quantity, its Newton update enters scaled by dCoef.
  bool holonomic() const { return !differential && has_derivative(); }
  /// d(value)/d(Newton update), in the J = df/dy' + dCoef df/dy convention: dCoef for the value of
  /// a differential unknown, 1 for the derivative or an algebraic unknown.
  double update_coef(double dCoef) const { return holonomic() ? dCoef : 1.0; }

 private:
  int dof_offset() const {
    if (auto* s = dynamic_cast<const StructNode*>(node)) return s->dof_index() - s->first_index() + k;
    return k;
  }
};

/// Reads a NodeDof (the order defaults to algebraic; it is meaningless where only the equation is
/// used). Errors are InputErrors at the offending argument. Without `with_order`, no order is
/// read (MBDyn's ReadScalarDof with bOrder false): the value, algebraic.
NodeDof read_node_dof(parser::CardReader& in, BuildContext& ctx, bool with_order = true);

/// The order after a node's degree of freedom (MBDyn's GetDofOrder, dataman3.cc): `differential`
/// or `order, 1` (the derivative), `algebraic`, `order, 0` or nothing (the value). `order, 2`, the
/// acceleration of a dynamic structural node, is not implemented (the derivative is returned).
bool read_dof_differential(parser::CardReader& in);

}  // namespace mbl::elements

#pragma once
// Common base of the electric elements (input manual §8.7): elements on abstract and electric
// nodes that measure or drive structural nodes; residual and Jacobian written once over automatic
// differentiation. MBDyn writes no text output for them.
#include "elements/misc/local_assembly.hpp"
#include "elements/nodes/abstract_node.hpp"

namespace mbl::elements::electric {

class ElectricElement : public AssembledElement<LocalAssembly> {
 public:
  using AssembledElement::AssembledElement;
  std::string_view kind() const override { return "electric"; }
};

/// The value and derivative of a differential scalar node (abstract, electric, thermal).
inline LocalAssembly::Scalar scalar_node(LocalAssembly& a, const AbstractNode& n) { return a.scalar(n.first_index(), true); }

}  // namespace mbl::elements::electric
